//! What a shogi-like game is, as data: one `const` [`Spec`] per game.

use crate::attacks::Movement;
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::role::Role;

/// When pieces promote.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PromotionRule {
    /// Shogi: a move that starts or ends in the zone may promote; it must
    /// when the piece could otherwise never move again.
    Optional,
    /// Spear: a board move that ends in the zone always promotes; where it
    /// starts does not matter, and a drop never promotes.
    OnArrival,
}

/// The parameters of a shogi-like game. Rules that are more than parameters
/// (check, king capture, uchifuzume) live in each game's own module.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Files on the board (counted from USI file 1).
    pub files: u8,
    /// Ranks on the board (counted from USI rank a).
    pub ranks: u8,
    /// The start position as SFEN.
    pub start: &'static str,
    /// Roles that may stand on the board, unpromoted then promoted.
    pub board_roles: &'static [Role],
    /// Roles that may be dropped from a hand.
    pub hand_roles: &'static [Role],
    /// How each role moves, indexed by [`Role::index`]; roles not in
    /// `board_roles` are never looked up.
    pub movements: [Movement; Role::NUM],
    /// Depth of the promotion zone in ranks.
    pub zone_depth: u8,
    /// How promotion works.
    pub promotion: PromotionRule,
}

impl Spec {
    /// The squares of the board.
    pub const fn board(&self) -> Bitboard {
        let mut bits = 0u128;
        let mut file = 0;
        while file < self.files {
            bits |= ((1u128 << self.ranks) - 1) << (file as u32 * 9);
            file += 1;
        }
        Bitboard(bits)
    }

    /// The `count` ranks furthest from `color`, on the board.
    pub const fn far_ranks(&self, color: Color, count: u8) -> Bitboard {
        let mut column = 0u128;
        let mut i = 0;
        while i < count {
            let rank = match color {
                Color::Sente => i,
                Color::Gote => self.ranks - 1 - i,
            };
            column |= 1u128 << rank;
            i += 1;
        }
        let mut bits = 0u128;
        let mut file = 0;
        while file < self.files {
            bits |= column << (file as u32 * 9);
            file += 1;
        }
        Bitboard(bits)
    }

    /// The promotion zone of `color`.
    pub const fn zone(&self, color: Color) -> Bitboard {
        self.far_ranks(color, self.zone_depth)
    }

    /// For each movement (by discriminant), the roles of this game that move
    /// so, as a bit mask over role indices.
    pub const fn movement_roles(&self) -> [u16; Movement::NUM] {
        let mut masks = [0u16; Movement::NUM];
        let mut i = 0;
        while i < self.board_roles.len() {
            let role = self.board_roles[i];
            masks[self.movements[role as usize] as usize] |= 1 << role as usize;
            i += 1;
        }
        masks
    }

    /// The furthest 0, 1 and 2 ranks of each side, for rules that ask
    /// where a piece could still move.
    pub const fn far_rank_table(&self) -> [[Bitboard; 3]; 2] {
        [
            [
                self.far_ranks(Color::Sente, 0),
                self.far_ranks(Color::Sente, 1),
                self.far_ranks(Color::Sente, 2),
            ],
            [
                self.far_ranks(Color::Gote, 0),
                self.far_ranks(Color::Gote, 1),
                self.far_ranks(Color::Gote, 2),
            ],
        ]
    }

    /// How `role` moves in this game.
    #[inline(always)]
    pub const fn movement(&self, role: Role) -> Movement {
        self.movements[role.index()]
    }
}

impl Movement {
    /// Number of movements.
    pub const NUM: usize = 12;
    /// The movements that slide along lines, as far as nothing blocks:
    /// pieces that give check from afar, and pin what stands between.
    pub const SLIDERS: [Movement; 6] = [
        Movement::Lance,
        Movement::Bishop,
        Movement::Rook,
        Movement::Horse,
        Movement::Dragon,
        Movement::ForwardBishop,
    ];
    /// How many of the furthest ranks leave a piece moving this way with no
    /// move at all, on an empty board.
    pub const fn immobile_ranks(self) -> u8 {
        match self {
            Movement::Pawn | Movement::Lance | Movement::ForwardBishop => 1,
            Movement::Knight => 2,
            _ => 0,
        }
    }

    /// Whether a piece moving this way reaches the same squares for
    /// either colour: whether it moves backwards as it moves forwards.
    ///
    /// ```
    /// use koma_rules::Movement;
    /// assert!(Movement::Horse.same_for_both_colors());
    /// assert!(Movement::TwoStep.same_for_both_colors());
    /// assert!(!Movement::Gold.same_for_both_colors());
    /// assert!(!Movement::ForwardBishop.same_for_both_colors());
    /// ```
    pub const fn same_for_both_colors(self) -> bool {
        matches!(
            self,
            Movement::King
                | Movement::Bishop
                | Movement::Rook
                | Movement::Horse
                | Movement::Dragon
                | Movement::TwoStep
        )
    }

    /// Whether a piece moving this way can be blocked: whether what it
    /// reaches depends on which squares are occupied. The sliders can, and
    /// Spear's two-step piece, which cannot step over its first square.
    ///
    /// ```
    /// use koma_rules::Movement;
    /// assert!(Movement::Lance.is_blockable());
    /// assert!(Movement::ForwardBishop.is_blockable());
    /// assert!(Movement::TwoStep.is_blockable());
    /// assert!(!Movement::Knight.is_blockable());
    /// assert!(!Movement::Gold.is_blockable());
    /// ```
    pub const fn is_blockable(self) -> bool {
        if matches!(self, Movement::TwoStep) {
            return true;
        }
        // A `const fn` cannot iterate or compare enums with `==`: a loop
        // over the discriminants keeps `SLIDERS` the one list.
        let mut i = 0;
        while i < Self::SLIDERS.len() {
            if Self::SLIDERS[i] as u8 == self as u8 {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// Movements of the standard shogi pieces, shared by shogi and minishogi.
pub const STANDARD_MOVEMENTS: [Movement; Role::NUM] = [
    Movement::Pawn,
    Movement::Lance,
    Movement::Knight,
    Movement::Silver,
    Movement::Gold,
    Movement::Bishop,
    Movement::Rook,
    Movement::King,
    Movement::Gold,
    Movement::Gold,
    Movement::Gold,
    Movement::Gold,
    Movement::Horse,
    Movement::Dragon,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Minishogi, Shogi, Spear};
    use crate::ShogiVariant;

    #[test]
    fn boards_and_zones() {
        assert_eq!(Shogi::SPEC.board(), Bitboard::FULL);
        assert_eq!(Minishogi::SPEC.board().count(), 25);
        assert_eq!(Spear::SPEC.zone(Color::Sente).count(), 10);
        assert_eq!(Minishogi::SPEC.zone(Color::Gote).count(), 5);
        assert!(Shogi::SPEC
            .zone(Color::Gote)
            .contains("1i".parse().unwrap()));
        assert!(Spear::SPEC
            .zone(Color::Gote)
            .contains("5d".parse().unwrap()));
    }
}
