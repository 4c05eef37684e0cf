//! Why a data directory cannot be read: which file, and which record.

use crate::RecordError;
use std::io;
use std::path::PathBuf;

/// Why self-play data cannot be read ([`crate::read_dir`],
/// [`crate::read_all`]) or a directory cannot be filled.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// A file cannot be read (missing, unreadable).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The directory has no readable `about` file: it is not one that
    /// `koma selfplay` filled.
    #[error("{}: {source} (not a koma selfplay directory?)", path.display())]
    NotADataDirectory {
        /// The `about` file.
        path: PathBuf,
        /// Why it cannot be read.
        source: io::Error,
    },
    /// The directory holds another game's data (or another format's).
    #[error("{}: holds data of another kind:\n{held}not:\n{expected}use another directory", path.display())]
    OtherKind {
        /// The `about` file.
        path: PathBuf,
        /// What it says.
        held: String,
        /// What it should say.
        expected: String,
    },
    /// A record that is not a position of the game.
    #[error("{}: record {index}: {source}", path.display())]
    Record {
        /// The data file.
        path: PathBuf,
        /// The record's index, 0 for the first.
        index: usize,
        /// What is wrong with it.
        source: RecordError,
    },
}

/// For [`crate::fill`], whose errors are io's: the kind kept, the
/// sentence (with the file and record) as the message.
impl From<DataError> for io::Error {
    fn from(error: DataError) -> io::Error {
        let kind = match &error {
            DataError::Io { source, .. } => source.kind(),
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, error)
    }
}
