//! Games in one SQLite file, so that they outlive the server (issue 7).
//!
//! Durability: the file is in WAL mode with `synchronous=FULL`, so the
//! write-ahead log is flushed to the disk (fsync) as part of every commit,
//! and a move is only acknowledged after its commit returned. A committed
//! move therefore survives a `kill -9` of the server (it is in the log file
//! even before the flush: WAL with `synchronous=NORMAL` would already give
//! that) and also a crash of the operating system or a power cut, which
//! `NORMAL` would not. The price is one flush per change; readers never
//! wait for writers in WAL mode.
//!
//! Every change is one `BEGIN IMMEDIATE` transaction that reads the game,
//! applies the change and writes it back: two `koma serve` processes
//! sharing the file take turns (the second waits up to [`BUSY_TIMEOUT`]),
//! and a change that refuses, or a process killed half-way, leaves the game
//! as it was.
//!
//! A game is kept as a row of plain data (see [`SCHEMA`]): its id, game,
//! start position, moves as USI/UCI text, a declared ending, headers and
//! opponent as JSON, its version, seats, takeback request, clocks and
//! impasse rule, an imported record's comments and move times, the engine's
//! review, when it was created and last changed, and a checksum of all
//! that. The `koma_schema` table holds the schema's version for migrations
//! (a file of schema 1 to 6 is brought to 7 when opened, see
//! [`crate::store::sqlite_schema`]), and the file's `application_id` says that it
//! is Koma's, so that a foreign database is refused rather than written
//! into.
//!
//! Damage (issue 53) is refused, never served. At opening, a file of 0
//! bytes, one that fails SQLite's `PRAGMA integrity_check`, or one whose
//! tables or columns are not Koma's stops the server with a sentence; a new
//! file is made whole under another name and then linked into place, so
//! that an empty file at the path is never Koma's own half-made one. At
//! every read, the row's checksum is compared with its contents: a damaged
//! game answers 500 with "The game … is damaged in the games file", and the
//! other games go on being served.

use super::sqlite_schema::{
    self, check_layout, integrity_problems, is_damage, read_row, schema_version, APPLICATION_ID,
    SCHEMA, SCHEMA_VERSION,
};
use super::store_row::{Row, COLUMNS};
use super::{Change, GameId, GameStore, StoreError, StoredGame};
use crate::games::clock::now_ms;
use crate::workers::queue::JobQueue;
use crate::workers::sqlite_jobs::SqliteJobs;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// How long a change waits for another process holding the file's write
/// lock before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How many of the problems SQLite's integrity check finds are named when
/// a file is refused.
const PROBLEMS_SHOWN: u32 = 3;

/// Where a damaged game is said to be.
const PLACE: &str = "games file";

/// Games in a SQLite file.
pub struct SqliteStore {
    connection: Mutex<Connection>,
    /// The file, for the job queue's own connection.
    path: PathBuf,
}

/// A sentence about a database error.
fn failed(error: rusqlite::Error) -> StoreError {
    StoreError::Failed(format!("The games database failed: {error}."))
}

/// Reads game `id` inside `connection` (a transaction or not), checking
/// its checksum; the game, and when it was created.
fn read_game(connection: &Connection, id: GameId) -> Result<(StoredGame, i64), StoreError> {
    let text = id.to_string();
    let read = connection
        .query_row(
            &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
            [&text],
            |row| read_row(row, 0),
        )
        .optional();
    let (row, checksum) = match read {
        Ok(Some(read)) => read,
        Ok(None) => return Err(StoreError::NotFound),
        Err(error) if is_damage(&error) => {
            return Err(StoreError::damaged(
                id,
                PLACE,
                &format!("its row cannot be read ({error})"),
            ))
        }
        Err(error) => return Err(failed(error)),
    };
    let created_at = row.created_at;
    let game = row.into_checked(id, checksum.as_deref(), PLACE)?;
    Ok((game, created_at))
}

