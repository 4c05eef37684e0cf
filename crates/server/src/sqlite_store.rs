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
//! review, and when it was created and last changed. The `koma_schema`
//! table holds the schema's version for migrations (a file of schema 1,
//! from before seats and clocks, of schema 2, from before impasse rules,
//! or of schema 3, from before notes and reviews, is brought to 4 when
//! opened), and the file's
//! `application_id` says that it is Koma's, so that a foreign database is
//! refused rather than written into.

use super::clock::now_ms;
use super::store::{Change, GameId, GameStore, StoreError, StoredGame};
use super::store_row::{Row, COLUMNS};
use rusqlite::{params, Connection, ErrorCode, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// `PRAGMA application_id` of a Koma games file: "KOMA" in ASCII.
const APPLICATION_ID: i32 = 0x4b4f_4d41;

/// The version of [`SCHEMA`]; raised, with a migration, at every change.
const SCHEMA_VERSION: i64 = 4;

/// How long a change waits for another process holding the file's write
/// lock before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The tables of a new file.
const SCHEMA: &str = "
CREATE TABLE koma_schema (
    -- The version of this schema: 4.
    version INTEGER NOT NULL
) STRICT;
CREATE TABLE games (
    -- 16 lower-case hex digits.
    id TEXT PRIMARY KEY NOT NULL,
    -- spear, minishogi, shogi or pawns.
    variant TEXT NOT NULL,
    -- The start position, SFEN or FEN.
    start TEXT NOT NULL,
    -- The moves in USI/UCI, separated by single spaces ('' for none).
    moves TEXT NOT NULL,
    -- An ending the position does not show (a resignation): the winner's
    -- side (NULL for a draw) and the reason's word; reason NULL for none.
    declared_winner TEXT,
    declared_reason TEXT,
    -- Player names and the like, as JSON.
    headers TEXT NOT NULL,
    -- Who plays the other side, as JSON.
    opponent TEXT NOT NULL,
    -- Counts the changes.
    version INTEGER NOT NULL,
    -- Milliseconds since 1970-01-01 UTC.
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- Schema 2. The seats' secret tokens as JSON, first and second
    -- (null for the computer's side); NULL for games of schema 1, which
    -- anyone may change.
    seats TEXT,
    -- 'local' (one page holds the seats) or 'shared' (seat links).
    mode TEXT NOT NULL DEFAULT 'local',
    -- The side that asked to take a move back, unanswered; NULL for none.
    takeback TEXT,
    -- The clocks as JSON (control, main time left, running since); NULL
    -- for an untimed game.
    clock TEXT,
    -- Schema 3. A shogi game's impasse rule, '27' or '24'; NULL in the
    -- other games, and in shogi games of schema 2 (judged by 27 points).
    impasse TEXT,
    -- Schema 4. The comments and move times of the record the game was
    -- imported from, as JSON; NULL for none.
    notes TEXT,
    -- The engine's review of the moves, as JSON; NULL for none.
    review TEXT
) STRICT;
";

/// Brings a file of schema 1 to schema 2: its games keep no seats (anyone
/// may go on changing them, as before) and no clocks.
const MIGRATE_1_TO_2: &str = "
ALTER TABLE games ADD COLUMN seats TEXT;
ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'local';
ALTER TABLE games ADD COLUMN takeback TEXT;
ALTER TABLE games ADD COLUMN clock TEXT;
UPDATE koma_schema SET version = 2;
";

/// Brings a file of schema 2 to schema 3: its shogi games keep the
/// 27-point impasse rule they were played under.
const MIGRATE_2_TO_3: &str = "
ALTER TABLE games ADD COLUMN impasse TEXT;
UPDATE koma_schema SET version = 3;
";

/// Brings a file of schema 3 to schema 4: its games have no record notes
/// and no review.
const MIGRATE_3_TO_4: &str = "
ALTER TABLE games ADD COLUMN notes TEXT;
ALTER TABLE games ADD COLUMN review TEXT;
UPDATE koma_schema SET version = 4;
";

/// Games in a SQLite file.
pub struct SqliteStore {
    connection: Mutex<Connection>,
}

/// A sentence about a database error.
fn failed(error: rusqlite::Error) -> StoreError {
    StoreError::Failed(format!("The games database failed: {error}."))
}

/// Reads game `id` inside `connection` (a transaction or not).
fn read_game(connection: &Connection, id: GameId) -> Result<StoredGame, StoreError> {
    let text = id.to_string();
    let row = connection
        .query_row(
            &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
            [&text],
            |row| {
                Ok(Row {
                    id: row.get(0)?,
                    variant: row.get(1)?,
                    start: row.get(2)?,
                    moves: row.get(3)?,
                    declared_winner: row.get(4)?,
                    declared_reason: row.get(5)?,
                    headers: row.get(6)?,
                    opponent: row.get(7)?,
                    version: row.get(8)?,
                    seats: row.get(9)?,
                    mode: row.get(10)?,
                    takeback: row.get(11)?,
                    clock: row.get(12)?,
                    impasse: row.get(13)?,
                    notes: row.get(14)?,
                    review: row.get(15)?,
                })
            },
        )
        .optional()
        .map_err(failed)?
        .ok_or(StoreError::NotFound)?;
    row.into_stored(id)
}

impl SqliteStore {
    /// Opens (or creates) the games file at `path`, creating its folder.
    /// A file that is not a database, another program's database or one
    /// from a newer Koma is refused with a sentence saying so.
    pub fn open(path: &Path) -> Result<SqliteStore, String> {
        let shown = path.display();
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create the folder {}: {e}", folder.display()))?;
        }
        if path.is_dir() {
            return Err(format!("{shown} is a folder, not a games database"));
        }
        let mut connection = Connection::open(path)
            .map_err(|e| format!("cannot open the games database {shown}: {e}"))?;
        Self::prepare_waiting(&mut connection).map_err(|e| match e {
            Prepare::Sqlite(error)
                if matches!(
                    error.sqlite_error_code(),
                    Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
                ) =>
            {
                format!(
                    "{shown} is not a Koma games database, or it is damaged ({error}); \
                     move it away or choose another file with --db"
                )
            }
            Prepare::Sqlite(error) => {
                format!("cannot use the games database {shown}: {error}")
            }
            Prepare::Refused(why) => format!("{shown} {why}"),
        })?;
        Ok(SqliteStore {
            connection: Mutex::new(connection),
        })
    }

    /// [`SqliteStore::prepare`], tried again while another process holds
    /// the file, until [`BUSY_TIMEOUT`] has passed since the first try (a
    /// try that began just before then may still spend SQLite's own wait
    /// of that length, so the whole can approach twice it). SQLite's own
    /// wait does not cover every case here: two processes opening a new
    /// file at once both read it, then both want it alone to put it in WAL
    /// mode, and SQLite answers "database is locked" at once rather than
    /// let them wait for each other for ever. Trying again after the other
    /// is done finds the file ready.
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

    /// Checks the file, sets it up and creates the tables of a new one.
    fn prepare(connection: &mut Connection) -> Result<(), Prepare> {
        connection.busy_timeout(BUSY_TIMEOUT)?;
        // Read first, so that a foreign file is refused before anything
        // (even the journal mode) is written into it. A file that is not
        // SQLite at all fails here.
        let tables: i64 =
            connection.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        let application: i32 = connection.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        if tables > 0 && application != APPLICATION_ID {
            return Err(Prepare::Refused(
                "is another program's database, not Koma's games; choose another file with --db"
                    .into(),
            ));
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
            transaction.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        if tables == 0 {
            transaction.pragma_update(None, "application_id", APPLICATION_ID)?;
            transaction.execute_batch(SCHEMA)?;
            transaction.execute(
                "INSERT INTO koma_schema (version) VALUES (?1)",
                [SCHEMA_VERSION],
            )?;
        } else {
            let version: Option<i64> = transaction
                .query_row("SELECT max(version) FROM koma_schema", [], |r| r.get(0))
                .map_err(|_| Prepare::Refused("is damaged: it has no schema version".to_owned()))?;
            match version {
                Some(SCHEMA_VERSION) => {}
                Some(1) => {
                    transaction.execute_batch(MIGRATE_1_TO_2)?;
                    transaction.execute_batch(MIGRATE_2_TO_3)?;
                    transaction.execute_batch(MIGRATE_3_TO_4)?;
                }
                Some(2) => {
                    transaction.execute_batch(MIGRATE_2_TO_3)?;
                    transaction.execute_batch(MIGRATE_3_TO_4)?;
                }
                Some(3) => transaction.execute_batch(MIGRATE_3_TO_4)?,
                Some(newer) if newer > SCHEMA_VERSION => {
                    return Err(Prepare::Refused(format!(
                        "was written by a newer Koma (schema version {newer}; this one knows \
                         version {SCHEMA_VERSION}): update Koma"
                    )))
                }
                _ => {
                    return Err(Prepare::Refused(format!(
                        "is damaged: its schema version is {version:?}"
                    )))
                }
            }
        }
        transaction.commit()?;
        // Damaged pages are found now rather than in the middle of a game.
        let check: String = connection.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
        if check != "ok" {
            return Err(Prepare::Refused(format!(
                "is damaged ({check}); move it away or choose another file with --db"
            )));
        }
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock rolled its transaction back (the
        // transaction's drop does), so the connection is sound.
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes `row`: a new game (replacing any with its id, as in memory)
    /// when `new`, else the changes to the existing one.
    fn write(connection: &Connection, row: &Row, new: bool) -> rusqlite::Result<usize> {
        let sql = if new {
            "INSERT OR REPLACE INTO games (id, variant, start, moves, declared_winner, \
             declared_reason, headers, opponent, version, created_at, updated_at, seats, mode, \
             takeback, clock, impasse, notes, review) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?14, ?15, \
             ?16, ?17)"
        } else {
            "UPDATE games SET variant = ?2, start = ?3, moves = ?4, declared_winner = ?5, \
             declared_reason = ?6, headers = ?7, opponent = ?8, version = ?9, \
             updated_at = ?10, seats = ?11, mode = ?12, takeback = ?13, clock = ?14, \
             impasse = ?15, notes = ?16, review = ?17 \
             WHERE id = ?1"
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
                now_ms(),
                row.seats,
                row.mode,
                row.takeback,
                row.clock,
                row.impasse,
                row.notes,
                row.review
            ],
        )
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
        let row = Row::from_game(&game)?;
        let connection = self.lock();
        Self::write(&connection, &row, true).map_err(failed)?;
        Ok(())
    }

    fn get(&self, id: GameId) -> Result<StoredGame, StoreError> {
        read_game(&self.lock(), id)
    }

    fn update(&self, id: GameId, change: Change<'_>) -> Result<StoredGame, StoreError> {
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        let mut game = read_game(&transaction, id)?;
        // A refusal returns here, and the transaction's drop rolls back.
        change(&mut game).map_err(StoreError::Refused)?;
        let row = Row::from_game(&game)?;
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
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::names::Opponent;
    use crate::record_notes::{MoveNote, RecordNotes};
    use crate::refusal::Refusal;
    use crate::review_kept::{KeptEvaluation, StoredJudgement, StoredReview};
    use crate::seats::{Mode, Seats, Token};
    use crate::state::HeadersView;
    use crate::store::Declared;
    use koma_rules::Variant;

    struct Temp(PathBuf);

    impl Temp {
        fn new(name: &str) -> Temp {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).unwrap();
            let dir = std::env::temp_dir()
                .join(format!("koma-sqlite-{name}-{}", u64::from_le_bytes(bytes)));
            std::fs::create_dir_all(&dir).unwrap();
            Temp(dir)
        }

        fn file(&self) -> PathBuf {
            self.0.join("games.sqlite3")
        }
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

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
                level: crate::names::Level::Strength(7),
                color: "gote".into(),
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
                control: crate::clock::TimeControl {
                    initial_ms: 300_000,
                    increment_ms: 0,
                    byoyomi_ms: 10_000,
                },
                main_ms: [299_000, 12],
                running_since: Some(1_790_000_000_000),
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
        let error = SqliteStore::open(&temp.0).err().unwrap();
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
    fn a_file_of_schema_1_is_brought_to_schema_4_and_its_games_kept() {
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
        assert_eq!(version, 4);
    }

    #[test]
    fn a_file_of_schema_2_is_brought_to_schema_4_with_the_27_point_rule() {
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
        assert_eq!(version, 4);
    }

    #[test]
    fn a_file_of_schema_3_is_brought_to_schema_4_without_notes_or_reviews() {
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
        assert_eq!(version, 4);
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
