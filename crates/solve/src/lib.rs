//! Solving Pawns-Only Chess (`docs/rules/pawns.md`) on boards of 4 to 8
//! files: the exact value of a position (win, draw or loss for the side to
//! move) and a certificate of it that `koma-proof` checks with its own code.
//!
//! The search ([`Solver`]) is alpha-beta over the three values, with a
//! table of exact keys (no hash collision can decide a value) and one key
//! for a position and its mirror image. The game is acyclic, every move
//! advancing a pawn, so values never depend on the path.
//!
//! ```
//! use koma_rules::pawns_board::PawnsBoard;
//! use koma_solve::{Solver, Value};
//!
//! let mut solver = Solver::new();
//! // On four files White must capture at once, and loses.
//! assert_eq!(solver.value(&PawnsBoard::<4>::start()), Value::Loss);
//! ```

mod certificate;
mod compact;
mod mirror;
#[cfg(test)]
mod oracle;
mod perfect;
mod race;
mod search;
mod shared;
mod shipped;
mod state;
mod table;
mod value;

pub use certificate::{Certificate, StrategySize, Written};
pub use compact::{TableSize, PAWNS8_TABLE, TABLE_WORK};
pub use mirror::{mirror_certificate, Mirrored};
pub use perfect::{Interrupted, Perfect, PerfectMove};
pub use search::{default_table_bytes, Progress, Solver};
pub use shared::SharedPerfect;
pub use shipped::{GameMove, LENGTH_BUDGET};
pub use state::JOURNAL_WORK;
pub use value::Value;
