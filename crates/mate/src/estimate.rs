//! What the search guesses of a position before it searches it: its first
//! proof and disproof numbers (df-pn+), and which moves can wait until a
//! like move is settled (delayed expansion).
//!
//! Both ideas are the field's: df-pn+ starts a new position from numbers
//! that say how hopeful the move into it looks, instead of 1 and 1; and a
//! defender who can interpose a pawn, a lance, … or a gold on one square
//! gets its other pieces looked at only once the first is refuted, so
//! that seven nearly equal answers do not count as seven proofs to find.

use crate::pieces::taken_by;
use crate::table::Number;
use koma_rules::{attacks, Move, Role, ShogiPosition, ShogiVariant, Square};

/// The first proof and disproof numbers of the position after `m`, a move
/// of the side to move in `position`; `or_node` when that side attacks.
///
/// The attacker's check looks better (smaller proof number) when its
/// target square is better covered by the attacker than by the defender,
/// and worse when it takes a minor piece for nothing. The defender's answer
/// looks better (bigger proof number) when it captures, or interposes on a
/// square it covers better than the attacker does.
///
/// `coverage` is the node's, shared with [`delay_key`]: its moves share
/// few squares.
pub fn first_numbers<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    or_node: bool,
    coverage: &mut Coverage,
) -> (Number, Number) {
    let us = position.turn();
    let to = m.to();
    let captured = taken_by(position, m);
    let (ours, theirs) = covering(position, to, coverage);
    let ours = u32::from(ours) + u32::from(m.is_drop());
    let theirs = u32::from(theirs);
    if or_node {
        let mut proof = 1;
        let mut disproof = 1;
        if theirs >= 2 {
            proof += 1;
        }
        if ours > theirs || matches!(captured, Some(Role::Gold | Role::Silver)) {
            disproof += 1;
        } else {
            proof += 1;
        }
        return (proof, disproof);
    }
    if captured.is_some() {
        return (2, 1);
    }
    if m.from().is_some() && m.from() == position.king(us) {
        return (1, 1);
    }
    if theirs < ours {
        (2, 1)
    } else {
        (1, 2)
    }
}

/// Per square, how many pieces of the side to move and of the other side
/// cover it; `None` until asked.
pub type Coverage = [Option<(u8, u8)>; Square::NUM];

/// How many pieces of the side to move and of the other side cover `to`,
/// counted once per node in `coverage`.
fn covering<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    to: Square,
    coverage: &mut Coverage,
) -> (u8, u8) {
    *coverage[to.index() as usize].get_or_insert_with(|| {
        let covering = position.attackers_to(to, position.blockers());
        let us = position.turn();
        (
            (covering & position.by_color(us)).count() as u8,
            (covering & position.by_color(!us)).count() as u8,
        )
    })
}

/// A group of moves of which only the first need be searched until it is
/// settled: the key moves share.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum DelayKey {
    /// The defender's drops on one square it covers, or that check.
    DropOn(Square),
    /// The defender's drops that neither cover nor check: interpositions
    /// that only give the attacker a piece, whatever the square.
    IdleDrop,
    /// A move with and without promotion from one square to another.
    Promotion(Square, Square),
}

/// The group `m` belongs to, if it may wait for a like move: the
/// defender's drops, and a pawn's, lance's, bishop's or rook's move with
/// and without promotion (whichever of the two comes first is searched
/// first).
pub fn delay_key<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    or_node: bool,
    coverage: &mut Coverage,
) -> Option<DelayKey> {
    let us = position.turn();
    match m {
        Move::Drop { role, to } => {
            if or_node {
                return None;
            }
            let covered = covering(position, to, coverage).0 > 0;
            let checks = position.king(!us).is_some_and(|king| {
                attacks(V::SPEC.movement(role), us, to, position.blockers()).contains(king)
            });
            Some(if covered || checks {
                DelayKey::DropOn(to)
            } else {
                DelayKey::IdleDrop
            })
        }
        Move::Board { from, to, .. } => {
            let role = position.piece_at(from)?.role;
            matches!(role, Role::Pawn | Role::Lance | Role::Bishop | Role::Rook)
                .then_some(DelayKey::Promotion(from, to))
        }
    }
}
