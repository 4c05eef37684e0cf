//! Self-play training data for Koma's networks (issue 22): the engine
//! plays itself from random balanced openings at a fixed number of nodes a
//! move, and each game's quiet positions are kept with the search's value
//! and the game's result, 48 bytes each ([`record`] gives the format).
//! Reading the data tells a missing file from a damaged record
//! ([`DataError`]).
//!
//! ```
//! use koma_selfplay::{fill, read_all, positions_file, Settings};
//! use koma_rules::Minishogi;
//!
//! let dir = std::env::temp_dir().join(format!("koma-selfplay-doc-{}", std::process::id()));
//! let settings = Settings::new::<Minishogi>(200);
//! let done = fill::<Minishogi>(&dir, &settings, 20, 1, 1, &|_| {}).unwrap();
//! assert!(done.positions >= 20);
//! assert_eq!(read_all::<Minishogi>(&positions_file(&dir)).unwrap().len() as u64, done.positions);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod error;
mod game;
pub mod record;
mod run;

pub use error::DataError;
pub use game::{play_game, Settings};
pub use record::{RecordError, Sample, RECORD_BYTES};
pub use run::{fill, positions_file, read_all, read_dir, write_dir, Progress, POSITIONS_FILE};
