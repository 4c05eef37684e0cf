//! USI and UCI, both sides of the conversation.
//!
//! - [`engine`] is Koma's engine speaking the protocol to a GUI or a match
//!   runner: `koma usi` (Spear, minishogi, shogi) and `koma uci`
//!   (Pawns-Only Chess) run [`engine::run`].
//! - [`client`] drives another engine program: it starts the process, does
//!   the handshake, sends positions and reads `bestmove` with the last score,
//!   and survives engines that crash, hang or print garbage.
//!
//! Both speak a [`Dialect`]: USI for the shogi games, UCI for Pawns-Only
//! Chess.
//!
//! ```
//! use koma_usi::client::EngineConfig;
//! use koma_usi::Dialect;
//!
//! let words = ["cmd=koma usi", "name=Koma", "option.USI_Hash=16"].map(String::from);
//! let config = EngineConfig::parse(&words).unwrap();
//! assert_eq!(config.program, "koma");
//! assert_eq!(config.args, ["usi"]);
//! assert_eq!(config.protocol, None);
//! assert_eq!(Dialect::parse("UCI"), Ok(Dialect::Uci));
//! ```
#![warn(missing_docs)]

pub mod client;
mod dialect;
pub mod engine;
mod error;

pub use dialect::{Dialect, UnknownDialect};
pub use error::{ConfigError, Failure, HandshakeStep, RunError, StartError};
