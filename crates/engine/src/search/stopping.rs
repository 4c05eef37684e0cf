//! When a timed search stops deepening. After each iteration the main
//! thread asks whether another is worth starting: it stops once it has
//! spent 60 % of the plan's soft time, stretched while the best move keeps
//! changing. Two rules on trial, each a tunable off by default, follow
//! Stockfish's time manager: more time while the value falls (against the
//! last search's and the iterations' before), and less once one move has
//! taken nearly every node searched (the others refuted at once). With
//! helper threads, the changes may be counted in every thread, averaged
//! over them (`THREAD_CHANGES`), as Stockfish's `totBestMoveChanges`.

use crate::params::*;
use crate::score::*;
use std::time::Duration;

/// What the iterations so far say about how long to go on.
#[derive(Clone, Debug)]
pub(super) struct Stopping {
    /// Changes of the best move (averaged over the threads that count
    /// them), less one per iteration that does not stop the search.
    best_changes: f64,
    /// The values of the last four iterations (at first, the last
    /// search's), oldest at `next`.
    values: [Value; 4],
    next: usize,
    /// The root's value at the end of this side's last search, if that
    /// search was of the position two plies before this one.
    previous: Option<Value>,
}

/// What one completed iteration found, as [`Stopping::after_iteration`]
/// weighs it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Iteration {
    /// The depth completed.
    pub(super) depth: u32,
    /// The best move's value.
    pub(super) value: Value,
    /// Whether the best move differs from the last iteration's.
    pub(super) best_changed: bool,
    /// Changes of the best move the helper threads' iterations found
    /// since this thread's last iteration (0 where they are not counted).
    pub(super) helper_changes: u32,
    /// The threads the changes are averaged over: 1 where the helpers'
    /// are not counted.
    pub(super) threads: u32,
    /// Nodes searched under the best move, in every iteration so far.
    pub(super) best_effort: u64,
    /// Nodes this thread searched so far.
    pub(super) nodes: u64,
}

impl Stopping {
    /// The rules' state at the start of a search; `previous` as
    /// [`Stopping::previous`] says.
    pub(super) fn new(previous: Option<Value>) -> Stopping {
        let first = previous.unwrap_or(-INFINITE);
        Stopping {
            best_changes: 0.0,
            values: [first; 4],
            next: 0,
            previous,
        }
    }

    /// Counts the changes of the best move, this thread's and the
    /// helpers', averaged over the threads (also in searches without a
    /// clock, as before the rules).
    pub(super) fn count(&mut self, iteration: &Iteration) {
        let changes = u32::from(iteration.best_changed) + iteration.helper_changes;
        self.best_changes += f64::from(changes) / f64::from(iteration.threads.max(1));
    }

    /// Whether a search with `soft` time, `elapsed` of it spent, stops
    /// after `iteration` (already [counted](Stopping::count)).
    /// `margin_scale` is the game's [`crate::Evaluate::MARGIN_SCALE`].
    pub(super) fn after_iteration(
        &mut self,
        iteration: &Iteration,
        soft: Duration,
        elapsed: Duration,
        margin_scale: Value,
    ) -> bool {
        let instability = 1.0 + 0.3 * self.best_changes.min(3.0);
        let four_ago = self.values[self.next];
        self.values[self.next] = iteration.value;
        self.next = (self.next + 1) % self.values.len();
        let falling = falling_eval_factor(
            clock_falling_eval() * margin_scale,
            self.previous,
            four_ago,
            iteration.value,
        );
        let stop_at = soft.mul_f64(0.6 * instability * falling);
        if elapsed > stop_at {
            return true;
        }
        if one_move_took_all(
            clock_effort_percent(),
            iteration.best_effort,
            iteration.nodes,
            iteration.depth,
        ) && elapsed > stop_at.mul_f64(f64::from(clock_effort_stop_percent()) / 100.0)
        {
            return true;
        }
        self.best_changes = (self.best_changes - 1.0).max(0.0);
        false
    }
}

/// How much longer (above 1) or shorter than planned to go on as the
/// value falls or rises: Stockfish's `fallingEval`, one plus twice the
/// fall from the last search's value and once the fall over the last four
/// iterations, over `divisor`, within 0.7 to 1.5. 1 with `divisor` 0 (the
/// rule off), without a last value, or where a value is a mate.
pub(super) fn falling_eval_factor(
    divisor: Value,
    previous: Option<Value>,
    four_ago: Value,
    value: Value,
) -> f64 {
    let Some(previous) = previous else {
        return 1.0;
    };
    if divisor <= 0 || [previous, four_ago, value].iter().any(|&v| is_mate(v)) {
        return 1.0;
    }
    let fall = 2 * (previous - value) + (four_ago - value);
    (1.0 + f64::from(fall) / f64::from(divisor)).clamp(0.7, 1.5)
}

