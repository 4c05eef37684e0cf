//! Games in PostgreSQL (`koma serve --db postgres://…`), so that several
//! servers can share them (issue 7).
//!
//! The rows are those of the SQLite file (see [`crate::store::store_row`]), in a
//! table named `koma_games` so as not to collide with other programs'
//! tables in the same database, beside `koma_schema` (the schema's
//! version). A database of schema 2 (before impasse rules), 3 (before
//! record notes and reviews), 4 (before row checksums), 5 (before
//! rematches), 6 (before the workers' jobs, `koma_jobs`), 7 (before mate
//! search jobs) or 8 (before analysis jobs) is brought to schema 9. A database holding a newer
//! schema, or tables of those names that are not Koma's, is refused
//! rather than written into.
//!
//! Each row's checksum is compared at every read, as in the SQLite file:
//! a damaged game answers 500 ("The game … is damaged in the games
//! database") and the others go on being served.
//!
//! Every change is one transaction: `SELECT … FOR UPDATE` locks the row (a
//! change through another server waits up to 10 s), the change is applied,
//! the row written and `pg_notify('koma_games', '<id> <version>')` sent,
//! then it commits before the change is acknowledged (with
//! `synchronous_commit = on`, which each connection sets, the commit is on
//! the server's disk). A refusal rolls back. PostgreSQL delivers the
//! notification at the commit to every server that listens
//! ([`GameStore::listen`]), which tells its WebSocket watchers.
//!
//! The connection's password is never shown: the database is named by
//! `Target::shown`, and every message passes through `Target::redact` (in
//! [`crate::store::postgres_pool`]).
//!
//! The store's calls are synchronous, as the SQLite store's, and made on
//! tokio's blocking threads: each waits there for the future that does the
//! work on tokio-postgres's connections, which run as tasks on the
//! server's runtime (pooled by deadpool-postgres). Its statements are
//! prepared once per connection (the pool's statement cache).

use super::postgres_listen::Listener;
use super::postgres_pool::{self, describe, describe_pool, Pool, Target, CONNECT_TIMEOUT};
use super::store_row::{Row, COLUMNS};
use super::{Change, GameId, GameStore, Notify, StoreError, StoredGame};
use crate::games::clock::now_ms;
use crate::workers::postgres_jobs::PostgresJobs;
use crate::workers::queue::JobQueue;
use deadpool_postgres::{ClientWrapper, GenericClient, Object};
use std::sync::Mutex;
use tokio::runtime::Handle;
use tokio::task::AbortHandle;

/// The version of [`SCHEMA`], as in the SQLite file.
const SCHEMA_VERSION: i64 = 9;

/// The key of the advisory lock taken while the schema is checked or
/// created, so that servers starting at once do not both create it: "KOMA".
const SCHEMA_LOCK: i64 = 0x4b4f_4d41;

