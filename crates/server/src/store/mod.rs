//! Where games are kept: plain data behind the [`GameStore`] seam.
//!
//! A stored game is only what cannot be recomputed — the start position, the
//! moves as text, an ending that was declared rather than played, the
//! headers and the opponent — so that a database can hold it as a row
//! (issue 7). Everything else is recomputed by replaying the moves.

pub(crate) mod memory_store;
mod postgres_listen;
pub(crate) mod postgres_pool;
pub(crate) mod postgres_store;
pub mod sqlite_check;
mod sqlite_schema;
pub(crate) mod sqlite_store;
mod store_row;

use crate::games::clock::Clock;
pub use crate::games::game_id::GameId;
use crate::games::names::{self, Opponent};
use crate::games::record_notes::RecordNotes;
use crate::games::refusal::Refusal;
pub use crate::games::rematch_record::Rematch;
use crate::games::seats::{Mode, Seats};
use crate::games::state::HeadersView;
use crate::study::review_kept::StoredReview;
use crate::workers::memory_jobs::MemoryJobs;
use crate::workers::queue::JobQueue;
use koma_rules::{EndReason, ImpasseRule, Outcome, Variant};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// An ending declared rather than shown by the position (a resignation, or
/// the result written in an imported record), in words a database can hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declared {
    /// `"sente"`/`"gote"` (or `"white"`/`"black"`), `None` for a draw.
    pub winner: Option<String>,
    /// The reason's machine word, e.g. `"resignation"`.
    pub reason: String,
}

impl Declared {
    /// The words for `outcome` in `variant`.
    pub fn from_outcome(variant: Variant, outcome: Outcome) -> Declared {
        Declared {
            winner: outcome
                .winner
                .map(|c| names::color_name(variant, c).to_owned()),
            reason: names::reason_word(outcome.reason).to_owned(),
        }
    }

    /// The outcome these words mean, if they mean one.
    pub fn to_outcome(&self, variant: Variant) -> Option<Outcome> {
        let reason: EndReason = names::parse_reason(&self.reason)?;
        Some(match &self.winner {
            Some(name) => Outcome::win(names::parse_color(variant, name)?, reason),
            None => Outcome::draw(reason),
        })
    }
}

/// Everything that makes a game, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredGame {
    /// Its id.
    pub id: GameId,
    /// Which game, by name (`"spear"`, ...).
    #[serde(with = "names::variant_serde")]
    pub variant: Variant,
    /// The start position in the game's notation (SFEN or FEN).
    pub start: String,
    /// The moves in USI/UCI text.
    pub moves: Vec<String>,
    /// An ending the positions do not show.
    pub declared: Option<Declared>,
    /// Player names, event and the like.
    pub headers: HeadersView,
    /// Who plays the other side.
    pub opponent: Opponent,
    /// Counts the changes; lets clients order the states they receive.
    pub version: u64,
    /// The seats' secret tokens. `None` only for a game kept before seats
    /// existed (schema 1), which anyone who knows its id may change.
    #[serde(default)]
    pub seats: Option<Seats>,
    /// How the seats are used: by one page, or by two players.
    #[serde(default)]
    pub mode: Mode,
    /// In a shared game, the side (its name) that asked to take a move back
    /// and has no answer yet.
    #[serde(default)]
    pub takeback: Option<String>,
    /// The clocks of a timed game.
    #[serde(default)]
    pub clock: Option<Clock>,
    /// The impasse rule chosen for a shogi game; `None` for the other
    /// games and for shogi games kept before the choice existed (schema
    /// 2), which are judged by the 27-point rule.
    #[serde(default, with = "names::impasse_serde")]
    pub impasse: Option<ImpasseRule>,
    /// The comments and move times of the record it was imported from
    /// (schema 4).
    #[serde(default)]
    pub notes: RecordNotes,
    /// The engine's review of its moves, if one was asked for (schema 4).
    /// A change to the moves drops it.
    #[serde(default)]
    pub review: Option<StoredReview>,
    /// A finished game's rematch: the offer, its answer and the new game
    /// (schema 6). `None` until a player asks for one.
    #[serde(default)]
    pub rematch: Option<Rematch>,
}

impl StoredGame {
    /// The rule that judges an impasse declaration in this game: shogi's
    /// chosen one (27 points unless another was chosen), `None` in the
    /// games without impasse.
    pub fn impasse_rule(&self) -> Option<ImpasseRule> {
        (self.variant == Variant::Shogi).then(|| self.impasse.unwrap_or_default())
    }

    /// Keeps `moves` as the game's moves: the notes of moves taken back
    /// go, and so does a review of other moves than these.
    pub fn set_moves(&mut self, moves: Vec<String>) {
        if moves != self.moves {
            let kept = moves
                .iter()
                .zip(&self.moves)
                .take_while(|(new, old)| new == old)
                .count();
            // Moves only added take nothing back (and a note given with
            // the move just played stays).
            if kept < self.moves.len() {
                self.notes.keep_moves(kept);
            }
            self.review = None;
            self.moves = moves;
        }
    }
}

