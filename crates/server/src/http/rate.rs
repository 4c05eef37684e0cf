//! Rate limits: a token bucket for each client's HTTP requests and for
//! each WebSocket's messages, so that one client sending as fast as it can
//! slows only itself. People make a move a second at most; the limits are far above
//! that and far below what would load the server.
//!
//! The buckets are governor's (GCRA, which decides as a token bucket of
//! `burst` tokens refilled at `per_second` does): a keyed limiter for the
//! HTTP requests, by client address (`app::Limits`), and a direct one per
//! WebSocket.

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;

/// HTTP requests per second a client may keep up by default (`koma serve
/// --requests-per-second`), and the burst it may send at once (a page load
/// fetches a dozen files).
pub const HTTP_PER_SECOND: u32 = 20;
/// WebSocket messages per second a connection may keep up, and its burst.
pub const WS_PER_SECOND: u32 = 10;
/// See [`WS_PER_SECOND`].
pub const WS_BURST: u32 = 20;
/// Messages refused for speed after which a WebSocket is closed.
pub const WS_STRIKES: u32 = 100;

/// `per_second` requests a second after a burst of `burst`: a full bucket
/// of `burst` tokens, one refilled every 1/`per_second` s.
pub const fn quota(per_second: u32, burst: u32) -> Quota {
    const fn nonzero(n: u32) -> NonZeroU32 {
        match NonZeroU32::new(n) {
            Some(n) => n,
            None => panic!("a rate limit is never zero"),
        }
    }
    Quota::per_second(nonzero(per_second)).allow_burst(nonzero(burst))
}

/// The limit of one WebSocket: a full bucket.
pub fn websocket_limit() -> DefaultDirectRateLimiter {
    RateLimiter::direct(quota(WS_PER_SECOND, WS_BURST))
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::{Clock, FakeRelativeClock};
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let clock = FakeRelativeClock::default();
        let limit = RateLimiter::direct_with_clock(quota(10, 5), clock.clone());
        let allowed = (0..20).filter(|_| limit.check().is_ok()).count();
        assert_eq!(allowed, 5, "the burst");
        clock.advance(Duration::from_millis(50));
        let refused = limit.check().unwrap_err();
        assert!(refused.wait_time_from(clock.now()) <= Duration::from_millis(100));
        clock.advance(Duration::from_millis(100));
        assert!(limit.check().is_ok());
        // Ten seconds later: never more than the burst.
        clock.advance(Duration::from_secs(10));
        let allowed = (0..20).filter(|_| limit.check().is_ok()).count();
        assert_eq!(allowed, 5);
    }

    #[test]
    fn the_server_limits_hold_as_documented() {
        // HTTP: 60 at once, then one every 50 ms (20 a second).
        let clock = FakeRelativeClock::default();
        let http = RateLimiter::hashmap_with_clock(
            quota(HTTP_PER_SECOND, HTTP_PER_SECOND * 3),
            clock.clone(),
        );
        let peer: std::net::SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let other: std::net::SocketAddr = "127.0.0.1:4001".parse().unwrap();
        let allowed = (0..100).filter(|_| http.check_key(&peer).is_ok()).count();
        assert_eq!(allowed, 60);
        // Each client has its own bucket.
        assert!(http.check_key(&other).is_ok());
        let refused = http.check_key(&peer).unwrap_err();
        assert_eq!(
            refused.wait_time_from(clock.now()),
            Duration::from_millis(50)
        );
        clock.advance(Duration::from_secs(1));
        let allowed = (0..100).filter(|_| http.check_key(&peer).is_ok()).count();
        assert_eq!(allowed, 20);
        // A bucket full again is as a new one, and may be forgotten.
        clock.advance(Duration::from_secs(4));
        http.retain_recent();
        assert_eq!(http.len(), 0);

        // WebSocket: 20 at once, then 10 a second.
        let clock = FakeRelativeClock::default();
        let ws = RateLimiter::direct_with_clock(quota(WS_PER_SECOND, WS_BURST), clock.clone());
        assert_eq!((0..100).filter(|_| ws.check().is_ok()).count(), 20);
        clock.advance(Duration::from_secs(1));
        assert_eq!((0..100).filter(|_| ws.check().is_ok()).count(), 10);
    }
}
