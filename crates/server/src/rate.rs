//! Per-connection rate limits: a token bucket for each HTTP connection and
//! each WebSocket, so that one client sending as fast as it can slows only
//! itself. People make a move a second at most; the limits are far above
//! that and far below what would load the server.

use std::time::{Duration, Instant};

/// HTTP requests per second a connection may keep up, and the burst it
/// may send at once (a page load fetches a dozen files).
pub const HTTP_PER_SECOND: f64 = 20.0;
/// See [`HTTP_PER_SECOND`].
pub const HTTP_BURST: f64 = 60.0;
/// WebSocket messages per second a connection may keep up, and its burst.
pub const WS_PER_SECOND: f64 = 10.0;
/// See [`WS_PER_SECOND`].
pub const WS_BURST: f64 = 20.0;
/// Messages refused for speed after which a WebSocket is closed.
pub const WS_STRIKES: u32 = 100;

/// A token bucket: `burst` tokens at most, refilled at `per_second`; each
/// request takes one.
#[derive(Debug)]
pub struct RateLimit {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl RateLimit {
    /// A full bucket.
    pub fn new(per_second: f64, burst: f64) -> RateLimit {
        RateLimit {
            tokens: burst,
            burst,
            per_second,
            last: Instant::now(),
        }
    }

    /// Takes a token at `now` if there is one.
    pub fn allow_at(&mut self, now: Instant) -> bool {
        let since = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now.max(self.last);
        self.tokens = (self.tokens + since * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Takes a token now if there is one.
    pub fn allow(&mut self) -> bool {
        self.allow_at(Instant::now())
    }

    /// When a token was last asked for.
    pub fn last_used(&self) -> Instant {
        self.last
    }

    /// How long until the next token.
    pub fn retry_after(&self) -> Duration {
        Duration::from_secs_f64(((1.0 - self.tokens).max(0.0) / self.per_second).max(0.001))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let start = Instant::now();
        let mut limit = RateLimit::new(10.0, 5.0);
        let allowed = (0..20).filter(|_| limit.allow_at(start)).count();
        assert_eq!(allowed, 5, "the burst");
        assert!(!limit.allow_at(start + Duration::from_millis(50)));
        assert!(limit.retry_after() <= Duration::from_millis(100));
        assert!(limit.allow_at(start + Duration::from_millis(150)));
        // One second later: ten more, never more than the burst.
        let later = start + Duration::from_secs(10);
        let allowed = (0..20).filter(|_| limit.allow_at(later)).count();
        assert_eq!(allowed, 5);
    }

    #[test]
    fn a_clock_going_backwards_gives_nothing() {
        let start = Instant::now() + Duration::from_secs(5);
        let mut limit = RateLimit::new(1.0, 1.0);
        assert!(limit.allow_at(start));
        assert!(!limit.allow_at(start - Duration::from_secs(4)));
        assert!(!limit.allow_at(start));
    }
}
