//! ProbCut: at a node deep enough, a capture that wins enough material
//! to beat beta by a margin in a search four plies shallower will very
//! probably beat beta at full depth too, so the node is cut off at
//! once. Stockfish and YaneuraOu both have it; in Koma it is the tunable
//! `PROBCUT` (off by default) until a self-play test decides it.

use super::worker::Worker;
use crate::eval::Evaluate;
use crate::history::piece_square;
use crate::movepick::{MovePicker, ScoreList};
use crate::params::*;
use crate::score::*;
use crate::tt::{Bound, Hit};
use koma_rules::MoveList;

/// How much shallower than the node ProbCut's searches go: a capture's
/// reply is searched to the node's depth less this (Stockfish's
/// `probCutDepth`), and the cutoff is stored a ply deeper.
const PROBCUT_REDUCTION: i32 = 4;

impl<P: Evaluate> Worker<'_, P> {
    /// ProbCut at a non-PV node not in check whose static evaluation is
    /// `eval`: the value that cuts the node off, if one of the captures in
    /// `moves` (legal moves) that wins at least the margin by static
    /// exchange beats `beta` plus the margin, first in quiescence and
    /// then in a search [`PROBCUT_REDUCTION`] plies shallower than the
    /// node's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        position: &P,
        moves: &MoveList,
        hit: Option<Hit>,
        eval: Value,
        depth: i32,
        beta: Value,
        ply: usize,
    ) -> Option<Value> {
        let raised_beta = beta + probcut_margin() * P::MARGIN_SCALE;
        if probcut() == 0 || depth < probcut_min_depth() || is_mate(beta) {
            return None;
        }
        // The table already says a search nearly as deep stays below.
        if let Some(hit) = hit {
            let value = from_table(hit.value, ply);
            if hit.depth >= depth - (PROBCUT_REDUCTION - 1) && value < raised_beta {
                return None;
            }
        }
        let mut captures = MoveList::new();
        captures.extend(
            moves
                .iter()
                .copied()
                .filter(|&m| position.captured_value(m) > 0)
                .filter(|&m| position.see_ge(m, raised_beta - eval)),
        );
        let mut scores = ScoreList::new();
        let mut picker = MovePicker::tactical(position, &mut captures, &mut scores);
        while let Some((m, _)) = picker.next() {
            let mut child = *position;
            child.play_unchecked(m);
            self.table.prefetch(child.hash());
            self.network_move(position, m, &child, ply);
            self.moved[ply] = Some(piece_square(position.mover_kind(m), m));
            self.count_node();
            self.push(&child);
            let mut value = -self.quiescence(&child, -raised_beta, -raised_beta + 1, ply + 1);
            if value >= raised_beta {
                // The node's depth less the reduction, so that the table's
                // entry below (a ply more than the child's) is what was searched.
                value = -self.search(
                    &child,
                    depth - PROBCUT_REDUCTION,
                    -raised_beta,
                    -raised_beta + 1,
                    ply + 1,
                );
            }
            self.pop();
            if self.stopped {
                return None;
            }
            if value >= raised_beta {
                self.table.store(
                    position.hash(),
                    Some(m),
                    to_table(value, ply),
                    eval,
                    depth - (PROBCUT_REDUCTION - 1),
                    Bound::Lower,
                    self.table_pv[ply],
                );
                return Some(value);
            }
        }
        None
    }
}
