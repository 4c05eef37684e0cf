//! The innocent client: from its own address, one `GET /api/variants`
//! every so often, each on a new connection, timed from the connect to
//! the whole answer. It runs on a thread and runtime of its own, so that
//! its latencies are the server's, not the wait for the tool's one thread
//! while that thread floods.

use super::net::{self, INNOCENT};
use crate::args::Target;
use crate::stats::{micros, Summary};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use tokio::time::MissedTickBehavior;

/// How often the innocent client asks during the flood (the 50 ms:
/// 20 a second, within the server's default rate for one client).
pub const EVERY: Duration = Duration::from_millis(50);

/// What the innocent client saw.
#[derive(Debug, Default)]
pub struct Samples {
    /// Requests sent.
    pub sent: usize,
    /// Latencies of the answers `200`, in microseconds.
    pub answered: Vec<u32>,
    /// Answers other than `200`, and requests that failed.
    pub refused: usize,
    /// What went wrong first, if anything did.
    pub first_problem: Option<String>,
}

impl Samples {
    /// Whether every request was answered `200`.
    pub fn all_answered(&self) -> bool {
        self.sent > 0 && self.refused == 0 && self.answered.len() == self.sent
    }

    /// Median and percentiles of the `200` answers, in milliseconds.
    pub fn summary(&mut self) -> Summary {
        Summary::of(&mut self.answered)
    }

    /// "answered 18 of 20 (first problem: …)".
    pub fn answered_words(&self) -> String {
        let mut words = format!("answered {} of {}", self.answered.len(), self.sent);
        if let Some(problem) = &self.first_problem {
            words += &format!(" ({problem})");
        }
        words
    }
}

/// Starts the innocent client: a request every `every` until `until`.
pub fn start(target: Target, every: Duration, until: Instant) -> oneshot::Receiver<Samples> {
    let (sender, receiver) = oneshot::channel();
    std::thread::spawn(move || {
        let samples = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime.block_on(ask(&target, every, until)),
            Err(e) => Samples {
                first_problem: Some(format!("cannot start the innocent client: {e}")),
                ..Samples::default()
            },
        };
        let _ = sender.send(samples);
    });
    receiver
}

/// What the innocent client started by [`start`] saw, once it is done.
pub async fn finish(receiver: oneshot::Receiver<Samples>) -> Samples {
    receiver.await.unwrap_or_else(|_| Samples {
        first_problem: Some("the innocent client's thread failed".into()),
        ..Samples::default()
    })
}

async fn ask(target: &Target, every: Duration, until: Instant) -> Samples {
    let mut samples = Samples::default();
    let mut tick = tokio::time::interval(every);
    // Never faster than `every` on average, even after a slow answer: a
    // burst would be refused by the rate limit, which is not the point.
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if Instant::now() >= until {
            return samples;
        }
        let start = Instant::now();
        samples.sent += 1;
        match net::exchange(INNOCENT, target, "GET", "/api/variants", b"").await {
            Ok(answer) if answer.status == 200 => samples.answered.push(micros(start.elapsed())),
            Ok(answer) => {
                samples.refused += 1;
                samples
                    .first_problem
                    .get_or_insert_with(|| format!("{}: {}", answer.status, answer.sentence()));
            }
            Err(e) => {
                samples.refused += 1;
                samples.first_problem.get_or_insert_with(|| e.to_string());
            }
        }
    }
}
