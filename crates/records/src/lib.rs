//! Game records in the formats the shogi world exchanges, for Koma's games.
//!
//! A [`Record`] is what every format holds: headers, a start position, the
//! moves with their times and comments, and how the game ended. Each format
//! is its own module with its own error type and reads from text;
//! [`decode`] turns a file's bytes into text whatever its encoding, and
//! [`file`] reads and writes record files on disk. Names and comments are
//! kept as [`text`] says: hidden characters escaped, line breaks as each
//! format writes them.
//!
//! ```
//! use koma_records::{usi, Record};
//! use koma_rules::StandardShogiPosition;
//! let record: Record<StandardShogiPosition> = usi::read("position startpos moves 7g7f 3c3d").unwrap();
//! assert_eq!(record.moves.len(), 2);
//! assert_eq!(usi::write(&record), "position startpos moves 7g7f 3c3d");
//! ```
#![warn(missing_docs)]

mod any;
pub mod csa;
mod decode;
mod error;
pub mod file;
mod format;
pub mod kanji;
pub mod ki2;
pub mod kif;
pub mod notation;
pub mod pgn;
mod record;
mod start_error;
pub mod text;
pub mod usi;

pub use any::{read_any, write_any, AnyRecord};
pub use decode::{decode, encode_shift_jis, DecodeError, EncodeError};
pub use error::{FileError, FormatError, LoadError, ParseError};
pub use format::Format;
pub use record::{Ending, Headers, Record, RecordedMove, ReplayError, Variation};
pub use start_error::StartPositionError;

/// Text quoted in an error message, cut short: a hostile file's megabyte
/// line must not become a megabyte message.
pub(crate) struct Excerpt<'a>(pub &'a str);

impl std::fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = shorten(self.0, 60);
        write!(f, "{:?}", short.trim_end_matches('…'))?;
        if short.ends_with('…') && !self.0.ends_with('…') {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// `text` cut to `limit` characters, `…` marking the cut.
pub(crate) fn shorten(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}
