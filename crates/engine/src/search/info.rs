//! What a search tells: its progress after each iteration ([`Info`]) and
//! what it decided ([`SearchResult`]).

use crate::score::Score;
use crate::tt::Bound;
use koma_rules::Move;
use std::time::Duration;

/// Progress of a search, reported after each iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// The depth completed (in plies).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Which line this is (1 = the best) when several are searched.
    pub multipv: u32,
    /// The value of the line.
    pub score: Score,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move (resign).
    pub best_move: Option<Move>,
    /// The reply expected (to ponder on).
    pub ponder_move: Option<Move>,
    /// The value of the best move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
}

/// Nodes a second over `time` (any time below a microsecond counts as one).
pub(super) fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}
