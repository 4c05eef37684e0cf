//! Each side's first layer as it was last computed afresh in each view
//! (Stockfish's "Finny tables"). A king that changes its view changes
//! every input of its side, so its accumulator cannot follow the move;
//! but the last position seen in the new view usually shares most of its
//! pieces with this one. Starting from that position's values and adding
//! and taking away only the inputs that differ costs a few rows instead
//! of about forty. The sums wrap alike in any order: the values are the
//! same as a refresh's.

use crate::accumulator::fresh_side;
use crate::layout::VIEWS;
use crate::network::Network;
use crate::shape::HIDDEN;
use crate::simd;
use koma_rules::{Bitboard, Color, Piece, Role, ShogiPosition, ShogiVariant};

/// Rows added (and rows taken away) in one pass over the values.
const BATCH: usize = 32;

/// One view's values, and the pieces on the board and in hand that they
/// were computed for.
#[derive(Clone, Debug)]
struct Entry {
    values: [i16; HIDDEN],
    /// By colour ([`Color::index`]) and role ([`Role::index`]).
    board: [[Bitboard; Role::ALL.len()]; 2],
    hands: [[u8; Role::ALL.len()]; 2],
}

/// The last values computed afresh in each view of each side.
#[derive(Clone, Debug)]
pub struct RefreshCache {
    /// By side ([`Color::index`]) then view; `None` until first used.
    entries: Vec<Option<Entry>>,
}

impl Default for RefreshCache {
    fn default() -> Self {
        RefreshCache {
            entries: vec![None; 2 * VIEWS],
        }
    }
}

impl RefreshCache {
    /// Forgets every view's values (they belong to one network).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|entry| *entry = None);
    }

    /// Sets `side` to `perspective`'s first layer in `position` under
    /// `network`, the same values as a refresh gives.
    pub fn refresh<V: ShogiVariant>(
        &mut self,
        network: &Network,
        position: &ShogiPosition<V>,
        perspective: Color,
        side: &mut [i16; HIDDEN],
    ) {
        // On a 5×5 board a side has a dozen pieces or so, and comparing
        // the sets cost more than the rows it saved: 1.5 % more of
        // minishogi's and Spear's bench instructions, against 2.9 % fewer
        // in shogi's.
        if V::SPEC.files <= 5 {
            fresh_side(network, position, perspective, side);
            return;
        }
        let layout = network.layout();
        let view = layout.view(perspective, crate::king_of(position, perspective));
        let entry = self.entries[perspective.index() * VIEWS + view.index(layout)]
            .get_or_insert_with(|| Entry {
                values: *network.bias(),
                board: [[Bitboard::EMPTY; Role::ALL.len()]; 2],
                hands: [[0; Role::ALL.len()]; 2],
            });
        let mut rows = Rows {
            network,
            values: &mut entry.values,
            added: [&[]; BATCH],
            adds: 0,
            removed: [&[]; BATCH],
            removes: 0,
        };
        // The pieces that came and went since, found by comparing sets
        // of squares rather than by listing every piece.
        for color in [Color::Sente, Color::Gote] {
            for &role in V::SPEC.board_roles {
                let now = position.pieces(color, role);
                let before = &mut entry.board[color.index()][role.index()];
                let piece = Piece::new(color, role);
                for square in *before & !now {
                    rows.remove(layout.board_input(view, piece, square));
                }
                for square in now & !*before {
                    rows.add(layout.board_input(view, piece, square));
                }
                *before = now;
            }
            for &role in V::SPEC.hand_roles {
                let now = position.hand(color).count(role);
                let before = &mut entry.hands[color.index()][role.index()];
                for count in now + 1..=*before {
                    rows.remove_some(layout.hand_input(view, color, role, count));
                }
                for count in *before + 1..=now {
                    rows.add_some(layout.hand_input(view, color, role, count));
                }
                *before = now;
            }
        }
        rows.flush();
        *side = entry.values;
    }
}

/// Rows to add to and take from one side's values, a batch at a time.
struct Rows<'a> {
    network: &'a Network,
    values: &'a mut [i16; HIDDEN],
    added: [&'a [i16]; BATCH],
    adds: usize,
    removed: [&'a [i16]; BATCH],
    removes: usize,
}

impl<'a> Rows<'a> {
    fn add(&mut self, input: usize) {
        self.added[self.adds] = self.network.row(input);
        self.adds += 1;
        if self.adds == BATCH {
            self.flush();
        }
    }

    fn remove(&mut self, input: usize) {
        self.removed[self.removes] = self.network.row(input);
        self.removes += 1;
        if self.removes == BATCH {
            self.flush();
        }
    }

    fn add_some(&mut self, input: Option<usize>) {
        if let Some(input) = input {
            self.add(input);
        }
    }

    fn remove_some(&mut self, input: Option<usize>) {
        if let Some(input) = input {
            self.remove(input);
        }
    }

    /// Applies the rows held.
    fn flush(&mut self) {
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
