//! A data directory filled by several threads of self-play, resumed where
//! it stopped.

use crate::game::{play_game, Settings};
use crate::record::{Sample, RECORD_BYTES};
use crate::DataError;
use koma_engine::Engine;
use koma_rules::{ShogiPosition, ShogiVariant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The data file in a directory.
pub const POSITIONS_FILE: &str = "positions.bin";

/// Transposition table of each thread's engine, in MiB.
const HASH_MEGABYTES: usize = 16;

/// How far a run has come, told after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions in the file.
    pub positions: u64,
    /// Games played in this run.
    pub games: u64,
    /// Positions of this run's games left out as already in the file.
    pub duplicates: u64,
}

/// What the directory and this run share, behind a lock.
struct Output {
    file: File,
    seen: FxHashSet<u64>,
    progress: Progress,
    /// The first error writing the file: the run ends after the games
    /// under way, and returns it.
    error: Option<io::Error>,
}

/// Fills `dir`'s data file with self-play positions of `V` until it holds
/// `target` positions, on `threads` threads, and returns the last
/// progress. What the directory already holds is kept: a position already
/// in it is not written again, so a run stopped at any point resumes by
/// running again. Games are written whole as they end; a record cut short
/// by a kill is dropped.
///
/// `seed` chooses the games; runs with different seeds play different
/// games. `progress` is told after each game.
pub fn fill<V: ShogiVariant>(
    dir: &Path,
    settings: &Settings,
    target: u64,
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(Progress) + Sync),
) -> io::Result<Progress> {
    if let Some(network) = &settings.network {
        if network.variant() != V::VARIANT {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "a network for {}, not for {}",
                    network.variant(),
                    V::VARIANT
                ),
            ));
        }
    }
    let (file, seen) = open::<V>(dir)?;
    let output = Mutex::new(Output {
        file,
        progress: Progress {
            positions: seen.len() as u64,
            games: 0,
            duplicates: 0,
        },
        seen,
        error: None,
    });
    let next_game = AtomicU64::new(0);
    let done = |output: &Output| output.progress.positions >= target || output.error.is_some();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::<ShogiPosition<V>>::new(HASH_MEGABYTES);
                if let Some(network) = &settings.network {
                    // Its game was checked before the threads started.
                    let _ = engine.set_network(Some(Arc::clone(network)));
                }
                engine.options.use_nnue = !settings.classical;
                loop {
                    if done(&output.lock().expect("no writer panics")) {
                        break;
                    }
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    let mut random =
                        ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
                    let samples = play_game(&mut engine, settings, &mut random);
                    let mut output = output.lock().expect("no writer panics");
                    match output.append(&samples) {
                        Ok(()) => progress(output.progress),
                        Err(error) => {
                            output.error.get_or_insert(error);
                        }
                    }
                }
            });
        }
    });
    let output = output.into_inner().expect("no writer panics");
    match output.error {
        Some(error) => Err(error),
        None => Ok(output.progress),
    }
}

impl Output {
    /// Appends a game's positions that are not in the file yet.
    fn append<V: ShogiVariant>(&mut self, samples: &[Sample<V>]) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(samples.len() * RECORD_BYTES);
        for sample in samples {
            if self.seen.insert(sample.position.hash()) {
                bytes.extend_from_slice(&sample.to_bytes());
                self.progress.positions += 1;
            } else {
                self.progress.duplicates += 1;
            }
        }
        self.progress.games += 1;
        self.file.write_all(&bytes)
    }
}

/// The directory's data file, opened to append (a record cut short
/// dropped), and the positions it holds. A directory holding another
/// game's data is refused.
fn open<V: ShogiVariant>(dir: &Path) -> io::Result<(File, FxHashSet<u64>)> {
    fs::create_dir_all(dir)?;
    check_about::<V>(dir, true)?;
    let path = positions_file(dir);
    let mut seen = FxHashSet::default();
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    for (index, record) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
        let sample = Sample::<V>::from_bytes(record).map_err(|source| DataError::Record {
            path: path.clone(),
            index,
            source,
        })?;
        seen.insert(sample.position.hash());
    }
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(&path)?;
    file.set_len((bytes.len() - bytes.len() % RECORD_BYTES) as u64)?;
    io::Seek::seek(&mut file, io::SeekFrom::End(0))?;
    Ok((file, seen))
}

/// Checks that `dir`'s `about` file names `V`'s data; a directory without
/// one gets one if `create`, else is refused.
fn check_about<V: ShogiVariant>(dir: &Path, create: bool) -> Result<(), DataError> {
    let about = dir.join("about");
    let header = format!("koma-selfplay 1\nvariant {}\n", V::VARIANT);
    match fs::read_to_string(&about) {
        Ok(held) if held == header => Ok(()),
        Ok(held) => Err(DataError::OtherKind {
            path: about,
            held,
            expected: header,
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound && create => fs::write(&about, &header)
            .map_err(|source| DataError::Io {
                path: about,
                source,
            }),
        Err(source) => Err(DataError::NotADataDirectory {
            path: about,
            source,
        }),
    }
}

/// Reads every record of the data directory `dir` that `koma selfplay`
/// filled with `V`'s positions; another game's directory is refused.
pub fn read_dir<V: ShogiVariant>(dir: &Path) -> Result<Vec<Sample<V>>, DataError> {
    check_about::<V>(dir, false)?;
    read_all::<V>(&positions_file(dir))
}

/// Reads every record of a data file.
pub fn read_all<V: ShogiVariant>(path: &Path) -> Result<Vec<Sample<V>>, DataError> {
    let bytes = fs::read(path).map_err(|source| DataError::Io {
        path: path.to_owned(),
        source,
    })?;
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(index, record)| {
            Sample::<V>::from_bytes(record).map_err(|source| DataError::Record {
                path: path.to_owned(),
                index,
                source,
            })
        })
        .collect()
}

/// Writes `samples` as a new data directory `dir` of `V`'s positions
/// (created if missing, with its `about` file), as `koma selfplay` would
/// have filled it; a directory with a data file already is refused, so
/// that nothing is overwritten.
pub fn write_dir<V: ShogiVariant>(dir: &Path, samples: &[Sample<V>]) -> Result<(), DataError> {
    let io_error = |path: &Path| {
        let path = path.to_owned();
        move |source| DataError::Io { path, source }
    };
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    check_about::<V>(dir, true)?;
    let path = positions_file(dir);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(io_error(&path))?;
    let bytes: Vec<u8> = samples.iter().flat_map(|s| s.to_bytes()).collect();
    file.write_all(&bytes).map_err(io_error(&path))
}

/// The data file of `dir`.
pub fn positions_file(dir: &Path) -> PathBuf {
    dir.join(POSITIONS_FILE)
}
