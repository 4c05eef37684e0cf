//! The search's tuning constants, in one place. Margins are centipawns
//! (times the game's [`crate::Evaluate::MARGIN_SCALE`]), depths plies.

use crate::score::Value;
use std::time::Duration;

/// Half-width of the first aspiration window around the last value.
pub const ASPIRATION_WINDOW: Value = 30;
/// Reverse futility pruning applies up to this depth...
pub const RFP_MAX_DEPTH: i32 = 6;
/// ...when the evaluation beats beta by this much per ply.
pub const RFP_MARGIN: Value = 90;
/// Null-move reduction before the depth- and margin-dependent part.
pub const NULL_BASE_REDUCTION: i32 = 3;
/// The null move's reduction grows by a ply per this much of the
/// evaluation above beta (up to two).
pub const NULL_MARGIN_PER_PLY: Value = 200;
/// Late move pruning applies up to this depth...
pub const LMP_MAX_DEPTH: i32 = 4;
/// ...after this many moves plus depth² (doubled when improving).
pub const LMP_BASE: i32 = 4;
/// Futility pruning of quiet moves applies up to this depth...
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// ...when the evaluation plus base plus margin per ply is below alpha.
pub const FUTILITY_MARGIN: Value = 100;
/// See [`FUTILITY_MARGIN`].
pub const FUTILITY_BASE: Value = 120;
/// Moves losing material by static exchange are pruned up to this depth...
pub const SEE_MAX_DEPTH: i32 = 6;
/// ...captures losing more than this per ply (in exchange values, which
/// count a piece on the board and in hand)...
pub const SEE_CAPTURE_MARGIN: Value = 200;
/// ...and quiet moves losing more than this per ply squared.
pub const SEE_QUIET_MARGIN: Value = 60;
/// Quiescence skips a capture that cannot lift the value this close to alpha.
pub const DELTA_MARGIN: Value = 200;
/// Singular extension: from this depth, a table move (a lower bound or
/// exact, searched at least this depth less [`SINGULAR_DEPTH_SLACK`])...
pub const SINGULAR_MIN_DEPTH: i32 = 7;
/// See [`SINGULAR_MIN_DEPTH`].
pub const SINGULAR_DEPTH_SLACK: i32 = 3;
/// ...is extended when every other move, searched to half the depth, stays
/// below the table's value less this much per ply.
pub const SINGULAR_MARGIN_PER_PLY: Value = 2;
/// Late move reductions: `LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.2;
/// How far back (plies) the search looks for a repeated position.
pub const REPETITION_LOOKBACK: usize = 100;
/// The value of winning by the opponent's perpetual check (a sure win, but
/// not a mate the search counted).
pub const PERPETUAL_CHECK: Value = 20_000;
/// The mate solver looks at the root when the side to move has this many
/// checks or more (`search::mate`)...
pub const MATE_PROBE_CHECKS: usize = 2;
/// ...with this fraction of the search's nodes or planned time (and as
/// much again for a mate the search claims)...
pub const MATE_PROBE_SHARE: u64 = 16;
/// ...or this long in a search without a time plan (`go infinite`, ponder).
pub const MATE_PROBE_UNTIMED: Duration = Duration::from_secs(1);
/// The root is solved only with at least this much time (or
/// [`MATE_PROBE_MIN_NODES`]): the solver searches about 100,000 nodes a
/// second in a game's crowded positions, and a smaller share proves
/// nothing the search would not see, at a measured cost in self-play (a
/// mate the search claims is still put to the solver).
pub const MATE_PROBE_MIN_TIME: Duration = Duration::from_millis(40);
/// See [`MATE_PROBE_MIN_TIME`].
pub const MATE_PROBE_MIN_NODES: u64 = 20_000;
