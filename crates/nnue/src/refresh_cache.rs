//! Each side's first layer as it was last computed afresh in each view
//! (Stockfish's "Finny tables"). A king that changes its view changes
//! every input of its side, so its accumulator cannot follow the move;
//! but the last position seen in the new view usually shares most of its
//! pieces with this one. Starting from that position's values and adding
//! and taking away only the inputs that differ costs a few rows instead
//! of about forty. The sums wrap alike in any order: the values are the
//! same as a refresh's.

use crate::accumulator::{fresh_side, Rows};
use crate::layout::VIEWS;
use crate::network::Network;
use crate::shape::HIDDEN;
use koma_rules::{Bitboard, Color, Hand, Piece, Role, ShogiPosition, ShogiVariant};

/// One view's values, and the pieces on the board and in hand that they
/// were computed for.
#[derive(Clone, Debug)]
struct Entry {
    values: [i16; HIDDEN],
    /// By colour ([`Color::index`]) and role ([`Role::index`]).
    board: [[Bitboard; Role::NUM]; 2],
    hands: [Hand; 2],
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
                board: [[Bitboard::EMPTY; Role::NUM]; 2],
                hands: [Hand::default(); 2],
            });
        let mut rows = Rows::new(network, &mut entry.values);
        // The pieces that came and went since, found by comparing sets
        // of squares rather than by listing every piece.
        for color in Color::ALL {
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
            let hand = position.hand(color);
            let before = &mut entry.hands[color.index()];
            for &role in V::SPEC.hand_roles {
                let (now, then) = (hand.count(role), before.count(role));
                for count in now + 1..=then {
                    rows.remove_some(layout.hand_input(view, color, role, count));
                }
                for count in then + 1..=now {
                    rows.add_some(layout.hand_input(view, color, role, count));
                }
            }
            *before = *hand;
        }
        rows.flush();
        *side = entry.values;
    }
}