impl SqliteStore {
    /// Opens the games file at `path`, or creates it (and its folder) when
    /// there is none. A file that is empty, not a database, damaged,
    /// another program's database, not laid out as Koma's, or from a newer
    /// Koma is refused with a sentence that names it and says so.
    pub fn open(path: &Path) -> Result<SqliteStore, String> {
        let shown = path.display();
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create the folder {}: {e}", folder.display()))?;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                return Err(format!("{shown} is a folder, not a games database"))
            }
            Ok(meta) if meta.len() == 0 => return Err(empty(&shown.to_string())),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Self::create(path)?,
            Err(e) => return Err(format!("cannot read the games database {shown}: {e}")),
        }
        // Never created here: a file that went away meanwhile is an error,
        // not a new empty games file.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut connection = Connection::open_with_flags(path, flags)
            .map_err(|e| format!("cannot open the games database {shown}: {e}"))?;
        Self::prepare_waiting(&mut connection).map_err(|e| refusal(&shown.to_string(), e))?;
        Ok(SqliteStore {
            connection: Mutex::new(connection),
            path: path.to_owned(),
        })
    }

    /// Makes a new games file at `path`: whole under a name of its own
    /// beside it, then linked to `path`, which fails if another process
    /// made one there first (then that one is used). So the file at `path`
    /// is never a half-made one, and an empty file there is never Koma's.
    fn create(path: &Path) -> Result<(), String> {
        let shown = path.display().to_string();
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("the operating system gave no random numbers: {e}"))?;
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".new-{:016x}", u64::from_le_bytes(bytes)));
        let new = path.with_file_name(name);
        let made = (|| {
            let mut connection = Connection::open(&new)
                .map_err(|e| format!("cannot create the games database {shown}: {e}"))?;
            Self::prepare_waiting(&mut connection).map_err(|e| refusal(&shown, e))?;
            // Closing the only connection empties the write-ahead log into
            // the file, and removes the log.
            connection
                .close()
                .map_err(|(_, e)| format!("cannot create the games database {shown}: {e}"))?;
            match std::fs::hard_link(&new, path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                // A file system without hard links: moved into place, unless
                // another process made the file meanwhile.
                Err(_) if !path.exists() => std::fs::rename(&new, path)
                    .map_err(|e| format!("cannot create the games database {shown}: {e}")),
                Err(_) => Ok(()),
            }
        })();
        for suffix in ["", "-wal", "-shm"] {
            let mut name = new.clone().into_os_string();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
        made
    }

    /// [`SqliteStore::prepare`], tried again while another process holds
    /// the file, until [`BUSY_TIMEOUT`] has passed since the first try (a
    /// try that began just before then may still spend SQLite's own wait
    /// of that length, so the whole can approach twice it). SQLite's own
    /// wait does not cover every case here: two processes opening a file
    /// at once both read it, then both want it alone to put it in WAL
    /// mode or to bring it to the current schema, and SQLite answers
    /// "database is locked" at once rather than let them wait for each
    /// other for ever. Trying again after the other is done finds the file
    /// ready.
    fn prepare_waiting(connection: &mut Connection) -> Result<(), Prepare> {
        let start = std::time::Instant::now();
        loop {
            match Self::prepare(connection) {
                Err(Prepare::Sqlite(error))
                    if matches!(
                        error.sqlite_error_code(),
                        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                    ) && start.elapsed() < BUSY_TIMEOUT =>
                {
                    std::thread::sleep(Duration::from_millis(20));
                }
                result => return result,
            }
        }
    }

    /// Checks the file, sets it up and creates the tables of a new one
    /// (one with no tables) or brings an older one to the current schema.
    fn prepare(connection: &mut Connection) -> Result<(), Prepare> {
        connection.busy_timeout(BUSY_TIMEOUT)?;
        // Read first, so that a foreign or damaged file is refused before
        // anything (even the journal mode) is written into it. A file that
        // is not SQLite at all fails here.
        let tables: i64 =
            connection.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
        let application: i32 = connection.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        if tables > 0 && application != APPLICATION_ID {
            return Err(Prepare::Refused(
                "is another program's database, not Koma's games; choose another file with --db"
                    .into(),
            ));
        }
        if tables == 0 && application == APPLICATION_ID {
            return Err(Prepare::Refused(format!(
                "is damaged: it is marked as Koma's but holds none of its tables; {MOVE_AWAY}"
            )));
        }
        if tables > 0 {
            let problems = integrity_problems(connection, PROBLEMS_SHOWN)?;
            if !problems.is_empty() {
                return Err(Prepare::Refused(format!(
                    "is damaged: SQLite's integrity check says {}; {MOVE_AWAY} (koma check \
                     --db PATH lists the damaged games)",
                    problems.join("; ")
                )));
            }
            let version = schema_version(connection).map_err(Prepare::Refused)?;
            check_layout(connection, version)
                .map_err(|why| Prepare::Refused(format!("{why}; {MOVE_AWAY}")))?;
        }
        let mode: String = connection.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Prepare::Refused(format!(
                "cannot be put in WAL mode (it stays in {mode} mode); is it on a network drive?"
            )));
        }
        connection.pragma_update(None, "synchronous", "FULL")?;
        let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let tables: i64 =
            transaction.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
        if tables == 0 {
            transaction.pragma_update(None, "application_id", APPLICATION_ID)?;
            transaction.execute_batch(SCHEMA)?;
            transaction.execute(
                "INSERT INTO koma_schema (version) VALUES (?1)",
                [SCHEMA_VERSION],
            )?;
        } else {
            // Read again under the write lock: another process may have
            // brought the file up to date since.
            let version = schema_version(&transaction).map_err(Prepare::Refused)?;
            if version < SCHEMA_VERSION {
                check_layout(&transaction, version)
                    .map_err(|why| Prepare::Refused(format!("{why}; {MOVE_AWAY}")))?;
                sqlite_schema::migrate(&transaction, version)?;
            }
        }
        transaction.commit()?;
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock rolled its transaction back (the
        // transaction's drop does), so the connection is sound.
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes `row` with its checksum: a new game (replacing any with its
    /// id, as in memory) when `new`, else the changes to the existing one.
    fn write(connection: &Connection, row: &Row, new: bool) -> rusqlite::Result<usize> {
        let sql = if new {
            "INSERT OR REPLACE INTO games (id, variant, start, moves, declared_winner, \
             declared_reason, headers, opponent, version, seats, mode, takeback, clock, \
             impasse, notes, review, created_at, updated_at, checksum, rematch) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
             ?17, ?18, ?19, ?20)"
        } else {
            "UPDATE games SET variant = ?2, start = ?3, moves = ?4, declared_winner = ?5, \
             declared_reason = ?6, headers = ?7, opponent = ?8, version = ?9, seats = ?10, \
             mode = ?11, takeback = ?12, clock = ?13, impasse = ?14, notes = ?15, \
             review = ?16, created_at = ?17, updated_at = ?18, checksum = ?19, \
             rematch = ?20 WHERE id = ?1"
        };
        connection.execute(
            sql,
            params![
                row.id,
                row.variant,
                row.start,
                row.moves,
                row.declared_winner,
                row.declared_reason,
                row.headers,
                row.opponent,
                row.version,
                row.seats,
                row.mode,
                row.takeback,
                row.clock,
                row.impasse,
                row.notes,
                row.review,
                row.created_at,
                row.updated_at,
                row.checksum(),
                row.rematch
            ],
        )
    }
}

