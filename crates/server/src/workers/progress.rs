//! A queued review's progress relayed to the connection that asked for
//! it: the job's status is read from the queue a few times a second (so
//! that progress reported to another server sharing the queue reaches it
//! too) and each change goes out as the board's review message, the same
//! `waiting` / `running` / `done` / `failed` a local review sends.
//! Dropping the watch cancels the job.

use super::queue::{JobQueue, JobState};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often the queue is read.
pub const POLL: Duration = Duration::from_millis(200);

/// A review message: status word, positions done, error.
pub type Message = Box<dyn Fn(&'static str, usize, Option<String>) -> String + Send + Sync>;

/// Cancels its job when dropped, unless it is over: the watch of a
/// review here, the wait for a mate search in `mate_jobs`.
pub struct CancelOnDrop {
    queue: Arc<dyn JobQueue>,
    job: String,
    /// Whether the job is over, so that there is nothing to cancel.
    pub over: bool,
}

impl CancelOnDrop {
    /// Cancels `job` of `queue` when dropped, unless marked over.
    pub fn new(queue: Arc<dyn JobQueue>, job: String) -> CancelOnDrop {
        CancelOnDrop {
            queue,
            job,
            over: false,
        }
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.over {
            let (queue, job) = (self.queue.clone(), std::mem::take(&mut self.job));
            // The queue may wait for its database: off the async threads.
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn_blocking(move || {
                        let _ = queue.cancel(&job);
                    });
                }
                Err(_) => {
                    let _ = queue.cancel(&job);
                }
            }
        }
    }
}

/// Sends job `job`'s progress on `out` as `message` writes it until the
/// job is over. Dropping the future (aborting its task) cancels the job.
pub async fn relay(
    queue: Arc<dyn JobQueue>,
    job: String,
    out: mpsc::UnboundedSender<String>,
    message: Message,
) {
    {
        let mut guard = CancelOnDrop::new(queue.clone(), job.clone());
        let mut last: Option<(&'static str, usize)> = None;
        loop {
            let (reading, id) = (queue.clone(), job.clone());
            let status = tokio::task::spawn_blocking(move || reading.status(&id)).await;
            let (word, done, error) = match status {
                Ok(Ok(Some(status))) => match status.state {
                    JobState::Queued => ("waiting", 0, None),
                    JobState::Leased => ("running", status.done, None),
                    JobState::Saving => ("running", status.total, None),
                    JobState::Done => ("done", status.total, None),
                    JobState::Failed => ("failed", 0, status.error),
                    JobState::Cancelled => {
                        ("failed", 0, Some("The review was stopped.".to_owned()))
                    }
                },
                Ok(Ok(None)) => ("failed", 0, Some("The review's job is gone.".to_owned())),
                // A database that fails for a moment: read again.
                Ok(Err(_)) | Err(_) => {
                    tokio::time::sleep(POLL).await;
                    continue;
                }
            };
            if last != Some((word, done)) {
                last = Some((word, done));
                if out.send(message(word, done, error)).is_err() {
                    return;
                }
            }
            if matches!(word, "done" | "failed") {
                guard.over = true;
                return;
            }
            tokio::time::sleep(POLL).await;
        }
    }
}
