//! The computer opponent of the board: Koma's engine, at the level the
//! player chose, or a registered engine (`external`). At every level
//! Koma's engine declares impasse as soon as the declaration wins, as
//! `koma usi` answers `bestmove win`.

use super::external;
use super::perfect::PerfectPicker;
use crate::external::pool::ExternalEngines;
use crate::games::live::AnyGame;
use crate::games::names::Level;
use crate::games::service::{ComputerTurn, GameResult, MovePicker, Reply};
use crate::store::GameId;
use koma_engine::{choose, Choice, Evaluate};
use koma_rules::{each_game, Game, ImpasseRule, Variant};
use std::sync::Arc;
use std::time::Duration;

/// Hash table per search: the server may run several games at once.
const HASH_MEGABYTES: usize = 16;

/// The strongest level, whose move the perfect player falls back on.
const FULL_STRENGTH: u8 = 20;

/// Plays the computer's moves with a fresh engine per move, the perfect
/// player's, or a registered engine's.
pub struct EnginePicker {
    /// Thinking time at full strength; weaker levels are bounded by
    /// nodes first and stop well before.
    pub think: Duration,
    /// The perfect player's longest thought (without a clock): from a
    /// game begun at the start it answers in about a second, and a
    /// position no solve met can take hours.
    pub perfect_think: Duration,
    perfect: PerfectPicker,
    /// The engines registered with the server.
    external: Arc<ExternalEngines>,
}

impl EnginePicker {
    /// Koma's engine, the perfect player and the registered `external`
    /// engines, each at its usual time.
    pub fn new(external: Arc<ExternalEngines>) -> EnginePicker {
        EnginePicker {
            think: Duration::from_secs(1),
            perfect_think: Duration::from_secs(30),
            perfect: PerfectPicker::default(),
            external,
        }
    }
}

fn pick_in<P: Evaluate>(
    game: &Game<P>,
    level: u8,
    think: Duration,
    impasse: Option<ImpasseRule>,
) -> Reply {
    match choose(game.positions(), level, impasse, think, HASH_MEGABYTES) {
        Some(Choice::Declare) => Reply::Declare,
        Some(Choice::Move(m)) => Reply::Move(P::move_to_text(m)),
        None => Reply::Nothing,
    }
}

impl MovePicker for EnginePicker {
    fn pick(&self, turn: &ComputerTurn<'_>) -> Reply {
        if let Some(name) = turn.engine {
            return external::pick(&self.external, turn, name, self.think);
        }
        let (game, budget, impasse) = (turn.game, turn.budget, turn.impasse);
        let mut think = budget.map_or(self.think, |budget| budget.min(self.think));
        let level = match (turn.level, game) {
            (Level::Strength(level), _) => level,
            (Level::Perfect(_), AnyGame::Pawns(pawns)) => {
                // With a clock, three quarters of the move's time, and
                // the engine the rest if the solver runs out of it.
                let perfect_think = budget.map_or(self.perfect_think, |budget| budget * 3 / 4);
                think = budget.map_or(self.think, |budget| (budget / 4).min(self.think));
                match self.perfect.pick(pawns.position(), perfect_think) {
                    Ok(Some(chosen)) => return Reply::Move(chosen),
                    Ok(None) => return Reply::Nothing,
                    Err(_) => FULL_STRENGTH,
                }
            }
            // The service keeps the perfect player to Pawns-Only Chess.
            (Level::Perfect(_), _) => FULL_STRENGTH,
        };
        each_game!(AnyGame, game, game => pick_in(game, level, think, impasse))
    }

    fn threads(&self, name: &str) -> usize {
        self.external
            .find(name)
            .map_or(1, |engine| engine.threads as usize)
    }

    fn plays(&self, name: &str, variant: Variant) -> Result<(), String> {
        self.external.for_game(name, variant).map(|_| ())
    }

    fn game_over(&self, name: &str, game: GameId, result: GameResult) {
        self.external
            .game_over(name, &game.to_string(), result.usi());
    }
}
