//! What the workers' API does, apart from HTTP: hand out jobs, take
//! progress and results (checked, then kept: a review with the game as a
//! local review is, a mate search's answer in the job for the request
//! waiting on it, `mate_jobs`), and queue the reviews the board asks for.

use super::check;
use super::check_analysis::check_analysis;
use super::check_mate::check_mate;
use super::keys::WorkerKeys;
use super::progress::{self, Message};
use super::protocol::{AcceptedJson, JobJson, ProgressJson, ResultJson};
use super::queue::{JobKind, JobQueue, JobSpec, QueueError};
use crate::games::live::AnyGame;
use crate::games::refusal::Refusal;
use crate::games::service::Games;
use crate::store::GameId;
use axum::http::StatusCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The workers of a server: their keys, the queue, the lease.
pub struct Workers {
    /// The keys accepted.
    pub keys: WorkerKeys,
    /// The jobs.
    pub queue: Arc<dyn JobQueue>,
    /// How long a lease lasts without news from its worker.
    pub lease: Duration,
    /// Nodes per position of a review.
    pub nodes: u64,
    games: Arc<Games>,
}

/// A checked answer as the JSON kept in its job, or why it is garbage.
fn as_json<T: serde::Serialize>(checked: Result<T, String>) -> Result<String, String> {
    checked.and_then(|answer| serde_json::to_string(&answer).map_err(|e| e.to_string()))
}

impl Games {
    /// The job queue of the games' store: a table beside the games in
    /// SQLite and PostgreSQL, memory otherwise.
    pub(crate) fn job_queue(&self) -> Result<Arc<dyn JobQueue>, String> {
        self.store.job_queue()
    }
}

