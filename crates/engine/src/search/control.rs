//! How a running search is stopped, or told that pondering became a real
//! search, from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How a running search is told to stop, or that pondering turned into a
/// real search (`ponderhit`). Clone it to hand it to another thread.
#[derive(Clone, Default, Debug)]
pub struct SearchControl {
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
}

impl SearchControl {
    /// A control for one search; `pondering` if it starts as a ponder search.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(pondering)),
        }
    }

    /// Stops the search as soon as it looks (within about a thousand nodes).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponder_hit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// The flag [`SearchControl::stop`] sets, for work other than the
    /// search (a mate solve) to watch.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The same flag, shared, for work that keeps it beyond one borrow.
    pub fn shared_stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether [`SearchControl::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering (no `ponderhit` yet).
    pub(super) fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}
