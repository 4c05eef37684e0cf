//! Koma's mate solver (詰み探索): df-pn proof-number search for mate
//! problems in shogi, minishogi and Spear Shogi.
//!
//! The side to move attacks: it checks on every move, the defender answers
//! with any legal move, and a mate is proven when every answer is mated.
//! The [`Solver`] proves a mate, then shortens it to the shortest mate
//! against the longest resistance (tsume-shogi's rule), reads the line out
//! and checks it with the rules before it reports it. It never reports a
//! mate the rules do not confirm. The length is counted as problems count
//! it, without useless interpositions (無駄合); the line is played out to
//! checkmate on the board, so that a GUI replaying it sees the mate
//! ([`line_to_checkmate`]).
//!
//! - Uchifuzume is illegal: a pawn drop that would mate is not a move.
//! - A repetition is no mate (a perpetual check loses).
//! - The defender holds what the problem gives it (CSA `P-00AL`, KIF
//!   "残り全部" are read by `koma-records` as pieces in its hand).
//! - In Spear, kings are captured rather than checkmated: a "check" is a
//!   move after which the king could be taken, and the mate ends with the
//!   capture.
//!
//! ```
//! use koma_mate::{MateAnswer, MateLimits, Solver};
//! use koma_rules::{Position, StandardShogiPosition};
//!
//! // testdata/records/tsumeshogi.csa: the lance uncovers the bishop's check;
//! // every interposition is taken for nothing, so it is mate in three.
//! let problem = StandardShogiPosition::from_text(
//!     "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
//! )
//! .unwrap();
//! let report = Solver::new(16).solve(&problem, &MateLimits::default(), None, None);
//! let MateAnswer::Mate(line) = report.answer else { panic!("a mate") };
//! assert_eq!(report.length, 3);
//! assert_eq!(StandardShogiPosition::move_to_text(line[0]), "7e7b+");
//! assert!(report.shortest);
//! // The line goes on to checkmate on the board: the defender's useless
//! // interpositions at the end, and their captures, are played out.
//! let mut end = problem;
//! for &m in &line {
//!     end.play_unchecked(m);
//! }
//! assert!(end.is_check() && !end.has_legal_move());
//! ```
#![warn(missing_docs)]

mod checkmate_line;
mod dfpn;
mod estimate;
mod interposition;
mod mate_line;
mod moves;
mod path;
mod pieces;
mod solver;
pub mod suite;
mod table;

pub use checkmate_line::line_to_checkmate;
pub use mate_line::is_mate_line;
pub use solver::{MateAnswer, MateLimits, MateReport, Progress, Solver};

use koma_rules::{PawnsPosition, ShogiPosition, ShogiVariant};
use std::sync::atomic::AtomicBool;

/// A game's positions, as far as mate search goes: the shogi-like games
/// have mates to find, Pawns-Only Chess has none (it has no king).
pub trait MateSearch: koma_rules::Position {
    /// Solves the position for the side to move with `solver`; `None` for
    /// a game without mates.
    fn solve_mate(
        &self,
        solver: &mut Solver,
        limits: &MateLimits,
        stop: Option<&AtomicBool>,
    ) -> Option<MateReport>;
}

impl<V: ShogiVariant> MateSearch for ShogiPosition<V> {
    fn solve_mate(
        &self,
        solver: &mut Solver,
        limits: &MateLimits,
        stop: Option<&AtomicBool>,
    ) -> Option<MateReport> {
        Some(solver.solve(self, limits, stop, None))
    }
}

impl MateSearch for PawnsPosition {
    fn solve_mate(
        &self,
        _: &mut Solver,
        _: &MateLimits,
        _: Option<&AtomicBool>,
    ) -> Option<MateReport> {
        None
    }
}
