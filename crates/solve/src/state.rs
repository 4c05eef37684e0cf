//! A solve's state on disk, so that a solve of many hours survives the end
//! of its process and resumes.
//!
//! The directory holds:
//! - `about`: `koma-solve-state 1`, then `size N`, `root FEN` and
//!   `mirroring on|off`: a state is resumed only for the same question;
//! - `journal`: the table's entries that took at least
//!   [`JOURNAL_WORK`] nodes to prove, 16 bytes each as the table packs
//!   them, appended as they are proven (a record cut short by a kill is
//!   ignored);
//! - `answers`: a line `FEN<TAB>value` for each position whose value is
//!   settled (a first move, say);
//! - `progress`: `nodes N` and `seconds S` over all runs, rewritten whole
//!   (written aside, then renamed) at each flush.
//!
//! On resuming, the journal is read back into the table. A search from the
//! root then finds every expensive subtree proven and repeats only the
//! cheap ones, some minutes at most.

use crate::table::Entry;
use crate::value::Value;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Entries proven with fewer nodes than this are cheap to prove again and
/// stay out of the journal.
pub const JOURNAL_WORK: u64 = 1 << 12;

/// Bytes of journal held before they are written: a few seconds' worth,
/// so a kill loses little (the writes reach the system at once, only the
/// progress file waits for the minute's flush).
const JOURNAL_BUFFER: usize = 1 << 16;

/// An open state directory.
pub(crate) struct StateDir {
    dir: PathBuf,
    journal: BufWriter<File>,
    /// Records in the journal.
    journal_len: u64,
    /// Nodes and seconds of the runs before this one.
    pub earlier_nodes: u64,
    /// See `earlier_nodes`.
    pub earlier_seconds: f64,
}

/// What a state directory held when it was opened.
pub(crate) struct Resumed {
    /// The journal's entries.
    pub entries: Vec<Entry>,
    /// The settled answers: position (FEN) and value.
    pub answers: Vec<(String, Value)>,
}

fn invalid(path: &Path, why: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: {why}", path.display()),
    )
}

impl StateDir {
    /// Opens (or starts) the state of the question `about` (its size, root
    /// and mirroring) in `dir`. A directory that holds another question's
    /// state is refused, not overwritten.
    pub fn open(dir: &Path, about: &str) -> io::Result<(StateDir, Resumed)> {
        fs::create_dir_all(dir)?;
        let about_path = dir.join("about");
        let header = format!("koma-solve-state 1\n{about}\n");
        match if_present(fs::read_to_string(&about_path))? {
            Some(held) if held == header => {}
            Some(held) => {
                return Err(invalid(
                    &about_path,
                    format!(
                        "holds the state of another solve:\n{held}not of:\n{header}use another directory"
                    ),
                ))
            }
            None => write_aside(&about_path, &header)?,
        }
        let journal_path = dir.join("journal");
        let entries = read_journal(&journal_path)?;
        // Cut a record left half written by a kill, so that appends stay
        // aligned.
        let mut file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(&journal_path)?;
        file.set_len(entries.len() as u64 * 16)?;
        io::Seek::seek(&mut file, io::SeekFrom::End(0))?;
        let answers = read_answers(&dir.join("answers"))?;
        let (earlier_nodes, earlier_seconds) = read_progress(&dir.join("progress"))?;
        Ok((
            StateDir {
                dir: dir.to_path_buf(),
                journal: BufWriter::with_capacity(JOURNAL_BUFFER, file),
                journal_len: entries.len() as u64,
                earlier_nodes,
                earlier_seconds,
            },
            Resumed { entries, answers },
        ))
    }

    /// Appends an entry to the journal (written out at the next flush, or
    /// when the buffer fills).
    pub(crate) fn record(&mut self, entry: Entry) -> io::Result<()> {
        self.journal_len += 1;
        self.journal.write_all(&entry.0[0].to_le_bytes())?;
        self.journal.write_all(&entry.0[1].to_le_bytes())
    }

    /// Records in the journal.
    pub fn journal_len(&self) -> u64 {
        self.journal_len
    }

    /// Settles `fen`'s value, written out at once.
    pub fn record_answer(&mut self, fen: &str, value: Value) -> io::Result<()> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("answers"))?;
        writeln!(file, "{fen}\t{value}")?;
        file.sync_data()
    }

    /// Writes out the journal and the totals of all runs so far.
    pub fn flush(&mut self, nodes: u64, seconds: f64) -> io::Result<()> {
        self.journal.flush()?;
        write_aside(
            &self.dir.join("progress"),
            &format!("nodes {nodes}\nseconds {seconds:.1}\n"),
        )
    }
}

/// The journal of the state in `dir`, read only, for any position of a
/// solve with the same `size_and_mirroring` (`size N` and `mirroring
/// on|off`, lines of `about`): a value proven is the position's, whatever
/// the root it was proven under.
pub(crate) fn read_journal_of(dir: &Path, size_and_mirroring: &[String]) -> io::Result<Vec<Entry>> {
    let about_path = dir.join("about");
    let about = fs::read_to_string(&about_path)?;
    let lines: Vec<&str> = about.lines().collect();
    if lines.first() != Some(&"koma-solve-state 1") {
        return Err(invalid(&about_path, "not a Koma solve's state".into()));
    }
    for wanted in size_and_mirroring {
        if !lines.contains(&wanted.as_str()) {
            return Err(invalid(
                &about_path,
                format!("a state without \"{wanted}\""),
            ));
        }
    }
    read_journal(&dir.join("journal"))
}

/// Writes `text` to `path` whole: to a file beside it, then renamed over
/// it, so that a kill leaves the old text or the new.
fn write_aside(path: &Path, text: &str) -> io::Result<()> {
    let aside = path.with_extension("new");
    fs::write(&aside, text)?;
    fs::rename(aside, path)
}

/// What reading a file gave, `None` if there was no file.
fn if_present<T>(read: io::Result<T>) -> io::Result<Option<T>> {
    match read {
        Ok(contents) => Ok(Some(contents)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn read_journal(path: &Path) -> io::Result<Vec<Entry>> {
    let bytes = if_present(fs::read(path))?.unwrap_or_default();
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    Ok(bytes
        .chunks_exact(16)
        .map(|record| Entry([word(&record[..8]), word(&record[8..])]))
        .collect())
}

fn read_answers(path: &Path) -> io::Result<Vec<(String, Value)>> {
    let text = if_present(fs::read_to_string(path))?.unwrap_or_default();
    let mut answers = Vec::new();
    for line in text.lines() {
        let value = match line.rsplit_once('\t') {
            Some((fen, "win")) => (fen, Value::Win),
            Some((fen, "draw")) => (fen, Value::Draw),
            Some((fen, "loss")) => (fen, Value::Loss),
            // A line cut short by a kill.
            _ => continue,
        };
        answers.push((value.0.to_string(), value.1));
    }
    Ok(answers)
}

fn read_progress(path: &Path) -> io::Result<(u64, f64)> {
    let Some(text) = if_present(fs::read_to_string(path))? else {
        return Ok((0, 0.0));
    };
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.trim().parse::<f64>().ok())
            .ok_or_else(|| invalid(path, format!("no {name}")))
    };
    Ok((field("nodes")? as u64, field("seconds")?))
}
