//! FEN for Pawns-Only Chess on every board from 4×4 to 8×8: the one reader
//! and the one writer behind [`crate::pawns_board::PawnsBoard`] (the
//! rules' board, seen from the side to move) and [`crate::PawnsPosition`]
//! (the game over it, on the shared grid, which also keeps the fields the
//! board has no use for: an en passant square no pawn can take on, the
//! move number). The text and its errors are the same for both.
//!
//! Squares here are bits `8 * rank + file` as White sees the board, rank 0
//! being rank 1 and file 0 file a.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::setup::SetupError;
use crate::square::Square;
use std::fmt;

/// A FEN's fields, read and checked: what the position is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PawnsFen {
    /// White's pawns.
    pub white: u64,
    /// Black's pawns.
    pub black: u64,
    /// Whether White is to move.
    pub white_to_move: bool,
    /// The square a double step just passed (`e3`), if the FEN names one.
    pub en_passant: Option<u8>,
    /// The number of the move to be played (1 at the start).
    pub fullmove: u32,
}

/// Why a text is not a Pawns-Only Chess FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 1 to 6 fields.
    FieldCount(usize),
    /// Not as many ranks as the board has.
    RankCount {
        /// The ranks found.
        found: usize,
        /// The board's ranks.
        size: usize,
    },
    /// A rank (numbered from 1, White's first) that does not describe the
    /// board's width.
    RankWidth {
        /// The rank.
        rank: usize,
        /// The squares it describes.
        found: usize,
        /// The board's width.
        size: usize,
    },
    /// A character other than `P`, `p` or a digit on a rank.
    UnexpectedCharacter(usize, char),
    /// Side to move not `w` or `b`.
    Turn(String),
    /// Castling rights other than `-`.
    Castling(String),
    /// An en passant square that no double step could have left.
    EnPassant(String),
    /// A move counter that is not a number.
    Counter(String),
    /// A game already over (a side without pawns, a pawn on its last
    /// rank): the solver's board ([`crate::pawns_board::PawnsBoard`])
    /// holds only games still going on.
    GameOver,
    /// A position that no game reaches (see [`SetupError`]).
    Setup(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 1 to 6 FEN fields, found {n}"),
            FenError::RankCount { found, size } => {
                write!(
                    f,
                    "the board needs {size} ranks separated by '/', found {found}"
                )
            }
            FenError::RankWidth { rank, found, size } => {
                write!(
                    f,
                    "rank {rank} describes {found} squares, the board is {size} wide"
                )
            }
            FenError::UnexpectedCharacter(rank, c) => {
                write!(
                    f,
                    "rank {rank}: {c:?} is not P, p or a digit (only pawns play)"
                )
            }
            FenError::Turn(text) => write!(f, "side to move must be 'w' or 'b', found {text:?}"),
            FenError::Castling(text) => write!(
                f,
                "there is no castling with pawns only; found {text:?}, expected '-'"
            ),
            FenError::EnPassant(text) => {
                write!(f, "{text:?} is not a possible en passant square here")
            }
            FenError::Counter(text) => write!(f, "{text:?} is not a valid move counter"),
            FenError::GameOver => {
                f.write_str("the game is over, and the solver values games still going on")
            }
            FenError::Setup(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

impl From<SetupError> for FenError {
    fn from(error: SetupError) -> FenError {
        FenError::Setup(error)
    }
}

/// The grid square of a board bit (see the module's note) of a board of
/// any size: the board lies in the grid's corner where the 8×8 board's
/// files a.. and ranks 1.. lie.
pub(crate) fn grid_square(bit: u8) -> Square {
    Square::from_coords(7 - bit % 8, 7 - bit / 8).expect("a board bit is on the grid")
}

/// The board bit of a grid square (the inverse of [`grid_square`]).
pub(crate) fn board_bit(square: Square) -> u8 {
    8 * (7 - square.rank()) + (7 - square.file())
}

/// The grid squares of a set of board bits.
pub(crate) fn grid(bits: u64) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    let mut rest = bits;
    while rest != 0 {
        squares.insert(grid_square(rest.trailing_zeros() as u8));
        rest &= rest - 1;
    }
    squares
}

/// A board bit named as in chess: `e4`.
pub(crate) fn square_name(bit: u8) -> String {
    format!("{}{}", (b'a' + bit % 8) as char, bit / 8 + 1)
}

impl PawnsFen {
    /// Reads `text` as a position on a `size`×`size` board. Only the board
    /// is required; the side to move, castling (`-`), the en passant
    /// square and the counters default to `w - - 0 1`. Refused: what the
    /// rules refuse in any position ([`crate::SetupError`]: more pawns
    /// than files, a pawn on its own first rank, …) and an en passant
    /// square no double step could have passed.
    pub fn read(text: &str, size: usize) -> Result<PawnsFen, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(1..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != size {
            return Err(FenError::RankCount {
                found: ranks.len(),
                size,
            });
        }
        let (mut white, mut black) = (0u64, 0u64);
        for (index, rank_text) in ranks.iter().enumerate() {
            let rank = size - 1 - index;
            let mut file = 0usize;
            for c in rank_text.chars() {
                let width = |found| FenError::RankWidth {
                    rank: rank + 1,
                    found,
                    size,
                };
                match c {
                    '1'..='8' => file += c as usize - '0' as usize,
                    'P' | 'p' => {
                        if file >= size {
                            return Err(width(file + 1));
                        }
                        let bit = 1u64 << (8 * rank + file);
                        if c == 'P' {
                            white |= bit;
                        } else {
                            black |= bit;
                        }
                        file += 1;
                    }
                    other => return Err(FenError::UnexpectedCharacter(rank + 1, other)),
                }
                if file > size {
                    return Err(width(file));
                }
            }
            if file != size {
                return Err(FenError::RankWidth {
                    rank: rank + 1,
                    found: file,
                    size,
                });
            }
        }
        let white_to_move = match fields.get(1).copied().unwrap_or("w") {
            "w" => true,
            "b" => false,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        match fields.get(2).copied().unwrap_or("-") {
            "-" => {}
            other => return Err(FenError::Castling(other.to_owned())),
        }
        let en_passant = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            text => Some(
                en_passant_bit(text, size, white_to_move, white, black)
                    .ok_or_else(|| FenError::EnPassant(text.to_owned()))?,
            ),
        };
        if let Some(halfmove) = fields.get(4) {
            halfmove
                .parse::<u32>()
                .map_err(|_| FenError::Counter(halfmove.to_string()))?;
        }
        let fullmove = match fields.get(5) {
            None => 1,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(FenError::Counter(text.to_string())),
            },
        };
        let turn = if white_to_move {
            Color::Sente
        } else {
            Color::Gote
        };
        crate::setup::check_pawns(size as u8, [grid(white), grid(black)], turn)?;
        Ok(PawnsFen {
            white,
            black,
            white_to_move,
            en_passant,
            fullmove,
        })
    }

    /// The FEN of these fields on a `size`×`size` board (halfmove clock 0:
    /// pawn moves reset it).
    pub fn write(&self, size: usize) -> String {
        let mut ranks = Vec::with_capacity(size);
        for rank in (0..size).rev() {
            ranks.push(fen_rank((0..size).map(|file| {
                let bit = 1u64 << (8 * rank + file);
                if self.white & bit != 0 {
                    Some('P')
                } else if self.black & bit != 0 {
                    Some('p')
                } else {
                    None
                }
            })));
        }
        let side = if self.white_to_move { 'w' } else { 'b' };
        let en_passant = self.en_passant.map_or_else(|| "-".to_owned(), square_name);
        format!(
            "{} {side} - {en_passant} 0 {}",
            ranks.join("/"),
            self.fullmove
        )
    }
}

