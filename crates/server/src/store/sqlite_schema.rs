//! The layout of a games file: its tables, how an older one is brought up
//! to date, and the checks that refuse a file that is not what Koma wrote
//! (issue 53): one that fails SQLite's integrity check, or whose tables or
//! columns are not Koma's. Shared by `koma serve` ([`crate::store::sqlite_store`])
//! and `koma check` ([`crate::store::sqlite_check`]).

use super::store_row::{Row, COLUMNS};
use rusqlite::{params, Connection, OptionalExtension};

/// `PRAGMA application_id` of a Koma games file: "KOMA" in ASCII.
pub const APPLICATION_ID: i32 = 0x4b4f_4d41;

/// The version of [`SCHEMA`]; raised, with a migration, at every change.
pub const SCHEMA_VERSION: i64 = 9;

/// The workers' jobs (schema 7, `--worker-keys`): one row a game review
/// queued for the workers, taken under a lease (`crates/server/src/workers/`).
macro_rules! jobs_table {
    () => {
        "
CREATE TABLE jobs (
    -- 32 lower-case hex digits.
    id TEXT PRIMARY KEY NOT NULL,
    -- The game reviewed, its variant, start position and moves (USI/UCI,
    -- separated by single spaces), and the nodes per position.
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    moves TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    -- queued, leased, saving, done, failed or cancelled.
    state TEXT NOT NULL,
    -- The live lease's secret and its worker; NULL when none.
    lease TEXT,
    worker TEXT,
    -- Milliseconds since 1970-01-01 UTC: when the lease runs out, or when
    -- a finished job is forgotten.
    due INTEGER NOT NULL,
    -- Positions judged, as last reported.
    done INTEGER NOT NULL,
    -- Why it failed; NULL for none.
    error TEXT,
    created_at INTEGER NOT NULL
) STRICT;
"
    };
}

/// What schema 8 adds to the jobs: their kind (`review`, or `mate` for
/// a mate search; a row of schema 7 is a review), a mate search's
/// seconds, and its answer once done (JSON).
macro_rules! jobs_8 {
    () => {
        "
ALTER TABLE jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'review';
ALTER TABLE jobs ADD COLUMN seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN answer TEXT;
"
    };
}

/// What schema 9 adds to the jobs: the best lines an analysis reports
/// (MultiPV; 0 for the other kinds).
macro_rules! jobs_9 {
    () => {
        "
ALTER TABLE jobs ADD COLUMN lines INTEGER NOT NULL DEFAULT 0;
"
    };
}

/// The tables of a new file.
pub const SCHEMA: &str = concat!(
    "
CREATE TABLE koma_schema (
    -- The version of this schema: 9.
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
    review TEXT,
    -- Schema 5. SHA-256 of the other columns, 64 hex digits (see
    -- store_row.rs); NULL only for a row that could not be read as a game
    -- when schema 4 was brought to 5, which stays damaged.
    checksum TEXT,
    rematch TEXT
    -- Schema 6, rematch: the rematch of a finished game as JSON (the
    -- offer, its answer, the id of the new game); NULL for none.
) STRICT;
",
    jobs_table!(),
    jobs_8!(),
    jobs_9!()
);

/// Brings a file of schema 1 to schema 2: its games keep no seats (anyone
/// may go on changing them, as before) and no clocks.
pub const MIGRATE_1_TO_2: &str = "
ALTER TABLE games ADD COLUMN seats TEXT;
ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'local';
ALTER TABLE games ADD COLUMN takeback TEXT;
ALTER TABLE games ADD COLUMN clock TEXT;
UPDATE koma_schema SET version = 2;
";

/// Brings a file of schema 2 to schema 3: its shogi games keep the
/// 27-point impasse rule they were played under.
pub const MIGRATE_2_TO_3: &str = "
ALTER TABLE games ADD COLUMN impasse TEXT;
UPDATE koma_schema SET version = 3;
";

/// Brings a file of schema 3 to schema 4: its games have no record notes
/// and no review.
pub const MIGRATE_3_TO_4: &str = "
ALTER TABLE games ADD COLUMN notes TEXT;
ALTER TABLE games ADD COLUMN review TEXT;
UPDATE koma_schema SET version = 4;
";

/// Brings a file of schema 4 to schema 5, with [`add_checksums`]: each
/// game gets the checksum of its row.
const MIGRATE_4_TO_5: &str = "
ALTER TABLE games ADD COLUMN checksum TEXT;
UPDATE koma_schema SET version = 5;
";

