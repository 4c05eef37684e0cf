//! The two sides.

use std::ops::Not;

/// A side. `Sente` moves first in every Koma game: Sente is the seed's Black in
/// Spear (the line protocol's lower-case side) and White in Pawns-Only Chess.
/// `Gote` moves second.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// The first player, at the bottom of the board.
    Sente = 0,
    /// The second player, at the top of the board.
    Gote = 1,
}

impl Color {
    /// Both sides, Sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// 0 for Sente, 1 for Gote.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// Rank step of this side's "forward": Sente moves towards rank index 0.
    #[inline(always)]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Sente => -1,
            Color::Gote => 1,
        }
    }

    /// Picks `sente` or `gote` by side.
    #[inline(always)]
    pub const fn select<T: Copy>(self, sente: T, gote: T) -> T {
        match self {
            Color::Sente => sente,
            Color::Gote => gote,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.opposite()
    }
}
