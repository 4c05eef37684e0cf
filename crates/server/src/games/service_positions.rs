//! Tests: a position is judged alike on every path into the server
//! (issue 53, items 6 and 7). Whatever the rules accept, create and import
//! accept, with the same outcome and moves, and the game saved in every
//! format that holds it comes back the same; whatever they refuse, both
//! refuse with the rules' sentence. Positions are drawn at random (a seeded
//! generator, so a failure repeats), sparse enough that kings, pawns and
//! legal moves are often missing.

use super::{Games, NewGame};
use crate::games::names;
use crate::games::state::GameState;
use crate::store::memory_store::MemoryStore;
use koma_rules::{
    Color, MinishogiPosition, PawnsPosition, Piece, Position, Role, ShogiPosition, ShogiVariant,
    Spear, SpearPosition, Square, StandardShogiPosition, Variant,
};
use std::sync::Arc;

fn games() -> Arc<Games> {
    Arc::new(Games::new(Box::new(MemoryStore::new(64 << 20)), None, 1))
}

fn create(games: &Arc<Games>, variant: Variant, text: &str) -> Result<GameState, String> {
    let request: NewGame = serde_json::from_value(serde_json::json!({
        "variant": variant.name(),
        "position": text,
    }))
    .expect("a request");
    games.create(request).map_err(|refusal| {
        assert_eq!(refusal.status, 422, "{text}: {}", refusal.message);
        refusal.message
    })
}

fn import(
    games: &Arc<Games>,
    variant: Variant,
    bytes: &[u8],
    format: &str,
) -> Result<GameState, String> {
    games
        .import(bytes, Some(format), Some(variant.name()), None)
        .map_err(|refusal| {
            assert_eq!(refusal.status, 422, "{}", refusal.message);
            refusal.message
        })
}

/// The board, turn and hands of a position's text, without the move
/// number, which a KIF or PGN start does not keep.
fn without_move_number(variant: Variant, text: &str) -> String {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let kept = if variant == Variant::Pawns { 4 } else { 3 };
    fields[..kept.min(fields.len())].join(" ")
}

/// What a game's state says of its start: outcome (winner and reason
/// words) and legal moves, sorted.
fn verdict(state: &GameState) -> (Option<(Option<&'static str>, &'static str)>, Vec<String>) {
    let mut moves = state.legal_moves.clone();
    moves.sort();
    (state.outcome.as_ref().map(|o| (o.winner, o.reason)), moves)
}

/// The formats a game of `variant` is saved in.
fn formats(variant: Variant) -> &'static [&'static str] {
    match variant {
        Variant::Shogi => &["kif", "kifu", "csa", "usi"],
        Variant::Spear | Variant::Minishogi => &["kif", "kifu", "usi"],
        Variant::Pawns => &["pgn", "usi"],
    }
}

/// Judges `text` on every path and checks that they agree; returns `None`
/// if it was refused, else whether the game is over from the start.
fn agree<P: Position>(games: &Arc<Games>, text: &str) -> Option<bool> {
    let variant = P::VARIANT;
    let keyword = if variant == Variant::Pawns {
        "fen"
    } else {
        "sfen"
    };
    let usi = format!("position {keyword} {text}");
    let rules = P::from_text(text);
    let created = create(games, variant, text);
    let imported = import(games, variant, usi.as_bytes(), "usi");
    match rules {
        Err(error) => {
            let sentence = error.to_string();
            for (path, result) in [("create", &created), ("import", &imported)] {
                match result {
                    Ok(state) => panic!(
                        "{text}: the rules refuse ({sentence}), {path} accepts: {:?}",
                        state.outcome.as_ref().map(|o| &o.message)
                    ),
                    Err(message) => assert!(
                        message.contains(&sentence),
                        "{text}: {path} says {message:?}, the rules {sentence:?}"
                    ),
                }
            }
            None
        }
        Ok(position) => {
            let mut legal: Vec<String> = position
                .legal_moves()
                .iter()
                .map(|&m| P::move_to_text(m))
                .collect();
            legal.sort();
            let outcome = position.outcome().map(|o| {
                (
                    o.winner.map(|w| names::color_name(variant, w)),
                    names::reason_word(o.reason),
                )
            });
            assert!(
                outcome.is_some() || !legal.is_empty(),
                "{text}: no move and no end"
            );
            if outcome.is_some() {
                legal.clear();
            }
            let finished = outcome.is_some();
            let expected = (outcome, legal);
            let created =
                created.unwrap_or_else(|e| panic!("{text}: the rules accept, create says {e}"));
            let imported =
                imported.unwrap_or_else(|e| panic!("{text}: the rules accept, import says {e}"));
            for (path, state) in [("create", &created), ("import", &imported)] {
                assert_eq!(verdict(state), expected, "{text}: {path}");
                assert_eq!(state.start, position.to_text(), "{text}: {path}");
            }
            for format in formats(variant) {
                let saved = games
                    .record(&created.id, Some(format))
                    .unwrap_or_else(|e| panic!("{text}: saving as {format}: {}", e.message));
                let back = import(games, variant, &saved.bytes, format).unwrap_or_else(|e| {
                    panic!(
                        "{text}: saved as {format}, not read back: {e}\n{}",
                        String::from_utf8_lossy(&saved.bytes)
                    )
                });
                assert_eq!(verdict(&back), expected, "{text}: through {format}");
                assert_eq!(
                    without_move_number(variant, &back.start),
                    without_move_number(variant, &created.start),
                    "{text}: through {format}"
                );
            }
            Some(finished)
        }
    }
}

