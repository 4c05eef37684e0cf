//! Proof and disproof pieces (証明駒, 反証駒): the attacker's hand a
//! solved position is stored with, so that one entry answers for more
//! hands than the one it was found with.
//!
//! A proof needs only the pieces the mate drops, not the whole hand; a
//! disproof holds for every hand no bigger than what the attacker could
//! hold without a new way to check. With the board the same, the pieces
//! off it are split between the two hands (see `crate::table`), so a
//! smaller attacker's hand gives the defender more: a proof keeps every
//! piece of a role the defender lacks when a drop could block the check,
//! and a disproof gives the attacker no role it lacks, which it might
//! drop to check. (Nagai's thesis, 2002; Seo's proof pieces.)
//!
//! The solver's table keys a position by its board and by how many of
//! each role are off the board (see [`cluster_key`]): within one key the
//! attacker's hand then decides the defender's, which all of this needs.

use crate::table::HandKey;
use koma_rules::{between, Move, Role, ShogiPosition, ShogiVariant};

/// Every role's count at the most a hand can hold: the disproof pieces of
/// a position no hand can mate from.
const ALL: HandKey = HandKey(0x7F7F_7F7F_7F7F_7F7F);

/// The key of `position`'s entries in the table: its board, and how many
/// pieces of each role are in the hands. A useless interposition's capture
/// takes the piece out of the game (see `crate::interposition`), so the
/// same board can come with fewer pieces in hand; keyed apart, each key's
/// attacker's hand decides the defender's.
pub fn cluster_key<V: ShogiVariant>(position: &ShogiPosition<V>) -> u64 {
    key_of(position.board_hash(), off_board(position))
}

/// The key of a board with so many pieces of each role in the hands.
pub fn key_of(board_hash: u64, off_board: HandKey) -> u64 {
    board_hash
        ^ off_board
            .0
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
}

/// The pieces in the hands after a move played in a position with
/// `off_board` of them: one fewer of the role dropped, one more of the
/// role taken.
pub fn off_board_after(off_board: HandKey, m: Move, taken: Option<Role>) -> HandKey {
    let dropped = match m {
        Move::Drop { role, .. } => Some(role),
        Move::Board { .. } => None,
    };
    // `before_move`'s step the other way round.
    before_move(off_board, taken, dropped)
}

/// How many of each role are in either hand.
pub fn off_board<V: ShogiVariant>(position: &ShogiPosition<V>) -> HandKey {
    let [black, white] = koma_rules::Color::ALL.map(|c| HandKey::of(position.hand(c)).0);
    // Each byte's count stays below 64 in either hand: no carry.
    HandKey(black + white)
}

/// The count of role `index` (in [`Role::HAND`]'s order).
fn count(hand: HandKey, index: usize) -> u8 {
    (hand.0 >> (8 * index)) as u8
}

/// `hand` with role `index`'s count set to `value`.
fn with_count(hand: HandKey, index: usize, value: u8) -> HandKey {
    let shift = 8 * index;
    HandKey((hand.0 & !(0xFF << shift)) | (u64::from(value) << shift))
}

/// Role by role, `f` of the two counts.
fn each(a: HandKey, b: HandKey, f: impl Fn(u8, u8) -> u8) -> HandKey {
    (0..Role::HAND.len()).fold(HandKey(0), |out, index| {
        with_count(out, index, f(count(a, index), count(b, index)))
    })
}

/// Role by role, the larger count.
pub fn larger(a: HandKey, b: HandKey) -> HandKey {
    each(a, b, u8::max)
}

/// Role by role, the smaller count.
pub fn smaller(a: HandKey, b: HandKey) -> HandKey {
    each(a, b, u8::min)
}

/// The pieces a child's `pieces` ask of its parent's hand, for the
/// attacker's move into it: the child's hand is the parent's less the
/// piece dropped and plus the piece taken, so the parent needs (a proof)
/// or may hold (a disproof) one more of the first and one fewer of the
/// second.
pub fn before_move(pieces: HandKey, dropped: Option<Role>, taken: Option<Role>) -> HandKey {
    let index = |role: Role| Role::HAND.iter().position(|r| *r == role);
    let mut out = pieces;
    if let Some(i) = dropped.and_then(index) {
        // At most 127, which `HandKey::covers` needs.
        out = with_count(out, i, count(out, i).saturating_add(1).min(0x7F));
    }
    if let Some(i) = taken.and_then(index) {
        out = with_count(out, i, count(out, i).saturating_sub(1));
    }
    out
}

