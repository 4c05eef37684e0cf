//! Games in memory (`koma serve --memory`), lost when the server stops,
//! and bounded in bytes: each game is measured as the allocator holds it
//! (its moves, headers, comments, review), and past the bound the least
//! recently used finished games are forgotten. When forgetting every
//! finished game is not enough, a new game (or a change that makes one
//! larger) is refused with 503 and a sentence.
//!
//! The bound was a number of games: a hundred imports of a 4 MiB record
//! were all kept, and the server grew from 8 MB to 583 MB (issue 53).

use super::{Change, GameId, GameStore, StoreError, StoredGame};
use crate::games::live::AnyGame;
use crate::games::refusal::Refusal;
use axum::http::StatusCode;
use std::collections::{BTreeMap, HashMap};
use std::mem::size_of;
use std::sync::{Mutex, MutexGuard};

/// The games `--memory` keeps unless told otherwise (`--memory=SIZE`).
pub const DEFAULT_MEMORY: &str = "256M";

/// Games in memory, at most `limit` bytes of them.
pub struct MemoryStore {
    inner: Mutex<MemoryInner>,
    limit: usize,
}

struct MemoryInner {
    games: HashMap<GameId, Kept>,
    /// The games by their last use, the least recent first.
    by_use: BTreeMap<u64, GameId>,
    /// A clock for "least recently used": bumped at every access.
    clock: u64,
    /// The sum of the games' sizes.
    bytes: usize,
}

struct Kept {
    game: StoredGame,
    /// The tick of its last use, its key in `by_use`.
    used: u64,
    /// Its size, from [`kept_bytes`].
    bytes: usize,
    /// Whether it is over, once a look for something to forget asked
    /// (replaying it); forgotten at every change.
    finished: Option<bool>,
}

impl MemoryStore {
    /// An empty store holding up to `limit` bytes of games.
    pub fn new(limit: usize) -> MemoryStore {
        MemoryStore {
            inner: Mutex::new(MemoryInner {
                games: HashMap::new(),
                by_use: BTreeMap::new(),
                clock: 0,
                bytes: 0,
            }),
            limit,
        }
    }

    fn lock(&self) -> MutexGuard<'_, MemoryInner> {
        // A panic elsewhere while holding the lock cannot leave a game half
        // changed (changes are applied to a copy), so the data is sound.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The bytes the games take now, as measured.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lock().bytes
    }

    /// The refusal when `needed` more bytes do not fit.
    fn full(&self, needed: usize) -> StoreError {
        let limit = shown_size(self.limit);
        StoreError::Refused(Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            if needed > self.limit {
                format!(
                    "This game needs {} of memory, and this server keeps at most {limit} of \
                     games in memory (koma serve --memory=SIZE).",
                    shown_size(needed)
                )
            } else {
                format!(
                    "This server's memory for games ({limit}) is full of games still in \
                     progress: try again when some have ended, or start the server with a \
                     larger --memory=SIZE."
                )
            },
        ))
    }
}

impl MemoryInner {
    /// Marks game `id` as used now.
    fn touch(&mut self, id: GameId) {
        self.clock += 1;
        let now = self.clock;
        if let Some(kept) = self.games.get_mut(&id) {
            self.by_use.remove(&kept.used);
            kept.used = now;
            self.by_use.insert(now, id);
        }
    }

    /// Forgets finished games, the least recently used first (never
    /// `spare`), until `needed` more bytes fit under `limit`; `false` if
    /// they cannot. Nothing is forgotten unless that makes room.
    fn make_room(&mut self, needed: usize, limit: usize, spare: Option<GameId>) -> bool {
        if self.bytes.saturating_add(needed) <= limit {
            return true;
        }
        let mut chosen = Vec::new();
        let mut freed = 0usize;
        let ids: Vec<GameId> = self.by_use.values().copied().collect();
        for id in ids {
            if Some(id) == spare {
                continue;
            }
            let Some(kept) = self.games.get_mut(&id) else {
                continue;
            };
            let finished = *kept.finished.get_or_insert_with(|| is_finished(&kept.game));
            if finished {
                chosen.push(id);
                freed += kept.bytes;
                if (self.bytes - freed).saturating_add(needed) <= limit {
                    break;
                }
            }
        }
        if (self.bytes - freed).saturating_add(needed) > limit {
            return false;
        }
        for id in chosen {
            if let Some(kept) = self.games.remove(&id) {
                self.by_use.remove(&kept.used);
                self.bytes -= kept.bytes;
            }
        }
        true
    }
}