/// The advice that ends a refusal of a damaged file.
const MOVE_AWAY: &str = "move it away or choose another file with --db";

/// The sentence for a 0-byte file at `shown`.
fn empty(shown: &str) -> String {
    format!(
        "{shown} is empty (0 bytes), so it is not a Koma games database: it may have been cut \
         short (a full disk, a failed copy); {MOVE_AWAY} (a path with no file there gets a new \
         games file)"
    )
}

/// The sentence for a file at `shown` that could not be prepared.
fn refusal(shown: &str, error: Prepare) -> String {
    match error {
        Prepare::Sqlite(error)
            if matches!(
                error.sqlite_error_code(),
                Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
            ) =>
        {
            format!("{shown} is not a Koma games database, or it is damaged ({error}); {MOVE_AWAY}")
        }
        Prepare::Sqlite(error) => format!("cannot use the games database {shown}: {error}"),
        Prepare::Refused(why) => format!("{shown} {why}"),
    }
}

/// Why a file could not be prepared.
enum Prepare {
    Sqlite(rusqlite::Error),
    /// The end of a sentence that starts with the file's name.
    Refused(String),
}

impl From<rusqlite::Error> for Prepare {
    fn from(error: rusqlite::Error) -> Prepare {
        Prepare::Sqlite(error)
    }
}

