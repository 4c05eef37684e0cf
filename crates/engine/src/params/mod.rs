//! The search's tuning constants, in one place. Margins are centipawns
//! (times the game's [`crate::Evaluate::MARGIN_SCALE`]), depths plies.
//!
//! The search's margins, depths and reductions are [`Tunable`]s: each is
//! read through a function (`rfp_margin()`), which in a normal build
//! returns the constant and costs nothing. Built with the `tune` feature
//! (`cargo build --release -p koma --features tune`), each is also a USI
//! option of `koma usi` under its name (`setoption name RFP_MARGIN value
//! 96`), so that SPSA can try values and SPRT can gate a change without a
//! build per value, as Stockfish's `tune.h` and viridithas's parameters do.
//! [`TUNABLES`] lists them with the range a tuner may try and its step.
//!
//! ```
//! use koma_engine::params::{self, TUNABLES};
//!
//! let rfp = TUNABLES.iter().find(|t| t.name == "RFP_MARGIN").unwrap();
//! assert_eq!(params::rfp_margin(), rfp.default);
//! assert!(rfp.min <= rfp.default && rfp.default <= rfp.max);
//! // What an SPSA tuner (OpenBench's format) is given.
//! assert_eq!(rfp.spsa_line(), "RFP_MARGIN, int, 90, 40, 200, 8, 0.002");
//! ```

mod tunable;

pub use tunable::{set, Tunable, TuneError, TUNING};

use tunable::tunables;

use std::time::Duration;

/// Late move reductions: `lmr_base() + ln(depth) ln(moves) / lmr_divisor()`.
pub fn lmr_base() -> f64 {
    f64::from(lmr_base_centi()) / 100.0
}

/// See [`lmr_base`].
pub fn lmr_divisor() -> f64 {
    f64::from(lmr_divisor_centi()) / 100.0
}

/// How far back (plies) the search looks for a repeated position.
pub const REPETITION_LOOKBACK: usize = 100;
/// The value of winning by the opponent's perpetual check (a sure win, but
/// not a mate the search counted).
pub const PERPETUAL_CHECK: crate::score::Value = 20_000;
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

