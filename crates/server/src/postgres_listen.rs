//! The thread that tells a server of the changes other servers make to the
//! games they share in PostgreSQL: `LISTEN koma_games` on a connection of
//! its own, made again when it is lost.

use super::clock::now_ms;
use super::postgres_pool::{describe, Target, CONNECT_TIMEOUT};
use super::store::{GameId, Notify};
use postgres::fallible_iterator::FallibleIterator;
use postgres::Client;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The channel of `LISTEN`/`NOTIFY`; its payload is `<id> <version>`.
const CHANNEL: &str = "koma_games";

/// How often the listening thread looks whether the store was dropped.
const LISTEN_POLL: Duration = Duration::from_millis(500);

/// How often a quiet listening connection is checked, so that a
/// connection that died silently is noticed and replaced.
const LISTEN_CHECK: Duration = Duration::from_secs(30);

/// The longest wait between two attempts to reconnect the listener.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// After reconnecting, the listener tells of every game changed since a
/// little before the connection was lost (the servers' clocks may differ).
const CATCH_UP_MARGIN_MS: i64 = 60_000;

/// The thread that tells of the changes other servers make.
pub struct Listener {
    /// The database.
    pub target: Target,
    /// Set when the store is dropped.
    pub stopped: Arc<AtomicBool>,
    /// Told of each change.
    pub notify: Notify,
}

impl Listener {
    /// Listens until the store is dropped; says on `ready` whether the
    /// first connection listens.
    pub fn run(self, ready: mpsc::Sender<Result<(), String>>) {
        let mut ready = Some(ready);
        let mut backoff = Duration::from_millis(100);
        // Changes after this time (ms) may have been missed.
        let mut missed_since: Option<i64> = None;
        while !self.stopped.load(Ordering::Relaxed) {
            let connected = self.target.connect().and_then(|mut client| {
                client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
                if let Some(since) = missed_since {
                    self.catch_up(&mut client, since)?;
                }
                Ok(client)
            });
            match connected {
                Ok(mut client) => {
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Ok(()));
                    }
                    if missed_since.take().is_some() {
                        eprintln!("koma: listening to the games database again");
                    }
                    backoff = Duration::from_millis(100);
                    let lost = self.listen(&mut client);
                    drop(client);
                    if let Some((error, alive)) = lost {
                        missed_since = Some(alive - CATCH_UP_MARGIN_MS);
                        eprintln!(
                            "koma: lost the connection that tells of other servers' moves ({}); \
                             connecting again",
                            self.target.redact(&describe(&error))
                        );
                    }
                }
                Err(error) => {
                    let message = format!(
                        "cannot listen to the games database {}: {}",
                        self.target.shown,
                        self.target.redact(&describe(&error))
                    );
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Err(message));
                        return;
                    }
                    let until = Instant::now() + backoff;
                    while Instant::now() < until && !self.stopped.load(Ordering::Relaxed) {
                        std::thread::sleep(LISTEN_POLL.min(until - Instant::now()));
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    /// Tells of notifications until the store is dropped (`None`) or the
    /// connection is lost: why, and when (ms) it was last known to work.
    fn listen(&self, client: &mut Client) -> Option<(postgres::Error, i64)> {
        let mut checked = Instant::now();
        let mut alive = now_ms();
        while !self.stopped.load(Ordering::Relaxed) {
            {
                let mut notifications = client.notifications();
                let mut waiting = notifications.timeout_iter(LISTEN_POLL);
                // `None` after LISTEN_POLL without any, or when the connection
                // closed: told apart below.
                loop {
                    match waiting.next() {
                        Ok(Some(notification)) => {
                            (checked, alive) = (Instant::now(), now_ms());
                            if notification.channel() == CHANNEL {
                                self.tell(notification.payload());
                            }
                        }
                        Ok(None) => break,
                        Err(error) => return Some((error, alive)),
                    }
                }
            }
            if client.is_closed() || checked.elapsed() >= LISTEN_CHECK {
                if let Err(error) = client.is_valid(CONNECT_TIMEOUT) {
                    return Some((error, alive));
                }
                (checked, alive) = (Instant::now(), now_ms());
            }
        }
        None
    }

    /// Tells of every game changed since `since` (ms since 1970).
    fn catch_up(&self, client: &mut Client, since: i64) -> Result<(), postgres::Error> {
        let rows = client.query(
            "SELECT id || ' ' || version FROM koma_games WHERE updated_at >= $1",
            &[&since],
        )?;
        for row in rows {
            if let Ok(payload) = row.try_get::<_, String>(0) {
                self.tell(&payload);
            }
        }
        Ok(())
    }

    /// Calls the callback for a payload `<id> <version>`; ignores others.
    fn tell(&self, payload: &str) {
        let Some((id, version)) = payload.split_once(' ') else {
            return;
        };
        let (Ok(id), Ok(version)) = (id.parse::<GameId>(), version.parse::<u64>()) else {
            return;
        };
        // A panic in the callback must not end the listening.
        let notify = &self.notify;
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| notify(id, version)));
    }
}
