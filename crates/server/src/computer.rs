//! The computer opponent of the board: Koma's engine, at the level the
//! player chose. At every level it declares impasse as soon as the
//! declaration wins, as `koma usi` answers `bestmove win`.

use super::live::AnyGame;
use super::service::{MovePicker, DECLARE};
use koma_engine::{Engine, EngineOptions, Evaluate, Limits, SearchControl, MAX_SKILL};
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
    let options = EngineOptions {
        impasse,
        skill: level.min(MAX_SKILL),
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    };
    if options.winning_declaration(game.position()).is_some() {
        return Some(DECLARE.to_owned());
    }
    let mut engine = Engine::<P>::new(HASH_MEGABYTES);
    engine.options = options;
    let result = engine.search(
        game.positions(),
        &Limits::move_time(think),
        &SearchControl::default(),
        &mut |_| {},
    );
    result.best_move.map(P::move_to_text)
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