/// The workers' jobs (schema 7): the columns of the SQLite file's `jobs`
/// (`crates/server/src/workers/postgres_jobs.rs` uses them).
macro_rules! jobs_table {
    () => {
        "
CREATE TABLE koma_jobs (
    id TEXT PRIMARY KEY NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    moves TEXT NOT NULL,
    nodes BIGINT NOT NULL,
    state TEXT NOT NULL,
    lease TEXT,
    worker TEXT,
    due BIGINT NOT NULL,
    done BIGINT NOT NULL,
    error TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX koma_jobs_waiting ON koma_jobs (created_at, id) WHERE state IN ('queued', 'leased');
COMMENT ON TABLE koma_jobs IS 'Game reviews queued for Koma''s workers (koma serve --worker-keys).';
"
    };
}

/// What schema 8 adds to the jobs, as in the SQLite file: their kind
/// (`review` or `mate`; a row of schema 7 is a review), a mate search's
/// seconds and its answer.
macro_rules! jobs_8 {
    () => {
        "
ALTER TABLE koma_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'review';
ALTER TABLE koma_jobs ADD COLUMN seconds BIGINT NOT NULL DEFAULT 0;
ALTER TABLE koma_jobs ADD COLUMN answer TEXT;
COMMENT ON TABLE koma_jobs IS 'Game reviews and mate searches queued for Koma''s workers (koma serve --worker-keys).';
"
    };
}

/// What schema 9 adds to the jobs, as in the SQLite file: the best lines
/// an analysis reports (0 for the other kinds).
macro_rules! jobs_9 {
    () => {
        "
ALTER TABLE koma_jobs ADD COLUMN lines INTEGER NOT NULL DEFAULT 0;
COMMENT ON TABLE koma_jobs IS 'Game reviews, mate searches and analyses queued for Koma''s workers (koma serve --worker-keys).';
"
    };
}

/// The tables of a new database. JSON is kept as TEXT, as in the SQLite
/// file: `jsonb` would refuse the `\u0000` that a header may hold.
const SCHEMA: &str = concat!("
CREATE TABLE koma_schema (version BIGINT NOT NULL);
COMMENT ON TABLE koma_schema IS 'The version of the tables of Koma''s games (koma serve).';
CREATE TABLE koma_games (
    id TEXT PRIMARY KEY NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    moves TEXT NOT NULL,
    declared_winner TEXT,
    declared_reason TEXT,
    headers TEXT NOT NULL,
    opponent TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    seats TEXT,
    mode TEXT NOT NULL DEFAULT 'local',
    takeback TEXT,
    clock TEXT,
    impasse TEXT,
    notes TEXT,
    review TEXT,
    checksum TEXT,
    rematch TEXT
);
COMMENT ON TABLE koma_games IS 'The games of Koma (koma serve): one row per game, as in its SQLite file.';
",
    jobs_table!(),
    jobs_8!(),
    jobs_9!()
);

/// The columns `koma_games` must have, with their types, to be Koma's.
const EXPECTED: [(&str, &str); 20] = [
    ("id", "text"),
    ("variant", "text"),
    ("start", "text"),
    ("moves", "text"),
    ("declared_winner", "text"),
    ("declared_reason", "text"),
    ("headers", "text"),
    ("opponent", "text"),
    ("version", "bigint"),
    ("created_at", "bigint"),
    ("updated_at", "bigint"),
    ("seats", "text"),
    ("mode", "text"),
    ("takeback", "text"),
    ("clock", "text"),
    ("impasse", "text"),
    ("notes", "text"),
    ("review", "text"),
    ("checksum", "text"),
    ("rematch", "text"),
];

/// Brings a database of schema 2 to schema 3: its shogi games keep the
/// 27-point impasse rule they were played under (NULL).
const MIGRATE_2_TO_3: &str = "
ALTER TABLE koma_games ADD COLUMN impasse TEXT;
UPDATE koma_schema SET version = 3;
";

/// Brings a database of schema 3 to schema 4: its games have no record
/// notes and no review.
const MIGRATE_3_TO_4: &str = "
ALTER TABLE koma_games ADD COLUMN notes TEXT;
ALTER TABLE koma_games ADD COLUMN review TEXT;
UPDATE koma_schema SET version = 4;
";

/// Brings a database of schema 4 to schema 5, with [`add_checksums`]:
/// each game gets the checksum of its row.
const MIGRATE_4_TO_5: &str = "
ALTER TABLE koma_games ADD COLUMN checksum TEXT;
UPDATE koma_schema SET version = 5;
";

/// Brings a database of schema 5 to schema 6: its games have no rematch.
const MIGRATE_5_TO_6: &str = "
ALTER TABLE koma_games ADD COLUMN rematch TEXT;
UPDATE koma_schema SET version = 6;
";

/// Brings a database of schema 6 to schema 7: it gets the workers' jobs.
const MIGRATE_6_TO_7: &str = concat!(jobs_table!(), "UPDATE koma_schema SET version = 7;\n");

/// Brings a database of schema 7 to schema 8: its jobs, all reviews, get
/// a kind, and room for a mate search's seconds and answer.
const MIGRATE_7_TO_8: &str = concat!(jobs_8!(), "UPDATE koma_schema SET version = 8;\n");

/// Brings a database of schema 8 to schema 9: its jobs, none an
/// analysis, get room for an analysis's lines.
const MIGRATE_8_TO_9: &str = concat!(jobs_9!(), "UPDATE koma_schema SET version = 9;\n");

/// Writes a row with its checksum (a new game replaces any with its id,
/// as in memory) and notifies, in one statement.
const INSERT: &str = "
WITH written AS (
    INSERT INTO koma_games (id, variant, start, moves, declared_winner, declared_reason,
        headers, opponent, version, seats, mode, takeback, clock, impasse, notes, review,
        created_at, updated_at, checksum, rematch)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
        $19, $20)
    ON CONFLICT (id) DO UPDATE SET variant = EXCLUDED.variant, start = EXCLUDED.start,
        moves = EXCLUDED.moves, declared_winner = EXCLUDED.declared_winner,
        declared_reason = EXCLUDED.declared_reason, headers = EXCLUDED.headers,
        opponent = EXCLUDED.opponent, version = EXCLUDED.version,
        seats = EXCLUDED.seats, mode = EXCLUDED.mode, takeback = EXCLUDED.takeback,
        clock = EXCLUDED.clock, impasse = EXCLUDED.impasse, notes = EXCLUDED.notes,
        review = EXCLUDED.review, created_at = EXCLUDED.created_at,
        updated_at = EXCLUDED.updated_at, checksum = EXCLUDED.checksum,
        rematch = EXCLUDED.rematch
    RETURNING id, version)
