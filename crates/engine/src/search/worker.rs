//! The state of one search and its bookkeeping: nodes and the clock,
//! the line of positions (for repetitions), known results and the
//! principal variation. The search itself is spread over the modules
//! beside this one, each an `impl` of [`Worker`].

use super::control::SearchControl;
use crate::correction::CorrectionHistory;
use crate::eval::Evaluate;
use crate::history::{History, PieceSquare};
use crate::limits::TimePlan;
use crate::params::*;
use crate::score::*;
use crate::tt::TranspositionTable;
use koma_rules::{Color, Declaration, ImpasseRule, Move, Variant};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

/// One root move with what the search found for it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) m: Move,
    pub(super) value: Value,
    pub(super) previous_value: Value,
    /// Nodes searched under this move, over every iteration.
    pub(super) effort: u64,
    pub(super) pv: Vec<Move>,
}

/// The state of one search.
pub(super) struct Worker<'a, P: Evaluate> {
    pub(super) table: &'a TranspositionTable,
    /// The evaluation's corrections, shared by the threads; `None`: the
    /// static evaluation is taken as it is.
    pub(super) correction: Option<&'a CorrectionHistory>,
    pub(super) history: &'a mut History,
    /// The mate solver and what this search may give it; `None`: none.
    pub(super) mate: Option<super::solvers::MateProbe<'a>>,
    pub(super) control: &'a SearchControl,
    pub(super) start: Instant,
    /// When the clock started: the start, or `ponderhit`.
    pub(super) clock_start: Option<Instant>,
    pub(super) plan: TimePlan,
    pub(super) node_limit: u64,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Hashes of the game's positions then the search's, for repetitions.
    pub(super) keys: Vec<u64>,
    /// Whether the side to move was in check at each of `keys`.
    pub(super) checks: Vec<bool>,
    /// Static evaluations by ply (for `improving`).
    pub(super) evals: [Value; MAX_PLY + 4],
    /// Whether the move into each ply was a null move.
    pub(super) null_at: [bool; MAX_PLY + 4],
    /// The piece-square of the move made at each ply (`None` for a null
    /// move), for the continuation history of the next.
    pub(super) moved: [Option<PieceSquare>; MAX_PLY + 4],
    /// The move a singular extension's search leaves out at each ply.
    pub(super) excluded: [Option<Move>; MAX_PLY + 4],
    /// Whether the node at each ply is or was on a principal variation:
    /// searched with an open window, or so marked in the table by any
    /// thread's search (Stockfish's `ttPv`).
    pub(super) table_pv: [bool; MAX_PLY + 4],
    /// The principal variation found from each ply.
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) root_depth: i32,
    /// The root's value this side's last search found, two plies ago,
    /// for the clock (`search::stopping`).
    pub(super) last_search_value: Option<Value>,
    /// The impasse rule a declaration wins under (shogi only); a node
    /// where the side to move may declare is won on the spot.
    pub(super) impasse: Option<ImpasseRule>,
    /// The threads of a search with helpers (Lazy SMP): what they share.
    pub(super) pool: Option<Pool<'a>>,
    /// The network and the accumulators of the line searched; `None`:
    /// the classical evaluation.
    pub(super) network: Option<super::network_stack::NetworkStack<'a>>,
    pub(super) game: std::marker::PhantomData<P>,
}

/// What the threads of one search share beside the table: the flag that
/// ends the helpers when the main thread is done, the helpers' nodes, and
/// the changes of their best moves not yet counted by the main thread.
#[derive(Clone, Copy)]
pub(super) struct Pool<'a> {
    pub(super) done: &'a AtomicBool,
    pub(super) helper_nodes: &'a AtomicU64,
    pub(super) best_changes: &'a AtomicU32,
    /// How many threads search, the main thread included.
    pub(super) threads: u32,
    /// Which helper this is (1, 2, ...); 0 for the main thread.
    pub(super) index: usize,
}

impl Pool<'_> {
    /// Whether this thread is a helper, not the main thread.
    pub(super) fn is_helper(&self) -> bool {
        self.index > 0
    }
}

/// How often (in nodes, a power of two) the main thread looks at the
/// clock.
const NODES_BETWEEN_LOOKS: u64 = 1024;

/// How often (in nodes, a power of two) a helper looks whether the main
/// thread is done, and adds its nodes to the pool's count. More often than
/// the main thread looks at the clock: the main thread waits for every
/// helper before it answers, and 1,024 nodes are more than a millisecond,
/// a few hundredths of a move at 2 s + 0.05 s. A load of a line that is
/// written once a search costs next to nothing.
const HELPER_NODES_BETWEEN_LOOKS: u64 = 128;

