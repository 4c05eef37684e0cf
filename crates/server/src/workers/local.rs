//! The server's own engines as a worker: with `--worker-keys`, a review
//! asked for on the board is queued, and unless `--analysis-engines 0`
//! one of the server's cores takes queued jobs too, one at a time, at the
//! study's low priority, through the same lease, check and keeping as a
//! remote worker's result. So a server with workers configured but none
//! running still reviews, and one whose workers are busy adds its own.

use super::protocol::{JobJson, ProgressJson, ResultJson};
use super::run;
use super::service::Workers;
use crate::priority::Work;
use koma_engine::SearchControl;
use std::sync::Arc;
use std::time::Duration;

/// The name the local worker has in the log.
pub const NAME: &str = "the server's own engine";

/// How long the local worker waits between looks at an empty queue.
const IDLE: Duration = Duration::from_millis(250);

/// Starts the local worker on a thread of its own, until `stopping`.
pub fn start(workers: Arc<Workers>, stopping: tokio::sync::watch::Receiver<bool>) {
    let spawned = std::thread::Builder::new()
        .name("koma-local-worker".to_owned())
        .spawn(move || {
            Work::Study.lower_this_thread();
            // Until the server stops, or is gone (its signal's sender with it).
            while !*stopping.borrow() && stopping.has_changed().is_ok() {
                match workers.acquire(NAME) {
                    Ok(Some(job)) => work(&workers, &job),
                    Ok(None) | Err(_) => std::thread::sleep(IDLE),
                }
            }
        });
    if let Err(e) = spawned {
        eprintln!("koma: the server's own engine cannot take reviews: {e}");
    }
}

/// Does `job`, reporting as a remote worker would.
fn work(workers: &Workers, job: &JobJson) {
    let control = SearchControl::new(false);
    let mut progress = |done: usize, _total: usize| {
        let report = ProgressJson {
            lease: job.lease.clone(),
            done,
        };
        if workers.progress(&job.id, &report).is_err() {
            // Lost or cancelled: stop searching for nobody.
            control.stop();
        }
    };
    match run::review_job(job, &control, &mut progress) {
        Ok(positions) => {
            let result = ResultJson {
                lease: job.lease.clone(),
                positions,
            };
            let _ = workers.result(NAME, &job.id, &result);
        }
        Err(run::RunError::Stopped) => {}
        Err(e) => {
            eprintln!("koma: {NAME} cannot do job {}: {e}", job.id);
        }
    }
}