SELECT pg_notify('koma_games', id || ' ' || version) FROM written";

/// Writes the changes to an existing row, with its new checksum, and
/// notifies, in one statement.
const UPDATE: &str = "
WITH written AS (
    UPDATE koma_games SET variant = $2, start = $3, moves = $4, declared_winner = $5,
        declared_reason = $6, headers = $7, opponent = $8, version = $9, seats = $10,
        mode = $11, takeback = $12, clock = $13, impasse = $14, notes = $15, review = $16,
        created_at = $17, updated_at = $18, checksum = $19, rematch = $20
    WHERE id = $1
    RETURNING id, version)
SELECT pg_notify('koma_games', id || ' ' || version) FROM written";

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    pool: Pool,
    /// The database.
    target: Target,
    /// The server's runtime, where the connections run.
    runtime: Handle,
    /// The tasks that listen, ended when the store is dropped.
    listening: Mutex<Vec<AbortHandle>>,
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://` or
    /// `postgresql://`), creating Koma's tables in it if it has none. A
    /// database that cannot be reached, holds a newer Koma's games or
    /// tables of those names that are not Koma's is refused with a
    /// sentence, which never quotes the password. The connections run on
    /// `runtime`; this waits for them, so it must not be called on one of
    /// its async threads.
    pub fn open(url: &str, runtime: Handle) -> Result<PostgresStore, String> {
        let target = Target::parse(url)?;
        let shown = target.shown.clone();
        let pool = target.pool()?;
        let prepared = runtime.block_on(async {
            let mut client = pool.get().await.map_err(|e| {
                format!(
                    "cannot reach the games database {shown}: {}",
                    target.redact(&describe_pool(&e))
                )
            })?;
            Ok::<_, String>(Self::prepare(&mut client).await)
        })?;
        match prepared {
            Ok(()) => Ok(PostgresStore {
                pool,
                target,
                runtime,
                listening: Mutex::new(Vec::new()),
            }),
            Err(Prepare::Postgres(error)) => Err(format!(
                "cannot use the games database {shown}: {}",
                target.redact(&describe(&error))
            )),
            Err(Prepare::Refused(why)) => Err(format!("the games database {shown} {why}")),
        }
    }

    /// Checks the tables, or creates them in a database that has none, in
    /// one transaction under an advisory lock.
    async fn prepare(client: &mut ClientWrapper) -> Result<(), Prepare> {
        let transaction = client.transaction().await?;
        transaction
            .execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
            .await?;
        let row = transaction
            .query_one(
                "SELECT to_regclass('koma_schema') IS NOT NULL, to_regclass('koma_games') IS NOT NULL",
                &[],
            )
            .await?;
        let (has_schema, has_games): (bool, bool) = (row.get(0), row.get(1));
        if !has_schema {
            if has_games {
                return Err(Prepare::Refused(
                    "has a table koma_games that is not Koma's (there is no koma_schema); \
                     choose another database"
                        .into(),
                ));
            }
            transaction.batch_execute(SCHEMA).await?;
            transaction
                .execute(
                    "INSERT INTO koma_schema (version) VALUES ($1)",
                    &[&SCHEMA_VERSION],
                )
                .await?;
            transaction.commit().await?;
            return Ok(());
        }
        let version: Option<i64> = transaction
            .query_one("SELECT max(version)::BIGINT FROM koma_schema", &[])
            .await
            .and_then(|row| row.try_get(0))
            .map_err(|_| {
                Prepare::Refused(
                    "has a table koma_schema that is not Koma's; choose another database".into(),
                )
            })?;
        match version {
            Some(SCHEMA_VERSION) => {}
            // Without koma_games, the check below says what is wrong.
            Some(older @ 2..=8) if has_games => {
                if older < 3 {
                    transaction.batch_execute(MIGRATE_2_TO_3).await?;
                }
                if older < 4 {
                    transaction.batch_execute(MIGRATE_3_TO_4).await?;
                }
                if older < 5 {
                    transaction.batch_execute(MIGRATE_4_TO_5).await?;
                }
                if older < 6 {
                    transaction.batch_execute(MIGRATE_5_TO_6).await?;
                }
                if older < 7 {
                    transaction.batch_execute(MIGRATE_6_TO_7).await?;
                }
                if older < 8 {
                    transaction.batch_execute(MIGRATE_7_TO_8).await?;
                }
                transaction.batch_execute(MIGRATE_8_TO_9).await?;
                // With every column in place, as it reads them all.
                if older < 5 {
                    add_checksums(&transaction).await?;
                }
            }
            Some(2..=8) => {}
            Some(newer) if newer > SCHEMA_VERSION => {
                return Err(Prepare::Refused(format!(
                    "was written by a newer Koma (schema version {newer}; this one knows \
                     version {SCHEMA_VERSION}): update Koma"
                )))
            }
            Some(older) => {
                return Err(Prepare::Refused(format!(
                    "is damaged: its schema version is {older}"
                )))
            }
            None => {
                return Err(Prepare::Refused(
                    "is damaged: its table koma_schema holds no version".into(),
                ))
            }
        }
        if !has_games {
            return Err(Prepare::Refused(
                "is damaged: it has a table koma_schema but no koma_games".into(),
            ));
        }
        let columns: Vec<(String, String)> = transaction
            .query(
                "SELECT attname::TEXT, format_type(atttypid, atttypmod) FROM pg_attribute \
                 WHERE attrelid = 'koma_games'::regclass AND attnum > 0 AND NOT attisdropped",
                &[],
            )
            .await?
            .iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect();
        let missing = EXPECTED
            .iter()
            .find(|(name, kind)| !columns.iter().any(|(n, k)| n == name && k == kind));
        if let Some((name, kind)) = missing {
            return Err(Prepare::Refused(format!(
                "has a table koma_games that is not Koma's (it has no column {name} of type \
                 {kind}); choose another database"
            )));
        }
        transaction.commit().await?;
        Ok(())
    }

    /// The database, as `postgres://user@host:port/dbname`.
    pub fn shown(&self) -> &str {
        &self.target.shown
    }
}