/// The unpromoted role the side to move takes with `m`, if it takes.
pub fn taken_by<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> Option<Role> {
    // A drop's square is empty.
    position.piece_at(m.to()).map(|p| p.role.unpromoted())
}

/// `out` with each role that `hand` lacks set to its count in `with`.
fn where_lacking(out: HandKey, hand: HandKey, with: HandKey) -> HandKey {
    (0..Role::HAND.len()).fold(out, |out, index| {
        if count(hand, index) == 0 {
            with_count(out, index, count(with, index))
        } else {
            out
        }
    })
}

/// The proof pieces of `position`, the defender to move in check, from
/// `needed`, the most its answers' proofs need: with a drop able to block
/// the check, every role the defender lacks stays in the attacker's hand
/// in full, so that the defender still has none to drop.
pub fn proof_at_defence<V: ShogiVariant>(position: &ShogiPosition<V>, needed: HandKey) -> HandKey {
    let defender = position.turn();
    let checkers = position.checkers();
    let blockable = match (checkers.first(), position.king(defender)) {
        (Some(checker), Some(king)) => {
            !checkers.has_more_than_one() && !between(king, checker).is_empty()
        }
        _ => false,
    };
    if !blockable {
        return needed;
    }
    let theirs = HandKey::of(position.hand(defender));
    let ours = HandKey::of(position.hand(!defender));
    where_lacking(needed, theirs, ours)
}

/// The disproof pieces of `position`, the attacker to move, from
/// `allowed`, the most its checks' disproofs allow: no role the attacker
/// lacks, which it could drop to check; of the roles it holds, more drop
/// on the same squares.
pub fn disproof_at_attack<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    allowed: HandKey,
) -> HandKey {
    let ours = HandKey::of(position.hand(position.turn()));
    where_lacking(allowed, ours, HandKey(0))
}

/// The disproof pieces of `position`, the defender to move, refuted by
/// its move `m` with the move's disproof `allowed`: no more than the
/// pieces off the board, and for a drop, one fewer of its role, so that
/// the defender still holds the piece it drops.
pub fn disproof_at_defence<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    allowed: HandKey,
) -> HandKey {
    let mut most = off_board(position);
    if let Move::Drop { role, .. } = m {
        most = before_move(most, None, Some(role));
    }
    smaller(allowed, most)
}

/// The disproof pieces of `position`, the attacker to move with no check:
/// every piece off the board of the roles it holds.
pub fn disproof_without_checks<V: ShogiVariant>(position: &ShogiPosition<V>) -> HandKey {
    disproof_at_attack(position, off_board(position))
}

