//! Certificates: the strategies that prove a value, written in the format
//! that `koma-proof` documents and checks.
//!
//! A strategy is written as it is found, record by record, so that one of
//! hundreds of millions of positions needs memory only for the set of
//! positions already written (16 bytes each, against 19 on disk). Each
//! strategy is streamed to a file of its own beside the certificate, then
//! the certificate is put together: its header gives each strategy's count
//! before its records.

use crate::race::Race;
use crate::search::Solver;
use crate::value::Value;
use koma_rules::pawns_board::{After, BoardMove, PawnsBoard};
use rustc_hash::FxHashSet;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A certificate written to a file: what it proves and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate<const N: usize> {
    /// The position.
    pub root: PawnsBoard<N>,
    /// Its value for the side to move.
    pub value: Value,
    /// The strategies' sizes, in the order written.
    pub strategies: Vec<StrategySize>,
}

/// The size of one strategy of a certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrategySize {
    /// Whether the side is White.
    pub white: bool,
    /// A win or a draw.
    pub secures: Value,
    /// Its positions, each a record with the move played there.
    pub positions: u64,
    /// How often the strategy reached a position that its side wins by a
    /// race, which the checker verifies (see [`Race::won`]), and so wrote
    /// no record: counted each time reached, for they are not remembered.
    pub race_leaves: u64,
}

/// What the certificate builder reports as it goes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Written {
    /// Positions written so far, over all strategies.
    pub positions: u64,
    /// Race leaves reached so far (each time reached).
    pub race_leaves: u64,
}

impl<const N: usize> Certificate<N> {
    /// Proves `root`'s value with `solver` (solving it first if need be)
    /// and writes the certificate to `path`, calling `progress` now and
    /// then. The file appears whole or not at all: it is written under a
    /// temporary name and renamed at the end. Each strategy is first
    /// written to `PATH.strategyK`; a run that is stopped leaves those, and
    /// the next run with the same root goes on from them.
    ///
    /// ```
    /// use koma_rules::pawns_board::PawnsBoard;
    /// use koma_solve::{Certificate, Solver, Value};
    ///
    /// let path = std::env::temp_dir().join(format!("doc-{}.proof", std::process::id()));
    /// let root = PawnsBoard::<4>::start();
    /// let certificate = Certificate::write(&mut Solver::new(), &root, &path, |_| {})?;
    /// assert_eq!(certificate.value, Value::Loss);
    /// let report = koma_proof::verify(&std::fs::read(&path)?).expect("it holds");
    /// assert_eq!(report.claim, "loss");
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write(
        solver: &mut Solver<N>,
        root: &PawnsBoard<N>,
        path: &Path,
        mut progress: impl FnMut(Written),
    ) -> io::Result<Certificate<N>> {
        let value = solver.value(root);
        let mover = root.white_to_move();
        let children = || {
            root.moves().into_iter().filter_map(|m| match root.play(m) {
                After::Won => None,
                After::Continues(child) => Some(child),
            })
        };
        let plan: Vec<(bool, Value, Vec<PawnsBoard<N>>)> = match value {
            Value::Win => vec![(mover, Value::Win, vec![*root])],
            Value::Loss => vec![(!mover, Value::Win, children().collect())],
            Value::Draw => vec![
                (mover, Value::Draw, vec![*root]),
                (!mover, Value::Draw, children().collect()),
            ],
        };
        let mut written = Written::default();
        let mut parts = Vec::new();
        let mut strategies = Vec::new();
        for (index, (white, goal, starts)) in plan.into_iter().enumerate() {
            let part = with_suffix(path, &format!("strategy{index}"));
            let result = write_strategy(solver, white, goal, starts, &part, &mut |w| {
                progress(Written {
                    positions: written.positions + w.positions,
                    race_leaves: written.race_leaves + w.race_leaves,
                })
            });
            parts.push(part);
            // On an error the strategies' files stay, for a run to go on
            // from.
            let size = result?;
            written.positions += size.positions;
            written.race_leaves += size.race_leaves;
            strategies.push(size);
        }
        let certificate = Certificate {
            root: *root,
            value,
            strategies,
        };
        certificate.assemble(path, &parts)?;
        for part in &parts {
            fs::remove_file(part)?;
        }
        Ok(certificate)
    }

