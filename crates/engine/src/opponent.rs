//! The computer as an opponent: one move at a chosen level, as the board
//! (`koma serve`) and the terminal (`koma shogi`, `koma pawns`) play it.

use crate::{Engine, EngineOptions, Evaluate, Limits, SearchControl};
use koma_rules::{ImpasseRule, Move};
use std::time::Duration;

/// What the computer does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Plays this move.
    Move(Move),
    /// Declares impasse, which wins.
    Declare,
}

/// The computer's choice at `level` (1 to 20) in the last position of
/// `history` (the game before it, for repetitions), thinking at most
/// `think` with a fresh table of `table_megabytes`: an impasse declaration
/// under `impasse` as soon as it wins, else the level's move. `None` when
/// it has no legal move.
///
/// ```
/// use koma_engine::{choose, Choice};
/// use koma_rules::{Position, SpearPosition};
/// use std::time::Duration;
///
/// let start = SpearPosition::start();
/// let Some(Choice::Move(m)) = choose(&[start], 5, None, Duration::from_millis(50), 1) else {
///     panic!("no move");
/// };
/// assert!(start.is_legal(m));
/// ```
pub fn choose<P: Evaluate>(
    history: &[P],
    level: u8,
    impasse: Option<ImpasseRule>,
    think: Duration,
    table_megabytes: usize,
) -> Option<Choice> {
    let options = EngineOptions {
        impasse,
        skill: level.min(crate::MAX_SKILL),
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    };
    if options.winning_declaration(history.last()?).is_some() {
        return Some(Choice::Declare);
    }
    let mut engine = Engine::<P>::new(table_megabytes);
    engine.options = options;
    let result = engine.search(
        history,
        &Limits::move_time(think),
        &SearchControl::default(),
        &mut |_| {},
    );
    result.best_move.map(Choice::Move)
}
