//! The computer opponent of the board: Koma's engine, at the level the
//! player chose. At every level it declares impasse as soon as the
//! declaration wins, as `koma usi` answers `bestmove win`.

use super::live::AnyGame;
use super::service::{MovePicker, DECLARE};
use koma_engine::{choose, Choice, Evaluate};
use koma_rules::{Game, ImpasseRule};
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

fn pick_in<P: Evaluate>(
    game: &Game<P>,
    level: u8,
    think: Duration,
    impasse: Option<ImpasseRule>,
) -> Option<String> {
    match choose(game.positions(), level, impasse, think, HASH_MEGABYTES)? {
        Choice::Declare => Some(DECLARE.to_owned()),
        Choice::Move(m) => Some(P::move_to_text(m)),
    }
}

impl MovePicker for EnginePicker {
    fn pick(
        &self,
        game: &AnyGame,
        level: u8,
        budget: Option<Duration>,
        impasse: Option<ImpasseRule>,
    ) -> Option<String> {
        let think = budget.map_or(self.think, |budget| budget.min(self.think));
        match game {
            AnyGame::Spear(game) => pick_in(game, level, think, impasse),
            AnyGame::Minishogi(game) => pick_in(game, level, think, impasse),
            AnyGame::Shogi(game) => pick_in(game, level, think, impasse),
            AnyGame::Pawns(game) => pick_in(game, level, think, impasse),
        }
    }
}
