//! Spear Shogi, the seed's game: no check, the king is captured like any
//! piece and its capture ends the game; drops go anywhere; pieces promote on
//! arriving in the last two ranks. See `docs/rules/spear.md`.

use crate::attacks::{king_attacks, Movement};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::MoveSet;
use crate::outcome::{EndReason, Outcome};
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::spec::{PromotionRule, Spec, STANDARD_MOVEMENTS};
use crate::variant::Variant;

/// Spear Shogi (`spear`), in shogi orientation: Sente is the seed's Black.
///
/// ```
/// use koma_rules::{ShogiPosition, Spear};
/// assert_eq!(ShogiPosition::<Spear>::start().count_legal_moves(), 14);
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Spear;

const fn spear_movements() -> [Movement; Role::NUM] {
    let mut movements = STANDARD_MOVEMENTS;
    movements[Role::Bishop as usize] = Movement::ForwardBishop;
    movements[Role::PromotedLance as usize] = Movement::Rook;
    movements[Role::PromotedSilver as usize] = Movement::TwoStep;
    movements
}

impl ShogiVariant for Spear {
    const VARIANT: Variant = Variant::Spear;
    const KINGS_ARE_CAPTURED: bool = true;
    const SPEC: Spec = Spec {
        files: 5,
        ranks: 5,
        start: "lbsgk/4p/5/P4/KGSBL b - 1",
        board_roles: &[
            Role::Pawn,
            Role::Lance,
            Role::Silver,
            Role::Gold,
            Role::Bishop,
            Role::King,
            Role::Tokin,
            Role::PromotedLance,
            Role::PromotedSilver,
            Role::Horse,
        ],
        hand_roles: &[
            Role::Pawn,
            Role::Lance,
            Role::Silver,
            Role::Gold,
            Role::Bishop,
        ],
        movements: spear_movements(),
        zone_depth: 2,
        promotion: PromotionRule::OnArrival,
    };

    /// Every move that lands on the board is legal: there is no check, and a
    /// drop may go on any empty square. Once a king is captured, nothing moves.
    fn generate<F: FnMut(MoveSet) -> bool>(
        position: &ShogiPosition<Self>,
        listener: &mut F,
    ) -> bool {
        let us = position.turn();
        let (Some(king), Some(_)) = (position.king(us), position.king(!us)) else {
            return false;
        };
        let targets = !position.by_color(us) & Self::BOARD;
        let king_moves = king_attacks(king) & targets;
        if king_moves.any() {
            let set = MoveSet::Board {
                role: Role::King,
                from: king,
                to: king_moves,
                promote_optional: Bitboard::EMPTY,
                promote_forced: Bitboard::EMPTY,
            };
            if listener(set) {
                return true;
            }
        }
        if position.generate_piece_moves(targets, listener) {
            return true;
        }
        let empty = !position.occupied() & Self::BOARD;
        let hand = position.hand(us);
        for &role in Self::SPEC.hand_roles {
            if hand.count(role) > 0 && listener(MoveSet::Drop { role, to: empty }) {
                return true;
            }
        }
        false
    }

    fn refresh(_position: &mut ShogiPosition<Self>) {}

    /// The game ends when a king has been captured. A side left without any
    /// move (which needs an empty hand and every piece blocked) draws.
    fn outcome(position: &ShogiPosition<Self>) -> Option<Outcome> {
        for color in Color::ALL {
            if position.king(color).is_none() {
                return Some(Outcome::win(!color, EndReason::KingCaptured));
            }
        }
        if position.has_legal_move() {
            None
        } else {
            Some(Outcome::draw(EndReason::Stalemate))
        }
    }

    fn is_check(_position: &ShogiPosition<Self>) -> bool {
        false
    }
}
