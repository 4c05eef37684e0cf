//! What the mate solver beside the search keeps and may spend: the
//! solvers an engine keeps from move to move, and one search's budget for
//! them (the search's use of them is `mate`).

use crate::limits::Limits;
use crate::params::{
    MATE_PROBE_MIN_NODES, MATE_PROBE_MIN_TIME, MATE_PROBE_SHARE, MATE_PROBE_UNTIMED,
};
use koma_mate::{MateLimits, Solver};
use koma_rules::Color;
use std::time::Duration;

/// The solvers an engine keeps from move to move: one for each attacking
/// side, since a table's proofs are of the attacker's mates.
pub(crate) struct MateSolvers {
    solvers: [Option<Solver>; 2],
}

/// The size of each side's solver table.
const SOLVER_MEGABYTES: usize = 64;

impl MateSolvers {
    pub(crate) fn new() -> MateSolvers {
        MateSolvers {
            solvers: [None, None],
        }
    }

    /// Forgets every proof (a new game).
    pub(crate) fn clear(&mut self) {
        self.solvers = [None, None];
    }

    /// The solver for `attacker`'s mates, made on first use.
    pub(crate) fn for_attacker(&mut self, attacker: Color) -> &mut Solver {
        let index = match attacker {
            Color::Sente => 0,
            Color::Gote => 1,
        };
        self.solvers[index].get_or_insert_with(|| Solver::new(SOLVER_MEGABYTES))
    }
}

/// What one search may spend on a solve: a share of its nodes or of its
/// time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MateBudget {
    Nodes(u64),
    Time(Duration),
}

impl MateBudget {
    /// The budget of one solve in a search within `limits`, whose time
    /// plan allows `planned` (the soft limit, else the hard one). `None`
    /// for a search to a fixed depth alone, which stays the search alone
    /// (the bench's signature, tests).
    pub(crate) fn for_search(limits: &Limits, planned: Option<Duration>) -> Option<MateBudget> {
        if let Some(nodes) = limits.nodes {
            return Some(MateBudget::Nodes((nodes / MATE_PROBE_SHARE).max(1)));
        }
        if let Some(time) = planned {
            return Some(MateBudget::Time(time / MATE_PROBE_SHARE as u32));
        }
        if limits.infinite || limits.ponder {
            return Some(MateBudget::Time(MATE_PROBE_UNTIMED));
        }
        None
    }

    /// Whether it is enough for a solve of the root before the search
    /// claims anything (see [`MATE_PROBE_MIN_TIME`]).
    pub(crate) fn enough_for_the_root(self) -> bool {
        match self {
            MateBudget::Nodes(nodes) => nodes >= MATE_PROBE_MIN_NODES,
            MateBudget::Time(time) => time >= MATE_PROBE_MIN_TIME,
        }
    }

    pub(crate) fn limits(self) -> MateLimits {
        let (time, nodes) = match self {
            MateBudget::Nodes(nodes) => (None, Some(nodes)),
            MateBudget::Time(time) => (Some(time), None),
        };
        MateLimits {
            time,
            nodes,
            table_megabytes: SOLVER_MEGABYTES,
            // The search as it was measured in self-play; the short tries
            // that problems use have not been through an SPRT here yet.
            short_first: false,
        }
    }
}

/// The solver as one search uses it.
pub(crate) struct MateProbe<'a> {
    pub(crate) solvers: &'a mut MateSolvers,
    pub(crate) budget: MateBudget,
    /// Whether the mate the search claimed was put to the solver already
    /// (once a search: a claim it could not prove is not asked again).
    pub(crate) claim_checked: bool,
}
