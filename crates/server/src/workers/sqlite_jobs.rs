//! The job queue in the SQLite games file (its `jobs` table, schema 9):
//! the jobs outlive a restart, and servers sharing the file share the
//! queue. Each call is one `BEGIN IMMEDIATE` transaction on a connection
//! of its own beside the games' one, so that taking a job, renewing a
//! lease or taking a result happens once whoever else asks at once.

use super::queue::{
    millis, random_hex, total, JobKind, JobQueue, JobSpec, JobState, JobStatus, Leased, QueueError,
    KEEP_FINISHED,
};
use crate::games::clock::now_ms;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// How long a call waits for another process holding the file.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The queue in a games file.
pub struct SqliteJobs {
    connection: Mutex<Connection>,
}

fn failed(error: rusqlite::Error) -> QueueError {
    QueueError::Failed(format!("the games database failed: {error}"))
}

fn spec_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<JobSpec> {
    let moves: String = row.get("moves")?;
    let nodes: i64 = row.get("nodes")?;
    let kind: String = row.get("kind")?;
    let seconds: i64 = row.get("seconds")?;
    let lines: i64 = row.get("lines")?;
    Ok(JobSpec {
        // A word this Koma does not know is a newer one's job: the kinds
        // a worker asks for are known ones, so it is never handed out.
        kind: JobKind::from_word(&kind).unwrap_or(JobKind::Review),
        game: row.get("game")?,
        variant: row.get("variant")?,
        position: row.get("start")?,
        moves: moves.split_whitespace().map(str::to_owned).collect(),
        nodes: u64::try_from(nodes).unwrap_or(1),
        seconds: u64::try_from(seconds).unwrap_or(1),
        lines: u32::try_from(lines).unwrap_or(1),
    })
}

/// `kind IN (…)` for `kinds`: their words are Koma's own, not the
/// caller's, so they are written into the statement.
pub fn kinds_sql(kinds: &[JobKind]) -> String {
    let words: Vec<String> = kinds.iter().map(|k| format!("'{}'", k.word())).collect();
    format!("kind IN ({})", words.join(", "))
}

