//! The server's own engines as a worker: with `--worker-keys`, a review
//! or a mate search asked for on the board is queued, and unless
//! `--analysis-engines 0` the server's own cores take queued jobs too, at
//! the study's low priority, through the same lease, check and keeping as
//! a remote worker's result: one thread takes reviews one at a time, and
//! another mate searches, so that "Find mate" never waits behind a long
//! review (as the local search never did). So a server with workers
//! configured but none running still reviews and finds mates, and one
//! whose workers are busy adds its own.

use super::protocol::{JobJson, ProgressJson, ResultJson};
use super::queue::JobKind;
use super::run;
use super::service::Workers;
use crate::priority::Work;
use koma_engine::SearchControl;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The name the local worker has in the log.
pub const NAME: &str = "the server's own engine";

/// How long the local worker waits between looks at an empty queue.
const IDLE: Duration = Duration::from_millis(250);

/// Starts the local workers, one for reviews and one for mate searches,
/// each on a thread of its own, until `stopping`.
pub fn start(workers: Arc<Workers>, stopping: tokio::sync::watch::Receiver<bool>) {
    for (kind, thread) in [
        (JobKind::Review, "koma-local-worker"),
        (JobKind::Mate, "koma-local-mates"),
    ] {
        let (workers, stopping) = (workers.clone(), stopping.clone());
        let spawned = std::thread::Builder::new()
            .name(thread.to_owned())
            .spawn(move || {
                Work::Study.lower_this_thread();
                // Until the server stops, or is gone (its signal's sender with it).
                while !*stopping.borrow() && stopping.has_changed().is_ok() {
                    match workers.acquire(NAME, &[kind]) {
                        Ok(Some(job)) if job.kind == JobKind::Mate => mate(&workers, &job),
                        Ok(Some(job)) => work(&workers, &job),
                        Ok(None) | Err(_) => std::thread::sleep(IDLE),
                    }
                }
            });
        if let Err(e) = spawned {
            eprintln!(
                "koma: the server's own engine cannot take {} jobs: {e}",
                kind.word()
            );
        }
    }
}

/// Does mate search `job`, renewing its lease while the solver runs.
fn mate(workers: &Workers, job: &JobJson) {
    let renew = (workers.lease / 3).max(Duration::from_millis(100));
    let found = std::thread::scope(|scope| {
        let searching = scope.spawn(|| run::mate_job(job));
        let mut renewed = Instant::now();
        while !searching.is_finished() {
            std::thread::sleep(IDLE);
            if renewed.elapsed() >= renew {
                renewed = Instant::now();
                let report = ProgressJson {
                    lease: job.lease.clone(),
                    done: 0,
                    analysis: None,
                };
                // The solver cannot be stopped; a lost lease only wastes it.
                let _ = workers.progress(NAME, &job.id, &report);
            }
        }
        searching.join()
    });
    match found {
        Ok(Ok(answer)) => {
            let result = ResultJson {
                lease: job.lease.clone(),
                positions: Vec::new(),
                mate: Some(answer),
                analysis: None,
            };
            let _ = workers.result(NAME, &job.id, &result);
        }
        Ok(Err(e)) => eprintln!("koma: {NAME} cannot do job {}: {e}", job.id),
        Err(_) => eprintln!("koma: {NAME} failed on job {}", job.id),
    }
}

/// Does `job`, reporting as a remote worker would.
fn work(workers: &Workers, job: &JobJson) {
    let control = SearchControl::new(false);
    let mut progress = |done: usize, _total: usize| {
        let report = ProgressJson {
            lease: job.lease.clone(),
            done,
            analysis: None,
        };
        if workers.progress(NAME, &job.id, &report).is_err() {
            // Lost or cancelled: stop searching for nobody.
            control.stop();
        }
    };
    match run::review_job(job, &control, &mut progress) {
        Ok(positions) => {
            let result = ResultJson {
                lease: job.lease.clone(),
                positions,
                mate: None,
                analysis: None,
            };
            let _ = workers.result(NAME, &job.id, &result);
        }
        Err(run::RunError::Stopped) => {}
        Err(e) => {
            eprintln!("koma: {NAME} cannot do job {}: {e}", job.id);
        }
    }
}
