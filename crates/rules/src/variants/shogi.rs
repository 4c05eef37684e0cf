//! Standard shogi (本将棋), 9×9.

use super::{generate_with_check, outcome_with_check, standard_shogi_rules};
use crate::moves::MoveSet;
use crate::outcome::Outcome;
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::spec::{PromotionRule, Spec, STANDARD_MOVEMENTS};
use crate::variant::Variant;

/// Standard shogi: the rules of the Japan Shogi Association.
///
/// ```
/// use koma_rules::{Shogi, ShogiPosition};
/// let start = ShogiPosition::<Shogi>::start();
/// assert_eq!(start.count_legal_moves(), 30);
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Shogi;

impl ShogiVariant for Shogi {
    const VARIANT: Variant = Variant::Shogi;
    const SPEC: Spec = Spec {
        files: 9,
        ranks: 9,
        start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        board_roles: &Role::ALL,
        hand_roles: &[
            Role::Pawn,
            Role::Lance,
            Role::Knight,
            Role::Silver,
            Role::Gold,
            Role::Bishop,
            Role::Rook,
        ],
        movements: STANDARD_MOVEMENTS,
        zone_depth: 3,
        promotion: PromotionRule::Optional,
    };

    standard_shogi_rules!();
}