impl GameStore for SqliteStore {
    fn insert(&self, game: StoredGame) -> Result<(), StoreError> {
        let now = now_ms();
        let row = Row::from_game(&game, now, now)?;
        let connection = self.lock();
        Self::write(&connection, &row, true).map_err(failed)?;
        Ok(())
    }

    fn get(&self, id: GameId) -> Result<StoredGame, StoreError> {
        read_game(&self.lock(), id).map(|(game, _)| game)
    }

    fn job_queue(&self) -> Result<std::sync::Arc<dyn JobQueue>, String> {
        Ok(std::sync::Arc::new(SqliteJobs::open(&self.path)?))
    }

    fn update(&self, id: GameId, change: Change<'_>) -> Result<StoredGame, StoreError> {
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        // A damaged game is refused here, and never written over.
        let (mut game, created_at) = read_game(&transaction, id)?;
        // A refusal returns here, and the transaction's drop rolls back.
        change(&mut game).map_err(StoreError::Refused)?;
        let row = Row::from_game(&game, created_at, now_ms())?;
        Self::write(&transaction, &row, false).map_err(failed)?;
        transaction.commit().map_err(failed)?;
        Ok(game)
    }
}

/// Where games are kept when `--db` is not given:
/// `$XDG_DATA_HOME/koma/games.sqlite3`, or
/// `~/.local/share/koma/games.sqlite3`.
pub fn default_path() -> Result<PathBuf, String> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let data = absolute("XDG_DATA_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".local").join("share")))
        .ok_or_else(|| {
            "cannot tell where to keep the games (neither XDG_DATA_HOME nor HOME is set): \
             give --db PATH, or --memory"
                .to_owned()
        })?;
    Ok(data.join("koma").join("games.sqlite3"))
}

#[cfg(test)]
#[path = "sqlite_damage_tests.rs"]
mod damage_tests;

/// A folder of its own for a test's games file, removed with it.
#[cfg(test)]
struct Temp(tempfile::TempDir);

#[cfg(test)]
impl Temp {
    /// A folder whose name says which test made it.
    fn new(name: &str) -> Temp {
        let dir = tempfile::Builder::new()
            .prefix(&format!("koma-sqlite-{name}-"))
            .tempdir()
            .unwrap();
        Temp(dir)
    }

    fn dir(&self) -> &Path {
        self.0.path()
    }

