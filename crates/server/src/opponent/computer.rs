//! The computer opponent of the board: Koma's engine, at the level the
//! player chose. At every level it declares impasse as soon as the
//! declaration wins, as `koma usi` answers `bestmove win`.

use super::perfect::PerfectPicker;
use crate::games::live::AnyGame;
use crate::games::names::Level;
use crate::games::service::{MovePicker, DECLARE};
use koma_engine::{choose, Choice, Evaluate};
use koma_rules::{Game, ImpasseRule};
use std::time::Duration;

/// Hash table per search: the server may run several games at once.
const HASH_MEGABYTES: usize = 16;

/// The strongest level, whose move the perfect player falls back on.
const FULL_STRENGTH: u8 = 20;

/// Plays the computer's moves with a fresh engine per move, or the
/// perfect player's.
pub struct EnginePicker {
    /// Thinking time at full strength; weaker levels are bounded by
    /// nodes first and stop well before.
    pub think: Duration,
    /// The perfect player's longest thought (without a clock): from a
    /// game begun at the start it answers in about a second, and a
    /// position no solve met can take hours.
    pub perfect_think: Duration,
    perfect: PerfectPicker,
}

impl Default for EnginePicker {
    fn default() -> Self {
        EnginePicker {
            think: Duration::from_secs(1),
            perfect_think: Duration::from_secs(30),
            perfect: PerfectPicker::default(),
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
        level: Level,
        budget: Option<Duration>,
        impasse: Option<ImpasseRule>,
    ) -> Option<String> {
        let mut think = budget.map_or(self.think, |budget| budget.min(self.think));
        let level = match (level, game) {
            (Level::Strength(level), _) => level,
            (Level::Perfect(_), AnyGame::Pawns(pawns)) => {
                // With a clock, three quarters of the move's time, and
                // the engine the rest if the solver runs out of it.
                let perfect_think = budget.map_or(self.perfect_think, |budget| budget * 3 / 4);
                think = budget.map_or(self.think, |budget| (budget / 4).min(self.think));
                match self.perfect.pick(pawns.position(), perfect_think) {
                    Ok(chosen) => return chosen,
                    Err(_) => FULL_STRENGTH,
                }
            }
            // The service keeps the perfect player to Pawns-Only Chess.
            (Level::Perfect(_), _) => FULL_STRENGTH,
        };
        match game {
            AnyGame::Spear(game) => pick_in(game, level, think, impasse),
            AnyGame::Minishogi(game) => pick_in(game, level, think, impasse),
            AnyGame::Shogi(game) => pick_in(game, level, think, impasse),
            AnyGame::Pawns(game) => pick_in(game, level, think, impasse),
        }
    }
}