tunables! {
    /// Half-width of the first aspiration window around the last value.
    ASPIRATION_WINDOW, aspiration_window = 30, 10..=80, step 4;
    /// Reverse futility pruning applies up to this depth...
    RFP_MAX_DEPTH, rfp_max_depth = 6, 2..=10, step 1;
    /// ...when the evaluation beats beta by this much per ply.
    RFP_MARGIN, rfp_margin = 90, 40..=200, step 8;
    /// Null-move reduction before the depth- and margin-dependent part.
    NULL_BASE_REDUCTION, null_base_reduction = 3, 1..=8, step 1;
    /// The null move's reduction grows by a ply per this many plies of depth.
    NULL_DEPTH_DIVISOR, null_depth_divisor = 4, 2..=8, step 1;
    /// The null move's reduction grows by a ply per this much of the
    /// evaluation above beta (up to two).
    NULL_MARGIN_PER_PLY, null_margin_per_ply = 200, 80..=400, step 15;
    /// Whether a node in check passes on the static evaluation of the node
    /// two plies up (1), so that the nodes below a check still tell
    /// whether the side improved, rather than none (0).
    IMPROVING_THROUGH_CHECK, improving_through_check = 0, 0..=1, step 1;
    /// Whether a promotion that captures nothing is reduced and pruned as a
    /// quiet move (1) rather than spared as a tactical one (0); it is
    /// ordered as a promotion either way.
    PROMOTIONS_QUIET, promotions_quiet = 0, 0..=1, step 1;
    /// How much the capture history counts in the order of captures, in
    /// sixteenths of its score (0: captures by victim and attacker alone).
    CAPTURE_HISTORY_WEIGHT, capture_history_weight = 0, 0..=32, step 2;
    /// Whether a quiet move's order and reduction also count how well it
    /// followed this side's own move two plies before (1: a follow-up
    /// history, as Stockfish's and YaneuraOu's continuation histories
    /// look back more than one ply), or only the move just before it (0).
    FOLLOWUP_HISTORY, followup_history = 0, 0..=1, step 1;
    /// A quiet move tried before a cutoff loses this percentage of the
    /// cutting move's reward from its history.
    QUIET_MALUS_PERCENT, quiet_malus_percent = 100, 50..=400, step 20;
    /// A late quiet move is reduced a ply less (more) per this much of its
    /// history score above (below) zero; 0 keeps the old steps instead, a
    /// ply for a score beyond ±4,000.
    LMR_HISTORY_DIVISOR, lmr_history_divisor = 0, 0..=32_768, step 512;
    /// Whether a late capture or promotion that move ordering does not
    /// count as winning is reduced as a late quiet move's base reduction
    /// (1), where today only quiet moves are (0).
    LMR_CAPTURES, lmr_captures = 0, 0..=1, step 1;
    /// Whether a reduced move that beat alpha is searched again a ply
    /// deeper when it beat the best value so far by more than
    /// [`lmr_deeper_margin`] plus two per ply of depth, and a ply
    /// shallower (so not again, at a reduction of one) when by less than
    /// [`lmr_shallower_margin`] (1),
    /// as Stockfish's `doDeeperSearch` and `doShallowerSearch`; or always
    /// at the node's depth less one (0).
    LMR_RESEARCH_ADJUST, lmr_research_adjust = 0, 0..=1, step 1;
    /// See [`lmr_research_adjust`].
    LMR_DEEPER_MARGIN, lmr_deeper_margin = 40, 0..=200, step 5;
    /// See [`lmr_research_adjust`].
    LMR_SHALLOWER_MARGIN, lmr_shallower_margin = 10, 0..=60, step 2;
    /// Late move pruning applies up to this depth...
    LMP_MAX_DEPTH, lmp_max_depth = 4, 1..=8, step 1;
    /// ...after this many moves plus depth² (doubled when improving).
    LMP_BASE, lmp_base = 4, 1..=10, step 1;
    /// Futility pruning of quiet moves applies up to this depth...
    FUTILITY_MAX_DEPTH, futility_max_depth = 3, 1..=8, step 1;
    /// ...when the evaluation plus base plus margin per ply is below alpha.
    FUTILITY_MARGIN, futility_margin = 100, 40..=250, step 8;
    /// See [`futility_margin`].
    FUTILITY_BASE, futility_base = 120, 0..=300, step 10;
    /// Whether futility and the static-exchange test judge a late quiet
    /// move at the depth its reduction would leave it (1), as Stockfish's
    /// `lmrDepth` does, rather than at the node's depth (0). (1 passed its
    /// SPRT against 0: +20 Elo by pairs over 2,195 games,
    /// docs/strength/search.md.)
    PRUNE_AT_REDUCED_DEPTH, prune_at_reduced_depth = 1, 0..=1, step 1;
    /// Moves losing material by static exchange are pruned up to this depth...
    SEE_MAX_DEPTH, see_max_depth = 6, 1..=10, step 1;
    /// ...captures losing more than this per ply (in exchange values, which
    /// count a piece on the board and in hand)...
    SEE_CAPTURE_MARGIN, see_capture_margin = 200, 50..=400, step 15;
    /// ...and quiet moves losing more than this per ply squared.
    SEE_QUIET_MARGIN, see_quiet_margin = 60, 10..=150, step 5;
    /// Quiescence skips a capture that cannot lift the value this close to alpha.
    DELTA_MARGIN, delta_margin = 200, 50..=500, step 15;
    /// Whether quiescence tries quiet checks that lose nothing at the
    /// main search's horizon (1), or captures alone (0), as YaneuraOu's.
    QUIESCENCE_CHECKS, quiescence_checks = 1, 0..=1, step 1;
    /// Whether a node in check is searched a ply deeper (1; while the line
    /// is shorter than twice the root's depth), or at its depth (0), as
    /// YaneuraOu's is.
    CHECK_EXTENSION, check_extension = 1, 0..=1, step 1;
    /// Whether a node off the principal variation that is not in check
    /// and that the table has not seen looks for a mate in one among its
    /// checks first, and returns its value at once (1), as YaneuraOu's
    /// search does; or leaves mates to the search below it (0).
    MATE_ONE, mate_one = 0, 0..=1, step 1;
    /// Whether a search with helper threads plays the move the threads
    /// vote for (1, `search::vote`), as Stockfish's and YaneuraOu's do, or
    /// always the main thread's (0). No one-thread search changes.
    THREAD_VOTE, thread_vote = 0, 0..=1, step 1;
    /// A thread's vote is its value above the lowest thread's plus this,
    /// times its depth.
    THREAD_VOTE_MARGIN, thread_vote_margin = 10, 0..=60, step 4;
    /// Whether every other helper thread searches a ply ahead of the main
    /// thread (1), so that the threads spread over two depths, or every
    /// thread the same depths (0), as Stockfish's since its version 10
    /// and YaneuraOu's. No one-thread search changes.
    HELPER_AHEAD, helper_ahead = 1, 0..=1, step 1;
    /// Whether the main thread's clock counts the changes of the best move
    /// in every thread, averaged over them (1), as Stockfish's and
    /// YaneuraOu's `totBestMoveChanges`, or its own only (0). No
    /// one-thread search changes.
    THREAD_CHANGES, thread_changes = 0, 0..=1, step 1;
    /// How many plies less a node off the principal variation reduces its
    /// late moves when the table marks it as having been on one (by an
    /// earlier search or another thread's, Stockfish's `ttPv`); 0: the
    /// mark is kept but not used.
    TABLE_PV_REDUCTION, table_pv_reduction = 0, 0..=2, step 1;
    /// Whether the static evaluation is corrected by what the search found
    /// in positions sharing its pawns, its pieces or its last two moves
    /// (`correction`: Stockfish's and YaneuraOu's correction history,
    /// shared by the threads): 1 in shogi, where its SPRT passed, 2 in
    /// every game of the shogi family too (for the small boards' tests),
    /// 0 nowhere. Weakened levels take the evaluation as it is.
    CORRECTION_HISTORY, correction_history = 1, 0..=2, step 1;
    /// Whether ProbCut (`search::probcut`) cuts a node off by a capture
    /// that beats beta by [`probcut_margin`] in a shallower search (1).
    PROBCUT, probcut = 0, 0..=1, step 1;
    /// ProbCut applies from this depth...
    PROBCUT_MIN_DEPTH, probcut_min_depth = 5, 3..=10, step 1;
    /// ...with this margin above beta.
    PROBCUT_MARGIN, probcut_margin = 200, 50..=500, step 15;
    /// Singular extension: from this depth, a table move (a lower bound or
    /// exact, searched at least this depth less [`singular_depth_slack`])...
    SINGULAR_MIN_DEPTH, singular_min_depth = 7, 4..=12, step 1;
    /// See [`singular_min_depth`].
    SINGULAR_DEPTH_SLACK, singular_depth_slack = 3, 1..=6, step 1;
    /// ...is extended when every other move, searched to half the depth, stays
    /// below the table's value less this much per ply.
    SINGULAR_MARGIN_PER_PLY, singular_margin_per_ply = 2, 1..=8, step 1;
    /// [`lmr_base`] in hundredths (tuners move integers).
    LMR_BASE_CENTI, lmr_base_centi = 50, 0..=150, step 5;
    /// [`lmr_divisor`] in hundredths.
    LMR_DIVISOR_CENTI, lmr_divisor_centi = 220, 120..=400, step 10;
    /// Shogi's clock (`crate::Evaluate::moves_left`): the moves a side is
    /// expected still to make at the first ply...
    CLOCK_MOVES_AT_START, clock_moves_at_start = 35, 15..=60, step 2;
    /// ...fewer by this many per 100 plies played...
    CLOCK_MOVES_LESS_PER_100_PLIES, clock_moves_less_per_100_plies = 15, 0..=30, step 2;
    /// ...and never fewer than this, so that a long game keeps a reserve.
    /// (35, 15 and 15 passed an SPRT against the constant 50 moves used
    /// before: +33 Elo over 760 games, docs/strength/clock.md, "The clock
    /// by ply".)
    CLOCK_MOVES_FLOOR, clock_moves_floor = 15, 5..=60, step 2;
    /// On trial (`search::stopping`), 0 is off: a timed search goes on
    /// longer as its value falls, by the fall (twice that from this side's
    /// last search, once that over the last four iterations) over this
    /// many centipawns, within 0.7 to 1.5 times (Stockfish's
    /// `fallingEval`).
    CLOCK_FALLING_EVAL, clock_falling_eval = 0, 0..=600, step 25;
    /// On trial, 0 is off: a timed search stops sooner once its best move
    /// took at least this percentage of the nodes searched...
    CLOCK_EFFORT_PERCENT, clock_effort_percent = 0, 0..=99, step 2;
    /// ...at this percentage of the time it would otherwise stop at
    /// (Stockfish 16's 0.739; later versions stop at about 0.65).
    CLOCK_EFFORT_STOP_PERCENT, clock_effort_stop_percent = 74, 30..=100, step 4;
}
