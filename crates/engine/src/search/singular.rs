//! Singular extension: whether the table's move stands alone at a node,
//! so that the search looks at it a ply deeper (or, when even the other
//! moves beat beta, cuts the node off at once).

use super::worker::Worker;
use crate::eval::Evaluate;
use crate::params::*;
use crate::score::*;
use crate::tt::{Bound, Hit};
use koma_rules::Move;

/// What a singular extension's test found.
pub(super) enum Singular {
    /// The table's move stands alone: search it a ply deeper.
    Extend,
    /// Other moves beat beta too: the node fails high with this value.
    Cut(Value),
    /// Neither.
    No,
}

impl<P: Evaluate> Worker<'_, P> {
    /// Whether the table's move at this node stands alone: every other
    /// move, searched to half the depth, falls short of its value by a
    /// margin. When even the others beat beta, the node is a cut node
    /// twice over and returns at once (multi-cut).
    pub(super) fn singular(
        &mut self,
        position: &P,
        hit: Option<Hit>,
        m: Move,
        depth: i32,
        beta: Value,
        ply: usize,
    ) -> Singular {
        let Some(hit) = hit else {
            return Singular::No;
        };
        let table_value = from_table(hit.value, ply);
        if depth < singular_min_depth()
            || (ply as i32) >= 2 * self.root_depth
            || hit.bound == Bound::Upper
            || hit.depth < depth - singular_depth_slack()
            || is_mate(table_value)
        {
            return Singular::No;
        }
        let singular_beta = table_value - singular_margin_per_ply() * P::MARGIN_SCALE * depth;
        self.excluded[ply] = Some(m);
        let value = self.search(
            position,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
        );
        self.excluded[ply] = None;
        if value < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }
}
