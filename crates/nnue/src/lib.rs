//! Koma's efficiently updatable neural network (NNUE) for the shogi
//! family: shogi, minishogi and Spear Shogi each have their own.
//!
//! - [`Layout`] says which inputs a game's network has: every piece by
//!   square and every hand count, as each side sees the board from its
//!   king's bucket.
//! - [`Network`] is the network itself, read from and written to its file.
//! - [`Accumulator`] holds the first layer's values for a position and
//!   follows the game move by move ([`Layout::changes`]), so that an
//!   evaluation costs a few row additions and one output, not a pass over
//!   every piece.
//! - [`AccumulatorStack`] keeps a search's accumulators, one per ply, and
//!   applies a move's changes only when its position is evaluated.
//!
//! ```
//! use koma_nnue::{Accumulator, Layout, Network, HIDDEN};
//! use koma_rules::{Color, Position, StandardShogiPosition, Variant};
//!
//! let layout = Layout::for_variant(Variant::Shogi).unwrap();
//! // A network whose every weight is 0 but the output's bias: 1.0 → 400 cp.
//! let weights = vec![0; layout.inputs() * HIDDEN];
//! let network = Network::from_parts(Variant::Shogi, weights, [0; HIDDEN], [0; 2 * HIDDEN], 255 * 512).unwrap();
//! let mut position = StandardShogiPosition::start();
//! let accumulator = Accumulator::of(&network, &position);
//! assert_eq!(accumulator.evaluate(&network, Color::Sente), 400);
//!
//! // After a move, the accumulator follows it without a refresh.
//! let m = StandardShogiPosition::parse_move_syntax("7g7f").unwrap();
//! let updates = network.layout().changes(&position, m);
//! position.play_unchecked(m);
//! let mut next = Accumulator::default();
//! next.update_from(&accumulator, &network, &position, &updates);
//! assert_eq!(next, Accumulator::of(&network, &position));
//! ```
#![warn(missing_docs)]

mod accumulator;
mod changes;
pub mod head;
mod layout;
mod network;
mod refresh_cache;
mod shape;
mod simd;
mod stack;

pub use accumulator::Accumulator;
pub use changes::{Delta, Update};
pub use head::Layer;
pub use layout::{king_of, Layout, View};
pub use network::{Network, NetworkError};
pub use shape::{HIDDEN, QA, QB, SCALE};
pub use simd::has_avx2;
pub use stack::AccumulatorStack;