/// Why a store could not do what was asked.
#[derive(Debug)]
pub enum StoreError {
    /// No game has that id.
    NotFound,
    /// The change itself refused, with its reason.
    Refused(Refusal),
    /// The store failed (a database that went away), or the game is
    /// damaged in it ([`StoreError::damaged`]): a sentence for people.
    // Only the databases of issue 7 can fail this way; memory cannot.
    #[allow(dead_code)]
    Failed(String),
}

impl StoreError {
    /// Game `id` is damaged in the `place` (`"games file"`, `"games
    /// database"`) for the reason `why` (`"its contents differ from its
    /// checksum"`): the server answers 500 with this sentence for that
    /// game, and goes on serving the others.
    pub fn damaged(id: GameId, place: &str, why: &str) -> StoreError {
        StoreError::Failed(format!("The game {id} is damaged in the {place}: {why}."))
    }
}

/// A change to one stored game, applied atomically by the store. It may
/// refuse, which leaves the game untouched.
pub type Change<'a> = &'a mut dyn FnMut(&mut StoredGame) -> Result<(), Refusal>;

/// Told the id and new version of each game that another process changed.
pub type Notify = Arc<dyn Fn(GameId, u64) + Send + Sync>;

/// Where games live: in memory ([`crate::store::memory_store::MemoryStore`]), in a SQLite file, or in
/// PostgreSQL, behind the same calls.
pub trait GameStore: Send + Sync + 'static {
    /// Keeps a new game.
    fn insert(&self, game: StoredGame) -> Result<(), StoreError>;
    /// A copy of the game with `id`.
    fn get(&self, id: GameId) -> Result<StoredGame, StoreError>;
    /// Applies `change` to the game with `id` as one atomic step (no other
    /// change sees it half done); returns the game as it is afterwards.
    fn update(&self, id: GameId, change: Change<'_>) -> Result<StoredGame, StoreError>;
    /// Calls `notify` for every change that another process sharing the
    /// store makes, from now until the store is dropped, so that this
    /// process can tell its watchers. Stores that no other process shares
    /// (memory), or that cannot tell (SQLite), never call it.
    fn listen(&self, notify: Notify) -> Result<(), StoreError> {
        let _ = notify;
        Ok(())
    }
    /// The queue of the workers' jobs (`--worker-keys`) kept beside the
    /// games; in this process's memory unless the store has a table for
    /// it.
    fn job_queue(&self) -> Result<Arc<dyn JobQueue>, String> {
        Ok(Arc::new(MemoryJobs::new()))
    }
}

#[cfg(test)]
impl StoredGame {
    /// A new Spear game between two people at one screen, numbered `id`:
    /// the stores' tests start from it and change what they test.
    pub(crate) fn spear_for_tests(id: u64) -> StoredGame {
        StoredGame {
            id: GameId::for_tests(id),
            variant: Variant::Spear,
            start: "lbsgk/4p/5/P4/KGSBL b - 1".into(),
            moves: Vec::new(),
            declared: None,
            headers: HeadersView::default(),
            opponent: Opponent::Human,
            version: 0,
            seats: None,
            mode: Mode::Local,
            takeback: None,
            clock: None,
            impasse: None,
            notes: RecordNotes::default(),
            review: None,
            rematch: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: u64) -> StoredGame {
        StoredGame::spear_for_tests(id)
    }

    #[test]
    fn ids_are_sixteen_hex_digits_and_read_back() {
        let id = GameId::random().unwrap();
        let text = id.to_string();
        assert_eq!(text.len(), 16);
        assert_eq!(text.parse::<GameId>(), Ok(id));
        assert!("123".parse::<GameId>().is_err());
        assert!("+123456789abcdef".parse::<GameId>().is_err());
        assert_ne!(GameId::random().unwrap(), id);
    }

    #[test]
    fn stored_games_are_plain_json() {
        let text = serde_json::to_string(&game(255)).unwrap();
        assert!(text.contains("\"id\":\"00000000000000ff\""), "{text}");
        assert!(text.contains("\"variant\":\"spear\""), "{text}");
        let back: StoredGame = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game(255));
        let mut shogi = game(1);
        shogi.variant = Variant::Shogi;
        assert_eq!(shogi.impasse_rule(), Some(ImpasseRule::TwentySeven));
        shogi.impasse = Some(ImpasseRule::TwentyFour);
        let text = serde_json::to_string(&shogi).unwrap();
        assert!(text.contains("\"impasse\":\"24\""), "{text}");
        let back: StoredGame = serde_json::from_str(&text).unwrap();
        assert_eq!(back.impasse_rule(), Some(ImpasseRule::TwentyFour));
        assert_eq!(game(1).impasse_rule(), None, "Spear has no impasse");
    }
}
