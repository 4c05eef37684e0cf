//! The games Koma plays, named at run time.

use crate::color::Color;
use std::fmt;
use std::str::FromStr;

/// One of Koma's games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Spear Shogi, 5×5, the seed's game.
    Spear,
    /// Standard minishogi (5五将棋).
    Minishogi,
    /// Standard shogi, 9×9.
    Shogi,
    /// Pawns-Only Chess, 8×8.
    Pawns,
}

impl Variant {
    /// Every game.
    pub const ALL: [Variant; 4] = [
        Variant::Spear,
        Variant::Minishogi,
        Variant::Shogi,
        Variant::Pawns,
    ];

    /// The name used on the command line and in protocols.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Spear => "spear",
            Variant::Minishogi => "minishogi",
            Variant::Shogi => "shogi",
            Variant::Pawns => "pawns",
        }
    }

    /// The name of `color`'s player in sentences: Sente and Gote in shogi
    /// and minishogi, Black (who moves first) and White in Spear as its
    /// seed says, White and Black in Pawns-Only Chess.
    ///
    /// ```
    /// use koma_rules::{Color, Variant};
    /// assert_eq!(Variant::Spear.side_name(Color::Sente), "Black");
    /// assert_eq!(Variant::Pawns.side_name(Color::Sente), "White");
    /// ```
    pub const fn side_name(self, color: Color) -> &'static str {
        match (self, color) {
            (Variant::Spear, Color::Sente) | (Variant::Pawns, Color::Gote) => "Black",
            (Variant::Spear, Color::Gote) | (Variant::Pawns, Color::Sente) => "White",
            (_, Color::Sente) => "Sente",
            (_, Color::Gote) => "Gote",
        }
    }

    /// Whether the game belongs to the shogi family (SFEN, USI, hands).
    pub const fn is_shogi_family(self) -> bool {
        !matches!(self, Variant::Pawns)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of Koma's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game {:?}: expected spear, minishogi, shogi or pawns",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        match text.to_ascii_lowercase().as_str() {
            "spear" => Ok(Variant::Spear),
            "minishogi" | "mini" | "5x5" => Ok(Variant::Minishogi),
            "shogi" => Ok(Variant::Shogi),
            "pawns" | "pawns-only" => Ok(Variant::Pawns),
            _ => Err(UnknownVariant(text.to_owned())),
        }
    }
}
