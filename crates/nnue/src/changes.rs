//! What a move changes in each side's inputs, so that an accumulator can
//! follow the game instead of being recomputed.

use crate::layout::{king_of, Layout};
use koma_rules::{Color, Move, Piece, Role, ShogiPosition, ShogiVariant};

/// At most how many inputs a move turns off (or on) in one perspective.
const MOST: usize = 2;

/// What a move does to one perspective's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// Its own king moved into another bucket or across the middle file
    /// (or was taken): its view changed, so its accumulator is computed
    /// afresh from the new position.
    Refresh,
    /// These inputs go off and these come on.
    Delta(Delta),
}

/// Inputs that go off and come on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    removed: [usize; MOST],
    removed_len: u8,
    added: [usize; MOST],
    added_len: u8,
}

impl Delta {
    fn remove(&mut self, input: Option<usize>) {
        if let Some(input) = input {
            self.removed[usize::from(self.removed_len)] = input;
            self.removed_len += 1;
        }
    }

    fn add(&mut self, input: Option<usize>) {
        if let Some(input) = input {
            self.added[usize::from(self.added_len)] = input;
            self.added_len += 1;
        }
    }

    /// The inputs that go off.
    pub fn removed(&self) -> &[usize] {
        &self.removed[..usize::from(self.removed_len)]
    }

    /// The inputs that come on.
    pub fn added(&self) -> &[usize] {
        &self.added[..usize::from(self.added_len)]
    }
}

impl Layout {
    /// What the legal move `m` in `parent` does to each perspective's
    /// inputs, indexed by [`Color::index`].
    pub fn changes<V: ShogiVariant>(&self, parent: &ShogiPosition<V>, m: Move) -> [Update; 2] {
        let us = parent.turn();
        let them = !us;
        [Color::Sente, Color::Gote].map(|perspective| {
            let view = self.view(perspective, king_of(parent, perspective));
            let mut delta = Delta::default();
            match m {
                Move::Board { from, to, promote } => {
                    let Some(piece) = parent.piece_at(from) else {
                        return Update::Refresh;
                    };
                    // A king move keeps every other input where it was
                    // while the view stays: the king's own input moves,
                    // like any piece's.
                    if piece.role == Role::King
                        && piece.color == perspective
                        && self.view(perspective, Some(to)) != view
                    {
                        return Update::Refresh;
                    }
                    let captured = parent.piece_at(to);
                    if let Some(captured) = captured {
                        if captured.role == Role::King && captured.color == perspective {
                            return Update::Refresh;
                        }
                    }
                    let role = if promote {
                        piece.role.promoted().unwrap_or(piece.role)
                    } else {
                        piece.role
                    };
                    delta.remove(Some(self.board_input(view, piece, from)));
                    delta.add(Some(self.board_input(view, Piece::new(us, role), to)));
                    if let Some(captured) = captured {
                        let role = captured.role.unpromoted();
                        let count = parent.hand(us).count(role);
                        delta.remove(Some(self.board_input(view, captured, to)));
                        delta.add(self.hand_input(view, us, role, count + 1));
                        debug_assert_eq!(captured.color, them);
                    }
                }
                Move::Drop { role, to } => {
                    let count = parent.hand(us).count(role);
                    delta.remove(self.hand_input(view, us, role, count));
                    delta.add(Some(self.board_input(view, Piece::new(us, role), to)));
                }
            }
            Update::Delta(delta)
        })
    }
}
