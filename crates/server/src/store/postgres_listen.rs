//! The task that tells a server of the changes other servers make to the
//! games they share in PostgreSQL: `LISTEN koma_games` on a connection of
//! its own, made again when it is lost. The notifications come through
//! tokio-postgres's `Connection::poll_message`.

use super::postgres_pool::{check, describe, setup, Target};
use super::{GameId, Notify};
use crate::games::clock::now_ms;
use std::future::poll_fn;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{AsyncMessage, Client, Notification};

/// The channel of `LISTEN`/`NOTIFY`; its payload is `<id> <version>`.
const CHANNEL: &str = "koma_games";

/// How often a quiet listening connection is checked, so that a
/// connection that died silently is noticed and replaced.
const LISTEN_CHECK: Duration = Duration::from_secs(30);

/// The longest wait between two attempts to reconnect the listener.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// After reconnecting, the listener tells of every game changed since a
/// little before the connection was lost (the servers' clocks may differ).
const CATCH_UP_MARGIN_MS: i64 = 60_000;

/// What the listening connection brings: a notification, or the error that
/// ended it.
type Message = Result<Notification, tokio_postgres::Error>;

/// The task that tells of the changes other servers make.
pub struct Listener {
    /// The database.
    pub target: Target,
    /// Told of each change.
    pub notify: Notify,
}

impl Listener {
    /// Listens until its task is ended (the store dropped); says on `ready`
    /// whether the first connection listens.
    pub async fn run(self, ready: oneshot::Sender<Result<(), String>>) {
        let mut ready = Some(ready);
        let mut backoff = Duration::from_millis(100);
        // Changes after this time (ms) may have been missed.
        let mut missed_since: Option<i64> = None;
        loop {
            match self.connect(missed_since).await {
                Ok((client, mut messages)) => {
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Ok(()));
                    }
                    if missed_since.take().is_some() {
                        eprintln!("koma: listening to the games database again");
                    }
                    backoff = Duration::from_millis(100);
                    let (error, alive) = self.listen(&client, &mut messages).await;
                    drop(client);
                    missed_since = Some(alive - CATCH_UP_MARGIN_MS);
                    eprintln!(
                        "koma: lost the connection that tells of other servers' moves ({}); \
                         connecting again",
                        self.target.redact(&error)
                    );
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
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    /// A listening connection, and what it brings (driven by a task of its
    /// own, which ends with the connection); the games changed since
    /// `missed_since` are told of first.
    async fn connect(
        &self,
        missed_since: Option<i64>,
    ) -> Result<(Client, mpsc::UnboundedReceiver<Message>), tokio_postgres::Error> {
        let (client, mut connection) = self.target.connect().await?;
        let (sender, messages) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(message) = poll_fn(|cx| connection.poll_message(cx)).await {
                let message = match message {
                    Ok(AsyncMessage::Notification(notification)) => Ok(notification),
                    // Notices and the like.
                    Ok(_) => continue,
                    Err(error) => Err(error),
                };
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        client.batch_execute(&setup()).await?;
        client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
        if let Some(since) = missed_since {
            self.catch_up(&client, since).await?;
        }
        Ok((client, messages))
    }

    /// Tells of notifications until the connection is lost: why, and when
    /// (ms) it was last known to work.
    async fn listen(
        &self,
        client: &Client,
        messages: &mut mpsc::UnboundedReceiver<Message>,
    ) -> (String, i64) {
        let mut alive = now_ms();
        loop {
            match tokio::time::timeout(LISTEN_CHECK, messages.recv()).await {
                Ok(Some(Ok(notification))) => {
                    alive = now_ms();
                    if notification.channel() == CHANNEL {
                        self.tell(notification.payload()).await;
                    }
                }
                Ok(Some(Err(error))) => return (describe(&error), alive),
                // The connection closed: the check says why.
                Ok(None) => {
                    let why = check(client).await.err();
                    return (why.unwrap_or_else(|| "connection closed".into()), alive);
                }
                // Quiet for LISTEN_CHECK: is it still there?
                Err(_) => match check(client).await {
                    Ok(()) => alive = now_ms(),
                    Err(why) => return (why, alive),
                },
            }
        }
    }

    /// Tells of every game changed since `since` (ms since 1970).
    async fn catch_up(&self, client: &Client, since: i64) -> Result<(), tokio_postgres::Error> {
        let rows = client
            .query(
                "SELECT id || ' ' || version FROM koma_games WHERE updated_at >= $1",
                &[&since],
            )
            .await?;
        for row in rows {
            if let Ok(payload) = row.try_get::<_, String>(0) {
                self.tell(&payload).await;
            }
        }
        Ok(())
    }

    /// Calls the callback for a payload `<id> <version>`; ignores others.
    /// The callback runs on tokio's blocking threads, where the server's
    /// code expects to be (it reads the store), one call after another.
    async fn tell(&self, payload: &str) {
        let Some((id, version)) = payload.split_once(' ') else {
            return;
        };
        let (Ok(id), Ok(version)) = (id.parse::<GameId>(), version.parse::<u64>()) else {
            return;
        };
        let notify = self.notify.clone();
        // A panic in the callback must not end the listening: it comes
        // back as an error, ignored.
        let _ = tokio::task::spawn_blocking(move || notify(id, version)).await;
    }
}
