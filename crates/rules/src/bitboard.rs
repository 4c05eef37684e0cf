//! A set of squares as a `u128`, one bit per square of the 9-wide grid.

use crate::square::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Single-square sets, looked up rather than shifted: a variable shift of a
/// `u128` costs several instructions and a branch.
static SQUARE_BITS: [u128; 81] = {
    let mut table = [0u128; 81];
    let mut index = 0;
    while index < 81 {
        table[index] = 1u128 << index;
        index += 1;
    }
    table
};

#[inline(always)]
fn bit(square: Square) -> u128 {
    SQUARE_BITS[square.index() as usize]
}

/// A set of squares. Bit `i` stands for [`Square`] index `i`; bits 81..128 are
/// never set by the library.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares of the grid.
    pub const FULL: Bitboard = Bitboard((1u128 << 81) - 1);

    /// The set holding just `square`.
    #[inline(always)]
    pub fn from_square(square: Square) -> Bitboard {
        Bitboard(bit(square))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `square` is in the set.
    #[inline(always)]
    pub fn contains(self, square: Square) -> bool {
        self.0 & bit(square) != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds two or more squares.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square with the lowest index, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The square with the highest index, if any.
    #[inline(always)]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(127 - self.0.leading_zeros() as u8))
        }
    }

    /// The single square of a set known to hold exactly one.
    #[inline(always)]
    pub const fn single_square(self) -> Square {
        Square::new_unchecked(self.0.trailing_zeros() as u8)
    }

    /// The set with `square` added.
    #[inline(always)]
    pub fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | bit(square))
    }

    /// The set with `square` removed.
    #[inline(always)]
    pub fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !bit(square))
    }

    /// Adds `square` to the set.
    #[inline(always)]
    pub fn insert(&mut self, square: Square) {
        self.0 |= bit(square);
    }

    /// Removes `square` from the set.
    #[inline(always)]
    pub fn remove(&mut self, square: Square) {
        self.0 &= !bit(square);
    }

    /// Toggles `square`.
    #[inline(always)]
    pub fn toggle(&mut self, square: Square) {
        self.0 ^= bit(square);
    }

    /// The set shifted by `delta` indices (positive is towards higher indices).
    /// Callers mask the result: squares that wrap to another file land on the
    /// unused rank index 9 of the neighbour only for 9-rank boards, so a mask
    /// of the real board is always applied.
    #[inline(always)]
    pub const fn shift(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            Bitboard((self.0 << delta) & Bitboard::FULL.0)
        } else {
            Bitboard(self.0 >> -delta)
        }
    }

    /// The squares of the set, lowest index first.
    #[inline(always)]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }

    /// Complement within the 81-square grid.
    #[inline(always)]
    pub const fn complement(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }

    /// `self ∪ other` usable in `const` contexts.
    #[inline(always)]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// `self ∩ other` usable in `const` contexts.
    #[inline(always)]
    pub const fn intersect(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone, Copy)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let index = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square::new_unchecked(index))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut bitboard = Bitboard::EMPTY;
        for square in iter {
            bitboard.insert(square);
        }
        bitboard
    }
}

macro_rules! binary_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binary_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        self.complement()
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the 9×9 grid as Sente sees it: file 9 on the left, rank a on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 0..9 {
            for file in (0..9).rev() {
                let square = Square::from_coords(file, rank).expect("in range");
                f.write_str(if self.contains(square) { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Draws a bitboard the way Sente sees the board: one row of `X` and `.` per
/// rank from rank `a` down, files from 9 on the left to 1 on the right. Rows
/// may be shorter than nine: a 5-wide row names files 5..1, so 5×5 sets are
/// drawn as they look.
///
/// ```
/// use koma_rules::{bitboard, Square};
/// let set = bitboard! {
///     ". . . . X"
///     ". . . X ."
/// };
/// assert!(set.contains("1a".parse::<Square>().unwrap()));
/// assert!(set.contains("2b".parse::<Square>().unwrap()));
/// assert_eq!(set.count(), 2);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($row:literal)*) => {{
        let rows: &[&str] = &[$($row),*];
        $crate::Bitboard::from_drawing(rows)
    }};
}

impl Bitboard {
    /// Builds a set from rows drawn as in [`bitboard!`]; panics on a malformed
    /// drawing (it is meant for tests and documentation, not for user input).
    pub fn from_drawing(rows: &[&str]) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for (rank, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            let width = cells.len();
            for (column, cell) in cells.into_iter().enumerate() {
                let file = (width - 1 - column) as u8;
                let square = Square::from_coords(file, rank as u8).expect("drawing fits the grid");
                match cell {
                    'X' | 'x' | '1' => set.insert(square),
                    '.' | '0' => {}
                    other => panic!("unexpected {other:?} in a bitboard drawing"),
                }
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_last_and_iteration_agree() {
        let set = Bitboard::from_square(Square::new_unchecked(3))
            .with(Square::new_unchecked(80))
            .with(Square::new_unchecked(40));
        assert_eq!(set.first().map(Square::index), Some(3));
        assert_eq!(set.last().map(Square::index), Some(80));
        let indices: Vec<u8> = set.iter().map(Square::index).collect();
        assert_eq!(indices, vec![3, 40, 80]);
        assert!(set.has_more_than_one());
        assert!(!Bitboard::from_square(Square::new_unchecked(7)).has_more_than_one());
    }

    #[test]
    fn complement_stays_on_the_grid() {
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
        assert_eq!((!Bitboard::FULL), Bitboard::EMPTY);
    }
}