/// The disproof pieces of a position that no hand mates from (no plies
/// left).
pub fn disproof_of_any() -> HandKey {
    ALL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::{Budget, Search};
    use crate::table::{Known, Table, UNLIMITED};
    use koma_rules::{Color, Position, StandardShogiPosition};

    /// Sente's hand in `sfen`.
    fn hand_of(sfen: &str) -> HandKey {
        HandKey::of(
            StandardShogiPosition::from_text(sfen)
                .unwrap()
                .hand(Color::Sente),
        )
    }

    #[test]
    fn a_drop_is_needed_and_a_capture_is_given() {
        let pieces = hand_of("4k4/9/9/9/9/9/9/9/4K4 b G2P 1");
        let gold_more = hand_of("4k4/9/9/9/9/9/9/9/4K4 b 2G2P 1");
        let pawn_less = hand_of("4k4/9/9/9/9/9/9/9/4K4 b GP 1");
        assert_eq!(before_move(pieces, Some(Role::Gold), None), gold_more);
        assert_eq!(before_move(pieces, None, Some(Role::Pawn)), pawn_less);
        assert_eq!(
            before_move(pawn_less, Some(Role::Pawn), Some(Role::Pawn)),
            pawn_less
        );
        assert_eq!(larger(pawn_less, gold_more), gold_more);
        assert_eq!(smaller(pieces, gold_more), pieces);
    }

    #[test]
    fn a_blockable_check_keeps_the_roles_the_defender_lacks() {
        // The rook checks from afar; White holds a pawn, Black a gold and
        // a silver: with less of them, White could block with them.
        let sfen = "4k4/9/9/9/4R4/9/9/9/4K4 w GSp 1";
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        let pieces = proof_at_defence(&position, HandKey(0));
        assert_eq!(pieces, hand_of("4k4/9/9/9/9/9/9/9/4K4 b GS 1"));
        // Next to the king nothing can block: nothing more is needed.
        let sfen = "9/9/9/9/9/9/9/4k4/4R3K w GSp 1";
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        assert_eq!(proof_at_defence(&position, HandKey(0)), HandKey(0));
    }

    #[test]
    fn a_disproof_gives_no_role_the_attacker_lacks() {
        let sfen = "4k4/9/9/9/9/9/9/9/4K4 b S2Pgp 1";
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        let pieces = disproof_without_checks(&position);
        // All three pawns off the board and the silver; not the gold.
        assert_eq!(pieces, hand_of("4k4/9/9/9/9/9/9/9/4K4 b S3P 1"));
    }

    /// What a search over a fresh table says of `sfen`, and then what
    /// the table knows of `other`: the same board with another hand.
    fn solve_then_look(sfen: &str, other: &str) -> (Known, Option<Known>) {
        let mut table = Table::new(16);
        let budget = Budget {
            deadline: None,
            nodes: Some(1_000_000),
            stop: None,
            progress: None,
        };
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        let mut search = Search::new(&mut table, Color::Sente, budget);
        let known = search.prove(&position, UNLIMITED);
        let other = StandardShogiPosition::from_text(other).unwrap();
        (known, search.look(&other, UNLIMITED))
    }

    #[test]
    fn a_proof_answers_for_a_hand_with_only_the_pieces_it_drops() {
        // The gold's drop mates (the pawn guards it, the check is next to
        // the king): the silvers are not needed.
        let (known, other) = solve_then_look(
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2S 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 b Gss 1",
        );
        assert!(known.is_proven());
        assert!(other.is_some_and(Known::is_proven), "{other:?}");
        // Without the gold nothing mates: the proof does not answer.
        let (_, other) = solve_then_look(
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2S 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 b 2Sg 1",
        );
        assert!(!other.is_some_and(Known::is_proven), "{other:?}");
    }

    #[test]
    fn a_disproof_answers_for_more_of_a_role_the_attacker_holds() {
        // A pawn on the king's file already: no pawn drop checks, and
        // nothing else can.
        let (known, other) = solve_then_look(
            "8k/9/9/9/9/9/8P/9/4K4 b Pp 1",
            "8k/9/9/9/9/9/8P/9/4K4 b 2P 1",
        );
        assert!(known.is_disproven());
        assert!(other.is_some_and(Known::is_disproven), "{other:?}");
        // A gold it lacks could check: the disproof does not answer.
        let (_, other) = solve_then_look(
            "8k/9/9/9/9/9/8P/9/4K4 b Pgp 1",
            "8k/9/9/9/9/9/8P/9/4K4 b GPp 1",
        );
        assert!(!other.is_some_and(Known::is_disproven), "{other:?}");
    }

    #[test]
    fn a_refuting_drop_leaves_the_defender_its_piece() {
        // White, checked by the rook, blocks with the gold it holds.
        let sfen = "4k4/9/9/9/4R4/9/9/9/4K4 w Gp 1";
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        let drop = StandardShogiPosition::parse_move_syntax("G*5b").unwrap();
        let pieces = disproof_at_defence(&position, drop, ALL);
        // Black may hold the pawn, not the gold.
        assert_eq!(pieces, hand_of("4k4/9/9/9/9/9/9/9/4K4 b P 1"));
        let step = StandardShogiPosition::parse_move_syntax("5a4a").unwrap();
        let pieces = disproof_at_defence(&position, step, ALL);
        assert_eq!(pieces, hand_of("4k4/9/9/9/9/9/9/9/4K4 b GP 1"));
    }

    #[test]
    fn the_key_follows_a_move() {
        let position =
            StandardShogiPosition::from_text("4k4/9/4p4/9/4R4/9/9/9/4K4 b GPp 1").unwrap();
        let off = off_board(&position);
        for text in ["5e5c+", "G*5b", "P*5d", "5e4e"] {
            let m = StandardShogiPosition::parse_move_syntax(text).unwrap();
            let mut next = position;
            next.play_unchecked(m);
            let after = off_board_after(off, m, taken_by(&position, m));
            assert_eq!(
                key_of(next.board_hash(), after),
                cluster_key(&next),
                "{text}"
            );
        }
    }

    #[test]
    fn the_key_tells_apart_a_piece_out_of_the_game() {
        let with = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/9/4K4 b Pp 1").unwrap();
        let without = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert_eq!(with.board_hash(), without.board_hash());
        assert_ne!(cluster_key(&with), cluster_key(&without));
    }
}