/// Why a database could not be prepared.
enum Prepare {
    Postgres(tokio_postgres::Error),
    /// The end of a sentence that starts with the database's name.
    Refused(String),
}

impl From<tokio_postgres::Error> for Prepare {
    fn from(error: tokio_postgres::Error) -> Prepare {
        Prepare::Postgres(error)
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        let listening = self.listening.get_mut().unwrap_or_else(|p| p.into_inner());
        for task in listening.drain(..) {
            task.abort();
        }
        self.pool.close();
    }
}

/// Why one attempt at a call failed.
enum Attempt {
    /// The database failed before anything was committed: tried again if
    /// it was because the connection was lost.
    Database(tokio_postgres::Error),
    /// The answer (no such game, a refusal, a damaged row, a failed commit).
    Final(StoreError),
}

impl From<tokio_postgres::Error> for Attempt {
    fn from(error: tokio_postgres::Error) -> Attempt {
        Attempt::Database(error)
    }
}

impl From<StoreError> for Attempt {
    fn from(error: StoreError) -> Attempt {
        Attempt::Final(error)
    }
}

/// The game's columns and its checksum from `row`, which holds
/// [`COLUMNS`].
fn read_row(row: &tokio_postgres::Row) -> Result<(Row, Option<String>), tokio_postgres::Error> {
    Ok((
        Row {
            id: row.try_get(0)?,
            variant: row.try_get(1)?,
            start: row.try_get(2)?,
            moves: row.try_get(3)?,
            declared_winner: row.try_get(4)?,
            declared_reason: row.try_get(5)?,
            headers: row.try_get(6)?,
            opponent: row.try_get(7)?,
            version: row.try_get(8)?,
            seats: row.try_get(9)?,
            mode: row.try_get(10)?,
            takeback: row.try_get(11)?,
            clock: row.try_get(12)?,
            impasse: row.try_get(13)?,
            notes: row.try_get(14)?,
            review: row.try_get(15)?,
            rematch: row.try_get(19)?,
            created_at: row.try_get(16)?,
            updated_at: row.try_get(17)?,
        },
        row.try_get(18)?,
    ))
}

