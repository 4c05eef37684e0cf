//! Why a text is not a position of the game: its SFEN syntax
//! ([`SfenSyntaxError`]), or a position no game reaches ([`SetupError`]).
//! The two are kept apart, as shakmaty keeps `ParseFenError` apart from
//! `PositionError`, so that a caller can tell a typo from an impossible
//! position (and, with [`crate::PositionError`], accept the latter on
//! purpose).

use crate::setup::SetupError;
use std::fmt;

/// Why a text is not an SFEN of the game: its syntax, before any check
/// of whether the position could happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenSyntaxError {
    /// Not three or four space-separated fields.
    FieldCount(usize),
    /// The board has the wrong number of ranks.
    RankCount {
        /// Ranks of the game.
        expected: u8,
        /// Ranks written.
        found: usize,
    },
    /// A rank does not fill the board's width.
    RankWidth {
        /// The rank's letter.
        rank: char,
        /// Files of the game.
        expected: u8,
        /// Squares the rank describes.
        found: usize,
    },
    /// A character that is no piece letter, digit or `+`.
    UnexpectedCharacter {
        /// The rank's letter.
        rank: char,
        /// What was found.
        found: char,
    },
    /// A piece that this game does not have (or cannot promote).
    PieceNotInGame(String),
    /// The side to move is not `b` or `w`.
    Turn(String),
    /// The hands field is malformed.
    Hand(String),
    /// The move number is not a positive integer.
    MoveNumber(String),
}

impl fmt::Display for SfenSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenSyntaxError::FieldCount(n) => {
                write!(
                    f,
                    "expected 3 or 4 fields (board, side, hands, move number), found {n}"
                )
            }
            SfenSyntaxError::RankCount { expected, found } => {
                write!(
                    f,
                    "the board needs {expected} ranks separated by '/', found {found}"
                )
            }
            SfenSyntaxError::RankWidth {
                rank,
                expected,
                found,
            } => {
                write!(
                    f,
                    "rank {rank} describes {found} squares, the board is {expected} wide"
                )
            }
            SfenSyntaxError::UnexpectedCharacter { rank, found } => {
                write!(
                    f,
                    "rank {rank}: {found:?} is not a piece letter, digit or '+'"
                )
            }
            SfenSyntaxError::PieceNotInGame(text) => {
                write!(f, "{text:?} is not a piece of this game")
            }
            SfenSyntaxError::Turn(text) => {
                write!(f, "side to move must be 'b' or 'w', found {text:?}")
            }
            SfenSyntaxError::Hand(detail) => write!(f, "bad hands field: {detail}"),
            SfenSyntaxError::MoveNumber(text) => {
                write!(f, "move number must be a positive integer, found {text:?}")
            }
        }
    }
}

impl std::error::Error for SfenSyntaxError {}

/// Why a text is not a valid SFEN for the game: [`crate::parse_sfen`]'s
/// error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// The text is not an SFEN of the game.
    Syntax(SfenSyntaxError),
    /// The SFEN describes a position that no game reaches.
    Setup(SetupError),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::Syntax(error) => error.fmt(f),
            SfenError::Setup(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for SfenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SfenError::Syntax(error) => Some(error),
            SfenError::Setup(error) => Some(error),
        }
    }
}

impl From<SfenSyntaxError> for SfenError {
    fn from(error: SfenSyntaxError) -> SfenError {
        SfenError::Syntax(error)
    }
}

impl From<SetupError> for SfenError {
    fn from(error: SetupError) -> SfenError {
        SfenError::Setup(error)
    }
}
