//! KIF, the Japanese record format (Kifu for Windows, Shogidokoro, Piyo
//! Shogi, ShogiHome...), for shogi, minishogi (`手合割：5五将棋`) and Spear
//! Shogi (`手合割：槍将棋` with a board diagram).
//!
//! A KIF file has headers (`先手：名前`), a start (a `手合割` handicap or a
//! board diagram with both hands), then numbered moves such as
//! `  1 ７六歩(77)   ( 0:16/00:00:16)` with `*` comments, an ending
//! (`投了`, `詰み`, `千日手`, `反則負け`...) and variations (`変化：N手`).
//! Decode a file's bytes with [`crate::decode`] first: files are Shift_JIS
//! or UTF-8.
//!
//! ```
//! use koma_records::kif;
//! use koma_rules::Shogi;
//! let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n";
//! let record = kif::read::<Shogi>(text).unwrap();
//! assert_eq!(record.moves.len(), 1);
//! assert_eq!(record.ending, Some(koma_records::Ending::Resignation));
//! assert!(kif::write(&record).contains("   1 ７六歩(77)"));
//! ```

pub(crate) mod read;
mod setup;
mod write;
pub(crate) mod written_move;

pub use read::{read, variant};
pub(crate) use read::{Line, Reader};
pub use write::{move_text, write, write_shift_jis};

use crate::record::ReplayError;
use koma_rules::{SfenError, Variant};
use std::fmt;

/// Where and why a text is not a KIF record of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters) where the fault starts.
    pub column: usize,
    /// What is wrong.
    pub kind: KifErrorKind,
}

/// What is wrong in a KIF text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KifErrorKind {
    /// A line of no known kind.
    UnknownLine(String),
    /// A `手合割` that names no known start.
    UnknownHandicap(String),
    /// The record is of another game.
    WrongGame {
        /// The game asked for.
        expected: Variant,
        /// The game the record is of.
        found: Variant,
    },
    /// A diagram with rows of the wrong width.
    WrongBoardSize {
        /// Files of the game's board.
        expected: u8,
        /// Files drawn.
        found: u8,
    },
    /// A board diagram row that cannot be read.
    BadDiagram(String),
    /// A hand (`持駒`) that cannot be read.
    BadHand(String),
    /// The position set up is not legal.
    InvalidPosition(SfenError),
    /// A move that cannot be read.
    BadMove(String),
    /// A time column that cannot be read.
    BadTime(String),
    /// A move numbered out of sequence.
    MoveNumber {
        /// The number the move should have.
        expected: usize,
        /// The number written.
        found: usize,
    },
    /// A move after the line's ending.
    MoveAfterEnd,
    /// A variation (`変化：N手`) with no line to branch from at move N.
    BadVariation(String),
    /// A move that cannot be played.
    Replay(ReplayError),
}

impl fmt::Display for KifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            KifErrorKind::UnknownLine(text) => {
                write!(f, "cannot read the line {}", crate::Excerpt(text))
            }
            KifErrorKind::UnknownHandicap(name) => {
                write!(f, "unknown 手合割 {}", crate::Excerpt(name))
            }
            KifErrorKind::WrongGame { expected, found } => write!(
                f,
                "this is a {} record, not {}",
                found.name(),
                expected.name()
            ),
            KifErrorKind::WrongBoardSize { expected, found } => write!(
                f,
                "the diagram is {found} files wide; the board has {expected}"
            ),
            KifErrorKind::BadDiagram(text) => {
                write!(f, "cannot read the board diagram {}", crate::Excerpt(text))
            }
            KifErrorKind::BadHand(text) => {
                write!(f, "cannot read the pieces in hand {}", crate::Excerpt(text))
            }
            KifErrorKind::InvalidPosition(error) => write!(f, "the position is not legal: {error}"),
            KifErrorKind::BadMove(text) => {
                write!(
                    f,
                    "{} is not a KIF move like ７六歩(77)",
                    crate::Excerpt(text)
                )
            }
            KifErrorKind::BadTime(text) => {
                write!(
                    f,
                    "{} is not a time like ( 0:16/00:00:16)",
                    crate::Excerpt(text)
                )
            }
            KifErrorKind::MoveNumber { expected, found } => {
                write!(f, "move number {found} where {expected} was expected")
            }
            KifErrorKind::MoveAfterEnd => f.write_str("a move after the end of the game"),
            KifErrorKind::BadVariation(text) => {
                write!(
                    f,
                    "{}: no earlier line has that move to branch from",
                    crate::Excerpt(text)
                )
            }
            KifErrorKind::Replay(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for KifError {}
