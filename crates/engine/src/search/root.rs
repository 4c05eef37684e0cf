//! The root of the search: iterative deepening, when a timed search stops
//! deepening, aspiration windows around each line's previous value, the
//! root moves searched and sorted (several lines for MultiPV), and the
//! [`Info`] reported for them.

use super::info::Info;
use super::mate;
use super::stopping::{Iteration, Stopping};
use super::worker::Worker;
use crate::eval::Evaluate;
use crate::history::piece_square;
use crate::limits::Limits;
use crate::params::*;
use crate::score::*;
use crate::tt::Bound;
use koma_rules::Move;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<P: Evaluate> Worker<'_, P> {
    /// Iterative deepening; returns the last completed depth and value.
    pub(super) fn iterate(
        &mut self,
        root: &P,
        limits: &Limits,
        multipv: usize,
        report: &mut dyn FnMut(&Info),
    ) -> (u32, Value) {
        self.network_root(root);
        if self.root_moves.is_empty() {
            let value = match root.outcome() {
                Some(outcome) if outcome.winner == Some(root.turn()) => mate_in(0),
                Some(outcome) if outcome.winner.is_some() => mated_in(0),
                _ => DRAW,
            };
            return (0, value);
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let multipv = multipv.clamp(1, self.root_moves.len());
        let mut completed = (0, -INFINITE);
        let mut stopping = Stopping::new(self.last_search_value);
        // A timed search plays a mate the solver proves at once; an
        // analysis (infinite, pondering, several lines) goes on from it.
        let plays_proven_mate =
            |worker: &Self| !limits.infinite && !worker.control.is_pondering() && multipv == 1;
        let mut first_depth = 1;
        if let Some(value) = self.probe_root_mate(root, report) {
            completed = (self.root_moves[0].pv.len() as u32, value);
            if plays_proven_mate(self) {
                first_depth = max_depth + 1;
            }
        }
        // Helpers search one ply deeper every other thread, so that the
        // threads spread over two depths rather than race through one
        // (unless `HELPER_AHEAD` is off).
        let offset = self
            .pool
            .map_or(0, |pool| pool.index as u32 % 2 * helper_ahead() as u32);
        for depth in (first_depth..=max_depth).map(|depth| (depth + offset).min(max_depth)) {
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let previous_best = self.root_moves[0].m;
            for root_move in &mut self.root_moves {
                root_move.previous_value = root_move.value;
            }
            for line in 0..multipv {
                self.search_line(root, depth as i32, line, report);
                if self.stopped {
                    break;
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            completed = (depth, self.root_moves[0].value);
            self.report_lines(depth, multipv, report);
            if self.stopped {
                break;
            }
            if mate::is_winning_mate(completed.1) {
                if let Some(value) = self.check_claimed_mate(root, report) {
                    completed = (depth, value);
                    if plays_proven_mate(self) {
                        break;
                    }
                }
            }
            let best_changed = self.root_moves[0].m != previous_best;
            let (helper_changes, threads) = self.count_thread_changes(best_changed);
            let iteration = Iteration {
                depth,
                value: self.root_moves[0].value,
                best_changed,
                helper_changes,
                threads,
                best_effort: self.root_moves[0].effort,
                nodes: self.nodes,
            };
            stopping.count(&iteration);
            // Timed searches stop early: one legal move, a mate found, or
            // too little time left for another iteration.
            if limits.infinite || self.control.is_pondering() {
                continue;
            }
            let value = self.root_moves[0].value;
            if self.plan.soft.is_some() {
                if self.root_moves.len() == 1 && depth >= 4 {
                    break;
                }
                if is_mate(value) && (MATE - value.abs()) as u32 <= depth {
                    break;
                }
            }
            if let (Some(soft), Some(clock_start)) = (self.plan.soft, self.clock_start) {
                let elapsed = clock_start.elapsed();
                if stopping.after_iteration(&iteration, soft, elapsed, P::MARGIN_SCALE) {
                    break;
                }
            }
        }
        // Stopped inside the first iteration: no searched value; the static
        // evaluation stands in (never a mate score made of -INFINITE).
        if completed.1 == -INFINITE {
            completed.1 = if root.in_danger() {
                DRAW
            } else {
                self.evaluate(root, 0)
            };
        }
        // A ponder search must not answer before `ponderhit` or `stop`.
        while (limits.infinite || limits.ponder && self.control.is_pondering())
            && !self.control.is_stopped()
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        completed
    }

    /// With `THREAD_CHANGES`, the best-move changes of every thread count
    /// for the main thread's clock: a helper whose iteration changed its
    /// best move adds it to the pool, and the main thread takes what the
    /// helpers added since its last iteration. The helpers' changes and the
    /// threads to average over, for the main thread; `(0, 1)` otherwise.
    fn count_thread_changes(&self, best_changed: bool) -> (u32, u32) {
        let Some(pool) = self.pool.filter(|_| thread_changes() != 0) else {
            return (0, 1);
        };
        if pool.is_helper() {
            if best_changed {
                pool.best_changes.fetch_add(1, Ordering::Relaxed);
            }
            return (0, 1);
        }
        (pool.best_changes.swap(0, Ordering::Relaxed), pool.threads)
    }

    /// Searches root moves from `line` on with an aspiration window around
    /// the line's previous value, and moves the best to position `line`.
    fn search_line(&mut self, root: &P, depth: i32, line: usize, report: &mut dyn FnMut(&Info)) {
        let previous = self.root_moves[line].previous_value;
        let mut delta = aspiration_window() * P::MARGIN_SCALE;
        let (mut alpha, mut beta) = if depth >= 4 && previous != -INFINITE && !is_mate(previous) {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.root_search(root, depth, alpha, beta, line);
            self.root_moves[line..].sort_by_key(|r| std::cmp::Reverse(r.value));
            if self.stopped {
                return;
            }
            let bound = if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                Bound::Upper
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if self.start.elapsed() > Duration::from_secs(2) {
                let pv = self.root_moves[line].pv.clone();
                report(&self.info(depth as u32, line, value, Some(bound), pv));
            }
            delta += delta / 2;
        }
    }

    fn root_search(
        &mut self,
        root: &P,
        depth: i32,
        mut alpha: Value,
        beta: Value,
        line: usize,
    ) -> Value {
        let mut best = -INFINITE;
        for root_move in &mut self.root_moves[line..] {
            root_move.value = -INFINITE;
        }
        let in_danger = root.in_danger();
        self.evals[0] = if in_danger {
            -INFINITE
        } else {
            self.evaluate(root, 0)
        };
        for index in line..self.root_moves.len() {
            let m = self.root_moves[index].m;
            self.moved[0] = Some(piece_square(root.mover_kind(m), m));
            let mut child = *root;
            child.play_unchecked(m);
            self.network_move(root, m, &child, 0);
            let nodes_before = self.nodes;
            self.count_node();
            self.push(&child);
            let value = if index == line {
                -self.search(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let mut value = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1);
                if value > alpha && value < beta {
                    value = -self.search(&child, depth - 1, -beta, -alpha, 1);
                }
                value
            };
            self.pop();
            self.root_moves[index].effort += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let root_move = &mut self.root_moves[index];
            if value > alpha || index == line {
                root_move.value = value;
                root_move.pv.clear();
                root_move.pv.push(m);
                root_move.pv.extend_from_slice(&self.pv[1]);
            }
            if value > best {
                best = value;
            }
            if value > alpha {
                alpha = value;
                if value >= beta {
                    break;
                }
            }
        }
        best
    }

    pub(super) fn info(
        &self,
        depth: u32,
        line: usize,
        value: Value,
        bound: Option<Bound>,
        pv: Vec<Move>,
    ) -> Info {
        let time = self.start.elapsed();
        let nodes = self.all_nodes();
        let nps = super::info::nodes_per_second(nodes, time);
        Info {
            depth,
            seldepth: self.seldepth.max(depth as usize) as u32,
            multipv: line as u32 + 1,
            score: Score::from_value(value),
            bound,
            nodes,
            time,
            nps,
            hashfull: self.table.hashfull(),
            pv,
        }
    }

    fn report_lines(&self, depth: u32, lines: usize, report: &mut dyn FnMut(&Info)) {
        for (line, root_move) in self.root_moves.iter().take(lines).enumerate() {
            if root_move.value == -INFINITE {
                continue;
            }
            report(&self.info(depth, line, root_move.value, None, root_move.pv.clone()));
        }
    }
}
