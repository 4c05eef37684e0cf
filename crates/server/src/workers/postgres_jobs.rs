//! The job queue in PostgreSQL (the `koma_jobs` table, schema 9), shared
//! by every server on the database and all their workers. A job is taken
//! with `SELECT … FOR UPDATE SKIP LOCKED` inside the `UPDATE` that leases
//! it, so two servers asking at once take two different jobs and never
//! wait for each other; each lease check and change is one statement
//! whose `WHERE` names the live lease, so a result is taken once.

use super::queue::{
    millis, random_hex, total, JobKind, JobQueue, JobSpec, JobState, JobStatus, Leased, QueueError,
    KEEP_FINISHED,
};
use crate::games::clock::now_ms;
use crate::store::postgres_pool::{describe, describe_pool, Pool, Target};
use std::time::Duration;
use tokio::runtime::Handle;
use tokio_postgres::Row;

/// The queue in a PostgreSQL database.
pub struct PostgresJobs {
    pool: Pool,
    target: Target,
    runtime: Handle,
}

fn spec_of(row: &Row) -> JobSpec {
    let moves: String = row.get("moves");
    let nodes: i64 = row.get("nodes");
    let kind: String = row.get("kind");
    let seconds: i64 = row.get("seconds");
    let lines: i32 = row.get("lines");
    JobSpec {
        // Only kinds asked for are handed out, and those are known ones.
        kind: JobKind::from_word(&kind).unwrap_or(JobKind::Review),
        game: row.get("game"),
        variant: row.get("variant"),
        position: row.get("start"),
        moves: moves.split_whitespace().map(str::to_owned).collect(),
        nodes: u64::try_from(nodes).unwrap_or(1),
        seconds: u64::try_from(seconds).unwrap_or(1),
        lines: u32::try_from(lines).unwrap_or(1),
    }
}

/// The columns of a job's spec.
const SPEC: &str = "id, game, variant, start, moves, nodes, kind, seconds, lines";

impl PostgresJobs {
    /// The queue of the database the games' store uses (already at
    /// schema 9): its pool, whose connections run on `runtime`.
    pub fn new(pool: Pool, target: Target, runtime: Handle) -> PostgresJobs {
        PostgresJobs {
            pool,
            target,
            runtime,
        }
    }

    /// Runs `work` on a pooled connection; called off the async threads.
    fn run<T>(
        &self,
        work: impl AsyncFnOnce(&deadpool_postgres::Object) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, QueueError> {
        self.runtime.block_on(async {
            let client = self
                .pool
                .get()
                .await
                .map_err(|e| QueueError::Failed(self.target.redact(&describe_pool(&e))))?;
            work(&client)
                .await
                .map_err(|e| QueueError::Failed(self.target.redact(&describe(&e))))
        })
    }

    /// `NoJob` or `LeaseLost` for job `id`, whose lease check failed.
    fn lost(&self, id: &str) -> QueueError {
        let exists = self.run(async |client| {
            client
                .query_opt("SELECT 1 FROM koma_jobs WHERE id = $1", &[&id])
                .await
        });
        match exists {
            Ok(Some(_)) => QueueError::LeaseLost(id.to_owned()),
            Ok(None) => QueueError::NoJob(id.to_owned()),
            Err(e) => e,
        }
    }
}

impl JobQueue for PostgresJobs {
    fn push(&self, spec: JobSpec) -> Result<String, QueueError> {
        let id = random_hex()?;
        let now = now_ms();
        let nodes = i64::try_from(spec.nodes).unwrap_or(i64::MAX);
        let moves = spec.moves.join(" ");
        let seconds = i64::try_from(spec.seconds).unwrap_or(i64::MAX);
        let kind = spec.kind.word();
        let lines = i32::try_from(spec.lines).unwrap_or(i32::MAX);
        self.run(async |client| {
            client
                .execute(
                    "DELETE FROM koma_jobs WHERE state IN ('done', 'failed', 'cancelled') \
                     AND due < $1",
                    &[&now],
                )
                .await?;
            client
                .execute(
                    "INSERT INTO koma_jobs (id, game, variant, start, moves, nodes, state, \
                     lease, worker, due, done, error, created_at, kind, seconds, answer, \
                     lines) \
                     VALUES ($1, $2, $3, $4, $5, $6, 'queued', NULL, NULL, 0, 0, NULL, $7, $8, \
                     $9, NULL, $10)",
                    &[
                        &id,
                        &spec.game,
                        &spec.variant,
                        &spec.position,
                        &moves,
                        &nodes,
                        &now,
                        &kind,
                        &seconds,
                        &lines,
                    ],
                )
                .await
        })?;
        Ok(id)
    }

