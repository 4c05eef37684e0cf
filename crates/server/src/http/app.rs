//! What every request handler shares: the games, the stop signal, the
//! names the server answers to and each client's rate limit; and the
//! way handlers run blocking work. The HTTP routes (`api`) and the
//! WebSocket (`ws`) both build on it.

use super::client::ClientKey;
use super::rate::{quota, HTTP_PER_SECOND};
use crate::games::refusal::Refusal;
use crate::games::service::Games;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, RateLimiter};
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
    /// Each client's rate limit.
    pub limits: Arc<Limits>,
    /// How long a request's body may take to arrive.
    pub body_timeout: Duration,
    /// How often a quiet WebSocket is pinged.
    pub ping_interval: Duration,
    /// Mate searches' turns ([`App::mate_turns`] of them); more wait.
    pub mate_searches: Arc<Semaphore>,
    /// How many turns `mate_searches` has.
    pub mate_turns: u32,
    /// The analyses on the board: their bounds and engines.
    pub analyses: Arc<crate::study::analysis::Analyses>,
    /// The workers, with `--worker-keys` (their routes exist only then).
    pub workers: Option<Arc<crate::workers::service::Workers>>,
}

/// The HTTP rate limits of the clients: a bucket per client (an IPv4
/// address or an IPv6 /64, see `client`), so that opening a new connection
/// for each request gains nothing.
pub struct Limits {
    buckets: DefaultKeyedRateLimiter<ClientKey>,
    /// Requests a second a client may keep up (the burst is three times
    /// as many).
    pub per_second: u32,
    /// Whether `X-Forwarded-For` names the client (`--trust-proxy`).
    pub trust_proxy: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new(HTTP_PER_SECOND, false)
    }
}

/// Beyond this many remembered clients, those whose bucket is full again
/// (as a new one would be) are forgotten: the table holds only clients
/// seen in the last few seconds, however many addresses send.
const REMEMBERED_CLIENTS: usize = 4096;

impl Limits {
    /// `per_second` requests a second from each client, after a burst of
    /// three times as many.
    pub fn new(per_second: u32, trust_proxy: bool) -> Limits {
        let per_second = per_second.max(1);
        Limits {
            buckets: RateLimiter::keyed(quota(per_second, per_second.saturating_mul(3))),
            per_second,
            trust_proxy,
        }
    }

    /// Whether `client` may make a request now; if not, how long until it
    /// may.
    pub fn allow(&self, client: ClientKey) -> Result<(), Duration> {
        if self.buckets.len() >= REMEMBERED_CLIENTS {
            self.buckets.retain_recent();
        }
        self.buckets
            .check_key(&client)
            .map_err(|refused| refused.wait_time_from(DefaultClock::default().now()))
    }
}

impl App {
    /// How many mate searches run at once: one core is kept for the
    /// games (the computer opponent and the requests), at least one
    /// search runs.
    pub fn mate_turns() -> u32 {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        u32::try_from(cores.saturating_sub(1).max(1)).unwrap_or(1)
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
