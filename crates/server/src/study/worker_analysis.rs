//! Analysis on the board done by a worker: with `--worker-keys`, an
//! analysis by Koma's own engine that finds none of the server's engines
//! free (or every one, with `--analysis-engines 0`) becomes a job of the
//! kind `analysis` (the game's start, the moves to the position analysed,
//! its lines and seconds). The worker reports its lines at each depth it
//! completes, the server checks them (`workers::check_analysis`) and keeps
//! them in the job, and this relay reads the job ten times a second and
//! sends the board the same `analysis` messages a local analysis sends.
//! Reading the job, not the worker, lets a worker that reports to another
//! server sharing the queue answer this one's viewer. Stopping the
//! analysis (a new one, `stop-analysis`, the connection's end) cancels the
//! job, and the worker stops at its next report. An analysis still queued
//! when one of the server's engines comes free (unless
//! `--analysis-engines 0`) is taken back and done here, so that a server
//! whose workers are away analyses as it did without them.

use super::analysis::{self, Analyses, EngineJob};
use super::analysis_target::{LineJson, Target};
use crate::games::live::{AnyGame, Served};
use crate::games::state::{EvaluationJson, MoveJson};
use crate::workers::check_analysis::line_moves;
use crate::workers::progress::CancelOnDrop;
use crate::workers::protocol::AnalysisResultJson;
use crate::workers::queue::{JobKind, JobSpec, JobState, JobStatus};
use crate::workers::service::Workers;
use koma_rules::{each_game, Game, Move};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// How often the job is read: ten times a second, as its lines are
/// watched live (a review's progress is read five times).
const POLL: Duration = Duration::from_millis(100);

/// How long an analysis waits, queued, for a worker to take it before
/// the board is told that none is free.
pub const UNTAKEN: Duration = Duration::from_secs(60);

/// The job that asks a worker for `target`'s analysis, `seconds` long.
fn job(target: &Target, seconds: u64) -> JobSpec {
    let mut moves = target.game.move_texts();
    moves.truncate(target.ply);
    moves.extend(each_game!(AnyGame, &target.game, g => texts(g, &target.variation)));
    JobSpec {
        kind: JobKind::Analysis,
        game: target.game_id.clone(),
        variant: target.game.variant().name().to_owned(),
        position: target.game.start_text(),
        moves,
        nodes: 0,
        seconds,
        lines: target.lines,
    }
}

/// `moves` of `game`'s kind as text (USI/UCI).
fn texts<P: Served>(_game: &Game<P>, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|&m| P::move_to_text(m)).collect()
}

/// Queues `target`'s analysis for the workers and relays its lines on
/// `out` as the local analysis sends them; dropping the job cancels it.
pub(super) fn start(
    workers: Arc<Workers>,
    analyses: Arc<Analyses>,
    target: Target,
    out: mpsc::UnboundedSender<String>,
) -> EngineJob {
    let seconds = analyses.limits.seconds.max(1);
    let spec = job(&target, seconds);
    // Past this, an analysis whose workers keep it leased without ending
    // it (or keep losing it) is given up, as a local one ends in time.
    let longest = UNTAKEN + Duration::from_secs(seconds) + workers.lease * 2;
    EngineJob::of_task(tokio::spawn(async move {
        // An engine of the server's came free before any worker took the
        // job: it does the analysis, held here so that aborting this task
        // stops it.
        let _here = match relay(&workers, &analyses, &target, &out, spec, longest).await {
            Relayed::Over => return,
            Relayed::EngineFree => analysis::start_here(analyses.clone(), target, out),
        };
        std::future::pending::<()>().await;
    }))
}

/// How a relay ended.
enum Relayed {
    /// The analysis is over, or its viewer gone.
    Over,
    /// Still queued, the job cancelled, as one of the server's engines is
    /// free.
    EngineFree,
}

