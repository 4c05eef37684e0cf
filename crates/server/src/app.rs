//! What every request handler shares: the games, the stop signal, the
//! names the server answers to and each connection's rate limit; and the
//! way handlers run blocking work. The HTTP routes (`api`) and the
//! WebSocket (`ws`) both build on it.

use super::rate::HTTP_QUOTA;
use super::refusal::Refusal;
use super::service::Games;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    /// The games.
    pub games: Arc<Games>,
    /// Becomes `true` when the server is stopping (WebSockets close then).
    pub shutdown: watch::Receiver<bool>,
    /// The `host:port` names this server answers to (see `api::guard`);
    /// `None` when it listens beyond loopback (`--listen`), where any name
    /// may be the machine's.
    pub hosts: Option<Arc<Vec<String>>>,
    /// Each connection's rate limit, by its peer address and port.
    pub limits: Arc<Limits>,
    /// Mate searches that may run at once; more wait for a permit.
    pub mate_searches: Arc<Semaphore>,
    /// The analyses on the board: their bounds and engines.
    pub analyses: Arc<super::analysis::Analyses>,
}

/// The rate limits of the open connections: a bucket per peer address and
/// port, that is per connection.
pub struct Limits {
    buckets: DefaultKeyedRateLimiter<SocketAddr>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            buckets: RateLimiter::keyed(HTTP_QUOTA),
        }
    }
}

/// Beyond this many remembered connections, those whose bucket is full
/// again (as a new one would be) are forgotten (their port may be reused).
const REMEMBERED_CONNECTIONS: usize = 4096;

impl Limits {
    /// Whether the connection from `peer` may make a request now; if not,
    /// how long until it may.
    pub fn allow(&self, peer: SocketAddr) -> Result<(), Duration> {
        if self.buckets.len() >= REMEMBERED_CONNECTIONS {
            self.buckets.retain_recent();
        }
        self.buckets
            .check_key(&peer)
            .map_err(|refused| refused.wait_time_from(DefaultClock::default().now()))
    }
}

impl App {
    /// Permits for mate searches: one core is kept for the games (the
    /// computer opponent and the requests), at least one search runs.
    pub fn mate_searches() -> Arc<Semaphore> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Arc::new(Semaphore::new(cores.saturating_sub(1).max(1)))
    }

    /// The names a server on loopback `port` answers to.
    pub fn loopback_hosts(port: u16) -> Vec<String> {
        ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|host| format!("{host}:{port}"))
            .collect()
    }
}

/// Runs `work`, which may wait for the database, on tokio's blocking
/// threads, so that the async threads keep serving other requests.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Err(Refusal::internal("The request failed inside the server.")))
}