impl From<QueueError> for Refusal {
    fn from(error: QueueError) -> Refusal {
        let status = match error {
            QueueError::NoJob(_) => StatusCode::NOT_FOUND,
            QueueError::LeaseLost(_) => StatusCode::CONFLICT,
            QueueError::Failed(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        Refusal::new(status, error.to_string())
    }
}

impl Workers {
    /// The workers with `keys`, sharing `queue`, reviews kept in `games`.
    pub fn new(
        keys: WorkerKeys,
        queue: Arc<dyn JobQueue>,
        lease: Duration,
        nodes: u64,
        games: Arc<Games>,
    ) -> Workers {
        Workers {
            keys,
            queue,
            lease,
            nodes,
            games,
        }
    }

    /// The name of the worker whose key the `Authorization` header
    /// carries; `401` (and a line in the log) otherwise.
    pub fn authenticate(&self, header: Option<&str>, peer: &str) -> Result<String, Refusal> {
        match self.keys.worker(header) {
            Some(name) => Ok(name.to_owned()),
            None => {
                let why = match header {
                    None => "no Authorization header",
                    Some(h) if !h.trim_start().starts_with("Bearer ") => "no bearer key",
                    Some(_) => "an unknown key",
                };
                eprintln!("koma: worker request from {peer} refused: {why}");
                Err(Refusal::new(
                    StatusCode::UNAUTHORIZED,
                    "A worker needs a key the server's operator issued: \
                     send it as `Authorization: Bearer KEY`.",
                ))
            }
        }
    }

    /// A job of one of `kinds` for `worker`, if one waits. Blocks on the
    /// database.
    pub fn acquire(&self, worker: &str, kinds: &[JobKind]) -> Result<Option<JobJson>, Refusal> {
        let Some(leased) = self.queue.take(worker, self.lease, kinds)? else {
            return Ok(None);
        };
        match leased.spec.kind {
            JobKind::Review => eprintln!(
                "koma: {worker} takes job {} (game {}, {} positions)",
                leased.id,
                leased.spec.game,
                leased.spec.total()
            ),
            JobKind::Mate => eprintln!(
                "koma: {worker} takes job {} (game {}, a mate search of {} s)",
                leased.id, leased.spec.game, leased.spec.seconds
            ),
            JobKind::Analysis => eprintln!(
                "koma: {worker} takes job {} (game {}, an analysis of {} s)",
                leased.id, leased.spec.game, leased.spec.seconds
            ),
        }
        Ok(Some(JobJson {
            kind: leased.spec.kind,
            seconds: leased.spec.seconds,
            lines: leased.spec.lines,
            id: leased.id,
            lease: leased.lease,
            lease_seconds: self.lease.as_secs(),
            game: leased.spec.game,
            variant: leased.spec.variant,
            position: leased.spec.position,
            moves: leased.spec.moves,
            nodes: leased.spec.nodes,
        }))
    }

    /// `worker`'s progress on job `id`; renews its lease. An analysis's
    /// lines so far are checked (garbage is refused with `422` and the
    /// job queued again) and kept in the job for its viewer.
    pub fn progress(
        &self,
        worker: &str,
        id: &str,
        report: &ProgressJson,
    ) -> Result<AcceptedJson, Refusal> {
        let answer = match &report.analysis {
            None => None,
            Some(sent) => {
                let spec = self.queue.held(id, &report.lease)?;
                let checked = match spec.kind {
                    JobKind::Analysis => check_analysis(&spec, sent),
                    _ => Err(format!(
                        "a {} job's progress has no lines.",
                        spec.kind.word()
                    )),
                };
                let answer = as_json(checked)
                    .map_err(|problem| self.garbage(worker, id, &report.lease, &problem))?;
                Some(answer)
            }
        };
        self.queue
            .progress(id, &report.lease, report.done, answer, self.lease)?;
        Ok(AcceptedJson {
            status: "running".to_owned(),
            lease_seconds: Some(self.lease.as_secs()),
        })
    }

    /// `worker`'s result of job `id`: checked (garbage is refused with
    /// `422` and the job goes back to the queue), taken once (`409` for a
    /// lease that ran out), then kept: a review with the game, a mate
    /// search's answer in the job.
    pub fn result(
        &self,
        worker: &str,
        id: &str,
        result: &ResultJson,
    ) -> Result<AcceptedJson, Refusal> {
        let spec = self.queue.held(id, &result.lease)?;
        if spec.kind != JobKind::Review {
            return self.answer_result(worker, id, &spec, result);
        }
        let checked = match (&result.mate, &result.analysis) {
            (None, None) => check::check(&spec, result),
            _ => Err("a review's result is its \"positions\" alone.".to_owned()),
        };
        let review = match checked {
            Ok(review) => review,
            Err(problem) => return Err(self.garbage(worker, id, &result.lease, &problem)),
        };
        let spec = self.queue.finish(id, &result.lease)?;
        let kept = Games::parse_id(&spec.game)
            .and_then(|game| self.games.keep_review(game, &spec.moves, review));
        let error = kept.as_ref().err().map(|refusal| refusal.message.clone());
        self.queue.complete(id, None, error)?;
        match kept {
            Ok(()) => {
                eprintln!("koma: {worker} finished job {id} (game {})", spec.game);
                Ok(AcceptedJson {
                    status: "kept".to_owned(),
                    lease_seconds: None,
                })
            }
            // The worker did its part: the game changed, or is gone.
            Err(refusal) => Ok(AcceptedJson {
                status: format!("not kept: {}", refusal.message),
                lease_seconds: None,
            }),
        }
    }

    /// Refuses garbage from `worker` for job `id` (`422`), with a line in
    /// the log, and queues the job again for the next worker.
    fn garbage(&self, worker: &str, id: &str, lease: &str, problem: &str) -> Refusal {
        eprintln!("koma: {worker} sent garbage for job {id}, which is queued again: {problem}");
        let _ = self.queue.release(id, lease);
        Refusal::unprocessable(format!(
            "The result is refused, and the job queued again: {problem}"
        ))
    }

    /// A mate search's answer or an analysis's last lines, checked, kept
    /// in the job for the request or the relay that waits on it (which
    /// may be another server's, on a shared queue).
    fn answer_result(
        &self,
        worker: &str,
        id: &str,
        spec: &JobSpec,
        result: &ResultJson,
    ) -> Result<AcceptedJson, Refusal> {
        let alone = result.positions.is_empty();
        let (checked, what) = match (spec.kind, &result.mate, &result.analysis) {
            (JobKind::Mate, Some(sent), None) if alone => {
                (as_json(check_mate(spec, sent)), "a mate search")
            }
            (JobKind::Mate, ..) => (
                Err("a mate search's result is its \"mate\" answer alone.".to_owned()),
                "a mate search",
            ),
            (_, None, Some(sent)) if alone => (as_json(check_analysis(spec, sent)), "an analysis"),
            _ => (
                Err("an analysis's result is its \"analysis\" lines alone.".to_owned()),
                "an analysis",
            ),
        };
        self.keep_answer(worker, id, &result.lease, checked, what)
    }

    /// Keeps `checked`, the answer of job `id` as JSON (or why it is
    /// garbage), in the job, and ends it; `what` the job was, for the log.
    fn keep_answer(
        &self,
        worker: &str,
        id: &str,
        lease: &str,
        checked: Result<String, String>,
        what: &str,
    ) -> Result<AcceptedJson, Refusal> {
        let answer = checked.map_err(|problem| self.garbage(worker, id, lease, &problem))?;
        self.queue.finish(id, lease)?;
        self.queue.complete(id, Some(answer), None)?;
        eprintln!("koma: {worker} finished job {id} ({what})");
        Ok(AcceptedJson {
            status: "kept".to_owned(),
            lease_seconds: None,
        })
    }

    /// Queues the review of `game`, game `id`, and relays its progress on
    /// `out` as `message` writes it: the task to keep, aborting which
    /// cancels the job.
    pub fn queue_review(
        self: &Arc<Self>,
        id: GameId,
        game: &AnyGame,
        out: mpsc::UnboundedSender<String>,
        message: Message,
    ) -> tokio::task::JoinHandle<()> {
        let spec = JobSpec {
            kind: JobKind::Review,
            game: id.to_string(),
            variant: game.variant().name().to_owned(),
            position: game.start_text(),
            moves: game.move_texts(),
            nodes: self.nodes,
            seconds: 0,
            lines: 0,
        };
        let queue = self.queue.clone();
        tokio::spawn(async move {
            let pushing = queue.clone();
            match tokio::task::spawn_blocking(move || pushing.push(spec)).await {
                Ok(Ok(job)) => progress::relay(queue, job, out, message).await,
                Ok(Err(e)) => {
                    let _ = out.send(message("failed", 0, Some(e.to_string())));
                }
                Err(_) => {
                    let sentence = "The review could not be queued.".to_owned();
                    let _ = out.send(message("failed", 0, Some(sentence)));
                }
            }
        })
    }
}