/// Whether a kept game is over: declared (a resignation, a flag, an
/// imported result) or shown by its position (a mate, a repetition). A
/// game that cannot be replayed is damaged: nobody can play it, so it may
/// go.
fn is_finished(game: &StoredGame) -> bool {
    if game.declared.is_some() {
        return true;
    }
    AnyGame::replay(game.variant, &game.start, &game.moves, None)
        .map_or(true, |replayed| replayed.outcome().is_some())
}

impl GameStore for MemoryStore {
    fn insert(&self, game: StoredGame) -> Result<(), StoreError> {
        let bytes = kept_bytes(&game);
        let mut inner = self.lock();
        let id = game.id;
        let replaced = inner.games.get(&id).map_or(0, |kept| kept.bytes);
        if !inner.make_room(bytes.saturating_sub(replaced), self.limit, Some(id)) {
            return Err(self.full(bytes));
        }
        inner.clock += 1;
        let now = inner.clock;
        if let Some(old) = inner.games.remove(&id) {
            inner.by_use.remove(&old.used);
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        inner.by_use.insert(now, id);
        inner.games.insert(
            id,
            Kept {
                game,
                used: now,
                bytes,
                finished: None,
            },
        );
        Ok(())
    }

    fn get(&self, id: GameId) -> Result<StoredGame, StoreError> {
        let mut inner = self.lock();
        inner.touch(id);
        match inner.games.get(&id) {
            Some(kept) => Ok(kept.game.clone()),
            None => Err(StoreError::NotFound),
        }
    }

    fn update(&self, id: GameId, change: Change<'_>) -> Result<StoredGame, StoreError> {
        let mut inner = self.lock();
        inner.touch(id);
        let Some(kept) = inner.games.get(&id) else {
            return Err(StoreError::NotFound);
        };
        // Changed on a copy: a refusal (or a panic) leaves the game as it was.
        let mut copy = kept.game.clone();
        let before = kept.bytes;
        change(&mut copy).map_err(StoreError::Refused)?;
        let after = kept_bytes(&copy);
        if after > before && !inner.make_room(after - before, self.limit, Some(id)) {
            return Err(self.full(after));
        }
        inner.bytes = inner.bytes - before + after;
        if let Some(kept) = inner.games.get_mut(&id) {
            kept.game = copy.clone();
            kept.bytes = after;
            kept.finished = None;
        }
        Ok(copy)
    }
}

/// `268435456` as `256 MiB`, for messages.
pub fn shown_size(bytes: usize) -> String {
    const UNITS: [(&str, usize); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            let whole = bytes / size;
            let tenths = (bytes % size) * 10 / size;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// Reads a size for `--memory`: bytes, or a number with `K`, `M` or `G`
/// (powers of 1024, also written `KiB`, `MiB`, `GiB`, `KB`...), e.g.
/// `512M`; at least 1 MiB.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: usize = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size: give bytes or e.g. 256M, 1G"))?;
    let unit = unit.trim().to_ascii_lowercase();
    let scale: usize = match unit.as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?} is not a size: the units are K, M and G (e.g. 256M)"
            ))
        }
    };
    let bytes = number
        .checked_mul(scale)
        .ok_or_else(|| format!("{text:?} is more memory than this machine can address"))?;
    if bytes < 1 << 20 {
        return Err(format!("{text:?} is too little: keep at least 1M of games"));
    }
    Ok(bytes)
}

/// What a block of `len` bytes costs from the allocator: glibc's chunk
/// header and 16-byte rounding, 32 bytes at least; nothing when empty.
fn block(len: usize) -> usize {
    if len == 0 {
        0
    } else {
        (len + 8).next_multiple_of(16).max(32)
    }
}

fn string_bytes(text: &String) -> usize {
    block(text.capacity())
}

fn option_bytes(text: &Option<String>) -> usize {
    text.as_ref().map_or(0, string_bytes)
}

fn strings_bytes(texts: &Vec<String>) -> usize {
    block(texts.capacity() * size_of::<String>()) + texts.iter().map(string_bytes).sum::<usize>()
}

