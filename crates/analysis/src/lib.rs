//! The engine as a study partner.
//!
//! - [`expected`]: what an evaluation means for the result (the expected
//!   score), and how much a move lost by it: inaccuracy, mistake, blunder.
//! - [`review`]: the evaluation of every position of a game at a fixed
//!   budget, and each move's loss against the engine's choice.
//! - [`annotate`]: a record with the review written in as comments, the
//!   way each format's other software writes them (KIF `*#評価値=`, CSA
//!   `'**`, PGN `{ [%eval] }`).
//!
//! ```
//! use koma_analysis::{review, Label};
//! use koma_engine::{Limits, SearchControl};
//! use koma_rules::{Position, SpearPosition};
//!
//! let start = SpearPosition::start();
//! let first = start.legal_moves()[0];
//! let reviewed = review::review(
//!     &start,
//!     &[first],
//!     &Limits::depth(3),
//!     1,
//!     &SearchControl::default(),
//!     &mut |_, _| {},
//! );
//! assert_eq!(reviewed.positions.len(), 2);
//! assert_eq!(reviewed.moves.len(), 1);
//! assert!(reviewed.moves[0].loss >= 0.0);
//! # let _: Option<Label> = reviewed.moves[0].label;
//! ```
#![warn(missing_docs)]

pub mod annotate;
pub mod expected;
pub mod review;

pub use expected::{Evaluation, Label};
pub use review::{Judgement, MoveReview, Review};