/// Whether the best move took at least `percent` of the nodes (0: the
/// rule off), from depth 6 on, where the share means something.
pub(super) fn one_move_took_all(percent: i32, best_effort: u64, nodes: u64, depth: u32) -> bool {
    percent > 0 && depth >= 6 && nodes > 0 && best_effort * 100 >= nodes * percent as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(depth: u32, value: Value, best_changed: bool) -> Iteration {
        Iteration {
            depth,
            value,
            best_changed,
            helper_changes: 0,
            threads: 1,
            best_effort: 0,
            nodes: 1,
        }
    }

    #[test]
    fn stops_at_six_tenths_of_the_soft_time_while_the_best_move_holds() {
        let soft = Duration::from_millis(1000);
        let mut stopping = Stopping::new(None);
        let steady = iteration(8, 50, false);
        stopping.count(&steady);
        assert!(!stopping.after_iteration(&steady, soft, Duration::from_millis(590), 1));
        stopping.count(&steady);
        assert!(stopping.after_iteration(&steady, soft, Duration::from_millis(610), 1));
    }

    #[test]
    fn a_changing_best_move_stretches_the_time_and_the_stretch_wears_off() {
        let soft = Duration::from_millis(1000);
        let mut stopping = Stopping::new(None);
        let changed = iteration(8, 50, true);
        stopping.count(&changed);
        // 0.6 × 1.3 = 0.78 of the soft time.
        assert!(!stopping.after_iteration(&changed, soft, Duration::from_millis(770), 1));
        let steady = iteration(9, 50, false);
        stopping.count(&steady);
        // The change was forgotten after the last iteration: 0.6 again.
        assert!(stopping.after_iteration(&steady, soft, Duration::from_millis(610), 1));
    }

    #[test]
    fn the_helpers_changes_count_averaged_over_the_threads() {
        let soft = Duration::from_millis(1000);
        // Two threads, the helper's best move changed twice, the main
        // thread's once: 3 / 2 changes, 0.6 × (1 + 0.3 × 1.5) = 0.87.
        let mut stopping = Stopping::new(None);
        let unsettled = Iteration {
            helper_changes: 2,
            threads: 2,
            ..iteration(8, 50, true)
        };
        stopping.count(&unsettled);
        assert!(!stopping.after_iteration(&unsettled, soft, Duration::from_millis(860), 1));
        // Half a change is left: 0.6 × 1.15 = 0.69.
        let steady = Iteration {
            threads: 2,
            ..iteration(9, 50, false)
        };
        stopping.count(&steady);
        assert!(!stopping.after_iteration(&steady, soft, Duration::from_millis(680), 1));
        stopping.count(&steady);
        assert!(stopping.after_iteration(&steady, soft, Duration::from_millis(610), 1));
        // The main thread's one change alone, over two threads, is half a
        // change: 0.6 × 1.15 = 0.69.
        let mut alone = Stopping::new(None);
        let changed = Iteration {
            threads: 2,
            ..iteration(8, 50, true)
        };
        alone.count(&changed);
        assert!(alone.after_iteration(&changed, soft, Duration::from_millis(700), 1));
    }

    #[test]
    fn the_value_falling_asks_for_more_time_rising_for_less() {
        assert_eq!(falling_eval_factor(0, Some(100), 100, -300), 1.0);
        assert_eq!(falling_eval_factor(200, None, 100, -300), 1.0);
        assert_eq!(falling_eval_factor(200, Some(100), 100, 100), 1.0);
        // Fell by 50 since the last search and over four iterations:
        // 1 + (2 × 50 + 50) / 200.
        assert_eq!(falling_eval_factor(200, Some(100), 100, 50), 1.5);
        assert_eq!(falling_eval_factor(600, Some(100), 100, 50), 1.25);
        assert_eq!(falling_eval_factor(600, Some(100), 100, 400), 0.7);
        assert_eq!(falling_eval_factor(200, Some(mate_in(5)), 100, 50), 1.0);
    }

    #[test]
    fn one_move_taking_all_the_nodes_is_seen_from_depth_six() {
        assert!(one_move_took_all(90, 95, 100, 6));
        assert!(!one_move_took_all(90, 85, 100, 6));
        assert!(!one_move_took_all(90, 95, 100, 5));
        assert!(!one_move_took_all(0, 100, 100, 12));
        assert!(!one_move_took_all(90, 0, 0, 12));
    }
}
