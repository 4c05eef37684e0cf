//! The accumulators of a search's line, one per ply, each brought up to
//! date only when its position is evaluated.
//!
//! A search makes many moves whose positions it never evaluates: a child
//! answered by the transposition table (whose entry holds its static
//! value), a position in check, a cutoff before the static value is
//! needed. Updating every accumulator as each move is made would pay for
//! those too. The stack records what each move changes (cheap: a few
//! input numbers) and applies the changes only when
//! [`AccumulatorStack::evaluate`] asks for a ply, from the nearest ply
//! above it that is up to date. A side whose own king moved into another
//! view (see [`crate::Layout`]) is refreshed at once, since that needs the
//! position after the move, which the stack does not keep.

use crate::accumulator::Accumulator;
use crate::changes::{Delta, Update};
use crate::network::Network;
use crate::refresh_cache::RefreshCache;
use koma_rules::{Color, Move, ShogiPosition, ShogiVariant};

/// One ply of the line.
#[derive(Clone, Copy, Debug)]
struct Ply {
    /// Its accumulator, each side valid where `computed` says so.
    accumulator: Accumulator,
    /// What the move into this ply changed, by [`Color::index`].
    updates: [Update; 2],
    /// Whether each side of `accumulator` is up to date.
    computed: [bool; 2],
}

/// The accumulators of a line of play from a root, for a search.
///
/// ```
/// use koma_nnue::{Accumulator, AccumulatorStack, Layout, Network, HIDDEN};
/// use koma_rules::{Color, Position, MinishogiPosition, Variant};
///
/// let layout = Layout::for_variant(Variant::Minishogi).unwrap();
/// let weights = (0..layout.inputs() * HIDDEN).map(|i| (i % 7) as i16 - 3).collect();
/// let network = Network::from_parts(Variant::Minishogi, weights, [5; HIDDEN], [1; 2 * HIDDEN], 0).unwrap();
/// let root = MinishogiPosition::start();
/// let mut stack = AccumulatorStack::new(8);
/// stack.set_root(&network, &root);
///
/// let m = MinishogiPosition::parse_move_syntax("1e2d").unwrap();
/// let mut child = root;
/// child.play_unchecked(m);
/// stack.push_move(&network, 0, &root, m, &child);
/// let value = stack.evaluate(&network, 1, child.turn());
/// assert_eq!(value, Accumulator::of(&network, &child).evaluate(&network, child.turn()));
/// ```
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    plies: Box<[Ply]>,
    /// The last values computed afresh in each view, which make the next
    /// refresh in that view a few rows' work.
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack for lines of up to `plies` plies below the root.
    pub fn new(plies: usize) -> AccumulatorStack {
        let empty = Ply {
            accumulator: Accumulator::default(),
            updates: [Update::Delta(Delta::default()); 2],
            computed: [false; 2],
        };
        AccumulatorStack {
            plies: vec![empty; plies + 1].into_boxed_slice(),
            cache: RefreshCache::default(),
        }
    }

    /// Sets the root (ply 0) to `root`, computed afresh, under `network`
    /// (which the stack's later calls must use until the next root).
    pub fn set_root<V: ShogiVariant>(&mut self, network: &Network, root: &ShogiPosition<V>) {
        // The cached values may be another network's.
        self.cache.clear();
        let ply = &mut self.plies[0];
        for perspective in Color::ALL {
            let side = &mut ply.accumulator.values[perspective.index()];
            self.cache.refresh(network, root, perspective, side);
        }
        ply.computed = [true; 2];
    }

    /// Records the legal move `m` from `parent`, the position at `ply`, to
    /// `child` at `ply + 1`.
    #[inline]
    pub fn push_move<V: ShogiVariant>(
        &mut self,
        network: &Network,
        ply: usize,
        parent: &ShogiPosition<V>,
        m: Move,
        child: &ShogiPosition<V>,
    ) {
        let updates = network.layout().changes(parent, m);
        let next = &mut self.plies[ply + 1];
        next.updates = updates;
        for perspective in [Color::Sente, Color::Gote] {
            let side = perspective.index();
            next.computed[side] = match updates[side] {
                Update::Refresh => {
                    let values = &mut next.accumulator.values[side];
                    self.cache.refresh(network, child, perspective, values);
                    true
                }
                Update::Delta(_) => false,
            };
        }
    }

    /// Records a null move at `ply`: the same pieces at `ply + 1`.
    #[inline]
    pub fn push_null_move(&mut self, ply: usize) {
        let next = &mut self.plies[ply + 1];
        next.updates = [Update::Delta(Delta::default()); 2];
        next.computed = [false; 2];
    }

    /// The accumulator at `ply`, brought up to date (the root must have
    /// been set with [`AccumulatorStack::set_root`]).
    pub fn accumulator(&mut self, network: &Network, ply: usize) -> &Accumulator {
        for side in 0..2 {
            let mut start = ply;
            while !self.plies[start].computed[side] {
                start -= 1;
            }
            for at in start + 1..=ply {
                let (before, after) = self.plies.split_at_mut(at);
                let parent = &before[at - 1].accumulator;
                let here = &mut after[0];
                if let Update::Delta(delta) = &here.updates[side] {
                    here.accumulator.apply_delta(side, parent, network, delta);
                }
                here.computed[side] = true;
            }
        }
        &self.plies[ply].accumulator
    }

    /// The network's value in centipawns at `ply` for `turn`, the side to
    /// move there.
    #[inline]
    pub fn evaluate(&mut self, network: &Network, ply: usize, turn: Color) -> i32 {
        self.accumulator(network, ply).evaluate(network, turn)
    }
}