/// A small seeded generator (xorshift64*): the same positions every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random position of game `V`, as SFEN: a few pieces of the game on
/// random squares, kings more often than not, small hands. Many break a
/// rule; that is the point.
fn random_shogi<V: ShogiVariant>(random: &mut Random) -> String {
    let spec = V::SPEC;
    let squares: Vec<Square> = Square::all()
        .filter(|s| spec.board().contains(*s))
        .collect();
    let mut position = ShogiPosition::<V>::empty();
    let place = |random: &mut Random, position: &mut ShogiPosition<V>, piece: Piece| {
        let square = squares[random.below(squares.len() as u64) as usize];
        if position.piece_at(square).is_none() {
            position.put(square, piece);
        }
    };
    for color in Color::ALL {
        if random.chance(80) {
            place(random, &mut position, Piece::new(color, Role::King));
        }
    }
    let density = 2 + random.below(12);
    for _ in 0..density {
        let roles: Vec<Role> = spec
            .board_roles
            .iter()
            .copied()
            .filter(|&r| r != Role::King)
            .collect();
        let role = roles[random.below(roles.len() as u64) as usize];
        let color = Color::ALL[random.below(2) as usize];
        place(random, &mut position, Piece::new(color, role));
    }
    for color in Color::ALL {
        for &role in spec.hand_roles {
            if random.chance(15) {
                position.set_hand_count(color, role, 1 + random.below(2) as u8);
            }
        }
    }
    if V::KINGS_ARE_CAPTURED && random.chance(10) {
        let holder = Color::ALL[random.below(2) as usize];
        position.set_hand_count(holder, Role::King, 1);
    }
    position.set_turn(Color::ALL[random.below(2) as usize]);
    position.refresh();
    position.to_text()
}