/// One rank of a FEN: `cells` from file a on, a letter for a piece and
/// `None` for an empty square, the empty squares counted.
fn fen_rank(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut text = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            Some(letter) => {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(letter);
            }
            None => empty += 1,
        }
    }
    if empty > 0 {
        text.push_str(&empty.to_string());
    }
    text
}

/// The bit of the en passant square `text` names, if a double step by the
/// side that just moved can have passed it: on that side's third rank, the
/// pawn one square beyond, the square passed and the one left empty.
fn en_passant_bit(
    text: &str,
    size: usize,
    white_to_move: bool,
    white: u64,
    black: u64,
) -> Option<u8> {
    let [file @ b'a'..=b'h', rank @ b'1'..=b'8'] = text.as_bytes() else {
        return None;
    };
    let (file, rank) = ((file - b'a') as usize, (rank - b'1') as usize);
    // The side that just moved: Black when White is to move.
    let (passed_rank, beyond, origin, mover) = if white_to_move {
        (size - 3, size - 4, size - 2, black)
    } else {
        (2, 3, 1, white)
    };
    let at = |rank: usize| 1u64 << (8 * rank + file);
    let occupied = white | black;
    (file < size
        && rank == passed_rank
        && mover & at(beyond) != 0
        && occupied & (at(passed_rank) | at(origin)) == 0)
        .then_some((8 * rank + file) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_bits_and_grid_squares_are_one_map() {
        for bit in 0..64u8 {
            assert_eq!(board_bit(grid_square(bit)), bit);
        }
        assert_eq!(grid_square(4 + 8 * 3).chess_name(), "e4");
        assert_eq!(square_name(4 + 8 * 3), "e4");
        let set = 0x8100_0000_0000_00ff;
        let back = grid(set)
            .into_iter()
            .fold(0, |bits, square| bits | 1u64 << board_bit(square));
        assert_eq!(back, set);
    }

    #[test]
    fn every_size_reads_what_it_writes_and_short_fens_take_the_defaults() {
        for (size, fen) in [
            (8, "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1"),
            (8, "8/8/8/3pP3/8/8/8/8 w - d6 0 7"),
            (5, "5/4p/5/1P3/5 w - - 0 1"),
            (6, "6/pppppp/6/P5/1PPPPP/6 b - - 0 1"),
            (4, "4/pppp/PPPP/4 w - - 0 1"),
        ] {
            assert_eq!(PawnsFen::read(fen, size).unwrap().write(size), fen);
        }
        assert_eq!(
            PawnsFen::read("5/4p/5/1P3/5", 5).unwrap().write(5),
            "5/4p/5/1P3/5 w - - 0 1"
        );
    }

    #[test]
    fn the_errors_name_the_size_and_the_rank() {
        assert_eq!(
            PawnsFen::read("5/5/5 w", 5),
            Err(FenError::RankCount { found: 3, size: 5 })
        );
        assert_eq!(
            PawnsFen::read("6/5/5/5/5 w", 5),
            Err(FenError::RankWidth {
                rank: 5,
                found: 6,
                size: 5
            })
        );
        assert_eq!(
            PawnsFen::read("4/pppp/PPPP/4 w - c6", 4),
            Err(FenError::EnPassant("c6".into()))
        );
        assert_eq!(PawnsFen::read("", 8), Err(FenError::FieldCount(0)));
        assert_eq!(
            FenError::RankWidth {
                rank: 5,
                found: 6,
                size: 5
            }
            .to_string(),
            "rank 5 describes 6 squares, the board is 5 wide"
        );
    }
}
