//! Why a record cannot be read or written, at the crate's boundary: a
//! caller can tell a file that cannot be opened ([`FileError::Read`]) from
//! bytes that are not text ([`LoadError::Decode`]), a syntax error at a
//! line ([`ParseError::line`]), a move that cannot be played
//! ([`ParseError::unplayable_move`]) and a start position that is not one
//! of the game ([`ParseError::bad_start`]).
//!
//! Each format keeps its own detailed error beside its reader
//! ([`crate::csa::CsaError`], [`crate::kif::KifError`],
//! [`crate::usi::UsiError`], [`crate::pgn::PgnError`]); [`ParseError`]
//! holds whichever one the record was read with.

use crate::csa::{CsaError, CsaErrorKind};
use crate::format::Format;
use crate::kif::{KifError, KifErrorKind};
use crate::pgn::{PgnError, PgnErrorKind};
use crate::start_error::StartPositionError;
use crate::usi::UsiError;
use crate::{DecodeError, EncodeError, ReplayError};
use koma_rules::Variant;
use std::path::PathBuf;

/// Why a text is not a record in the format it was read as: the format's
/// own error, which names the line (the move, for USI) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A USI `position` line.
    #[error(transparent)]
    Usi(#[from] UsiError),
    /// KIF, KIFU or KI2.
    #[error(transparent)]
    Kif(#[from] KifError),
    /// CSA.
    #[error(transparent)]
    Csa(#[from] CsaError),
    /// PGN.
    #[error(transparent)]
    Pgn(#[from] PgnError),
}

impl ParseError {
    /// The 1-based line where the text goes wrong (None for a USI line,
    /// which is one line: its errors name the move).
    pub fn line(&self) -> Option<usize> {
        match self {
            ParseError::Usi(_) => None,
            ParseError::Kif(error) => Some(error.line),
            ParseError::Csa(error) => Some(error.line),
            ParseError::Pgn(error) => Some(error.line),
        }
    }

    /// The move that cannot be played (its number and text), when that is
    /// what is wrong rather than the record's syntax.
    pub fn unplayable_move(&self) -> Option<&ReplayError> {
        match self {
            ParseError::Usi(UsiError::Move(error)) => Some(error),
            ParseError::Kif(KifError {
                kind: KifErrorKind::Replay(error),
                ..
            }) => Some(error),
            ParseError::Csa(CsaError {
                kind: CsaErrorKind::Replay(error),
                ..
            }) => Some(error),
            ParseError::Pgn(PgnError {
                kind: PgnErrorKind::Move(error),
                ..
            }) => Some(error),
            _ => None,
        }
    }

    /// Why the start position set up is not a position of the game, when
    /// that is what is wrong.
    pub fn bad_start(&self) -> Option<StartPositionError> {
        match self {
            ParseError::Usi(UsiError::Position(error)) => Some(error.clone()),
            ParseError::Kif(KifError {
                kind: KifErrorKind::InvalidPosition(error),
                ..
            })
            | ParseError::Csa(CsaError {
                kind: CsaErrorKind::InvalidPosition(error),
                ..
            }) => Some(StartPositionError::Sfen(error.clone())),
            ParseError::Pgn(PgnError {
                kind: PgnErrorKind::InvalidFen(error),
                ..
            }) => Some(StartPositionError::Fen(error.clone())),
            _ => None,
        }
    }
}

/// Why a record cannot be read from bytes or written to them
/// ([`crate::read_any`], [`crate::write_any`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The bytes are not text in an encoding records use.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// Nothing but white space: no record, where an empty game would be
    /// read from any format and hide a wrong path or a failed download.
    #[error("the record is empty")]
    Empty,
    /// The text is not a valid record of the format it was read as.
    #[error("{format}: {source}")]
    Parse {
        /// The format it was read as.
        format: Format,
        /// What is wrong, and where.
        source: ParseError,
    },
    /// The format cannot hold this game (CSA is for shogi, PGN for chess).
    #[error("{format} records cannot hold {}", variant.name())]
    Unsupported {
        /// The format.
        format: Format,
        /// The game.
        variant: Variant,
    },
    /// Text Shift_JIS cannot hold.
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

impl LoadError {
    /// The parse error, when the text was read but is not a valid record.
    pub fn parse_error(&self) -> Option<&ParseError> {
        match self {
            LoadError::Parse { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a record file cannot be read or written ([`crate::file`]).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file (or standard input, `-`) cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The path as given.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is larger than any record: refused rather than swallowed.
    #[error("{}: larger than {limit_mib} MiB; not a game record", path.display())]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The limit, in MiB.
        limit_mib: u64,
    },
    /// The file was read, but its bytes are not a record (or the record
    /// cannot be written in the format asked).
    #[error("{}: {source}", path.display())]
    Record {
        /// The path as given.
        path: PathBuf,
        /// What is wrong with the record.
        source: LoadError,
    },
    /// The path ends in no file name (`/`, `..`).
    #[error("{}: not a file name", path.display())]
    NotAFileName {
        /// The path as given.
        path: PathBuf,
    },
    /// The file (or standard output, `-`) cannot be written.
    #[error("{}: {source}", written_to(path))]
    Write {
        /// The path as given.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl FileError {
    /// The record's error, when the file was read but is not a record.
    pub fn load_error(&self) -> Option<&LoadError> {
        match self {
            FileError::Record { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a format cannot be used ([`crate::file::parse_format`],
/// [`crate::file::output_format`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A name that is no format's.
    #[error("unknown format {name:?}; one of {}", format_names())]
    Unknown {
        /// The name given.
        name: String,
    },
    /// No format given, and the path's extension names none.
    #[error(
        "cannot tell the format of {path:?}: give it an extension (.kif, .kifu, .csa, .usi, .pgn) or --to/--format"
    )]
    NotTold {
        /// The path.
        path: String,
    },
    /// A format Koma reads but does not write (KI2).
    #[error("Koma reads {format} but does not write it; use kif or kifu")]
    ReadOnly {
        /// The format.
        format: Format,
    },
}

/// How a message names the file written: `-` is standard output.
fn written_to(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "standard output".to_owned()
    } else {
        path.display().to_string()
    }
}

/// The formats' names, as `--help` lists them.
fn format_names() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    names.join(", ")
}