/// A random Pawns-Only Chess position, as FEN: pawns anywhere, often on
/// the first and last ranks, sometimes none of a side.
fn random_pawns(random: &mut Random) -> String {
    let density = random.below(12);
    let mut ranks = Vec::new();
    for _ in 0..8 {
        let cells = (0..8).map(|_| match random.below(100) {
            n if n < density => Some('P'),
            n if n < 2 * density => Some('p'),
            _ => None,
        });
        let mut rank = String::new();
        let mut empty = 0;
        for cell in cells {
            match cell {
                Some(letter) => {
                    if empty > 0 {
                        rank.push_str(&empty.to_string());
                        empty = 0;
                    }
                    rank.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks.push(rank);
    }
    let turn = if random.chance(50) { "w" } else { "b" };
    format!("{} {turn} - - 0 1", ranks.join("/"))
}

/// Runs random positions of each game through every path; each game must
/// see refusals, games that go on and games over from the start.
#[test]
fn every_path_judges_a_position_alike() {
    let games = games();
    let mut random = Random(0x006b_6f6d_6120_3533);
    fn run<P: Position>(games: &Arc<Games>, texts: Vec<String>) {
        let verdicts: Vec<Option<bool>> =
            texts.iter().map(|text| agree::<P>(games, text)).collect();
        let count = |wanted: Option<bool>| verdicts.iter().filter(|&&v| v == wanted).count();
        let (refused, going, over) = (count(None), count(Some(false)), count(Some(true)));
        eprintln!(
            "{}: {refused} refused, {going} going on, {over} over",
            P::VARIANT
        );
        assert!(
            refused > 0 && going > 0 && over > 0,
            "{}: {refused} refused, {going} going on, {over} over",
            P::VARIANT
        );
    }
    const COUNT: usize = 1000;
    let texts = (0..COUNT)
        .map(|_| random_shogi::<Spear>(&mut random))
        .collect();
    run::<SpearPosition>(&games, texts);
    let texts = (0..COUNT)
        .map(|_| random_shogi::<koma_rules::Minishogi>(&mut random))
        .collect();
    run::<MinishogiPosition>(&games, texts);
    let texts = (0..COUNT)
        .map(|_| random_shogi::<koma_rules::Shogi>(&mut random))
        .collect();
    run::<StandardShogiPosition>(&games, texts);
    let texts = (0..COUNT).map(|_| random_pawns(&mut random)).collect();
    run::<PawnsPosition>(&games, texts);
}

/// The positions of the issue, one by one, on every path.
#[test]
fn the_positions_of_issue_53() {
    let games = games();
    // Refused everywhere, with the same sentence.
    for refused in [
        agree::<StandardShogiPosition>(&games, "9/9/9/9/9/9/9/9/9 b - 1"),
        agree::<MinishogiPosition>(&games, "5/5/5/5/5 b - 1"),
        agree::<SpearPosition>(&games, "5/5/5/5/5 b - 1"),
        agree::<PawnsPosition>(&games, "8/8/8/8/8/8/8/8 w - - 0 1"),
    ] {
        assert_eq!(refused, None);
    }
    // Accepted everywhere; a side to move without a legal move has lost.
    let shogi = agree::<StandardShogiPosition>(&games, "4k4/9/9/9/9/9/9/9/9 b - 1");
    assert_eq!(shogi, Some(true));
    let minishogi = agree::<MinishogiPosition>(&games, "4k/5/5/5/5 b - 1");
    assert_eq!(minishogi, Some(true));
    let state = create(&games, Variant::Minishogi, "4k/5/5/5/5 b - 1").unwrap();
    let outcome = state.outcome.expect("the game is over");
    assert_eq!(outcome.message, "Gote wins: Sente has no legal move.");
    // Spear's soldier dropped on the last row: Spear's, whatever it looks like.
    assert_eq!(
        agree::<SpearPosition>(&games, "P4/5/5/5/K3k b - 1"),
        Some(false)
    );
    assert_eq!(
        agree::<SpearPosition>(&games, "4k/5/5/5/5 b k 1"),
        Some(true)
    );
}

/// A start whose side to move has no legal move is a finished game, and
/// what studies it says so: the review judges it lost for the side to
/// move (no evaluation of 0 at a great depth), mate search finds no mate
/// for a side that cannot move, and the engine searches nothing.
#[test]
fn a_start_without_a_legal_move_is_studied_as_finished() {
    use koma_analysis::Evaluation;
    use koma_engine::{Engine, Limits, SearchControl};
    let text = "4k4/9/9/9/9/9/9/9/9 b - 1";
    let start = StandardShogiPosition::from_text(text).unwrap();
    let control = SearchControl::new(false);
    let review = koma_analysis::review::review(
        &start,
        &[],
        &Limits::nodes(1000),
        1,
        &control,
        &mut |_, _| {},
    );
    assert_eq!(
        review.positions[0].evaluation,
        Evaluation::Mate {
            winner: Color::Gote,
            plies: 0
        }
    );
    let mut engine = Engine::<StandardShogiPosition>::new(1);
    let result = engine.search(&[start], &Limits::depth(10), &control, &mut |_| {});
    assert_eq!(result.best_move, None);
    let game = crate::games::live::AnyGame::new(Variant::Shogi, Some(text)).unwrap();
    let found = crate::study::mate::find_mate(&game, 0, 1).unwrap();
    assert_eq!((found.answer, found.line.len()), ("nomate", 0));
}
