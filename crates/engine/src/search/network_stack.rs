//! The network a search evaluates with and its accumulators, one per ply
//! (the search's use of them is in [`super::nnue`]).

use crate::score::MAX_PLY;
use koma_nnue::{AccumulatorStack, Network};

/// The network and the accumulators of the line searched.
pub(super) struct NetworkStack<'a> {
    pub(super) network: &'a Network,
    pub(super) accumulators: AccumulatorStack,
}

impl<'a> NetworkStack<'a> {
    /// A stack for `network`, its root's accumulator still to be set.
    pub(super) fn new(network: &'a Network) -> NetworkStack<'a> {
        NetworkStack {
            network,
            accumulators: AccumulatorStack::new(MAX_PLY + 4),
        }
    }
}
