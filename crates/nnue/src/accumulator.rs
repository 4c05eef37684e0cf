//! Each side's first-layer values for one position, kept up to date move
//! by move.

use crate::changes::{Delta, Update};
use crate::network::Network;
use crate::shape::HIDDEN;
use crate::simd;
use koma_rules::{Color, ShogiPosition, ShogiVariant};

/// Both sides' first-layer values (before clipping), by [`Color::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Accumulator {
    /// The values, Sente's view then Gote's.
    pub values: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// Computes both sides afresh from `position`.
    pub fn refresh<V: ShogiVariant>(&mut self, network: &Network, position: &ShogiPosition<V>) {
        for perspective in [Color::Sente, Color::Gote] {
            self.refresh_side(network, position, perspective);
        }
    }

    /// The accumulator of `position`, computed afresh.
    pub fn of<V: ShogiVariant>(network: &Network, position: &ShogiPosition<V>) -> Accumulator {
        let mut accumulator = Accumulator::default();
        accumulator.refresh(network, position);
        accumulator
    }

    /// Computes `perspective`'s side afresh from `position`.
    pub(crate) fn refresh_side<V: ShogiVariant>(
        &mut self,
        network: &Network,
        position: &ShogiPosition<V>,
        perspective: Color,
    ) {
        fresh_side(
            network,
            position,
            perspective,
            &mut self.values[perspective.index()],
        );
    }

    /// This accumulator for `child`, the position after a move whose
    /// [`Update`]s (from [`crate::Layout::changes`]) are `updates`, from
    /// `parent`, the accumulator of the position before it.
    pub fn update_from<V: ShogiVariant>(
        &mut self,
        parent: &Accumulator,
        network: &Network,
        child: &ShogiPosition<V>,
        updates: &[Update; 2],
    ) {
        for perspective in [Color::Sente, Color::Gote] {
            let side = perspective.index();
            match &updates[side] {
                Update::Refresh => self.refresh_side(network, child, perspective),
                Update::Delta(delta) => self.apply_delta(side, parent, network, delta),
            }
        }
    }

    /// Sets side `side` (a [`Color::index`]) to `parent`'s plus `delta`.
    pub(crate) fn apply_delta(
        &mut self,
        side: usize,
        parent: &Accumulator,
        network: &Network,
        delta: &Delta,
    ) {
        let mut added = [&[][..]; 2];
        let mut removed = [&[][..]; 2];
        for (slot, &input) in added.iter_mut().zip(delta.added()) {
            *slot = network.row(input);
        }
        for (slot, &input) in removed.iter_mut().zip(delta.removed()) {
            *slot = network.row(input);
        }
        simd::update(
            network.avx2(),
            &mut self.values[side],
            &parent.values[side],
            &added[..delta.added().len()],
            &removed[..delta.removed().len()],
        );
    }

    /// The network's value in centipawns for `turn`, the side to move.
    #[inline]
    pub fn evaluate(&self, network: &Network, turn: Color) -> i32 {
        network.output(&self.values[turn.index()], &self.values[(!turn).index()])
    }
}

/// Sets `side` to `perspective`'s first layer in `position`, computed
/// afresh.
pub(crate) fn fresh_side<V: ShogiVariant>(
    network: &Network,
    position: &ShogiPosition<V>,
    perspective: Color,
    side: &mut [i16; HIDDEN],
) {
    *side = *network.bias();
    let mut rows = Rows::new(network, side);
    network
        .layout()
        .for_each_active(position, perspective, |input| rows.add(input));
    rows.flush();
}

/// Rows added (and rows taken away) in one pass over the values.
const BATCH: usize = 32;

/// Rows to add to and take from one side's values, a batch at a time (a
/// shogi position has at most 40 inputs on, so one batch or two), each
/// lane kept in a register across its batch rather than stored after
/// every row. [`Rows::flush`] applies the last ones.
pub(crate) struct Rows<'a> {
    network: &'a Network,
    values: &'a mut [i16; HIDDEN],
    added: [&'a [i16]; BATCH],
    adds: usize,
    removed: [&'a [i16]; BATCH],
    removes: usize,
}

impl<'a> Rows<'a> {
    /// Rows for `values`, none held yet.
    pub(crate) fn new(network: &'a Network, values: &'a mut [i16; HIDDEN]) -> Rows<'a> {
        Rows {
            network,
            values,
            added: [&[]; BATCH],
            adds: 0,
            removed: [&[]; BATCH],
            removes: 0,
        }
    }

    /// Holds `input`'s row to add.
    pub(crate) fn add(&mut self, input: usize) {
        self.added[self.adds] = self.network.row(input);
        self.adds += 1;
        if self.adds == BATCH {
            self.flush();
        }
    }

    /// Holds `input`'s row to take away.
    pub(crate) fn remove(&mut self, input: usize) {
        self.removed[self.removes] = self.network.row(input);
        self.removes += 1;
        if self.removes == BATCH {
            self.flush();
        }
    }

    /// Holds the row of `input`, if any, to add.
    pub(crate) fn add_some(&mut self, input: Option<usize>) {
        if let Some(input) = input {
            self.add(input);
        }
    }

    /// Holds the row of `input`, if any, to take away.
    pub(crate) fn remove_some(&mut self, input: Option<usize>) {
        if let Some(input) = input {
            self.remove(input);
        }
    }

    /// Applies the rows held.
    pub(crate) fn flush(&mut self) {
        if self.adds + self.removes == 0 {
            return;
        }
        let from = *self.values;
        simd::update(
            self.network.avx2(),
            self.values,
            &from,
            &self.added[..self.adds],
            &self.removed[..self.removes],
        );
        (self.adds, self.removes) = (0, 0);
    }
}