    fn file(&self) -> PathBuf {
        self.dir().join("games.sqlite3")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::clock::Clock;
    use crate::games::names::Opponent;
    use crate::games::record_notes::{MoveNote, RecordNotes};
    use crate::games::refusal::Refusal;
    use crate::games::seats::{Mode, Seats, Token};
    use crate::games::state::HeadersView;
    use crate::store::sqlite_schema::{MIGRATE_1_TO_2, MIGRATE_2_TO_3};
    use crate::store::{Declared, Rematch};
    use crate::study::review_kept::{KeptEvaluation, StoredJudgement, StoredReview};
    use crate::workers::queue::JobKind;
    use koma_rules::Variant;

    fn game(id: u64) -> StoredGame {
        StoredGame {
            id: format!("{id:016x}").parse().unwrap(),
            variant: Variant::Shogi,
            start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            moves: vec!["7g7f".into(), "3c3d".into(), "P*5e".into()],
            declared: Some(Declared {
                winner: Some("gote".into()),
                reason: "resignation".into(),
            }),
            headers: HeadersView {
                sente: Some("Hanako 花子".into()),
                other: vec![("Note".into(), "a \"quoted\" value".into())],
                ..HeadersView::default()
            },
            opponent: Opponent::Computer {
                level: crate::games::names::Level::Strength(7),
                color: "gote".into(),
                engine: None,
            },
            version: 3,
            // Fixed, so that every call gives the same game.
            seats: Some(Seats {
                first: Token::parse("0123456789abcdef0123456789abcdef"),
                second: None,
            }),
            mode: Mode::Shared,
            takeback: Some("sente".into()),
            clock: Some(Clock {
                control: crate::games::clock::TimeControl {
                    initial_ms: 300_000,
                    increment_ms: 0,
                    byoyomi_ms: 10_000,
                },
                main_ms: [299_000, 12],
                running_since: Some(1_790_000_000_000),
                rule: Default::default(),
                last_charge_ms: None,
            }),
            impasse: Some(koma_rules::ImpasseRule::TwentyFour),
            notes: RecordNotes {
                comments: vec!["対局前".into()],
                moves: vec![MoveNote {
                    comments: vec!["a \"first\" move".into()],
                    milliseconds: Some(12_000),
                }],
            },
            review: Some(StoredReview {
                engine: None,
                nodes: 2_000,
                positions: vec![
                    StoredJudgement {
                        evaluation: KeptEvaluation::Cp(-35),
                        line: vec!["2g2f".into(), "8c8d".into()],
                        depth: 7,
                        nodes: 2_001,
                    },
                    StoredJudgement {
                        evaluation: KeptEvaluation::Mate {
                            winner: "gote".into(),
                            plies: 3,
                        },
                        line: Vec::new(),
                        depth: 0,
                        nodes: 0,
                    },
                ],
            }),
            rematch: Some(Rematch {
                offered_by: Some("sente".into()),
                declined_by: Some("gote".into()),
                cancelled: false,
                game: None,
            }),
        }
    }

    #[test]
    fn servers_opening_a_new_file_at_once_all_get_it() {
        // As six `koma serve` starting together on a new machine: each
        // connection reads the new file, then wants it alone for WAL mode.
        for round in 0..5 {
            let temp = Temp::new(&format!("together-{round}"));
            let file = temp.file();
            let ready = std::sync::Barrier::new(6);
            let opened: Vec<Result<(), String>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..6)
                    .map(|_| {
                        scope.spawn(|| {
                            ready.wait();
                            SqliteStore::open(&file).map(|_| ())
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            for result in opened {
                assert_eq!(result, Ok(()), "round {round}");
            }
        }
    }

    #[test]
    fn games_come_back_as_they_went_in_after_reopening() {
        let temp = Temp::new("reopen");
        let mut draw = game(2);
        draw.declared = Some(Declared {
            winner: None,
            reason: "repetition".into(),
        });
        draw.moves.clear();
        draw.opponent = Opponent::Human;
        draw.seats = None;
        draw.mode = Mode::Local;
        draw.takeback = None;
        draw.clock = None;
        draw.impasse = None;
        draw.notes = RecordNotes::default();
        draw.review = None;
        draw.rematch = None;
        {
            let store = SqliteStore::open(&temp.file()).unwrap();
            store.insert(game(1)).unwrap();
            store.insert(draw.clone()).unwrap();
            assert_eq!(store.get(game(1).id).unwrap(), game(1));
        }
        let store = SqliteStore::open(&temp.file()).unwrap();
        assert_eq!(store.get(game(1).id).unwrap(), game(1));
        assert_eq!(store.get(draw.id).unwrap(), draw);
        assert!(matches!(store.get(game(3).id), Err(StoreError::NotFound)));
    }

    #[test]
    fn changes_are_kept_and_refusals_leave_the_game_alone() {
        let temp = Temp::new("update");
        let store = SqliteStore::open(&temp.file()).unwrap();
        store.insert(game(1)).unwrap();
        let after = store
            .update(game(1).id, &mut |g: &mut StoredGame| {
                g.moves.push("4a3b".into());
                g.declared = None;
                g.version += 1;
                Ok(())
            })
            .unwrap();
        assert_eq!(after.moves.len(), 4);
        assert_eq!(store.get(game(1).id).unwrap(), after);
        let refused = store.update(game(1).id, &mut |g: &mut StoredGame| {
            g.moves.clear();
            Err(Refusal::unprocessable("no"))
        });
        assert!(matches!(refused, Err(StoreError::Refused(_))));
        assert_eq!(store.get(game(1).id).unwrap(), after);
        let missing = store.update(game(9).id, &mut |_: &mut StoredGame| Ok(()));
        assert!(matches!(missing, Err(StoreError::NotFound)));
        // Inserting an id again replaces the game, as in memory.
        store.insert(game(1)).unwrap();
        assert_eq!(store.get(game(1).id).unwrap(), game(1));
    }

    #[test]
    fn two_stores_on_one_file_see_each_other() {
        let temp = Temp::new("two");
        let one = SqliteStore::open(&temp.file()).unwrap();
        let two = SqliteStore::open(&temp.file()).unwrap();
        one.insert(game(1)).unwrap();
        two.update(game(1).id, &mut |g: &mut StoredGame| {
            g.version += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(one.get(game(1).id).unwrap().version, 4);
    }

    #[test]
    fn foreign_damaged_and_newer_files_are_refused() {
        let temp = Temp::new("foreign");
        let path = temp.file();
        std::fs::write(
            &path,
            b"this is not a database, but it is long enough to look like one, \
            or rather it is not: SQLite reads its first hundred bytes as a header",
        )
        .unwrap();
        let error = SqliteStore::open(&path).err().unwrap();
        assert!(error.contains("not a Koma games database"), "{error}");
        std::fs::remove_file(&path).unwrap();
        {
            let other = Connection::open(&path).unwrap();
            other
                .execute_batch("CREATE TABLE notes (text TEXT);")
                .unwrap();
        }
        let error = SqliteStore::open(&path).err().unwrap();
        assert!(error.contains("another program's database"), "{error}");
        std::fs::remove_file(&path).unwrap();
        drop(SqliteStore::open(&path).unwrap());
        {
            let newer = Connection::open(&path).unwrap();
            newer
                .execute("UPDATE koma_schema SET version = 99", [])
                .unwrap();
        }
        let error = SqliteStore::open(&path).err().unwrap();
        assert!(error.contains("newer Koma"), "{error}");
        let error = SqliteStore::open(temp.dir()).err().unwrap();
        assert!(error.contains("is a folder"), "{error}");
    }

    /// The tables of a file of schema 1.
    const SCHEMA_1: &str = "CREATE TABLE koma_schema (version INTEGER NOT NULL) STRICT;
         INSERT INTO koma_schema (version) VALUES (1);
         CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, variant TEXT NOT NULL,
           start TEXT NOT NULL, moves TEXT NOT NULL, declared_winner TEXT,
           declared_reason TEXT, headers TEXT NOT NULL, opponent TEXT NOT NULL,
           version INTEGER NOT NULL, created_at INTEGER NOT NULL,
           updated_at INTEGER NOT NULL) STRICT;";

    /// A Koma file of an older schema at `path`: the tables `migrations`
    /// make, with one game row written by `row` (an INSERT).
    fn old_file(path: &Path, migrations: &[&str], row: &str) {
        let old = Connection::open(path).unwrap();
        old.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        for migration in migrations {
            old.execute_batch(migration).unwrap();
        }
        old.execute_batch(row).unwrap();
    }

    #[test]
    fn a_file_of_schema_1_is_brought_up_to_date_and_its_games_kept() {
        let temp = Temp::new("migrate");
        let path = temp.file();
        old_file(
            &path,
            &[SCHEMA_1],
            "INSERT INTO games VALUES ('00000000000000aa', 'spear',
               'lbsgk/4p/5/P4/KGSBL b - 1', '5d5c', NULL, NULL, '{}',
               '{\"kind\":\"human\"}', 2, 0, 0);",
        );
        let store = SqliteStore::open(&path).unwrap();
        let old = store.get("00000000000000aa".parse().unwrap()).unwrap();
        assert_eq!(old.moves, ["5d5c"]);
        assert_eq!((old.seats, old.mode, old.clock), (None, Mode::Local, None));
        assert_eq!(old.impasse, None);
        assert_eq!((old.notes, old.review), (RecordNotes::default(), None));
        store.insert(game(1)).unwrap();
        assert_eq!(store.get(game(1).id).unwrap(), game(1));
        let version: i64 = store
            .lock()
            .query_row("SELECT version FROM koma_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn a_file_of_schema_2_is_brought_up_to_date_with_the_27_point_rule() {
        let temp = Temp::new("migrate-2");
        let path = temp.file();
        old_file(
            &path,
            &[SCHEMA_1, MIGRATE_1_TO_2],
            "INSERT INTO games VALUES ('00000000000000bb', 'shogi',
               'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', '7g7f',
               NULL, NULL, '{}', '{\"kind\":\"human\"}', 2, 0, 0, NULL, 'local', NULL,
               NULL);",
        );
        let store = SqliteStore::open(&path).unwrap();
        let old = store.get("00000000000000bb".parse().unwrap()).unwrap();
        assert_eq!(
            (old.moves.as_slice(), old.impasse),
            (&["7g7f".to_owned()][..], None)
        );
        assert_eq!(
            old.impasse_rule(),
            Some(koma_rules::ImpasseRule::TwentySeven)
        );
        store.insert(game(2)).unwrap();
        assert_eq!(store.get(game(2).id).unwrap(), game(2));
        let version: i64 = store
            .lock()
            .query_row("SELECT version FROM koma_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn a_file_of_schema_3_is_brought_up_to_date_without_notes_or_reviews() {
        let temp = Temp::new("migrate-3");
        let path = temp.file();
        old_file(
            &path,
            &[SCHEMA_1, MIGRATE_1_TO_2, MIGRATE_2_TO_3],
            "INSERT INTO games VALUES ('00000000000000cc', 'pawns',
               '8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1', 'e2e4', NULL, NULL, '{}',
               '{\"kind\":\"human\"}', 2, 0, 0, NULL, 'local', NULL, NULL, NULL);",
        );
        let store = SqliteStore::open(&path).unwrap();
        let old = store.get("00000000000000cc".parse().unwrap()).unwrap();
        assert_eq!(old.moves, ["e2e4"]);
        assert_eq!((old.notes, old.review), (RecordNotes::default(), None));
        store.insert(game(3)).unwrap();
        assert_eq!(store.get(game(3).id).unwrap(), game(3));
        let version: i64 = store
            .lock()
            .query_row("SELECT version FROM koma_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn a_file_of_schema_6_gets_the_workers_jobs_table() {
        let temp = Temp::new("migrate-6");
        let path = temp.file();
        let old = game(6);
        {
            // A file as schema 6 wrote it: no jobs table.
            let store = SqliteStore::open(&path).unwrap();
            store.insert(old.clone()).unwrap();
            store
                .lock()
                .execute_batch("DROP TABLE jobs; UPDATE koma_schema SET version = 6;")
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.get(old.id).unwrap(), old);
        let (version, jobs): (i64, i64) = store
            .lock()
            .query_row(
                "SELECT (SELECT version FROM koma_schema), (SELECT count(*) FROM jobs)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((version, jobs), (SCHEMA_VERSION, 0));
        let queue = store.job_queue().unwrap();
        let spec = crate::workers::queue::JobSpec {
            kind: JobKind::Mate,
            game: old.id.to_string(),
            variant: "spear".into(),
            position: old.start.clone(),
            moves: Vec::new(),
            nodes: 10,
            seconds: 3,
            lines: 0,
        };
        let id = queue.push(spec.clone()).unwrap();
        let lease = std::time::Duration::from_secs(60);
        assert_eq!(queue.take("test", lease, &[JobKind::Review]).unwrap(), None);
        let taken = queue.take("test", lease, &JobKind::ALL).unwrap().unwrap();
        assert_eq!((taken.id, taken.spec), (id, spec));
    }

    #[test]
    fn the_jobs_of_a_file_of_schema_7_are_reviews() {
        let temp = Temp::new("migrate-7");
        let path = temp.file();
        {
            // A file as schema 7 wrote it: jobs without kinds, one queued.
            let store = SqliteStore::open(&path).unwrap();
            store
                .lock()
                .execute_batch(
                    "ALTER TABLE jobs DROP COLUMN kind; ALTER TABLE jobs DROP COLUMN seconds;
                     ALTER TABLE jobs DROP COLUMN answer; ALTER TABLE jobs DROP COLUMN lines;
                     UPDATE koma_schema SET version = 7;
                     INSERT INTO jobs VALUES ('00ff', '00000000000000aa', 'shogi', 'startpos',
                       '7g7f', 100, 'queued', NULL, NULL, 0, 0, NULL, 1);",
                )
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let version: i64 = store
            .lock()
            .query_row("SELECT version FROM koma_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let queue = store.job_queue().unwrap();
        let lease = std::time::Duration::from_secs(60);
        assert_eq!(queue.take("test", lease, &[JobKind::Mate]).unwrap(), None);
        let taken = queue
            .take("test", lease, &[JobKind::Review])
            .unwrap()
            .unwrap();
        assert_eq!(taken.id, "00ff");
        assert_eq!((taken.spec.kind, taken.spec.total()), (JobKind::Review, 2));
    }

    #[test]
    fn the_jobs_of_a_file_of_schema_8_keep_their_kinds_and_ask_for_no_lines() {
        let temp = Temp::new("migrate-8");
        let path = temp.file();
        {
            // A file as schema 8 wrote it: a mate search queued.
            let store = SqliteStore::open(&path).unwrap();
            store
                .lock()
                .execute_batch(
                    "ALTER TABLE jobs DROP COLUMN lines; UPDATE koma_schema SET version = 8;
                     INSERT INTO jobs VALUES ('00ee', '00000000000000aa', 'shogi', 'startpos',
                       '', 0, 'queued', NULL, NULL, 0, 0, NULL, 1, 'mate', 5, NULL);",
                )
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let version: i64 = store
            .lock()
            .query_row("SELECT version FROM koma_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let queue = store.job_queue().unwrap();
        let lease = std::time::Duration::from_secs(60);
        assert_eq!(
            queue.take("test", lease, &[JobKind::Analysis]).unwrap(),
            None
        );
        let taken = queue
            .take("test", lease, &[JobKind::Mate])
            .unwrap()
            .unwrap();
        assert_eq!(taken.id, "00ee");
        assert_eq!((taken.spec.seconds, taken.spec.lines), (5, 0));
    }

    #[test]
    fn a_file_of_schema_5_keeps_its_checksums_and_gets_rematches() {
        let temp = Temp::new("migrate-5");
        let path = temp.file();
        let mut old = game(5);
        old.rematch = None;
        {
            // A file as schema 5 wrote it: no rematch column.
            let store = SqliteStore::open(&path).unwrap();
            store.insert(old.clone()).unwrap();
            store
                .lock()
                .execute_batch(
                    "ALTER TABLE games DROP COLUMN rematch; DROP TABLE jobs; \
                     UPDATE koma_schema SET version = 5;",
                )
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.get(old.id).unwrap(), old, "its checksum still holds");
        let version: i64 = store
            .lock()
            .query_row("SELECT version FROM koma_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let made: GameId = "00000000000000ee".parse().unwrap();
        store
            .update(old.id, &mut |game| {
                game.rematch = Some(Rematch {
                    game: Some(made),
                    ..Rematch::default()
                });
                Ok(())
            })
            .unwrap();
        let back = store.get(old.id).unwrap().rematch.unwrap();
        assert_eq!(back.game, Some(made));
    }

    #[test]
    fn a_damaged_row_is_an_error_not_a_panic() {
        let temp = Temp::new("row");
        let store = SqliteStore::open(&temp.file()).unwrap();
        store.insert(game(1)).unwrap();
        store
            .lock()
            .execute("UPDATE games SET headers = '{oops', variant = 'go'", [])
            .unwrap();
        let Err(StoreError::Failed(message)) = store.get(game(1).id) else {
            panic!("a damaged row was read");
        };
        assert!(message.contains("damaged"), "{message}");
    }
}
