//! What bounds a search (time, depth, nodes) and how much of the clock a
//! move may use.

use koma_rules::Move;
use std::time::Duration;

/// The side to move's clock, as the protocols send it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    /// Main time left.
    pub remaining: Duration,
    /// Added after each move (Fischer increment).
    pub increment: Duration,
    /// Byoyomi: time per move once the main time is spent.
    pub byoyomi: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Bounds on one search. Several may be given; the first reached stops it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    /// Exactly this long (less the move overhead).
    pub move_time: Option<Duration>,
    /// At most this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// At most about this many nodes.
    pub nodes: Option<u64>,
    /// Search until told to stop (analysis, `go infinite`).
    pub infinite: bool,
    /// Search as if infinite until `ponderhit`, then by the other limits.
    pub ponder: bool,
    /// Only these moves of the root are searched (USI and UCI `go
    /// searchmoves`: a GUI asking what one move is worth). Empty, or
    /// naming no legal move: every legal move.
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// A search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of a fixed duration.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// A search of about `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// How long a search may run: it starts no new iteration after `soft`, and
/// stops wherever it is at `hard`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimePlan {
    /// Don't start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
}

impl TimePlan {
    /// The plan for `limits`. `overhead` is kept back from every move for
    /// the protocol and the process (the GUI's clock runs while the answer
    /// travels); `moves_left` is how many more moves this side is expected
    /// to make in the game.
    ///
    /// ```
    /// use koma_engine::{Clock, Limits, TimePlan};
    /// use std::time::Duration;
    /// let limits = Limits {
    ///     clock: Some(Clock { remaining: Duration::from_secs(10), ..Clock::default() }),
    ///     ..Limits::default()
    /// };
    /// let plan = TimePlan::new(&limits, Duration::from_millis(50), 40);
    /// assert!(plan.soft.unwrap() < plan.hard.unwrap());
    /// assert!(plan.hard.unwrap() < Duration::from_secs(4));
    /// ```
    pub fn new(limits: &Limits, overhead: Duration, moves_left: u32) -> TimePlan {
        let minimum = Duration::from_millis(1);
        if limits.infinite {
            return TimePlan {
                soft: None,
                hard: None,
            };
        }
        let mut plan = TimePlan {
            soft: None,
            hard: None,
        };
        if let Some(time) = limits.move_time {
            // A fixed time is used in full: no soft limit.
            let time = time.saturating_sub(overhead).max(minimum);
            plan = TimePlan {
                soft: None,
                hard: Some(time),
            };
        }
        if let Some(clock) = limits.clock {
            let clocked = Self::from_clock(clock, overhead, moves_left);
            plan.soft = Some(clocked.0.min(plan.hard.unwrap_or(clocked.0)));
            plan.hard = Some(plan.hard.map_or(clocked.1, |h| h.min(clocked.1)));
        }
        plan
    }

    fn from_clock(clock: Clock, overhead: Duration, moves_left: u32) -> (Duration, Duration) {
        let minimum = Duration::from_millis(1);
        let moves_left = clock
            .moves_to_go
            .map_or(moves_left, |m| m.min(moves_left))
            .max(1);
        // All that can be spent on this move without losing on time.
        let available = (clock.remaining + clock.byoyomi).saturating_sub(overhead);
        if clock.remaining.is_zero() {
            // Pure byoyomi: the period is lost if unused, so use it.
            let time = available.max(minimum);
            return (time, time);
        }
        let share = clock.remaining / moves_left + clock.increment * 3 / 4 + clock.byoyomi;
        let hard_cap = clock.remaining * 2 / 5 + clock.byoyomi + clock.increment / 2;
        let soft = share.min(available).max(minimum);
        let hard = (share * 4).min(hard_cap).min(available).max(soft);
        (soft, hard)
    }
}
