//! What a mate line is: legal from its position, every attacker's move a
//! check, and the defender mated at its end as problems count it (useless
//! interpositions aside). The solver checks its own lines with it, and
//! [`crate::checkmate_line`] carries such a line on to checkmate.

use koma_rules::{Move, Position, ShogiPosition, ShogiVariant};

/// Whether `line` is legal from `root` and mates: every attacker's move
/// checks, and at its end the defender is checked without a legal move
/// but useless interpositions; in Spear, the last move takes the king.
pub fn is_mate_line<V: ShogiVariant>(root: &ShogiPosition<V>, line: &[Move]) -> bool {
    let attacker = root.turn();
    let mut position = *root;
    for (ply, &m) in line.iter().enumerate() {
        if !position.is_legal(m) {
            return false;
        }
        let checking = position.turn() == attacker;
        position.play_unchecked(m);
        if V::KINGS_ARE_CAPTURED && position.king(!attacker).is_none() {
            return ply + 1 == line.len();
        }
        if checking && !crate::moves::king_attacked(&position, !attacker) {
            return false;
        }
    }
    !V::KINGS_ARE_CAPTURED
        && position.turn() != attacker
        && mated_but_for_interpositions(&position, MAX_INTERPOSITIONS)
}

/// The most interpositions in a row [`is_mate_line`] follows at a line's end.
pub(crate) const MAX_INTERPOSITIONS: u32 = 8;

/// Whether the side to move is checked and either has no legal move or
/// only drops between the king and a distant checker, each of which the
/// checker takes to leave a position of the same kind (`levels` more at
/// most): mated, as problems count it.
fn mated_but_for_interpositions<V: ShogiVariant>(position: &ShogiPosition<V>, levels: u32) -> bool {
    let checkers = position.checkers();
    let (Some(checker), Some(king)) = (checkers.first(), position.king(position.turn())) else {
        return false;
    };
    let answers = position.legal_moves();
    if answers.is_empty() {
        return true;
    }
    if levels == 0 || checkers.has_more_than_one() {
        return false;
    }
    answers.iter().all(|&m| {
        let interposed = m.is_drop() && koma_rules::between(king, checker).contains(m.to());
        interposed && {
            let mut next = *position;
            next.play_unchecked(m);
            [false, true].into_iter().any(|promote| {
                let capture = Move::Board {
                    from: checker,
                    to: m.to(),
                    promote,
                };
                next.play(capture)
                    .is_ok_and(|after| mated_but_for_interpositions(&after, levels - 1))
            })
        }
    })
}
