//! The search of a node below the root: a principal variation search with
//! mate distance pruning, the transposition table, reverse futility and
//! null-move pruning, ProbCut (see [`super::probcut`]), singular
//! extensions (see [`super::singular`]), static exchange, late move and
//! futility pruning, late move reductions, and the histories' reward for
//! a move that cuts off.

use super::singular::Singular;
use super::worker::Worker;
use crate::eval::Evaluate;
use crate::history::{piece_square, Before};
use crate::movepick::{MovePicker, ScoreList};
use crate::params::*;
use crate::score::*;
use crate::tt::Bound;
use arrayvec::ArrayVec;
use koma_rules::{Color, Move, MoveList};

impl<P: Evaluate> Worker<'_, P> {
    pub(super) fn search(
        &mut self,
        position: &P,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if let Some(value) = self.known(position, ply) {
            return value;
        }
        if let Some(value) = self.repetition(position.turn()) {
            return value;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(position, ply);
        }
        // Mate distance pruning: no line here can beat a mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let in_danger = position.in_danger();
        if in_danger && check_extension() == 1 && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence_known(position, alpha, beta, ply, in_danger, true);
        }
        if self.stopped {
            return DRAW;
        }
        let hash = position.hash();
        let excluded = self.excluded[ply];
        let hit = self.table.probe(hash);
        // A singular extension's search keeps its node's mark.
        if excluded.is_none() {
            self.table_pv[ply] = pv_node || hit.is_some_and(|hit| hit.pv);
        }
        let table_pv = self.table_pv[ply];
        if let Some(hit) = hit {
            let value = from_table(hit.value, ply);
            // Without the excluded move the table's value is not this node's.
            if !pv_node && hit.depth >= depth && excluded.is_none() {
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if usable {
                    return value;
                }
            }
        }
        // The table keeps the evaluation as it is; the correction history's
        // part changes as it learns, so it is added afresh.
        let (raw_eval, eval) = if in_danger {
            (-INFINITE, -INFINITE)
        } else {
            let raw = hit.map_or_else(|| self.evaluate(position, ply), |hit| hit.eval);
            (raw, self.corrected(raw, position, ply))
        };
        // In check there is no static evaluation; the one two plies up
        // stands in, so that the nodes below still see whether their side
        // is improving (with none, every one of them would count as such).
        self.evals[ply] = if in_danger && improving_through_check() == 1 && ply >= 2 {
            self.evals[ply - 2]
        } else {
            eval
        };
        let improving = !in_danger && ply >= 2 && eval > self.evals[ply - 2];
        // A node the table has seen was tested when first searched; the
        // test would find nothing new (YaneuraOu's condition too). Unlike
        // YaneuraOu's, principal-variation nodes are left to the search:
        // with them the switch lost more (33.5 % of 88 games at 2 s +
        // 0.05 s, against this condition's 40.6 % of 536, its SPRT's H0;
        // docs/strength/search.md).
        if mate_one() == 1 && !pv_node && hit.is_none() && !in_danger && excluded.is_none() {
            if let Some(m) = position.mate_in_one() {
                // Nothing beats a mate in one: the value is exact at any
                // depth. It is stored a little deeper than searched, so
                // that it outlives the entries around it, not much deeper,
                // so that it leaves the table once the search has moved on.
                let value = mate_in(ply + 1);
                self.table.store(
                    hash,
                    Some(m),
                    to_table(value, ply),
                    raw_eval,
                    (depth + 6).min(MAX_PLY as i32 - 1),
                    Bound::Exact,
                    table_pv,
                );
                return value;
            }
        }

        if !pv_node && !in_danger && !is_mate(beta) && excluded.is_none() {
            // Reverse futility: far enough above beta that a quiet move
            // will not bring it down.
            if depth <= rfp_max_depth()
                && eval - rfp_margin() * P::MARGIN_SCALE * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will.
            if P::NULL_MOVE && depth >= 3 && eval >= beta && !self.null_at[ply] {
                if let Some(child) = position.null_move() {
                    let reduction = null_base_reduction()
                        + depth / null_depth_divisor()
                        + ((eval - beta) / (null_margin_per_ply() * P::MARGIN_SCALE)).min(2);
                    self.count_node();
                    self.push(&child);
                    self.network_null_move(ply);
                    self.null_at[ply + 1] = true;
                    self.moved[ply] = None;
                    let value =
                        -self.search(&child, depth - 1 - reduction, -beta, -beta + 1, ply + 1);
                    self.null_at[ply + 1] = false;
                    self.pop();
                    if self.stopped {
                        return DRAW;
                    }
                    if value >= beta {
                        return if is_mate(value) { beta } else { value };
                    }
                }
            }
        }

        let mut moves = MoveList::new();
        position.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return Self::terminal(position, ply);
        }
        if !pv_node && !in_danger && excluded.is_none() {
            if let Some(value) = self.probcut(position, &moves, hit, eval, depth, beta, ply) {
                return value;
            }
        }
        let table_move = hit
            .and_then(|hit| hit.best_move)
            .filter(|m| moves.contains(m));
        let before = Before {
            one: ply.checked_sub(1).and_then(|parent| self.moved[parent]),
            two: if followup_history() == 1 {
                ply.checked_sub(2)
                    .and_then(|grandparent| self.moved[grandparent])
            } else {
                None
            },
        };
        let mut scores = ScoreList::new();
        let mut picker = MovePicker::new(
            position,
            &mut moves,
            &mut scores,
            table_move,
            self.history,
            ply,
            before,
        );
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let original_alpha = alpha;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let danger_squares = position.danger_squares();
        let credit = pv_credit(pv_node, table_pv);
        while let Some((m, order)) = picker.next() {
            if Some(m) == excluded {
                continue;
            }
            let mut extension = 0;
            if P::SINGULAR_EXTENSION && Some(m) == table_move && excluded.is_none() {
                match self.singular(position, hit, m, depth, beta, ply) {
                    Singular::Extend => extension = 1,
                    Singular::Cut(value) => return value,
                    Singular::No => {}
                }
                if self.stopped {
                    return DRAW;
                }
            }
            let quiet = position.captured_value(m) == 0
                && (promotions_quiet() == 1 || position.promotion_gain(m) == 0);
            let gives_check = position.gives_danger(&danger_squares, m);
            let quiet_non_check = quiet && !gives_check;
            // Stockfish's `lmrDepth`: with `PRUNE_AT_REDUCED_DEPTH`, a late
            // quiet move is judged by futility and by its exchange at the
            // depth its reduction would leave it, so that a move the search
            // would reduce anyway is pruned sooner. Only where the tests
            // below may prune: off the principal variation, not in check,
            // after the first move (`lmr` needs a move before it).
            let prunable = !pv_node && !in_danger && searched > 0;
            // Late move pruning: at shallow depth, late quiet moves rarely
            // matter. (Before the reduction below is worked out: most of
            // the moves it prunes would not need it.)
            if prunable && quiet_non_check && best > -MATE_BOUND {
                let late = lmp_base() + depth * depth * if improving { 2 } else { 1 };
                if depth <= lmp_max_depth() && searched as i32 >= late {
                    continue;
                }
            }
            let prune_depth = if prunable && quiet_non_check && prune_at_reduced_depth() == 1 {
                (depth - 1 - quiet_reduction(depth, searched, improving, credit, order)).max(0)
            } else {
                depth
            };
            if prunable && quiet_non_check && best > -MATE_BOUND {
                // Futility: a quiet move that cannot bring the evaluation
                // up to alpha.
                if prune_depth <= futility_max_depth()
                    && eval + (futility_margin() * prune_depth + futility_base()) * P::MARGIN_SCALE
                        <= alpha
                {
                    continue;
                }
            }
            // Moves that lose material by static exchange, at shallow depth:
            // captures and checks past a margin growing with depth, other
            // quiet moves past one growing with its square. (After the
            // tests above: the exchange costs more than they do.)
            if prunable && best > -MATE_BOUND && prune_depth <= see_max_depth() {
                let margin = if quiet_non_check {
                    see_quiet_margin() * P::MARGIN_SCALE * prune_depth * prune_depth
                } else {
                    see_capture_margin() * P::MARGIN_SCALE * depth
                };
                // Ordering found a winning capture already: it loses nothing.
                if !MovePicker::is_winning_capture_score(order) && !position.see_ge(m, -margin) {
                    continue;
                }
            }
            let mut child = *position;
            child.play_unchecked(m);
            self.table.prefetch(child.hash());
            self.network_move(position, m, &child, ply);
            self.moved[ply] = Some(piece_square(position.mover_kind(m), m));
            self.count_node();
            self.push(&child);
            let value = if searched == 0 {
                -self.search(&child, depth - 1 + extension, -beta, -alpha, ply + 1)
            } else {
                let mut reduction = 0;
                if depth >= 3 && searched >= if pv_node { 3 } else { 2 } {
                    if quiet {
                        reduction = quiet_reduction(depth, searched, improving, credit, order);
                    } else if lmr_captures() == 1 && !MovePicker::is_winning_capture_score(order) {
                        // A late capture the exchange does not call winning,
                        // as YaneuraOu and Stockfish reduce every late move.
                        reduction = base_reduction(depth, searched, improving, credit);
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                let mut value =
                    -self.search(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if value > alpha && reduction > 0 {
                    let full = depth - 1 + research_change::<P>(value, best, depth);
                    if full > depth - 1 - reduction {
                        value = -self.search(&child, full, -alpha - 1, -alpha, ply + 1);
                    }
                }
                if value > alpha && value < beta && pv_node {
                    value = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                value
            };
            self.pop();
            if self.stopped {
                return DRAW;
            }
            searched += 1;
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        let tried = Tried {
                            quiets: &quiets_tried,
                            captures: &captures_tried,
                        };
                        self.reward_cutoff(position, m, quiet, tried, depth, ply, before);
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(m);
            } else if capture_history_weight() > 0
                && position.captured_value(m) > 0
                && !captures_tried.is_full()
            {
                captures_tried.push(m);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A search without one move says nothing about the node.
        if excluded.is_some() {
            return best;
        }
        // No move here reached alpha: the move into this node was probably
        // good, so a node on a principal variation above marks it too
        // (Stockfish's rule: the line may yet become the principal one).
        let table_pv = table_pv || best <= original_alpha && ply > 0 && self.table_pv[ply - 1];
        self.table.store(
            hash,
            best_move.or(table_move),
            to_table(best, ply),
            if in_danger { 0 } else { raw_eval },
            depth,
            bound,
            table_pv,
        );
        self.learn_correction(position, ply, depth, eval, best, best_move);
        best
    }

    /// Teaches the histories what a cutoff by `m` at `depth` says: the
    /// move did well (a killer too, if quiet), the moves of its kind tried
    /// before it did not, nor did the captures tried before it.
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        position: &P,
        m: Move,
        quiet: bool,
        tried: Tried,
        depth: i32,
        ply: usize,
        before: Before,
    ) {
        let us: Color = position.turn();
        let bonus = (depth * depth * 16).min(2000);
        if quiet {
            let malus = bonus * quiet_malus_percent() / 100;
            self.history.add_killer(ply, m);
            self.history
                .update(us, position.mover_kind(m), m, bonus, before);
            for &other in tried.quiets {
                self.history
                    .update(us, position.mover_kind(other), other, -malus, before);
            }
        }
        // Unread at weight 0 (the default), so not kept up either.
        if capture_history_weight() == 0 {
            return;
        }
        if !quiet && position.captured_value(m) > 0 {
            let captured = position.captured_kind(m);
            self.history
                .update_capture(us, position.mover_kind(m), m, captured, bonus);
        }
        for &other in tried.captures {
            let captured = position.captured_kind(other);
            self.history
                .update_capture(us, position.mover_kind(other), other, captured, -bonus);
        }
    }
}

/// The moves a node tried before the one that cut off.
struct Tried<'a> {
    quiets: &'a [Move],
    captures: &'a [Move],
}

/// The reduction of any late move, the `searched`-th at `depth`: the base
/// [`lmr`], a ply more where the side is not improving, `pv_credit` plies
/// less (see [`pv_credit`]). Unclamped: the caller bounds it by the depth.
fn base_reduction(depth: i32, searched: usize, improving: bool, pv_credit: i32) -> i32 {
    lmr(depth, searched) + !improving as i32 - pv_credit
}

/// How many plies less a node reduces its late moves for being on a
/// principal variation: one at a node searched with an open window;
/// `TABLE_PV_REDUCTION` at one the table marks as having been on one (by
/// an earlier search, or by another thread's: Stockfish's `ttPv`, which
/// lets a helper's lines widen the main thread's tree).
fn pv_credit(pv_node: bool, table_pv: bool) -> i32 {
    if pv_node {
        1
    } else if table_pv {
        table_pv_reduction()
    } else {
        0
    }
}

/// The reduction of a late quiet move whose place in the move order
/// scored `order`: [`base_reduction`], a ply less for a killer and for a
/// good history, more for a bad one. Unclamped.
fn quiet_reduction(
    depth: i32,
    searched: usize,
    improving: bool,
    pv_credit: i32,
    order: i32,
) -> i32 {
    let mut reduction = base_reduction(depth, searched, improving, pv_credit);
    reduction -= MovePicker::is_killer_score(order) as i32;
    let divisor = lmr_history_divisor();
    if divisor > 0 && MovePicker::is_history_score(order) {
        // A ply less or more per `divisor` of history.
        reduction -= order / divisor;
    } else if order > 4_000 {
        reduction -= 1;
    } else if order < -4_000 {
        reduction += 1;
    }
    reduction
}

/// How much deeper (1) or shallower (−1) than the node's depth less one
/// to search again a reduced move that beat alpha: with
/// `LMR_RESEARCH_ADJUST`, as Stockfish's `doDeeperSearch` and
/// `doShallowerSearch`, deeper when the reduced search beat the best
/// value so far by far, shallower when only just; else 0.
fn research_change<P: Evaluate>(value: Value, best: Value, depth: i32) -> i32 {
    if lmr_research_adjust() == 0 || is_mate(value) || is_mate(best) {
        return 0;
    }
    let deeper = (lmr_deeper_margin() + 2 * depth) * P::MARGIN_SCALE;
    let shallower = lmr_shallower_margin() * P::MARGIN_SCALE;
    i32::from(value > best + deeper) - i32::from(value < best + shallower)
}

/// The late move reduction for the `searched`-th move at `depth`.
fn lmr(depth: i32, searched: usize) -> i32 {
    let value = lmr_base() + (depth as f64).ln() * (searched as f64).ln() / lmr_divisor();
    value as i32
}
