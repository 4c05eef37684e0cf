//! `koma check --db PATH`: what fsck is to a file system, for a games
//! file (issue 53). The file is opened read-only and never changed; SQLite's
//! integrity check runs over all of it, its tables are compared with
//! Koma's, and every game's row is read and compared with its checksum.
//! The report lists each damaged game by id with what is wrong.

use super::sqlite_schema::{
    check_layout, integrity_problems, is_damage, read_row, schema_version, APPLICATION_ID,
    SCHEMA_VERSION,
};
use super::store_row::{COLUMNS, COLUMNS_OF_SCHEMA_5};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;

/// How many of the problems SQLite's integrity check finds are listed.
const PROBLEMS_LISTED: u32 = 100;

/// How often, in rows read, progress is told.
const PROGRESS_EVERY: u64 = 256;

/// What the check is doing, told as it goes (for a progress bar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// SQLite's integrity check, which says nothing until it ends.
    Integrity,
    /// Reading the games: `done` of `total` rows.
    Games { done: u64, total: u64 },
}

/// A game that is damaged in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// Its id as the row holds it, or `row N` (SQLite's rowid) when even
    /// the id cannot be read.
    pub game: String,
    /// What is wrong, e.g. `its contents differ from its checksum`.
    pub why: String,
}

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The schema version the file holds, when it could be read.
    pub schema: Option<i64>,
    /// What is wrong with the file as a whole (not a database, SQLite's
    /// integrity check, tables that are not Koma's), one sentence each.
    pub problems: Vec<String>,
    /// Something to know that is not damage (an older schema, whose rows
    /// have no checksums yet).
    pub notes: Vec<String>,
    /// How many games' rows were read.
    pub games: u64,
    /// The damaged games, in the file's order.
    pub damaged: Vec<Damaged>,
}

impl Report {
    /// Whether nothing is damaged.
    pub fn is_whole(&self) -> bool {
        self.problems.is_empty() && self.damaged.is_empty()
    }
}

/// Why a games file cannot be checked at all.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// There is no such file, or it cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// It is a folder.
    #[error("{} is a folder, not a games database", .0.display())]
    Folder(std::path::PathBuf),
    /// SQLite cannot open it.
    #[error("cannot open {}: {source}", path.display())]
    Unopenable {
        /// The file.
        path: std::path::PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
}

/// Checks the games file at `path` without changing it, telling
/// `progress` what it is doing. Fails only when the file cannot be checked
/// at all (there is none, it is a folder, it cannot be opened); everything
/// wrong with its contents is in the report.
pub fn check(path: &Path, progress: &mut dyn FnMut(Progress)) -> Result<Report, CheckError> {
    let meta = std::fs::metadata(path).map_err(|source| CheckError::Unreadable {
        path: path.to_owned(),
        source,
    })?;
    if meta.is_dir() {
        return Err(CheckError::Folder(path.to_owned()));
    }
    let mut report = Report::default();
    if meta.len() == 0 {
        report
            .problems
            .push("the file is empty (0 bytes): it is not a games database".into());
        return Ok(report);
    }
    let connection = open_read_only(path).map_err(|source| CheckError::Unopenable {
        path: path.to_owned(),
        source,
    })?;
    let opened = connection
        .query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        })
        .and_then(|tables| {
            let application: i32 =
                connection.query_row("PRAGMA application_id", [], |r| r.get(0))?;
            Ok((tables, application))
        });
    let (tables, application) = match opened {
        Ok(found) => found,
        Err(error) => {
            report.problems.push(format!(
                "the file is not a SQLite database, or its first page is damaged ({error})"
            ));
            return Ok(report);
        }
    };
    if application != APPLICATION_ID {
        report.problems.push(if tables == 0 {
            "the file is an empty SQLite database, not yet a Koma games file".into()
        } else {
            "the file is another program's database, not Koma's games".into()
        });
        return Ok(report);
    }
    progress(Progress::Integrity);
    match integrity_problems(&connection, PROBLEMS_LISTED) {
        Ok(problems) => report.problems.extend(
            problems
                .into_iter()
                .map(|p| format!("SQLite's integrity check: {p}")),
        ),
        Err(error) => report
            .problems
            .push(format!("SQLite's integrity check failed: {error}")),
    }
    let version = match schema_version(&connection) {
        Ok(version) => version,
        Err(why) => {
            report.problems.push(format!("the file {why}"));
            return Ok(report);
        }
    };
    report.schema = Some(version);
    if let Err(why) = check_layout(&connection, version) {
        report.problems.push(format!("the file {why}"));
        return Ok(report);
    }
    if version < 5 {
        report.notes.push(format!(
            "schema {version} keeps no checksums, so the games were not checked one by one; \
             koma serve brings the file to schema {SCHEMA_VERSION} and adds them"
        ));
        return Ok(report);
    }
    // Schema 5 has every column but the rematch (schema 6): read as NULL.
    let columns = if version < 6 {
        COLUMNS_OF_SCHEMA_5
    } else {
        COLUMNS
    };
    check_games(&connection, columns, &mut report, progress);
    Ok(report)
}

/// The file at `path`, opened so that nothing is written: neither into it
/// nor beside it. A read-only connection still makes the write-ahead log
/// and its index beside the file when they are not there (files that a
/// server run by another user could then not open), so a file without a
/// log, which no server is using, is opened as immutable: SQLite then
/// reads the file alone and takes no locks. A file with a log (a server
/// uses it, or one was killed) is read with its log, as a server would.
fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    if Path::new(&log).exists() {
        return Connection::open_with_flags(path, flags);
    }
    // A URI, whose path is percent-encoded but for the unreserved bytes.
    let mut uri = String::from("file:");
    for &byte in path.as_os_str().as_encoded_bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri.push_str("?immutable=1");
    Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)
}

/// Reads every game's row, comparing it with its checksum and reading it
/// as a game, into `report`.
fn check_games(
    connection: &Connection,
    columns: &str,
    report: &mut Report,
    progress: &mut dyn FnMut(Progress),
) {
    let total: u64 = connection
        .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))
        .map_or(0, |n| n.max(0) as u64);
    progress(Progress::Games { done: 0, total });
    let walk = (|| -> rusqlite::Result<()> {
        let mut statement = connection.prepare(&format!(
            "SELECT rowid, {columns} FROM games ORDER BY rowid"
        ))?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            report.games += 1;
            let rowid: i64 = row.get(0)?;
            let name = || match row.get::<_, String>(1) {
                Ok(id) if !id.is_empty() && id.len() <= 32 => id,
                _ => format!("row {rowid}"),
            };
            let why = match read_row(row, 1) {
                Ok((game, checksum)) => game.into_verified(checksum.as_deref()).map(|_| ()),
                Err(error) if is_damage(&error) => Err(format!("its row cannot be read ({error})")),
                Err(error) => return Err(error),
            };
            if let Err(why) = why {
                report.damaged.push(Damaged { game: name(), why });
            }
            if report.games % PROGRESS_EVERY == 0 {
                progress(Progress::Games {
                    done: report.games,
                    total: total.max(report.games),
                });
            }
        }
        Ok(())
    })();
    if let Err(error) = walk {
        report.problems.push(format!(
            "the games cannot be read after the first {}: {error}",
            report.games
        ));
    }
    progress(Progress::Games {
        done: report.games,
        total: total.max(report.games),
    });
}