    /// The positions of all its strategies.
    pub fn len(&self) -> u64 {
        self.strategies.iter().map(|s| s.positions).sum()
    }

    /// Whether it has no positions (a root won in one move still has one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The race leaves of all its strategies.
    pub fn race_leaves(&self) -> u64 {
        self.strategies.iter().map(|s| s.race_leaves).sum()
    }

    /// Writes the header and each strategy's records from `parts` into
    /// `path`, by way of a temporary file renamed at the end.
    fn assemble(&self, path: &Path, parts: &[PathBuf]) -> io::Result<()> {
        let temporary = with_suffix(path, "part");
        let mut out = BufWriter::new(File::create(&temporary)?);
        let written = (|| {
            writeln!(out, "koma-pawns-proof 1")?;
            writeln!(out, "size {N}")?;
            writeln!(out, "root {}", self.root.to_fen())?;
            writeln!(out, "claim {}", self.value)?;
            for (strategy, part) in self.strategies.iter().zip(parts) {
                let side = if strategy.white { "white" } else { "black" };
                let (goal, count) = (strategy.secures, strategy.positions);
                writeln!(out, "strategy {side} {goal} {count}")?;
                io::copy(&mut File::open(part)?, &mut out)?;
            }
            writeln!(out, "end")?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()
        })();
        match written {
            Ok(()) => fs::rename(&temporary, path),
            Err(error) => {
                let _ = fs::remove_file(&temporary);
                Err(error)
            }
        }
    }
}

/// `path` with `.suffix` added to its name.
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

/// How many positions pass between two calls of the progress callback.
const PROGRESS_EVERY: u64 = 1 << 16;

/// The bytes of a record.
pub(crate) const RECORD: usize = 19;

/// Where a strategy's records go: first, when an interrupted run left a
/// file, its records are read back one by one as the same walk reaches
/// them again; then new records are appended.
///
/// The walk is the same on every run: the strategy plays, in each
/// position, the first move in a fixed order that the search proves keeps
/// the goal, and the search's yes or no does not depend on what its table
/// held. So the file of an interrupted run is a prefix of the walk, and a
/// record that does not match the position the walk reaches shows the file
/// to be another strategy's.
struct Records {
    path: PathBuf,
    /// The records left to read back, and the reader.
    replay: Option<(u64, io::BufReader<File>)>,
    out: Option<BufWriter<File>>,
}

impl Records {
    /// Opens `path`, keeping the whole records an earlier run wrote.
    fn open(path: &Path) -> io::Result<Records> {
        let kept = match fs::metadata(path) {
            Ok(meta) => meta.len() / RECORD as u64,
            Err(error) if error.kind() == io::ErrorKind::NotFound => 0,
            Err(error) => return Err(error),
        };
        let mut records = Records {
            path: path.to_path_buf(),
            replay: None,
            out: None,
        };
        if kept > 0 {
            // A record cut by a kill is dropped.
            fs::OpenOptions::new()
                .write(true)
                .open(path)?
                .set_len(kept * RECORD as u64)?;
            let reader = io::BufReader::with_capacity(1 << 20, File::open(path)?);
            records.replay = Some((kept, reader));
        } else {
            records.out = Some(BufWriter::with_capacity(1 << 20, File::create(path)?));
        }
        Ok(records)
    }

