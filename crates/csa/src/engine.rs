//! The engine that plays: started once and kept between games, replaced
//! when it crashes or hangs.

use crate::CsaError;
use koma_rules::Variant;
use koma_usi::client::{Engine, EngineConfig};
use koma_usi::StartError;

/// Starts an engine ready for shogi (after `usi`, the options, `isready`).
pub type EngineFactory = Box<dyn FnMut() -> Result<Engine, StartError> + Send>;

/// A factory for the engine of `config`: a process speaking USI.
pub fn process_factory(config: EngineConfig) -> EngineFactory {
    Box::new(move || Engine::start(&config, Variant::Shogi, "engine", None))
}

/// The engine, started when first needed.
pub struct EngineSlot {
    factory: EngineFactory,
    engine: Option<Engine>,
}

impl EngineSlot {
    /// A slot that starts engines with `factory`.
    pub fn new(factory: EngineFactory) -> EngineSlot {
        EngineSlot {
            factory,
            engine: None,
        }
    }

    /// The running engine, started if there is none.
    pub fn get(&mut self) -> Result<&mut Engine, CsaError> {
        if self.engine.is_none() {
            let started = (self.factory)().map_err(|e| CsaError::Engine(e.to_string()))?;
            self.engine = Some(started);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Drops the engine (a crashed or hung one is killed); the next
    /// [`EngineSlot::get`] starts another.
    pub fn discard(&mut self) {
        self.engine = None;
    }

    /// Tells the engine the game is over (`gameover win|lose|draw`).
    pub fn game_over(&mut self, result: &str) {
        if let Some(engine) = &mut self.engine {
            engine.game_over(result);
        }
    }

    /// `quit` to the engine, if one runs.
    pub fn quit(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}
