//! Legal move generation for shogi-like games with check: shogi and
//! minishogi. Check and pins are cached in the position, so legality is a
//! mask: a checked side may only capture the checker or block, a pinned piece
//! only moves along its pin, and the king only steps to unattacked squares.

use crate::attacks::{attacks, between, king_attacks, Movement};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveSet};
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::square::Square;

const FILE_1: u128 = 0x1ff;

/// Every file (as a column of squares) that holds a square of `squares`.
#[inline(always)]
pub(crate) fn files_of(squares: Bitboard) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for square in squares {
        files |= Bitboard(FILE_1 << (square.file() as u32 * 9));
    }
    files
}

/// Legal moves under the standard shogi rules of check and drops.
pub(crate) fn generate_with_check<V: ShogiVariant, F: FnMut(MoveSet) -> bool>(
    position: &ShogiPosition<V>,
    listener: &mut F,
) -> bool {
    let us = position.turn();
    let own = position.by_color(us);
    let empty = !position.occupied() & V::BOARD;
    let Some(king) = position.king(us) else {
        // A set-up without this side's king (a mate problem): no check to mind.
        return position.generate_piece_moves(!own & V::BOARD, listener)
            || generate_drops(position, empty, listener);
    };

    let safe = position.safe_king_steps(king, king_attacks(king) & V::BOARD & !own);
    if safe.any() && listener(ShogiPosition::<V>::king_moves(king, safe)) {
        return true;
    }

    let Some((targets, drop_targets)) = targets_under_check(position, Some(king)) else {
        return false;
    };
    position.generate_piece_moves(targets, listener)
        || generate_drops(position, drop_targets, listener)
}

/// Where the side to move's pieces other than its king (on `king`, if it
/// has one) may go, and where it may drop: anywhere out of check or
/// without a king; onto the checker or between it and the king in check;
/// nowhere in double check (`None`).
#[inline(always)]
fn targets_under_check<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    king: Option<Square>,
) -> Option<(Bitboard, Bitboard)> {
    let checkers = position.checkers();
    if checkers.has_more_than_one() {
        return None;
    }
    Some(match (checkers.first(), king) {
        (Some(checker), Some(king)) => {
            let block = between(king, checker);
            (block.with(checker), block)
        }
        _ => {
            let own = position.by_color(position.turn());
            (!own & V::BOARD, !position.occupied() & V::BOARD)
        }
    })
}

/// Whether `m` is legal under the standard rules of check and drops: what
/// [`generate_with_check`] would give, asked of the one piece or the one
/// drop the move names (a move from a record, a user or a table).
pub(crate) fn is_legal_with_check<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> bool {
    let us = position.turn();
    let own = position.by_color(us);
    let king = position.king(us);
    let to = m.to();
    let target = Bitboard::EMPTY.with(to) & V::BOARD;
    match m {
        Move::Board { from, .. } => {
            let Some(piece) = position.piece_at(from).filter(|piece| piece.color == us) else {
                return false;
            };
            if piece.role == Role::King {
                let steps = king_attacks(from) & target & !own;
                let safe = position.safe_king_steps(from, steps);
                return ShogiPosition::<V>::king_moves(from, safe).contains(m);
            }
            let Some((targets, _)) = targets_under_check(position, king) else {
                return false;
            };
            let reached = position.piece_targets(
                piece.role,
                from,
                targets & target,
                position.blockers(),
                king,
            );
            position
                .promotion_split(piece.role, from, reached)
                .contains(m)
        }
        Move::Drop { role, .. } => {
            if position.hand(us).count(role) == 0 {
                return false;
            }
            let Some((_, drop_targets)) = targets_under_check(position, king) else {
                return false;
            };
            legal_drop_squares(position, role, drop_targets & target).contains(to)
        }
    }
}

/// Drops onto `targets`, without dead drops, nifu, or a pawn drop that mates.
fn generate_drops<V: ShogiVariant, F: FnMut(MoveSet) -> bool>(
    position: &ShogiPosition<V>,
    targets: Bitboard,
    listener: &mut F,
) -> bool {
    if targets.is_empty() {
        return false;
    }
    let hand = position.hand(position.turn());
    for &role in V::SPEC.hand_roles {
        if hand.count(role) == 0 {
            continue;
        }
        let to = legal_drop_squares(position, role, targets);
        if to.any() && listener(MoveSet::Drop { role, to }) {
            return true;
        }
    }
    false
}

/// The squares of `targets` where the side to move may drop `role` (held
/// in hand): none where the piece could never move again, no second pawn
/// on a file, no pawn drop that mates.
pub(crate) fn legal_drop_squares<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    role: Role,
    targets: Bitboard,
) -> Bitboard {
    let us = position.turn();
    let movement = V::SPEC.movement(role);
    let mut to = targets & !V::FAR_RANKS[us.index()][movement.immobile_ranks() as usize];
    if role == Role::Pawn {
        to &= !files_of(position.pieces(us, Role::Pawn));
        if let Some(enemy_king) = position.king(!us) {
            let checking = attacks(Movement::Pawn, !us, enemy_king, Bitboard::EMPTY) & to;
            if let Some(square) = checking.first() {
                if pawn_drop_mates(position, square) {
                    to.remove(square);
                }
            }
        }
    }
    to
}

/// Whether dropping a pawn on `square` (which checks) leaves no reply.
/// Played out rather than reasoned about: pins of the defenders, a king that
/// may or may not take the pawn, all follow from the ordinary rules.
fn pawn_drop_mates<V: ShogiVariant>(position: &ShogiPosition<V>, square: Square) -> bool {
    let mut after = *position;
    after.play_unchecked(Move::Drop {
        role: Role::Pawn,
        to: square,
    });
    !after.has_legal_move()
}