/// Queues `spec` and relays its lines to `out` until the analysis is over,
/// or one of the server's engines is free while no worker has taken it.
async fn relay(
    workers: &Workers,
    analyses: &Arc<Analyses>,
    target: &Target,
    out: &mpsc::UnboundedSender<String>,
    spec: JobSpec,
    longest: Duration,
) -> Relayed {
    let queue = workers.queue.clone();
    let send = |status: &'static str, found: Option<&AnalysisResultJson>, error| {
        let mut message = match found {
            Some(found) => target.message(
                status,
                (
                    found.depth,
                    found.nodes,
                    Duration::from_millis(found.milliseconds),
                ),
                each_game!(AnyGame, &target.game, g => lines(g, target, found)),
                analyses.engines(),
            ),
            None => target.message(
                status,
                (0, 0, Duration::ZERO),
                Vec::new(),
                analyses.engines(),
            ),
        };
        message.error = error;
        out.send(serde_json::to_string(&message).unwrap_or_default())
            .is_ok()
    };
    let pushing = queue.clone();
    let id = match tokio::task::spawn_blocking(move || pushing.push(spec)).await {
        Ok(Ok(id)) => id,
        Ok(Err(e)) => {
            send("failed", None, Some(e.to_string()));
            return Relayed::Over;
        }
        Err(_) => {
            let sentence = "The analysis could not be queued.".to_owned();
            send("failed", None, Some(sentence));
            return Relayed::Over;
        }
    };
    let mut guard = CancelOnDrop::new(queue.clone(), id.clone());
    if !send("waiting", None, None) {
        return Relayed::Over;
    }
    let started = Instant::now();
    let (mut shown, mut queued_since) = (None::<String>, Some(Instant::now()));
    // The last lines shown, which a failure keeps, as a local one does.
    let mut last: Option<AnalysisResultJson> = None;
    loop {
        tokio::time::sleep(POLL).await;
        let (reading, watched) = (queue.clone(), id.clone());
        let status = match tokio::task::spawn_blocking(move || reading.status(&watched)).await {
            Ok(Ok(status)) => status,
            // A database that fails for a moment: read again.
            Ok(Err(_)) | Err(_) => continue,
        };
        let Some(JobStatus {
            state,
            answer,
            error,
            ..
        }) = status
        else {
            send(
                "failed",
                None,
                Some("The analysis's job is gone.".to_owned()),
            );
            return Relayed::Over;
        };
        let found: Option<AnalysisResultJson> = answer
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok());
        let sent = match state {
            JobState::Queued if analyses.limits.local && analyses.engine_free() => {
                // The guard cancels the job as it drops.
                return Relayed::EngineFree;
            }
            JobState::Queued => {
                // A lease that ran out: waiting again, for another worker.
                let since = *queued_since.get_or_insert_with(Instant::now);
                if since.elapsed() > UNTAKEN {
                    // The guard cancels the job as it drops.
                    send(
                        "failed",
                        None,
                        Some(format!(
                            "No worker took the analysis within {} s: try again later.",
                            UNTAKEN.as_secs()
                        )),
                    );
                    return Relayed::Over;
                }
                if shown.take().is_some() {
                    send("waiting", None, None)
                } else {
                    true
                }
            }
            JobState::Leased | JobState::Saving => {
                queued_since = None;
                match (&found, &answer) {
                    (Some(found), Some(text)) if shown.as_ref() != Some(text) => {
                        shown = Some(text.clone());
                        last = Some(found.clone());
                        send("running", Some(found), None)
                    }
                    _ => true,
                }
            }
            JobState::Done => {
                guard.over = true;
                send("done", found.as_ref(), None);
                return Relayed::Over;
            }
            JobState::Failed | JobState::Cancelled => {
                guard.over = true;
                let why = error.unwrap_or_else(|| "The analysis was stopped.".to_owned());
                send("failed", last.as_ref(), Some(why));
                return Relayed::Over;
            }
        };
        if !sent {
            // The viewer is gone: the guard cancels the job.
            return Relayed::Over;
        }
        if started.elapsed() > longest {
            // The guard cancels the job as it drops.
            let why = "The workers did not finish the analysis: try again later.";
            send("failed", last.as_ref(), Some(why.to_owned()));
            return Relayed::Over;
        }
    }
}

/// `found`'s lines as the board shows them, from the position `target`
/// analyses in `game` (checked when they were kept: a line that no
/// longer reads is left out).
fn lines<P: Served>(game: &Game<P>, target: &Target, found: &AnalysisResultJson) -> Vec<LineJson> {
    let (history, previous) = target.history(game);
    let root = &history[history.len() - 1];
    found
        .lines
        .iter()
        .filter_map(|line| {
            let moves = line_moves(root, line).ok()?;
            Some(LineJson {
                score: EvaluationJson::new(P::VARIANT, line.score.read(P::VARIANT)?),
                moves: MoveJson::line(root, &moves, previous),
            })
        })
        .collect()
}
