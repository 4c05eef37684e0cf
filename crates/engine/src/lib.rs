//! Koma's engine: the computer opponent for Spear Shogi, shogi, minishogi
//! and Pawns-Only Chess.
//!
//! [`Engine`] searches any position type of the rules crate that also
//! implements [`Evaluate`] (every Koma game does). The search reports its
//! progress through a callback, never by printing, so the USI/UCI adapters,
//! the console and the server all drive the same API.
//!
//! ```
//! use koma_engine::{Engine, Limits, SearchControl, Score};
//! use koma_rules::{Position, StandardShogiPosition};
//!
//! // Sente mates with a gold drop: G*5b.
//! let position = StandardShogiPosition::from_text("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
//! let mut engine = Engine::new(16);
//! let mut lines = Vec::new();
//! let result = engine.search(&[position], &Limits::depth(3), &SearchControl::default(), &mut |info| lines.push(info.clone()));
//! assert_eq!(StandardShogiPosition::move_to_text(result.best_move.unwrap()), "G*5b");
//! assert_eq!(result.score, Score::MatePlies(1));
//! assert!(!lines.is_empty());
//! ```
#![warn(missing_docs)]

pub mod bench;
mod correction;
pub mod eval;
mod history;
mod limits;
mod movepick;
pub mod networks;
mod opponent;
pub mod params;
mod score;
mod search;
mod skill;
mod tt;

pub use correction::{CorrectionHistory, CorrectionKeys};
pub use eval::Evaluate;
pub use koma_nnue::Network;
pub use limits::{Clock, Limits, TimePlan};
pub use opponent::{choose, Choice};
pub use score::{is_mate, mate_in, mated_in, Score, Value, MATE, MAX_PLY};
pub use search::{Engine, EngineOptions, Info, NetworkForAnotherGame, SearchControl, SearchResult};
pub use skill::{Skill, MAX_SKILL, MIN_SKILL};
pub use tt::Bound;