/// Writes the checksum of every row that has none and reads as a game
/// (schema 4 to 5), inside the caller's transaction; a row that does not
/// keeps none, so that it is reported as damaged rather than blessed.
async fn add_checksums(client: &impl GenericClient) -> Result<(), tokio_postgres::Error> {
    let rows = client
        .query(
            &format!("SELECT {COLUMNS} FROM koma_games WHERE checksum IS NULL"),
            &[],
        )
        .await?;
    for row in &rows {
        let Ok((game, _)) = read_row(row) else {
            continue;
        };
        let (id, sum) = (game.id.clone(), game.checksum());
        if game.into_game().is_ok() {
            client
                .execute(
                    "UPDATE koma_games SET checksum = $2 WHERE id = $1",
                    &[&id, &sum],
                )
                .await?;
        }
    }
    Ok(())
}

/// Reads game `id` through `client` (a transaction, locking the row when
/// `lock`, or not), checking its checksum; the game, and when it was
/// created.
async fn read_game(
    client: &impl GenericClient,
    target: &Target,
    id: GameId,
    lock: bool,
) -> Result<(StoredGame, i64), Attempt> {
    let sql = format!(
        "SELECT {COLUMNS} FROM koma_games WHERE id = $1{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    let statement = client.prepare_cached(&sql).await?;
    let row = client
        .query_opt(&statement, &[&id.to_string()])
        .await?
        .ok_or(StoreError::NotFound)?;
    let (row, checksum) = read_row(&row).map_err(|e| target.failed(&e))?;
    let created_at = row.created_at;
    let game = row.into_checked(id, checksum.as_deref(), "games database")?;
    Ok((game, created_at))
}

/// Writes `row` with `sql` ([`INSERT`] or [`UPDATE`]).
async fn write(
    client: &impl GenericClient,
    sql: &str,
    row: &Row,
) -> Result<u64, tokio_postgres::Error> {
    let statement = client.prepare_cached(sql).await?;
    client
        .execute(
            &statement,
            &[
                &row.id,
                &row.variant,
                &row.start,
                &row.moves,
                &row.declared_winner,
                &row.declared_reason,
                &row.headers,
                &row.opponent,
                &row.version,
                &row.seats,
                &row.mode,
                &row.takeback,
                &row.clock,
                &row.impasse,
                &row.notes,
                &row.review,
                &row.created_at,
                &row.updated_at,
                &row.checksum(),
                &row.rematch,
            ],
        )
        .await
}

impl PostgresStore {
    /// Runs `work` on a pooled connection, and once more on a new one if
    /// that connection turns out to be closed (the server restarted, or an
    /// administrator ended it) before anything was committed; the lost
    /// connection and the idle ones are dropped from the pool.
    ///
    /// Called on a blocking thread (never on the runtime's async threads),
    /// it waits there for the work done on the runtime.
    fn run<T>(
        &self,
        mut work: impl AsyncFnMut(&mut Object) -> Result<T, Attempt>,
    ) -> Result<T, StoreError> {
        self.runtime.block_on(async {
            let mut retried = false;
            loop {
                let mut client = self
                    .pool
                    .get()
                    .await
                    .map_err(|e| self.target.unavailable(e))?;
                match work(&mut client).await {
                    Ok(value) => return Ok(value),
                    Err(Attempt::Final(error)) => return Err(error),
                    Err(Attempt::Database(error)) => {
                        if !postgres_pool::lost(&self.pool, client, &error) || retried {
                            return Err(self.target.failed(&error));
                        }
                        retried = true;
                    }
                }
            }
        })
    }
}

impl GameStore for PostgresStore {
    fn job_queue(&self) -> Result<std::sync::Arc<dyn JobQueue>, String> {
        Ok(std::sync::Arc::new(PostgresJobs::new(
            self.pool.clone(),
            self.target.clone(),
            self.runtime.clone(),
        )))
    }

    fn insert(&self, game: StoredGame) -> Result<(), StoreError> {
        let now = now_ms();
        let row = Row::from_game(&game, now, now)?;
        // One statement, which writes the same row if done twice.
        self.run(async |client| Ok(write(&*client, INSERT, &row).await?))?;
        Ok(())
    }

    fn get(&self, id: GameId) -> Result<StoredGame, StoreError> {
        self.run(async |client| {
            let (game, _) = read_game(&*client, &self.target, id, false).await?;
            Ok(game)
        })
    }

    fn update(&self, id: GameId, change: Change<'_>) -> Result<StoredGame, StoreError> {
        let target = &self.target;
        self.run(async |client| {
            let transaction = client.transaction().await?;
            // A damaged game is refused here, and never written over.
            let (mut game, created_at) = read_game(&transaction, target, id, true).await?;
            // A refusal returns here, and the transaction's drop rolls back.
            change(&mut game).map_err(StoreError::Refused)?;
            let row = Row::from_game(&game, created_at, now_ms())?;
            write(&transaction, UPDATE, &row).await?;
            // A commit that fails may or may not have been done: never again.
            transaction.commit().await.map_err(|e| target.failed(&e))?;
            Ok(game)
        })
    }

    /// Listens on a connection of its own, in a task of its own on the
    /// runtime, which ends when the store is dropped. Fails only when the
    /// first connection cannot be made; later, a lost connection is made
    /// again (waiting longer each time, up to half a minute), and the
    /// games changed meanwhile are told of then.
    fn listen(&self, notify: Notify) -> Result<(), StoreError> {
        let (ready, started) = tokio::sync::oneshot::channel();
        let listener = Listener {
            target: self.target.clone(),
            notify,
        };
        let task = self.runtime.spawn(listener.run(ready));
        self.listening
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(task.abort_handle());
        let answer = self
            .runtime
            .block_on(tokio::time::timeout(CONNECT_TIMEOUT * 2, started));
        match answer {
            Ok(Ok(result)) => result.map_err(StoreError::Failed),
            Ok(Err(_)) | Err(_) => Err(StoreError::Failed(format!(
                "The games database {} did not answer LISTEN.",
                self.shown()
            ))),
        }
    }
}