/// Brings a file of schema 5 to schema 6: its games have no rematch.
const MIGRATE_5_TO_6: &str = "
ALTER TABLE games ADD COLUMN rematch TEXT;
UPDATE koma_schema SET version = 6;
";

/// Brings a file of schema 6 to schema 7: it gets the workers' jobs.
const MIGRATE_6_TO_7: &str = concat!(jobs_table!(), "UPDATE koma_schema SET version = 7;\n");

/// Brings a file of schema 7 to schema 8: its jobs, all reviews, get a
/// kind, and room for a mate search's seconds and answer.
const MIGRATE_7_TO_8: &str = concat!(jobs_8!(), "UPDATE koma_schema SET version = 8;\n");

/// Brings a file of schema 8 to schema 9: its jobs, none an analysis, get
/// room for an analysis's lines.
const MIGRATE_8_TO_9: &str = concat!(jobs_9!(), "UPDATE koma_schema SET version = 9;\n");

/// The columns of the `jobs` table (schema 7; schema 8 adds [`JOBS_8`]),
/// in order.
const JOBS: [&str; 13] = [
    "id",
    "game",
    "variant",
    "start",
    "moves",
    "nodes",
    "state",
    "lease",
    "worker",
    "due",
    "done",
    "error",
    "created_at",
];

/// The columns schema 8 adds to `jobs`, after [`JOBS`].
const JOBS_8: [&str; 3] = ["kind", "seconds", "answer"];

/// The column schema 9 adds to `jobs`, after [`JOBS_8`].
const JOBS_9: [&str; 1] = ["lines"];

/// A column of the `games` table as `PRAGMA table_info` shows it.
struct Column {
    name: &'static str,
    /// `TEXT` or `INTEGER`.
    kind: &'static str,
    not_null: bool,
    /// The schema that added it.
    since: i64,
}

const fn column(name: &'static str, kind: &'static str, not_null: bool, since: i64) -> Column {
    Column {
        name,
        kind,
        not_null,
        since,
    }
}

/// The columns of `games`, in the order a file of each schema has them
/// (each migration adds its columns at the end). `id` is the primary key.
const GAMES: [Column; 20] = [
    column("id", "TEXT", true, 1),
    column("variant", "TEXT", true, 1),
    column("start", "TEXT", true, 1),
    column("moves", "TEXT", true, 1),
    column("declared_winner", "TEXT", false, 1),
    column("declared_reason", "TEXT", false, 1),
    column("headers", "TEXT", true, 1),
    column("opponent", "TEXT", true, 1),
    column("version", "INTEGER", true, 1),
    column("created_at", "INTEGER", true, 1),
    column("updated_at", "INTEGER", true, 1),
    column("seats", "TEXT", false, 2),
    column("mode", "TEXT", true, 2),
    column("takeback", "TEXT", false, 2),
    column("clock", "TEXT", false, 2),
    column("impasse", "TEXT", false, 3),
    column("notes", "TEXT", false, 4),
    column("review", "TEXT", false, 4),
    column("checksum", "TEXT", false, 5),
    column("rematch", "TEXT", false, 6),
];

/// What SQLite's `PRAGMA integrity_check` found: nothing when the file
/// is whole, else up to `limit` problems in its words.
pub fn integrity_problems(connection: &Connection, limit: u32) -> rusqlite::Result<Vec<String>> {
    let mut statement = connection.prepare(&format!("PRAGMA integrity_check({limit})"))?;
    let lines = statement
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(lines.into_iter().filter(|line| line != "ok").collect())
}

