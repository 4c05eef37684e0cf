//! The network's evaluation inside the search: an accumulator per ply,
//! each computed from its parent's when its position is evaluated (see
//! [`koma_nnue::AccumulatorStack`]), and the static evaluation taken from
//! it, or from the classical evaluation where there is no network.

use super::worker::Worker;
use crate::correction::MAX_BONUS;
use crate::eval::Evaluate;
use crate::history::PieceSquare;
use crate::score::*;
use koma_rules::Move;

/// The network's values stay clear of the mate range, whatever its weights.
const NETWORK_LIMIT: Value = MATE_BOUND / 2;

impl<P: Evaluate> Worker<'_, P> {
    /// Sets the root's accumulator (ply 0) from `root`.
    pub(super) fn network_root(&mut self, root: &P) {
        if let Some(stack) = &mut self.network {
            root.set_accumulator_root(stack.network, &mut stack.accumulators);
        }
    }

    /// Follows the move `m` from `parent` at `ply` to `child` at `ply + 1`.
    #[inline]
    pub(super) fn network_move(&mut self, parent: &P, m: Move, child: &P, ply: usize) {
        if let Some(stack) = &mut self.network {
            parent.push_accumulator_move(m, child, stack.network, &mut stack.accumulators, ply);
        }
    }

    /// Follows a null move at `ply`: the same pieces, the other side to move.
    #[inline]
    pub(super) fn network_null_move(&mut self, ply: usize) {
        if let Some(stack) = &mut self.network {
            stack.accumulators.push_null_move(ply);
        }
    }

    /// The static evaluation of `position`, the position at `ply`, from
    /// the side to move's view.
    #[inline]
    pub(super) fn evaluate(&mut self, position: &P, ply: usize) -> Value {
        match &mut self.network {
            Some(stack) => {
                // Builds with debug assertions (the tests) check every
                // accumulator the search uses against a refresh.
                #[cfg(debug_assertions)]
                {
                    let mut fresh = koma_nnue::Accumulator::default();
                    position.refresh_accumulator(stack.network, &mut fresh);
                    debug_assert!(
                        fresh == *stack.accumulators.accumulator(stack.network, ply),
                        "the accumulator at ply {ply} is not {}'s",
                        position.to_text()
                    );
                }
                stack
                    .accumulators
                    .evaluate(stack.network, ply, position.turn())
                    .clamp(-NETWORK_LIMIT, NETWORK_LIMIT)
            }
            None => position.evaluate(),
        }
    }

    /// What the correction history adds to the static evaluation of
    /// `position`, the position at `ply` (0 for a search without one, or
    /// in a game without the history's keys).
    #[inline]
    pub(super) fn correction(&self, position: &P, ply: usize) -> Value {
        let Some(table) = self.correction else {
            return 0;
        };
        position.correction_keys().map_or(0, |keys| {
            table.correction(&keys, position.turn(), self.moves_before(ply))
        })
    }

    /// The static evaluation `raw` of the position at `ply` with the
    /// correction history's part added, clear of the mate range.
    #[inline]
    pub(super) fn corrected(&self, raw: Value, position: &P, ply: usize) -> Value {
        match self.correction(position, ply) {
            0 => raw,
            correction => (raw + correction).clamp(1 - MATE_BOUND, MATE_BOUND - 1),
        }
    }

    /// Teaches the correction history what the search of `position` at
    /// `ply` to `depth` found: `best`, where the corrected evaluation said
    /// `eval`, with `best_move` the move that reached alpha if one did.
    /// Only where the lesson is about the evaluation (Stockfish's rule): not
    /// in check, not through a capture (the exchange, not the position,
    /// made the difference), and only the bound's side of the error (a
    /// node that failed low says the evaluation was too high, never too
    /// low).
    pub(super) fn learn_correction(
        &self,
        position: &P,
        ply: usize,
        depth: i32,
        eval: Value,
        best: Value,
        best_move: Option<Move>,
    ) {
        let Some(table) = self.correction else {
            return;
        };
        if is_mate(best) || eval == -INFINITE {
            return;
        }
        if best_move.is_some_and(|m| position.captured_value(m) > 0)
            || (best > eval) != best_move.is_some()
        {
            return;
        }
        let Some(keys) = position.correction_keys() else {
            return;
        };
        let weight = if best_move.is_some() { 12 } else { 17 };
        let bonus = ((best - eval) * depth * weight / 128).clamp(-MAX_BONUS, MAX_BONUS);
        table.learn(&keys, position.turn(), self.moves_before(ply), bonus);
    }

    /// The moves into the position at `ply`: this side's two plies back
    /// and the opponent's last, if both were moves of this search.
    #[inline]
    fn moves_before(&self, ply: usize) -> Option<(PieceSquare, PieceSquare)> {
        let two = self.moved[ply.checked_sub(2)?]?;
        Some((two, self.moved[ply - 1]?))
    }
}
