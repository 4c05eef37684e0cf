//! Kinds of pieces (`Role`) and pieces (`Piece` = colour + role).

use crate::color::Color;

/// The kind of a piece in the shogi family, promoted forms included.
///
/// The first eight can stand in a hand (the king only in Spear, where a
/// captured king ends the game in the capturer's hand). How a role moves is
/// the game's business: Spear's `Bishop` is the elephant, which slides only
/// forwards, and its `Lance` is the spear; see [`crate::Movement`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Role {
    /// 歩 pawn (Spear: soldier).
    Pawn = 0,
    /// 香 lance (Spear: spear).
    Lance = 1,
    /// 桂 knight.
    Knight = 2,
    /// 銀 silver general.
    Silver = 3,
    /// 金 gold general.
    Gold = 4,
    /// 角 bishop (Spear: elephant).
    Bishop = 5,
    /// 飛 rook.
    Rook = 6,
    /// 玉 king.
    King = 7,
    /// と promoted pawn.
    Tokin = 8,
    /// 成香 promoted lance.
    PromotedLance = 9,
    /// 成桂 promoted knight.
    PromotedKnight = 10,
    /// 成銀 promoted silver.
    PromotedSilver = 11,
    /// 馬 horse, the promoted bishop.
    Horse = 12,
    /// 龍 dragon, the promoted rook.
    Dragon = 13,
}

impl Role {
    /// Number of roles.
    pub const NUM: usize = 14;

    /// Every role, in index order.
    pub const ALL: [Role; 14] = [
        Role::Pawn,
        Role::Lance,
        Role::Knight,
        Role::Silver,
        Role::Gold,
        Role::Bishop,
        Role::Rook,
        Role::King,
        Role::Tokin,
        Role::PromotedLance,
        Role::PromotedKnight,
        Role::PromotedSilver,
        Role::Horse,
        Role::Dragon,
    ];

    /// Roles that can be held in a hand, in index order (king for Spear only).
    pub const HAND: [Role; 8] = [
        Role::Pawn,
        Role::Lance,
        Role::Knight,
        Role::Silver,
        Role::Gold,
        Role::Bishop,
        Role::Rook,
        Role::King,
    ];

    /// The order in which hands are written in SFEN and shown to people:
    /// most valuable first (king first: only Spear's hands can hold one).
    pub const HAND_ORDER: [Role; 8] = [
        Role::King,
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
    ];

    /// The role with this index.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Role {
        Role::ALL[index]
    }

    /// Index 0..14.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The promoted form, if this role promotes.
    #[inline(always)]
    pub const fn promoted(self) -> Option<Role> {
        match self {
            Role::Pawn => Some(Role::Tokin),
            Role::Lance => Some(Role::PromotedLance),
            Role::Knight => Some(Role::PromotedKnight),
            Role::Silver => Some(Role::PromotedSilver),
            Role::Bishop => Some(Role::Horse),
            Role::Rook => Some(Role::Dragon),
            _ => None,
        }
    }

    /// The unpromoted form (itself when not promoted): what a capture puts in
    /// the hand.
    #[inline(always)]
    pub const fn unpromoted(self) -> Role {
        match self {
            Role::Tokin => Role::Pawn,
            Role::PromotedLance => Role::Lance,
            Role::PromotedKnight => Role::Knight,
            Role::PromotedSilver => Role::Silver,
            Role::Horse => Role::Bishop,
            Role::Dragon => Role::Rook,
            other => other,
        }
    }

    /// Whether this is a promoted form.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        self as usize >= Role::Tokin as usize
    }

    /// The SFEN letter of the unpromoted form, upper case.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            Role::Pawn => 'P',
            Role::Lance => 'L',
            Role::Knight => 'N',
            Role::Silver => 'S',
            Role::Gold => 'G',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted role for an SFEN letter of either case.
    pub const fn from_letter(letter: char) -> Option<Role> {
        match letter.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'L' => Some(Role::Lance),
            'N' => Some(Role::Knight),
            'S' => Some(Role::Silver),
            'G' => Some(Role::Gold),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'K' => Some(Role::King),
            _ => None,
        }
    }
}

/// A piece: a side and a role.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// Number of distinct pieces.
    pub const NUM: usize = 28;

    /// Builds a piece.
    #[inline(always)]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// Dense index 0..28: colour × 14 + role.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * Role::NUM + self.role.index()
    }

    /// The piece a square's code names: 0 for none, else the piece's
    /// dense index plus one. One load from a table, where working out the
    /// colour and role divides by [`Role::NUM`] (the search reads squares
    /// at every turn).
    ///
    /// ```
    /// use koma_rules::{Color, Piece, Role};
    /// assert_eq!(Piece::from_code(0), None);
    /// let gold = Piece::new(Color::Gote, Role::Gold);
    /// assert_eq!(Piece::from_code(gold.index() as u8 + 1), Some(gold));
    /// ```
    #[inline(always)]
    pub fn from_code(code: u8) -> Option<Piece> {
        const CODES: [Option<Piece>; Piece::NUM + 1] = {
            let mut codes = [None; Piece::NUM + 1];
            let mut index = 0;
            while index < Piece::NUM {
                codes[index + 1] = Some(Piece::from_index(index));
                index += 1;
            }
            codes
        };
        CODES.get(code as usize).copied().flatten()
    }

    /// The piece with this dense index.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Piece {
        let color = if index < Role::NUM {
            Color::Sente
        } else {
            Color::Gote
        };
        Piece::new(color, Role::from_index(index % Role::NUM))
    }

    /// SFEN text: `+` for promoted pieces, upper case for Sente.
    pub fn to_sfen(self) -> String {
        let letter = match self.color {
            Color::Sente => self.role.letter(),
            Color::Gote => self.role.letter().to_ascii_lowercase(),
        };
        if self.role.is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }
}
