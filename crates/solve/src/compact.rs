//! Compact tables: the costliest positions a solve proved, small enough to
//! ship, so that the perfect player answers in about a second with no
//! solve's state at hand.
//!
//! A solve's journal keeps every position that took at least
//! [`JOURNAL_WORK`](crate::JOURNAL_WORK) nodes to prove (4.2 M positions,
//! 64 MiB for 8×8). Positions cheaper than a few tens of thousands of
//! nodes are proven again in a moment, so a table of the rest is a
//! twentieth of the size and nearly as fast.
//!
//! The file is text lines, then the entries:
//!
//! ```text
//! koma-solve-table 1
//! size 8
//! mirroring on
//! root 8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1
//! work 16
//! entries 219698
//!
//! ```
//!
//! `work W`: each entry took at least 2^W nodes to prove. After the empty
//! line come the entries, 16 bytes each as the table packs them
//! (two little-endian words), sorted by key, one per position.

use crate::search::Solver;
use crate::table::Entry;
use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

/// The first line of a compact table.
const MAGIC: &str = "koma-solve-table 1";

/// The compact table of the 8×8 start position's solve: every position
/// it proved with at least 2^16 nodes. Made by `koma solve pawns --state
/// DIR --table crates/solve/data/pawns8.table` (docs/PAWNS.md).
pub const PAWNS8_TABLE: &[u8] = include_bytes!("../data/pawns8.table");

/// Nodes (log2) a position's proof must have taken to enter a table by
/// default: 2^16 keeps 225 k of the 8×8 solve's 4.2 M positions.
pub const TABLE_WORK: u64 = 16;

/// What [`Solver::write_table`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSize {
    /// Positions in the table.
    pub positions: usize,
    /// The file's size in bytes.
    pub bytes: u64,
}

impl<const N: usize> Solver<N> {
    /// Writes the compact table of the state in `dir` (a state of a solve
    /// on this solver's board, whatever its root) to `path`: the positions
    /// whose proof took at least 2^`work` nodes, one entry each with all
    /// the bounds the journal proved for it. The file is written beside
    /// `path` and renamed, so a kill leaves no half table.
    pub fn write_table(&self, dir: &Path, work: u64, path: &Path) -> io::Result<TableSize> {
        let about = fs::read_to_string(dir.join("about"))?;
        let root = about
            .lines()
            .find_map(|line| line.strip_prefix("root "))
            .unwrap_or("?");
        let mut merged: HashMap<(u64, u64), Entry> = HashMap::new();
        for entry in crate::state::read_journal_of(dir, &self.about_lines())? {
            if entry.log_work() >= work {
                merged
                    .entry(entry.key_words())
                    .and_modify(|held| *held = held.merged_with(entry))
                    .or_insert(entry);
            }
        }
        let mut entries: Vec<Entry> = merged.into_values().collect();
        entries.sort_by_key(Entry::key_words);
        let [size, mirroring] = self.about_lines();
        let mut bytes = format!(
            "{MAGIC}\n{size}\n{mirroring}\nroot {root}\nwork {work}\nentries {}\n\n",
            entries.len()
        )
        .into_bytes();
        for entry in &entries {
            bytes.extend_from_slice(&entry.0[0].to_le_bytes());
            bytes.extend_from_slice(&entry.0[1].to_le_bytes());
        }
        let aside = path.with_extension("new");
        fs::write(&aside, &bytes)?;
        fs::rename(&aside, path)?;
        Ok(TableSize {
            positions: entries.len(),
            bytes: bytes.len() as u64,
        })
    }

    /// Reads a compact table (see [`Solver::write_table`]) into the
    /// table: its positions' proven bounds. Their number, or why the bytes
    /// are not a table for this solver's board and mirroring.
    pub fn load_table(&mut self, bytes: &[u8]) -> Result<usize, String> {
        let split = bytes
            .windows(2)
            .position(|pair| pair == b"\n\n")
            .ok_or("not a compact table: no header")?;
        let header = std::str::from_utf8(&bytes[..split])
            .map_err(|_| "not a compact table: its header is not text")?;
        let lines: Vec<&str> = header.lines().collect();
        if lines.first() != Some(&MAGIC) {
            return Err("not a compact table of Koma's solver".into());
        }
        for wanted in self.about_lines() {
            if !lines.contains(&wanted.as_str()) {
                return Err(format!("a table without \"{wanted}\""));
            }
        }
        let count: usize = lines
            .iter()
            .find_map(|line| line.strip_prefix("entries ")?.parse().ok())
            .ok_or("a table without its number of entries")?;
        let body = &bytes[split + 2..];
        if body.len() != count * 16 {
            return Err(format!(
                "a table of {count} entries should have {} bytes of them, not {}",
                count * 16,
                body.len()
            ));
        }
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        for record in body.chunks_exact(16) {
            self.store_entry(Entry([word(&record[..8]), word(&record[8..])]));
        }
        Ok(count)
    }
}
