//! An analysis job: Koma's engine on the job's position with its MultiPV
//! lines, for its seconds, as the board's local analysis thinks. Someone
//! watches it live, so the lines of each depth completed go to the server
//! with the next progress report (a few times a second at most), and a
//! lost lease (the viewer stopped, or moved on) stops the engine at once.

use super::{send, Shared};
use crate::client::ClientError;
use koma_engine::SearchControl;
use koma_server::workers::protocol::{AnalysisResultJson, JobJson, ProgressJson, ResultJson};
use koma_server::workers::run;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The shortest time between two reports of new lines: the board reads
/// the job five times a second.
const EVERY: Duration = Duration::from_millis(250);

/// The lines found so far, and how many sets have been found.
#[derive(Default)]
struct Latest {
    found: Option<AnalysisResultJson>,
    sets: u64,
}

/// Does analysis `job`: the engine on a blocking thread, its lines
/// reported as they deepen (which renews the lease), then the last ones.
pub(super) async fn do_analysis(shared: &Arc<Shared>, mut job: JobJson) -> Result<(), ClientError> {
    let started = Instant::now();
    if let Some(cap) = shared.nodes {
        job.nodes = if job.nodes == 0 {
            cap
        } else {
            job.nodes.min(cap)
        };
    }
    let control = SearchControl::new(false);
    let latest = Arc::new(Mutex::new(Latest::default()));
    let searching = {
        let (job, control, latest) = (job.clone(), control.clone(), latest.clone());
        tokio::task::spawn_blocking(move || {
            let mut report = |found: &AnalysisResultJson| {
                let mut latest = latest.lock().unwrap_or_else(|e| e.into_inner());
                latest.found = Some(found.clone());
                latest.sets += 1;
            };
            run::analysis_job(&job, &control, &mut report)
        })
    };
    tokio::pin!(searching);
    let renew = Duration::from_secs(job.lease_seconds.max(3) / 3);
    let (mut reported, mut last_report) = (0u64, Instant::now());
    let finished = loop {
        tokio::select! {
            finished = &mut searching => break finished,
            _ = tokio::time::sleep(EVERY) => {}
        }
        if shared.stopping() || control.is_stopped() {
            control.stop();
            continue;
        }
        let (sets, found) = {
            let latest = latest.lock().unwrap_or_else(|e| e.into_inner());
            (latest.sets, latest.found.clone())
        };
        if sets == reported && last_report.elapsed() < renew {
            continue;
        }
        let report = ProgressJson {
            lease: job.lease.clone(),
            done: 0,
            analysis: if sets == reported { None } else { found },
        };
        match shared.client.progress(&job.id, &report).await {
            Ok(()) => {
                reported = sets;
                last_report = Instant::now();
            }
            Err(ClientError::Lost(message)) => {
                if shared.verbose {
                    eprintln!("koma worker: analysis {} is over: {message}", job.id);
                }
                control.stop();
            }
            Err(e @ ClientError::Unauthorized(_)) => {
                control.stop();
                return Err(e);
            }
            // Lines the server refused stop nothing here: the job is
            // queued again for another worker, and this lease is lost.
            Err(e) => eprintln!("koma worker: progress of job {}: {e}", job.id),
        }
    };
    let found = match finished {
        Ok(Ok(found)) => found,
        Ok(Err(e)) => {
            eprintln!("koma worker: job {} cannot be done: {e}", job.id);
            return Ok(());
        }
        Err(_) => return Ok(()),
    };
    if control.is_stopped() {
        return Ok(());
    }
    let what = format!(
        "game {}, {}, an analysis of {} s, depth {}",
        job.game, job.variant, job.seconds, found.depth
    );
    let result = ResultJson {
        lease: job.lease.clone(),
        positions: Vec::new(),
        mate: None,
        analysis: Some(found),
    };
    send(shared, &job, &result, &what, started).await
}
