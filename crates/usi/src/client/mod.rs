//! The client side: start an engine program and talk to it over USI or UCI,
//! with defences against engines that print garbage, crash or hang. The
//! match runner plays games with it; the tuner labels positions with it.

mod config;
mod mate;
mod process;

pub use config::EngineConfig;
pub use mate::{MateReply, MateThought};
pub use process::{BestMove, Connection, Engine, Failure, Score, Thought, TrafficLog};