/// What a kept game costs in memory: its own record in the store's
/// tables, and every string and list it owns as the allocator holds them
/// (a move kept as text is about 60 bytes, not the 5 of its letters).
pub fn kept_bytes(game: &StoredGame) -> usize {
    let headers = &game.headers;
    let header_bytes = [
        &headers.sente,
        &headers.gote,
        &headers.event,
        &headers.site,
        &headers.start_time,
        &headers.end_time,
        &headers.time_control,
        &headers.opening,
    ]
    .into_iter()
    .map(option_bytes)
    .sum::<usize>()
        + block(headers.other.capacity() * size_of::<(String, String)>())
        + headers
            .other
            .iter()
            .map(|(key, value)| string_bytes(key) + string_bytes(value))
            .sum::<usize>();
    let declared = game.declared.as_ref().map_or(0, |declared| {
        option_bytes(&declared.winner) + string_bytes(&declared.reason)
    });
    let opponent = match &game.opponent {
        crate::games::names::Opponent::Computer { color, .. } => string_bytes(color),
        crate::games::names::Opponent::Human => 0,
    };
    let notes = &game.notes;
    let note_bytes = strings_bytes(&notes.comments)
        + block(notes.moves.capacity() * size_of::<crate::games::record_notes::MoveNote>())
        + notes
            .moves
            .iter()
            .map(|note| strings_bytes(&note.comments))
            .sum::<usize>();
    let review = game.review.as_ref().map_or(0, |review| {
        block(review.positions.capacity() * size_of::<crate::study::review_kept::StoredJudgement>())
            + review
                .positions
                .iter()
                .map(|judgement| {
                    strings_bytes(&judgement.line)
                        + match &judgement.evaluation {
                            crate::study::review_kept::KeptEvaluation::Mate { winner, .. } => {
                                string_bytes(winner)
                            }
                            crate::study::review_kept::KeptEvaluation::Cp(_) => 0,
                        }
                })
                .sum::<usize>()
    });
    // The game itself, its entry in the map and in the order of use.
    let record = size_of::<(GameId, Kept)>() + size_of::<(u64, GameId)>() + 32;
    record
        + string_bytes(&game.start)
        + strings_bytes(&game.moves)
        + header_bytes
        + declared
        + opponent
        + option_bytes(&game.takeback)
        + note_bytes
        + review
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Declared;

    fn id(n: u64) -> GameId {
        format!("{n:016x}").parse().unwrap()
    }

    fn game(n: u64) -> StoredGame {
        StoredGame::spear_for_tests(n)
    }

    /// A game of `n` with a comment of `size` bytes, over if `finished`.
    fn sized(n: u64, size: usize, finished: bool) -> StoredGame {
        let mut game = game(n);
        game.notes.comments.push("x".repeat(size));
        if finished {
            game.declared = Some(Declared {
                winner: Some("sente".into()),
                reason: "resignation".into(),
            });
        }
        game
    }

    fn status(error: StoreError) -> StatusCode {
        match error {
            StoreError::Refused(refusal) => refusal.status,
            other => panic!("not a refusal: {other:?}"),
        }
    }

    #[test]
    fn a_game_is_measured_by_what_it_holds() {
        let empty = kept_bytes(&game(1));
        let mut played = game(1);
        played.moves = (0..1000).map(|_| "5e5d".to_owned()).collect();
        // A move kept as text: a String in the list and its own block.
        let per_move = (kept_bytes(&played) - empty) / 1000;
        assert!((50..=64).contains(&per_move), "{per_move} bytes a move");
        let commented = sized(1, 100_000, false);
        assert!(kept_bytes(&commented) >= empty + 100_000);
    }

    #[test]
    fn finished_games_are_forgotten_least_recently_used_first_by_bytes() {
        let one = kept_bytes(&sized(1, 100_000, true));
        // Room for three such games, not four.
        let store = MemoryStore::new(one * 3 + one / 2);
        store.insert(sized(1, 100_000, true)).unwrap();
        store.insert(sized(2, 100_000, true)).unwrap();
        store.insert(sized(3, 100_000, false)).unwrap();
        // Game 1 is used again: game 2 is now the least recently used.
        store.get(id(1)).unwrap();
        store.insert(sized(4, 100_000, true)).unwrap();
        assert!(matches!(store.get(id(2)), Err(StoreError::NotFound)));
        for kept in [1, 3, 4] {
            assert!(store.get(id(kept)).is_ok(), "game {kept} kept");
        }
        assert!(store.bytes() <= one * 3 + one / 2);
        // Many small games take the room of one large one: a large game
        // coming makes several go, the least recently used first.
        let small = kept_bytes(&sized(10, 10_000, true));
        let store = MemoryStore::new(small * 15 + one);
        for n in 10..25 {
            store.insert(sized(n, 10_000, true)).unwrap();
        }
        store.insert(sized(1, 100_000, false)).unwrap();
        assert!((10..25).all(|n| store.get(id(n)).is_ok()), "all fit");
        store.insert(sized(2, 100_000, false)).unwrap();
        let kept: Vec<u64> = (10..25).filter(|&n| store.get(id(n)).is_ok()).collect();
        // About ten small games made room for the large one: the oldest.
        assert!((3..=6).contains(&kept.len()), "{kept:?}");
        assert_eq!(kept, (25 - kept.len() as u64..25).collect::<Vec<_>>());
    }

    #[test]
    fn a_game_over_on_the_board_counts_as_finished() {
        // The king taken in Spear, with nothing declared: over by position.
        let mut over = game(1);
        over.start = "4k/4P/5/5/K4 b - 1".into();
        over.moves = vec!["1b1a".into()];
        let replayed = AnyGame::replay(over.variant, &over.start, &over.moves, None);
        assert!(replayed.is_ok_and(|game| game.outcome().is_some()));
        assert!(is_finished(&over));
        assert!(!is_finished(&game(2)));
    }

    #[test]
    fn a_store_full_of_games_in_progress_answers_503() {
        let one = kept_bytes(&sized(1, 100_000, false));
        let store = MemoryStore::new(one * 2 + one / 2);
        store.insert(sized(1, 100_000, false)).unwrap();
        store.insert(sized(2, 100_000, false)).unwrap();
        let refused = store.insert(sized(3, 100_000, false)).unwrap_err();
        assert_eq!(status(refused), StatusCode::SERVICE_UNAVAILABLE);
        // Nothing was forgotten for it.
        assert!(store.get(id(1)).is_ok() && store.get(id(2)).is_ok());
        // A change that would pass the bound is refused too, and leaves
        // the game as it was; a small one still fits.
        let grow = store
            .update(id(1), &mut |g: &mut StoredGame| {
                g.notes.comments.push("y".repeat(200_000));
                Ok(())
            })
            .unwrap_err();
        assert_eq!(status(grow), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(store.get(id(1)).unwrap().notes.comments.len(), 1);
        store
            .update(id(1), &mut |g: &mut StoredGame| {
                g.moves.push("5d5c".into());
                Ok(())
            })
            .unwrap();
        // A game larger than the whole bound says so.
        let huge = store.insert(sized(9, one * 3, true)).unwrap_err();
        let StoreError::Refused(refusal) = huge else {
            panic!("not a refusal")
        };
        assert!(refusal.message.contains("needs"), "{}", refusal.message);
        // Once a game has ended, it may go to make room.
        store
            .update(id(2), &mut |g: &mut StoredGame| {
                g.declared = Some(Declared {
                    winner: None,
                    reason: "resignation".into(),
                });
                Ok(())
            })
            .unwrap();
        store.insert(sized(3, 100_000, false)).unwrap();
        assert!(matches!(store.get(id(2)), Err(StoreError::NotFound)));
    }

    #[test]
    fn a_refused_change_leaves_the_game_alone() {
        let store = MemoryStore::new(parse_size(DEFAULT_MEMORY).unwrap());
        store.insert(game(1)).unwrap();
        let before = store.bytes();
        let result = store.update(id(1), &mut |g: &mut StoredGame| {
            g.moves.push("5d5c".into());
            Err(Refusal::unprocessable("no"))
        });
        assert!(matches!(result, Err(StoreError::Refused(_))));
        assert!(store.get(id(1)).unwrap().moves.is_empty());
        assert_eq!(store.bytes(), before);
    }

    #[test]
    fn sizes_read_and_show_in_binary_units() {
        assert_eq!(parse_size(DEFAULT_MEMORY), Ok(256 << 20));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("2048k"), Ok(2 << 20));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert!(parse_size("1000").unwrap_err().contains("too little"));
        assert!(parse_size("12Q").unwrap_err().contains("units"));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999999999999999G").is_err());
        assert_eq!(shown_size(256 << 20), "256 MiB");
        assert_eq!(shown_size(1536 << 10), "1.5 MiB");
        assert_eq!(shown_size(100), "100 bytes");
    }
}
