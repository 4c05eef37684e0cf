//! Minishogi (5五将棋): shogi on 5×5 without lances and knights, with a
//! one-rank promotion zone.

use super::{generate_with_check, outcome_with_check, standard_shogi_rules};
use crate::moves::MoveSet;
use crate::outcome::Outcome;
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::spec::{PromotionRule, Spec, STANDARD_MOVEMENTS};
use crate::variant::Variant;

/// Standard minishogi.
///
/// ```
/// use koma_rules::{Minishogi, ShogiPosition};
/// assert_eq!(ShogiPosition::<Minishogi>::start().count_legal_moves(), 14);
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Minishogi;

impl ShogiVariant for Minishogi {
    const VARIANT: Variant = Variant::Minishogi;
    const SPEC: Spec = Spec {
        files: 5,
        ranks: 5,
        start: "rbsgk/4p/5/P4/KGSBR b - 1",
        board_roles: &[
            Role::Pawn,
            Role::Silver,
            Role::Gold,
            Role::Bishop,
            Role::Rook,
            Role::King,
            Role::Tokin,
            Role::PromotedSilver,
            Role::Horse,
            Role::Dragon,
        ],
        hand_roles: &[
            Role::Pawn,
            Role::Silver,
            Role::Gold,
            Role::Bishop,
            Role::Rook,
        ],
        movements: STANDARD_MOVEMENTS,
        zone_depth: 1,
        promotion: PromotionRule::Optional,
    };

    standard_shogi_rules!();
}
