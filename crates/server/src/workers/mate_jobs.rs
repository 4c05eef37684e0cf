//! "Find mate" on the board done by a worker: with `--worker-keys`, the
//! board's `GET /api/games/{id}/mate` by Koma's own solver queues a mate
//! search job (the position, its seconds) and waits for its answer, which
//! a worker (the server's own engine, unless `--analysis-engines 0`)
//! sends and the server checks (`check_mate`) and keeps in the job; the
//! answer is then written for the board as a local search's is. The wait
//! reads the job from the queue, so a worker that reports to another
//! server sharing it answers this one's request. A request given up (its
//! connection closed) cancels the job.

use super::progress::{CancelOnDrop, POLL};
use super::protocol::MateResultJson;
use super::queue::{JobKind, JobSpec, JobState};
use super::service::Workers;
use crate::games::live::AnyGame;
use crate::games::refusal::Refusal;
use crate::study::mate::{self, Found, MateJson};
use axum::http::StatusCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a mate search waits, queued, for a worker to take it before
/// the request is answered that none is free.
pub const UNTAKEN: Duration = Duration::from_secs(60);

fn unavailable(sentence: impl Into<String>) -> Refusal {
    Refusal::new(StatusCode::SERVICE_UNAVAILABLE, sentence)
}

impl Workers {
    /// Has a worker search the position after move `ply` of `game` (game
    /// `id`) for `seconds`, and waits for its checked answer: the board's
    /// mate search by Koma's solver when the server takes workers.
    pub async fn find_mate(
        self: &Arc<Self>,
        id: &str,
        game: &AnyGame,
        ply: usize,
        seconds: u64,
    ) -> Result<MateJson, Refusal> {
        let seconds = seconds.clamp(1, mate::MAX_SECONDS);
        let spec = JobSpec {
            kind: JobKind::Mate,
            game: id.to_owned(),
            variant: game.variant().name().to_owned(),
            position: mate::searched_text(game, ply)?,
            moves: Vec::new(),
            nodes: 0,
            seconds,
            lines: 0,
        };
        let queue = self.queue.clone();
        let pushing = queue.clone();
        let job = tokio::task::spawn_blocking(move || pushing.push(spec))
            .await
            .map_err(|_| Refusal::internal("the mate search could not be queued"))??;
        let mut guard = CancelOnDrop::new(queue.clone(), job.clone());
        let started = Instant::now();
        // Past this, a search taken but never answered (its workers'
        // leases lapsing one after another) is given up too.
        let longest = UNTAKEN + Duration::from_secs(seconds) + self.lease * 2;
        loop {
            let (reading, watched) = (queue.clone(), job.clone());
            let status = tokio::task::spawn_blocking(move || reading.status(&watched)).await;
            let waited = started.elapsed();
            match status {
                Ok(Ok(Some(status))) => match status.state {
                    JobState::Queued if waited > UNTAKEN => {
                        return Err(unavailable(format!(
                            "No worker took the mate search within {} s: try again later.",
                            UNTAKEN.as_secs()
                        )))
                    }
                    JobState::Queued | JobState::Leased | JobState::Saving => {}
                    JobState::Done => {
                        guard.over = true;
                        let answer: MateResultJson = status
                            .answer
                            .as_deref()
                            .and_then(|text| serde_json::from_str(text).ok())
                            .ok_or_else(|| Refusal::internal("a mate search kept no answer"))?;
                        let found = Found {
                            answer: &answer.answer,
                            length: answer.length,
                            line: &answer.line,
                            nodes: answer.nodes,
                            milliseconds: answer.milliseconds,
                        };
                        return found.written(game, ply);
                    }
                    JobState::Failed => {
                        guard.over = true;
                        let why = status.error.unwrap_or_default();
                        return Err(unavailable(format!("The mate search failed: {why}")));
                    }
                    JobState::Cancelled => {
                        guard.over = true;
                        return Err(unavailable("The mate search was stopped."));
                    }
                },
                Ok(Ok(None)) => return Err(unavailable("The mate search's job is gone.")),
                // A database that fails for a moment: read again.
                Ok(Err(_)) | Err(_) => {}
            }
            if waited > longest {
                return Err(unavailable(
                    "The workers did not finish the mate search: try again later.",
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}
