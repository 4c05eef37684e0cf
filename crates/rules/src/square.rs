//! Squares of the 9-wide grid that every Koma board lives on.

use std::fmt;
use std::str::FromStr;

/// A square of the 9×9 grid, stored file-major: index = file × 9 + rank.
///
/// `file` 0 is USI file `1` (the right edge as Sente sees the board) and
/// `rank` 0 is USI rank `a` (the top edge, Gote's back rank). The 5×5 games
/// use files and ranks 0..5 of the same grid; Pawns-Only Chess uses 0..8 (see
/// [`crate::pawns`] for its chess names). A square means one place everywhere.
///
/// ```
/// use koma_rules::Square;
/// let square: Square = "7g".parse().unwrap();
/// assert_eq!((square.file(), square.rank()), (6, 6));
/// assert_eq!(square.to_string(), "7g");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square as chess names it on the 8×8 board (`e4`): Pawns-Only
    /// Chess's notation, where file 0 is `h` and rank 0 is `8`. Here rather
    /// than in `pawns` so that the setup check can name squares without
    /// depending on the game.
    pub(crate) fn chess_name(self) -> String {
        format!("{}{}", (b'a' + 7 - self.file()) as char, 8 - self.rank())
    }

    /// Number of squares on the grid.
    pub const NUM: usize = 81;

    /// The square with this index; the caller guarantees `index < 81`.
    #[inline(always)]
    pub const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// The square with this index, if it is on the grid.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` and `rank` (both 0-based), if on the grid.
    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 9 {
            Some(Square(file * 9 + rank))
        } else {
            None
        }
    }

    /// The index, `file × 9 + rank`.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 0-based file: 0 is USI file `1`.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// 0-based rank: 0 is USI rank `a`.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// The square `files` and `ranks` away, if still on the grid.
    #[inline(always)]
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        let file = self.file() as i8 + files;
        let rank = self.rank() as i8 + ranks;
        if file < 0 || rank < 0 {
            None
        } else {
            Square::from_coords(file as u8, rank as u8)
        }
    }

    /// Every square of the grid in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square)
    }
}

/// A square name that is not USI's file digit and rank letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a square: expected a file digit 1-9 and a rank letter a-i, like 7g",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses a USI square such as `7g` (file digit, rank letter).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        match text.as_bytes() {
            [file @ b'1'..=b'9', rank @ b'a'..=b'i'] => {
                Ok(Square::from_coords(file - b'1', rank - b'a').expect("in range"))
            }
            _ => Err(ParseSquareError(text.to_owned())),
        }
    }
}

impl fmt::Display for Square {
    /// USI name: file digit then rank letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'1' + self.file()) as char,
            (b'a' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_names_round_trip() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert_eq!("1a".parse::<Square>().unwrap().index(), 0);
        assert_eq!("9i".parse::<Square>().unwrap().index(), 80);
        for bad in ["", "0a", "1j", "a1", "11", "1a1", "ä"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