impl SqliteJobs {
    /// The queue of the games file at `path`, which the games' store has
    /// opened (and brought to schema 9) already.
    pub fn open(path: &Path) -> Result<SqliteJobs, String> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(path, flags)
            .and_then(|c| c.busy_timeout(BUSY_TIMEOUT).map(|()| c))
            .map_err(|e| format!("cannot open the job queue in {}: {e}", path.display()))?;
        Ok(SqliteJobs {
            connection: Mutex::new(connection),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.connection.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `work` in one write transaction.
    fn write<T>(
        &self,
        work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, QueueError>,
    ) -> Result<T, QueueError> {
        let mut connection = self.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        let value = work(&transaction)?;
        transaction.commit().map_err(failed)?;
        Ok(value)
    }
}

/// The spec of job `id` if `lease` is its live lease.
fn held(connection: &Connection, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
    let found = connection
        .query_row(
            "SELECT * FROM jobs WHERE id = ?1 AND state = 'leased' AND lease = ?2 AND due >= ?3",
            params![id, lease, now_ms()],
            spec_of,
        )
        .optional()
        .map_err(failed)?;
    match found {
        Some(spec) => Ok(spec),
        None => {
            let exists: Option<i64> = connection
                .query_row("SELECT 1 FROM jobs WHERE id = ?1", [id], |r| r.get(0))
                .optional()
                .map_err(failed)?;
            Err(match exists {
                Some(_) => QueueError::LeaseLost(id.to_owned()),
                None => QueueError::NoJob(id.to_owned()),
            })
        }
    }
}

impl JobQueue for SqliteJobs {
    fn push(&self, spec: JobSpec) -> Result<String, QueueError> {
        let id = random_hex()?;
        let now = now_ms();
        self.write(|t| {
            t.execute(
                "DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND due < ?1",
                [now],
            )
            .map_err(failed)?;
            t.execute(
                "INSERT INTO jobs (id, game, variant, start, moves, nodes, state, lease, worker, \
                 due, done, error, created_at, kind, seconds, answer, lines) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', NULL, NULL, 0, 0, NULL, ?7, ?8, ?9, \
                 NULL, ?10)",
                params![
                    id,
                    spec.game,
                    spec.variant,
                    spec.position,
                    spec.moves.join(" "),
                    i64::try_from(spec.nodes).unwrap_or(i64::MAX),
                    now,
                    spec.kind.word(),
                    i64::try_from(spec.seconds).unwrap_or(i64::MAX),
                    i64::from(spec.lines)
                ],
            )
            .map_err(failed)?;
            Ok(id.clone())
        })
    }

    fn take(
        &self,
        worker: &str,
        lease: Duration,
        kinds: &[JobKind],
    ) -> Result<Option<Leased>, QueueError> {
        if kinds.is_empty() {
            return Ok(None);
        }
        let secret = random_hex()?;
        let now = now_ms();
        self.write(|t| {
            let found = t
                .query_row(
                    &format!(
                        "SELECT id FROM jobs \
                         WHERE (state = 'queued' OR (state = 'leased' AND due < ?1)) AND {} \
                         ORDER BY kind = 'review', created_at, id LIMIT 1",
                        kinds_sql(kinds)
                    ),
                    [now],
                    |r| r.get::<_, String>(0),
                )
                .optional()
                .map_err(failed)?;
            let Some(id) = found else {
                return Ok(None);
            };
            t.execute(
                "UPDATE jobs SET state = 'leased', lease = ?2, worker = ?3, due = ?4, done = 0, \
                 answer = NULL WHERE id = ?1",
                params![id, secret, worker, now.saturating_add(millis(lease))],
            )
            .map_err(failed)?;
            let spec = held(t, &id, &secret)?;
            Ok(Some(Leased {
                id,
                lease: secret.clone(),
                spec,
            }))
        })
    }

    fn progress(
        &self,
        id: &str,
        lease: &str,
        done: usize,
        answer: Option<String>,
        duration: Duration,
    ) -> Result<(), QueueError> {
        self.write(|t| {
            let spec = held(t, id, lease)?;
            let done = i64::try_from(done.min(spec.total())).unwrap_or(0);
            t.execute(
                "UPDATE jobs SET done = ?2, due = ?3, answer = COALESCE(?4, answer) WHERE id = ?1",
                params![id, done, now_ms().saturating_add(millis(duration)), answer],
            )
            .map_err(failed)?;
            Ok(())
        })
    }

    fn held(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
        held(&self.lock(), id, lease)
    }

    fn finish(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
        self.write(|t| {
            let spec = held(t, id, lease)?;
            t.execute(
                "UPDATE jobs SET state = 'saving', lease = NULL, done = ?2 WHERE id = ?1",
                params![id, i64::try_from(spec.total()).unwrap_or(0)],
            )
            .map_err(failed)?;
            Ok(spec)
        })
    }

    fn release(&self, id: &str, lease: &str) -> Result<(), QueueError> {
        self.write(|t| {
            held(t, id, lease)?;
            t.execute(
                "UPDATE jobs SET state = 'queued', lease = NULL, worker = NULL, done = 0, \
                 answer = NULL WHERE id = ?1",
                [id],
            )
            .map_err(failed)?;
            Ok(())
        })
    }

    fn complete(
        &self,
        id: &str,
        answer: Option<String>,
        error: Option<String>,
    ) -> Result<(), QueueError> {
        let state = if error.is_some() { "failed" } else { "done" };
        let forget = now_ms().saturating_add(millis(KEEP_FINISHED));
        self.write(|t| {
            t.execute(
                "UPDATE jobs SET state = ?2, error = ?3, due = ?4, answer = ?5 \
                 WHERE id = ?1 AND state = 'saving'",
                params![id, state, error, forget, answer],
            )
            .map_err(failed)?;
            Ok(())
        })
    }

    fn cancel(&self, id: &str) -> Result<(), QueueError> {
        let forget = now_ms().saturating_add(millis(KEEP_FINISHED));
        self.write(|t| {
            t.execute(
                "UPDATE jobs SET state = 'cancelled', lease = NULL, due = ?2 \
                 WHERE id = ?1 AND state IN ('queued', 'leased')",
                params![id, forget],
            )
            .map_err(failed)?;
            Ok(())
        })
    }

    fn status(&self, id: &str) -> Result<Option<JobStatus>, QueueError> {
        let connection = self.lock();
        connection
            .query_row(
                "SELECT state, done, moves, error, kind, answer FROM jobs WHERE id = ?1",
                [id],
                |row| {
                    let state: String = row.get(0)?;
                    let done: i64 = row.get(1)?;
                    let moves: String = row.get(2)?;
                    let kind: String = row.get(4)?;
                    let kind = JobKind::from_word(&kind).unwrap_or(JobKind::Review);
                    Ok(JobStatus {
                        state: JobState::from_word(&state).unwrap_or(JobState::Failed),
                        done: usize::try_from(done).unwrap_or(0),
                        total: total(kind, moves.split_whitespace().count()),
                        error: row.get(3)?,
                        answer: row.get(5)?,
                    })
                },
            )
            .optional()
            .map_err(failed)
    }
}
