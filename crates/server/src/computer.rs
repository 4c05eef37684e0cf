//! The computer opponent of the board: Koma's engine, at the level the
//! player chose.

use super::live::AnyGame;
use super::service::MovePicker;
use koma_engine::{Engine, Evaluate, Limits, SearchControl, MAX_SKILL};
use koma_rules::Game;
use std::time::Duration;

/// Hash table per search: the server may run several games at once.
const HASH_MEGABYTES: usize = 16;

/// Plays the computer's moves with a fresh engine per move.
pub struct EnginePicker {
    /// Thinking time at full strength; weaker levels are bounded by
    /// nodes first and stop well before.
    pub think: Duration,
}

impl Default for EnginePicker {
    fn default() -> Self {
        EnginePicker {
            think: Duration::from_secs(1),
        }
    }
}

fn pick_in<P: Evaluate>(game: &Game<P>, level: u8, think: Duration) -> Option<String> {
    let mut engine = Engine::<P>::new(HASH_MEGABYTES);
    engine.options.skill = level.min(MAX_SKILL);
    engine.options.move_overhead = Duration::ZERO;
    let result = engine.search(
        game.positions(),
        &Limits::move_time(think),
        &SearchControl::default(),
        &mut |_| {},
    );
    result.best_move.map(P::move_to_text)
}

impl MovePicker for EnginePicker {
    fn pick(&self, game: &AnyGame, level: u8, budget: Option<Duration>) -> Option<String> {
        let think = budget.map_or(self.think, |budget| budget.min(self.think));
        match game {
            AnyGame::Spear(game) => pick_in(game, level, think),
            AnyGame::Minishogi(game) => pick_in(game, level, think),
            AnyGame::Shogi(game) => pick_in(game, level, think),
            AnyGame::Pawns(game) => pick_in(game, level, think),
        }
    }
}
