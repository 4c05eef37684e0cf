//! The network's evaluation inside the search: an accumulator per ply,
//! each computed from its parent's when its position is evaluated (see
//! [`koma_nnue::AccumulatorStack`]), and the static evaluation taken from
//! it, or from the classical evaluation where there is no network.

use super::worker::Worker;
use crate::eval::Evaluate;
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
}
