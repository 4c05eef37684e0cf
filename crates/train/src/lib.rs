//! Trains Koma's networks ([`koma_nnue::Network`]) from self-play data
//! ([`koma_selfplay`]), on the CPU, from nothing.
//!
//! - [`Dataset`] turns samples into each position's active inputs;
//! - [`Model`] is the network in floating point, with its gradient and its
//!   quantised form;
//! - [`train`] runs epochs of Adam over a loss that blends the search's
//!   value with the game's result, `(σ(output / k) − (λ σ(value / k) +
//!   (1 − λ) result))²`, the scale `k` fitted to the data
//!   ([`fit_scale`]), and keeps a checkpoint to resume from;
//! - [`TrainError`] says why a run cannot start or go on.
//!
//! ```
//! use koma_nnue::Layout;
//! use koma_train::{Dataset, Model};
//! use koma_rules::{MinishogiPosition, Position, Variant};
//!
//! let layout = Layout::for_variant(Variant::Minishogi).unwrap();
//! let model = Model::new(Variant::Minishogi, layout.inputs(), 1);
//! let sample = koma_selfplay::Sample { position: MinishogiPosition::start(), value: 50, result: 1, ply: 0 };
//! let data = Dataset::from_samples(&layout, &[sample]);
//! let (us, them) = data.inputs(0);
//! // The quantised network gives the float model's value to within a few centipawns.
//! let float = model.evaluate(us, them);
//! let network = model.quantise();
//! let accumulator = koma_nnue::Accumulator::of(&network, &sample.position);
//! let quantised = accumulator.evaluate(&network, sample.position.turn());
//! assert!((float - quantised as f32).abs() < 5.0, "{float} vs {quantised}");
//! ```
#![warn(missing_docs)]

mod adam;
mod checkpoint;
mod data;
mod error;
mod model;
mod run;

pub use adam::Adam;
pub use checkpoint::{load, save, State};
pub use data::{split, Dataset};
pub use error::{CheckpointDamage, CheckpointError, CheckpointMismatch, TrainError};
pub use model::{head_widths, sigmoid, target, Model, Shape, FIRST_LAYER_LIMIT, HEAD_LIMIT};
pub use run::{fit_scale, rate_at, start, train, Epoch, Report, Settings};
