//! An analysis job: Koma's engine on the job's position with its MultiPV
//! lines, for its seconds, as the board's local analysis thinks. Someone
//! watches it live, so the first lines go to the server as soon as they
//! are found and later ones with the next progress report (four times a
//! second at most), and a lost lease (the viewer stopped, or moved on)
//! stops the engine at once.

use super::{send, Shared};
use crate::client::ClientError;
use koma_engine::SearchControl;
use koma_server::workers::protocol::{AnalysisResultJson, JobJson, ProgressJson, ResultJson};
use koma_server::workers::run;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// The shortest time between two reports of new lines.
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
    let fresh = Arc::new(Notify::new());
    let searching = {
        let (job, control) = (job.clone(), control.clone());
        let (latest, fresh) = (latest.clone(), fresh.clone());
        tokio::task::spawn_blocking(move || {
            let mut report = |found: &AnalysisResultJson| {
                let mut latest = latest.lock().unwrap_or_else(|e| e.into_inner());
                latest.found = Some(found.clone());
                latest.sets += 1;
                fresh.notify_one();
            };
            run::analysis_job(&job, &control, &mut report)
        })
    };
    tokio::pin!(searching);
    let renew = Duration::from_secs(job.lease_seconds.max(3) / 3);
    let (mut reported, mut renewed) = (0u64, Instant::now());
    let mut last_lines: Option<Instant> = None;
    let finished = loop {
        tokio::select! {
            finished = &mut searching => break finished,
            () = fresh.notified() => {}
            // At least once a second, so that Ctrl-C is heard at once.
            () = tokio::time::sleep(renew.min(Duration::from_secs(1))) => {}
        }
        if let Some(sent) = last_lines {
            // Lines at most every EVERY: the deepening's first depths
            // come far faster than anyone reads them.
            tokio::time::sleep(EVERY.saturating_sub(sent.elapsed())).await;
        }
        if shared.stopping() || control.is_stopped() {
            control.stop();
            continue;
        }
        let (sets, found) = {
            let latest = latest.lock().unwrap_or_else(|e| e.into_inner());
            (latest.sets, latest.found.clone())
        };
        if sets == reported && renewed.elapsed() < renew {
            continue;
        }
        let report = ProgressJson {
            lease: job.lease.clone(),
            done: 0,
            analysis: if sets == reported { None } else { found },
        };
        match shared.client.progress(&job.id, &report).await {
            Ok(()) => {
                if sets != reported {
                    last_lines = Some(Instant::now());
                }
                reported = sets;
                renewed = Instant::now();
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