    fn take(
        &self,
        worker: &str,
        lease: Duration,
        kinds: &[JobKind],
    ) -> Result<Option<Leased>, QueueError> {
        let words: Vec<&str> = kinds.iter().map(|kind| kind.word()).collect();
        let secret = random_hex()?;
        let now = now_ms();
        let due = now.saturating_add(millis(lease));
        let row = self.run(async |client| {
            client
                .query_opt(
                    &format!(
                        "UPDATE koma_jobs SET state = 'leased', lease = $2, worker = $3, \
                         due = $4, done = 0, answer = NULL \
                         WHERE id = (SELECT id FROM koma_jobs \
                             WHERE (state = 'queued' OR (state = 'leased' AND due < $1)) \
                             AND kind = ANY($5) \
                             ORDER BY kind = 'review', created_at, id LIMIT 1 \
                             FOR UPDATE SKIP LOCKED) \
                         RETURNING {SPEC}"
                    ),
                    &[&now, &secret, &worker, &due, &words],
                )
                .await
        })?;
        Ok(row.map(|row| Leased {
            id: row.get("id"),
            lease: secret.clone(),
            spec: spec_of(&row),
        }))
    }

    fn progress(
        &self,
        id: &str,
        lease: &str,
        done: usize,
        answer: Option<String>,
        duration: Duration,
    ) -> Result<(), QueueError> {
        let now = now_ms();
        let due = now.saturating_add(millis(duration));
        let done = i64::try_from(done).unwrap_or(0);
        let changed = self.run(async |client| {
            client
                .execute(
                    "UPDATE koma_jobs SET done = $3, due = $4, answer = COALESCE($6, answer) \
                     WHERE id = $1 AND state = 'leased' AND lease = $2 AND due >= $5",
                    &[&id, &lease, &done, &due, &now, &answer],
                )
                .await
        })?;
        match changed {
            0 => Err(self.lost(id)),
            _ => Ok(()),
        }
    }

    fn held(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
        let now = now_ms();
        let row = self.run(async |client| {
            client
                .query_opt(
                    &format!(
                        "SELECT {SPEC} FROM koma_jobs \
                         WHERE id = $1 AND state = 'leased' AND lease = $2 AND due >= $3"
                    ),
                    &[&id, &lease, &now],
                )
                .await
        })?;
        row.map(|row| spec_of(&row)).ok_or_else(|| self.lost(id))
    }

    fn finish(&self, id: &str, lease: &str) -> Result<JobSpec, QueueError> {
        let now = now_ms();
        let row = self.run(async |client| {
            client
                .query_opt(
                    &format!(
                        "UPDATE koma_jobs SET state = 'saving', lease = NULL \
                         WHERE id = $1 AND state = 'leased' AND lease = $2 AND due >= $3 \
                         RETURNING {SPEC}"
                    ),
                    &[&id, &lease, &now],
                )
                .await
        })?;
        row.map(|row| spec_of(&row)).ok_or_else(|| self.lost(id))
    }

    fn release(&self, id: &str, lease: &str) -> Result<(), QueueError> {
        let changed = self.run(async |client| {
            client
                .execute(
                    "UPDATE koma_jobs SET state = 'queued', lease = NULL, worker = NULL, done = 0, \
                     answer = NULL WHERE id = $1 AND state = 'leased' AND lease = $2",
                    &[&id, &lease],
                )
                .await
        })?;
        match changed {
            0 => Err(self.lost(id)),
            _ => Ok(()),
        }
    }

    fn complete(
        &self,
        id: &str,
        answer: Option<String>,
        error: Option<String>,
    ) -> Result<(), QueueError> {
        let state = if error.is_some() { "failed" } else { "done" };
        let forget = now_ms().saturating_add(millis(KEEP_FINISHED));
        self.run(async |client| {
            client
                .execute(
                    "UPDATE koma_jobs SET state = $2, error = $3, due = $4, answer = $5 \
                     WHERE id = $1 AND state = 'saving'",
                    &[&id, &state, &error, &forget, &answer],
                )
                .await
        })?;
        Ok(())
    }

    fn cancel(&self, id: &str) -> Result<(), QueueError> {
        let forget = now_ms().saturating_add(millis(KEEP_FINISHED));
        self.run(async |client| {
            client
                .execute(
                    "UPDATE koma_jobs SET state = 'cancelled', lease = NULL, due = $2 \
                     WHERE id = $1 AND state IN ('queued', 'leased')",
                    &[&id, &forget],
                )
                .await
        })?;
        Ok(())
    }

    fn status(&self, id: &str) -> Result<Option<JobStatus>, QueueError> {
        let row = self.run(async |client| {
            client
                .query_opt(
                    "SELECT state, done, moves, error, kind, answer FROM koma_jobs WHERE id = $1",
                    &[&id],
                )
                .await
        })?;
        Ok(row.map(|row| {
            let state: String = row.get(0);
            let done: i64 = row.get(1);
            let moves: String = row.get(2);
            let kind: String = row.get(4);
            let kind = JobKind::from_word(&kind).unwrap_or(JobKind::Review);
            JobStatus {
                state: JobState::from_word(&state).unwrap_or(JobState::Failed),
                done: usize::try_from(done).unwrap_or(0),
                total: total(kind, moves.split_whitespace().count()),
                error: row.get(3),
                answer: row.get(5),
            }
        }))
    }
}
