//! The client side: start an engine program and talk to it over USI or UCI,
//! with defences against engines that print garbage, crash or hang. The
//! match runner plays games with it, the tuner labels positions with it,
//! the CSA client plays on servers with it, and the board's server
//! analyses with the engines people register (`koma serve --engine`).

mod analyse;
mod config;
mod info;
mod mate;
mod position;
mod process;

pub use config::EngineConfig;
pub use info::{Bound, InfoLine, Score};
pub use mate::{MateReply, MateThought};
pub use position::position_command;
pub use process::{BestMove, Connection, Engine, Failure, Thought, TrafficLog};
