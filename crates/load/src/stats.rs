//! What a run counts: moves, games and errors as they happen (shared by
//! every game, read by the progress display), and each game's latencies,
//! merged at the end.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What went wrong, counted apart: a correct run has none of any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The server refused a request: an `"error"` message on a WebSocket
    /// or an HTTP status other than the expected one.
    Refused,
    /// A connection could not be opened or was closed by the server.
    Disconnected,
    /// No answer came in time.
    TimedOut,
    /// An answer that is not what the API describes.
    Protocol,
}

impl ErrorKind {
    /// Every kind, in the order of the report.
    pub const ALL: [ErrorKind; 4] = [
        ErrorKind::Refused,
        ErrorKind::Disconnected,
        ErrorKind::TimedOut,
        ErrorKind::Protocol,
    ];

    /// The kind's word in the reports.
    pub fn word(self) -> &'static str {
        match self {
            ErrorKind::Refused => "refused",
            ErrorKind::Disconnected => "disconnected",
            ErrorKind::TimedOut => "timedOut",
            ErrorKind::Protocol => "protocol",
        }
    }
}

/// One error: its kind and a sentence.
#[derive(Debug)]
pub struct Failure {
    /// What kind of error.
    pub kind: ErrorKind,
    /// What happened, for people.
    pub message: String,
}

impl Failure {
    /// A failure of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }
}

/// The counts every game adds to.
#[derive(Debug, Default)]
pub struct Counters {
    /// Moves the mover's socket saw played.
    pub moves: AtomicU64,
    /// Games that ended or reached the move limit.
    pub games: AtomicU64,
    errors: [AtomicU64; ErrorKind::ALL.len()],
    /// The first error's sentence, to tell what went wrong.
    first_error: Mutex<Option<String>>,
}

impl Counters {
    /// Counts `failure`.
    pub fn error(&self, failure: &Failure) {
        self.errors[failure.kind as usize].fetch_add(1, Ordering::Relaxed);
        if let Ok(mut first) = self.first_error.lock() {
            first.get_or_insert_with(|| failure.message.clone());
        }
    }

    /// Errors of `kind` so far.
    pub fn errors_of(&self, kind: ErrorKind) -> u64 {
        self.errors[kind as usize].load(Ordering::Relaxed)
    }

    /// All errors so far.
    pub fn errors(&self) -> u64 {
        ErrorKind::ALL
            .iter()
            .map(|&kind| self.errors_of(kind))
            .sum()
    }

    /// The first error's sentence, if there was one.
    pub fn first_error(&self) -> Option<String> {
        self.first_error.lock().ok().and_then(|first| first.clone())
    }
}

/// Move latencies in microseconds (a `u32` holds over an hour).
#[derive(Debug, Default)]
pub struct Latencies {
    /// From sending a move to the mover's socket seeing it played.
    pub mover: Vec<u32>,
    /// From sending a move to the opponent's socket seeing it played.
    pub opponent: Vec<u32>,
}

impl Latencies {
    /// Adds `other`'s latencies to these.
    pub fn merge(&mut self, other: Latencies) {
        self.mover.extend(other.mover);
        self.opponent.extend(other.opponent);
    }
}

/// Microseconds of `duration`, at most `u32::MAX`.
pub fn micros(duration: Duration) -> u32 {
    u32::try_from(duration.as_micros()).unwrap_or(u32::MAX)
}

/// Median, 90th and 99th percentiles and maximum of some latencies, in
/// milliseconds; `None` when there were none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// How many latencies.
    pub count: usize,
    /// The median.
    pub median: Option<f64>,
    /// The 90th percentile.
    pub p90: Option<f64>,
    /// The 99th percentile.
    pub p99: Option<f64>,
    /// The largest.
    pub max: Option<f64>,
}

impl Summary {
    /// The summary of `micros` (sorted here).
    pub fn of(micros: &mut [u32]) -> Summary {
        micros.sort_unstable();
        // Nearest rank: the smallest value with at least `p` of all at or
        // below it, so that every figure is one that was measured.
        let rank = |p: f64| {
            let index = ((p * micros.len() as f64).ceil() as usize).max(1) - 1;
            micros.get(index).map(|&us| f64::from(us) / 1000.0)
        };
        Summary {
            count: micros.len(),
            median: rank(0.5),
            p90: rank(0.9),
            p99: rank(0.99),
            max: micros.last().map(|&us| f64::from(us) / 1000.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut micros: Vec<u32> = (1..=100).rev().map(|ms| ms * 1000).collect();
        let summary = Summary::of(&mut micros);
        assert_eq!(summary.count, 100);
        assert_eq!(summary.median, Some(50.0));
        assert_eq!(summary.p90, Some(90.0));
        assert_eq!(summary.p99, Some(99.0));
        assert_eq!(summary.max, Some(100.0));
        let one = Summary::of(&mut [1500]);
        assert_eq!(
            (one.median, one.p99, one.max),
            (Some(1.5), Some(1.5), Some(1.5))
        );
        let none = Summary::of(&mut []);
        assert_eq!((none.count, none.median, none.max), (0, None, None));
    }

    #[test]
    fn errors_are_counted_by_kind() {
        let counters = Counters::default();
        assert_eq!(counters.errors(), 0);
        counters.error(&Failure::new(ErrorKind::Refused, "first"));
        counters.error(&Failure::new(ErrorKind::TimedOut, "second"));
        counters.error(&Failure::new(ErrorKind::Refused, "third"));
        assert_eq!(counters.errors(), 3);
        assert_eq!(counters.errors_of(ErrorKind::Refused), 2);
        assert_eq!(counters.errors_of(ErrorKind::Disconnected), 0);
        assert_eq!(counters.first_error().as_deref(), Some("first"));
    }
}