impl<'a, P: Evaluate> Worker<'a, P> {
    /// A worker to search the last of `positions` from `root_moves`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        table: &'a TranspositionTable,
        correction: Option<&'a CorrectionHistory>,
        history: &'a mut History,
        mate: Option<super::solvers::MateProbe<'a>>,
        control: &'a SearchControl,
        start: Instant,
        plan: TimePlan,
        limits: &super::Limits,
        positions: &[P],
        root_moves: Vec<RootMove>,
        impasse: Option<ImpasseRule>,
        pool: Option<Pool<'a>>,
        network: Option<&'a koma_nnue::Network>,
    ) -> Self {
        Worker {
            table,
            correction,
            history,
            mate,
            control,
            start,
            clock_start: (!limits.ponder).then_some(start),
            plan,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys: positions.iter().map(|p| p.hash()).collect(),
            checks: positions.iter().map(|p| p.is_check()).collect(),
            evals: [0; MAX_PLY + 4],
            null_at: [false; MAX_PLY + 4],
            moved: [None; MAX_PLY + 4],
            excluded: [None; MAX_PLY + 4],
            // The root is on every principal variation.
            table_pv: std::array::from_fn(|ply| ply == 0),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            root_moves,
            root_depth: 0,
            last_search_value: None,
            impasse: impasse.filter(|_| P::VARIANT == Variant::Shogi),
            pool,
            network: network.map(super::network_stack::NetworkStack::new),
            game: std::marker::PhantomData,
        }
    }

    pub(super) fn push(&mut self, position: &P) {
        self.keys.push(position.hash());
        self.checks.push(position.is_check());
    }

    pub(super) fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
    }

    /// Counts a node (a move made) and looks at the clock now and then.
    #[inline]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & (self.nodes_between_looks() - 1) == 0 {
            self.check_time();
        }
    }

    /// How often this thread looks at the clock or the pool.
    #[inline]
    fn nodes_between_looks(&self) -> u64 {
        match self.pool {
            Some(pool) if pool.is_helper() => HELPER_NODES_BETWEEN_LOOKS,
            _ => NODES_BETWEEN_LOOKS,
        }
    }

    /// Nodes searched by every thread so far.
    pub(super) fn all_nodes(&self) -> u64 {
        self.nodes
            + self
                .pool
                .map_or(0, |pool| pool.helper_nodes.load(Ordering::Relaxed))
    }

    fn check_time(&mut self) {
        if self.control.is_stopped() {
            self.stopped = true;
            return;
        }
        if let Some(pool) = self.pool.filter(Pool::is_helper) {
            pool.helper_nodes
                .fetch_add(HELPER_NODES_BETWEEN_LOOKS, Ordering::Relaxed);
            if pool.done.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            return;
        }
        if self.control.is_pondering() {
            return;
        }
        let clock_start = *self.clock_start.get_or_insert_with(Instant::now);
        if let Some(hard) = self.plan.hard {
            // Depth 1 always finishes, so there is a move to play.
            if clock_start.elapsed() >= hard && self.root_depth > 1 {
                self.stopped = true;
            }
        }
    }

    /// A repetition of an earlier position with `turn` to move: a loss for
    /// a side that gave check all the way round, else a draw (in
    /// minishogi, a loss for sente).
    pub(super) fn repetition(&self, turn: Color) -> Option<Value> {
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let mut index = current;
        let oldest = current.saturating_sub(REPETITION_LOOKBACK);
        while index >= oldest + 2 {
            index -= 2;
            if self.keys[index] == key {
                // Positions in the cycle where the opponent was to move
                // came after our moves: all checks means we gave perpetual.
                let we_checked = (index + 1..current).step_by(2).all(|i| self.checks[i]);
                let they_checked = (index + 2..=current).step_by(2).all(|i| self.checks[i]);
                return Some(if we_checked {
                    -PERPETUAL_CHECK
                } else if they_checked {
                    PERPETUAL_CHECK
                } else if P::VARIANT == Variant::Minishogi {
                    // Sente loses: as sure as a perpetual check's loss.
                    if turn == Color::Sente {
                        -PERPETUAL_CHECK
                    } else {
                        PERPETUAL_CHECK
                    }
                } else {
                    DRAW
                });
            }
        }
        None
    }

    /// The value of a position whose result the evaluation already knows.
    #[inline]
    pub(super) fn known(&self, position: &P, ply: usize) -> Option<Value> {
        if let Some(rule) = self.impasse {
            if position.impasse_declaration(rule) == Declaration::Win {
                // Declaring ends the game at once, like a mate in one.
                return Some(mate_in(ply + 1));
            }
        }
        position.known_result().map(|plies| match plies {
            0 => mated_in(ply),
            n if n > 0 => mate_in(ply + n as usize),
            n => mated_in(ply + (-n) as usize),
        })
    }

    /// The value of a position without legal moves.
    pub(super) fn terminal(position: &P, ply: usize) -> Value {
        match position.outcome() {
            Some(outcome) => match outcome.winner {
                Some(winner) if winner == position.turn() => mate_in(ply),
                Some(_) => mated_in(ply),
                None => DRAW,
            },
            None => DRAW,
        }
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }
}
