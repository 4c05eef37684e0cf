//! Each side's first-layer values for one position, kept up to date move
//! by move.

use crate::changes::Update;
use crate::layout::king_of;
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

    fn refresh_side<V: ShogiVariant>(
        &mut self,
        network: &Network,
        position: &ShogiPosition<V>,
        perspective: Color,
    ) {
        let layout = network.layout();
        let view = layout.view(perspective, king_of(position, perspective));
        let side = &mut self.values[perspective.index()];
        *side = *network.bias();
        let mut add = |input: usize| {
            let from = *side;
            simd::update(network.avx2(), side, &from, &[network.row(input)], &[]);
        };
        for square in position.occupied() {
            if let Some(piece) = position.piece_at(square) {
                add(layout.board_input(view, piece, square));
            }
        }
        for color in [Color::Sente, Color::Gote] {
            for (role, count) in position.hand(color).iter() {
                for k in 1..=count {
                    if let Some(input) = layout.hand_input(view, color, role, k) {
                        add(input);
                    }
                }
            }
        }
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
                Update::Delta(delta) => {
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
            }
        }
    }

    /// The network's value in centipawns for `turn`, the side to move.
    #[inline]
    pub fn evaluate(&self, network: &Network, turn: Color) -> i32 {
        network.output(&self.values[turn.index()], &self.values[(!turn).index()])
    }
}