/// The schema version a Koma file holds, or what is wrong with its
/// `koma_schema` table (the end of a sentence that starts with the file).
pub fn schema_version(connection: &Connection) -> Result<i64, String> {
    let versions: Vec<i64> = connection
        .prepare("SELECT version FROM koma_schema")
        .and_then(|mut statement| {
            statement
                .query_map([], |row| row.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()
        })
        .map_err(|e| format!("has no readable schema version ({e})"))?;
    match versions.as_slice() {
        [version] if (1..=SCHEMA_VERSION).contains(version) => Ok(*version),
        [version] if *version > SCHEMA_VERSION => Err(format!(
            "was written by a newer Koma (schema version {version}; this one knows version \
             {SCHEMA_VERSION}): update Koma"
        )),
        [version] => Err(format!("is damaged: its schema version is {version}")),
        [] => Err("is damaged: its table koma_schema holds no schema version".into()),
        many => Err(format!(
            "is damaged: its table koma_schema holds {} schema versions, not one",
            many.len()
        )),
    }
}

/// Checks that the file holds Koma's tables of schema `version` and no
/// others: `koma_schema`, and `games` with exactly the columns of that
/// schema (names, types, NOT NULL, the key), both STRICT. Indexes that
/// someone added are let be (they change no data); other tables, views
/// and triggers are not. The error is the end of a sentence that starts
/// with the file's name.
pub fn check_layout(connection: &Connection, version: i64) -> Result<(), String> {
    let not_koma =
        |what: String| format!("does not hold Koma's tables of schema {version}: {what}");
    let sql = |e: rusqlite::Error| not_koma(format!("its tables cannot be read ({e})"));
    let objects: Vec<(String, String, String)> = connection
        .prepare(
            "SELECT type, name, tbl_name FROM sqlite_schema \
             WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
        .and_then(|mut statement| {
            statement
                .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
                .collect()
        })
        .map_err(sql)?;
    let tables: &[&str] = if version >= 7 {
        &["koma_schema", "games", "jobs"]
    } else {
        &["koma_schema", "games"]
    };
    for (kind, name, table) in &objects {
        let ours = match kind.as_str() {
            "table" => tables.contains(&name.as_str()),
            "index" => tables.contains(&table.as_str()),
            _ => false,
        };
        if !ours {
            return Err(not_koma(format!(
                "it has a {kind} {name} that is not Koma's"
            )));
        }
    }
    for &table in tables {
        if !objects.iter().any(|(k, n, _)| k == "table" && n == table) {
            return Err(not_koma(format!("it has no table {table}")));
        }
        let strict: Option<bool> = connection
            .query_row(
                "SELECT strict FROM pragma_table_list WHERE name = ?1 AND schema = 'main'",
                [table],
                |row| row.get(0),
            )
            .optional()
            .map_err(sql)?;
        if strict != Some(true) {
            return Err(not_koma(format!("its table {table} is not STRICT")));
        }
    }
    let schema_columns = read_columns(connection, "koma_schema").map_err(sql)?;
    if schema_columns != [("version".to_owned(), "INTEGER".to_owned(), true, false)] {
        return Err(not_koma(
            "its table koma_schema has other columns than version INTEGER NOT NULL".into(),
        ));
    }
    if version >= 7 {
        let names: Vec<String> = read_columns(connection, "jobs")
            .map_err(sql)?
            .into_iter()
            .map(|(name, ..)| name)
            .collect();
        let mut wanted: Vec<&str> = JOBS.to_vec();
        if version >= 8 {
            wanted.extend(JOBS_8);
        }
        if version >= 9 {
            wanted.extend(JOBS_9);
        }
        if names != wanted {
            return Err(not_koma(format!(
                "its table jobs has the columns {}, not {}",
                names.join(", "),
                wanted.join(", ")
            )));
        }
    }
    let found = read_columns(connection, "games").map_err(sql)?;
    let expected: Vec<&Column> = GAMES.iter().filter(|c| c.since <= version).collect();
    for column in &expected {
        let Some((_, kind, not_null, key)) = found.iter().find(|(n, ..)| n == column.name) else {
            return Err(not_koma(format!(
                "its table games has no column {}",
                column.name
            )));
        };
        let wanted_key = column.name == "id";
        if !kind.eq_ignore_ascii_case(column.kind)
            || *not_null != column.not_null
            || *key != wanted_key
        {
            let describe = |kind: &str, not_null: bool, key: bool| {
                format!(
                    "{kind}{}{}",
                    if key { " PRIMARY KEY" } else { "" },
                    if not_null { " NOT NULL" } else { "" }
                )
            };
            return Err(not_koma(format!(
                "the column games.{} is {}, not {}",
                column.name,
                describe(kind, *not_null, *key),
                describe(column.kind, column.not_null, wanted_key)
            )));
        }
    }
    if let Some((name, ..)) = found
        .iter()
        .find(|(n, ..)| !expected.iter().any(|c| c.name == n))
    {
        return Err(not_koma(format!(
            "its table games has a column {name} that is not Koma's"
        )));
    }
    Ok(())
}

/// The columns of `table`: name, declared type, NOT NULL and whether it
/// is (part of) the primary key.
fn read_columns(
    connection: &Connection,
    table: &str,
) -> rusqlite::Result<Vec<(String, String, bool, bool)>> {
    let mut statement = connection.prepare(
        "SELECT name, type, \"notnull\", pk > 0 FROM pragma_table_info(?1) ORDER BY cid",
    )?;
    let columns = statement
        .query_map([table], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect();
    columns
}

/// Brings a file of schema `from` (checked by [`check_layout`]) to
/// [`SCHEMA_VERSION`], inside the caller's transaction.
pub fn migrate(connection: &Connection, from: i64) -> rusqlite::Result<()> {
    if from < 2 {
        connection.execute_batch(MIGRATE_1_TO_2)?;
    }
    if from < 3 {
        connection.execute_batch(MIGRATE_2_TO_3)?;
    }
    if from < 4 {
        connection.execute_batch(MIGRATE_3_TO_4)?;
    }
    if from < 5 {
        connection.execute_batch(MIGRATE_4_TO_5)?;
    }
    if from < 6 {
        connection.execute_batch(MIGRATE_5_TO_6)?;
    }
    if from < 7 {
        connection.execute_batch(MIGRATE_6_TO_7)?;
    }
    if from < 8 {
        connection.execute_batch(MIGRATE_7_TO_8)?;
    }
    if from < 9 {
        connection.execute_batch(MIGRATE_8_TO_9)?;
    }
    // With every column in place, as `add_checksums` reads them all.
    if from < 5 {
        add_checksums(connection)?;
    }
    Ok(())
}

/// Writes the checksum of every row that has none and reads as a game
/// (schema 4 to 5); a row that does not keeps none, so that it is
/// reported as damaged rather than blessed. Returns how many got one.
pub fn add_checksums(connection: &Connection) -> rusqlite::Result<usize> {
    // Read first, written after: changing rows while a statement walks
    // their table could make it visit one twice.
    let mut sums = Vec::new();
    {
        let mut statement = connection.prepare(&format!(
            "SELECT rowid, {COLUMNS} FROM games WHERE checksum IS NULL"
        ))?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let rowid: i64 = row.get(0)?;
            // A column of the wrong type is not a game: it keeps no checksum.
            let Ok((game, _)) = read_row(row, 1) else {
                continue;
            };
            let sum = game.checksum();
            if game.into_game().is_ok() {
                sums.push((rowid, sum));
            }
        }
    }
    let mut update = connection.prepare("UPDATE games SET checksum = ?2 WHERE rowid = ?1")?;
    for (rowid, sum) in &sums {
        update.execute(params![rowid, sum])?;
    }
    Ok(sums.len())
}

/// The game's columns and its checksum from `row`, which holds
/// [`COLUMNS`] from its column `first` on.
pub fn read_row(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<(Row, Option<String>)> {
    let at = |i: usize| first + i;
    Ok((
        Row {
            id: row.get(at(0))?,
            variant: row.get(at(1))?,
            start: row.get(at(2))?,
            moves: row.get(at(3))?,
            declared_winner: row.get(at(4))?,
            declared_reason: row.get(at(5))?,
            headers: row.get(at(6))?,
            opponent: row.get(at(7))?,
            version: row.get(at(8))?,
            seats: row.get(at(9))?,
            mode: row.get(at(10))?,
            takeback: row.get(at(11))?,
            clock: row.get(at(12))?,
            impasse: row.get(at(13))?,
            notes: row.get(at(14))?,
            review: row.get(at(15))?,
            rematch: row.get(at(19))?,
            created_at: row.get(at(16))?,
            updated_at: row.get(at(17))?,
        },
        row.get(at(18))?,
    ))
}

/// Whether `error`, met reading a row, means that the row's bytes are
/// damaged (a value of another type than its column's, text that is not
/// UTF-8, a malformed page) rather than that the database failed.
pub fn is_damage(error: &rusqlite::Error) -> bool {
    use rusqlite::Error;
    match error {
        Error::InvalidColumnType(..)
        | Error::FromSqlConversionFailure(..)
        | Error::Utf8Error(..)
        | Error::IntegralValueOutOfRange(..) => true,
        Error::SqliteFailure(..) => {
            error.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseCorrupt)
        }
        _ => false,
    }
}