    /// The move an earlier run recorded for `position`, the next position
    /// of the walk, if it got that far.
    fn replayed<const N: usize>(
        &mut self,
        position: &PawnsBoard<N>,
    ) -> io::Result<Option<BoardMove>> {
        let Some((left, reader)) = &mut self.replay else {
            return Ok(None);
        };
        let mut record = [0u8; RECORD];
        io::Read::read_exact(reader, &mut record)?;
        *left -= 1;
        if *left == 0 {
            self.replay = None;
            let file = fs::OpenOptions::new().append(true).open(&self.path)?;
            self.out = Some(BufWriter::with_capacity(1 << 20, file));
        }
        let recorded = position
            .moves()
            .into_iter()
            .find(|&m| record == encode(position, m));
        match recorded {
            Some(m) => Ok(Some(m)),
            None => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} was left by a run that proved another strategy (it does not record {}): remove it",
                    self.path.display(),
                    position.to_fen()
                ),
            )),
        }
    }

    fn write<const N: usize>(&mut self, position: &PawnsBoard<N>, m: BoardMove) -> io::Result<()> {
        let out = self
            .out
            .as_mut()
            .expect("records are appended after the replay");
        out.write_all(&encode(position, m))
    }

    fn finish(self) -> io::Result<()> {
        match self.out {
            Some(out) => out.into_inner().map_err(|e| e.into_error())?.sync_all(),
            None => Ok(()),
        }
    }
}

/// Writes to `path` the records of the strategy by which the side (`white`
/// or not) secures `goal` from each of `starts`, positions where either
/// side may be to move: in each of its positions it plays a move that
/// keeps the goal, and every reply is followed. A position the side wins
/// by a race gets no record; the checker verifies the race itself. If an
/// interrupted run left records at `path`, they are kept and the walk goes
/// on from where they end (see [`Records`]).
fn write_strategy<const N: usize>(
    solver: &mut Solver<N>,
    white: bool,
    goal: Value,
    starts: Vec<PawnsBoard<N>>,
    path: &Path,
    progress: &mut dyn FnMut(Written),
) -> io::Result<StrategySize> {
    let mut records = Records::open(path)?;
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    let mut size = StrategySize {
        white,
        secures: goal,
        positions: 0,
        race_leaves: 0,
    };
    // The side's positions still to follow, depth first, so that the
    // stack stays as short as the game is long.
    let mut own = Vec::new();
    let follow_replies = |position: &PawnsBoard<N>, own: &mut Vec<PawnsBoard<N>>| {
        for reply in position.moves() {
            if let After::Continues(next) = position.play(reply) {
                own.push(next);
            }
        }
    };
    for start in starts {
        if start.white_to_move() == white {
            own.push(start);
        } else {
            follow_replies(&start, &mut own);
        }
    }
    while let Some(position) = own.pop() {
        // A race leaf is not kept in `seen`: on 8×8 the walk reaches one
        // about three times for each position written, and finding one
        // again is cheap.
        if Race::of(&position).won() {
            size.race_leaves += 1;
            continue;
        }
        if !seen.insert(position.key()) || position.moves().is_empty() {
            continue;
        }
        let m = match records.replayed(&position)? {
            Some(m) => m,
            None => {
                let m = solver
                    .securing_move(&position, goal)
                    .expect("a position of the strategy keeps its goal");
                records.write(&position, m)?;
                m
            }
        };
        size.positions += 1;
        if size.positions % PROGRESS_EVERY == 0 {
            progress(Written {
                positions: size.positions,
                race_leaves: size.race_leaves,
            });
        }
        if let After::Continues(next) = position.play(m) {
            follow_replies(&next, &mut own);
        }
    }
    if records.replay.is_some() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} holds more records than the strategy: remove it",
                path.display()
            ),
        ));
    }
    records.finish()?;
    Ok(size)
}

/// One record: White's pawns and Black's (8 bytes each, little-endian),
/// the en passant file (255 for none), the move's from and to squares.
fn encode<const N: usize>(position: &PawnsBoard<N>, m: BoardMove) -> [u8; RECORD] {
    let (white, black) = position.colours();
    let mut record = [0u8; RECORD];
    record[..8].copy_from_slice(&white.to_le_bytes());
    record[8..16].copy_from_slice(&black.to_le_bytes());
    record[16] = position.en_passant_file().unwrap_or(255);
    record[17] = position.absolute(m.from);
    record[18] = position.absolute(m.to);
    record
}
