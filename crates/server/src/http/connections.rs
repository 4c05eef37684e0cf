//! How many connections the server holds open, in all and per client, so
//! that one client holding idle sockets cannot take the file descriptors
//! everyone else needs (what nginx's `limit_conn` and
//! `worker_connections` do).
//!
//! A connection's [`Ticket`] counts it while it lives: the HTTP
//! connection holds it, and a WebSocket upgraded from it holds a clone
//! until the socket closes.

use super::client::ClientKey;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::Notify;

/// The open connections.
pub struct Connections {
    max_total: usize,
    max_per_client: usize,
    counts: Mutex<Counts>,
    /// Told when the last connection closes (for a graceful stop).
    emptied: Notify,
}

#[derive(Default)]
struct Counts {
    total: usize,
    per_client: HashMap<ClientKey, usize>,
}

/// Why a connection was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowded {
    /// The server holds all the connections it may.
    Server(usize),
    /// This client holds all the connections one client may.
    Client(usize),
}

impl Crowded {
    /// The sentence of the `503` that says so.
    pub fn sentence(self) -> String {
        match self {
            Crowded::Server(max) => format!(
                "The server is full: it holds {max} connections, all it may. Try again shortly."
            ),
            Crowded::Client(max) => format!(
                "Too many connections from your address: at most {max} at once. Close some and try again."
            ),
        }
    }
}

/// One open connection, counted until the last clone is dropped.
pub struct Ticket {
    connections: Arc<Connections>,
    client: ClientKey,
}

impl Connections {
    /// At most `max_total` connections, `max_per_client` of them from one
    /// client.
    pub fn new(max_total: usize, max_per_client: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max_total: max_total.max(1),
            max_per_client: max_per_client.max(1),
            counts: Mutex::default(),
            emptied: Notify::new(),
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        // The counts are plain numbers, whole even if a holder panicked.
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a new connection from `client`, if there is room for it.
    pub fn admit(self: &Arc<Self>, client: ClientKey) -> Result<Arc<Ticket>, Crowded> {
        let mut counts = self.counts();
        if counts.total >= self.max_total {
            return Err(Crowded::Server(self.max_total));
        }
        let held = counts.per_client.entry(client).or_insert(0);
        if *held >= self.max_per_client {
            return Err(Crowded::Client(self.max_per_client));
        }
        *held += 1;
        counts.total += 1;
        Ok(Arc::new(Ticket {
            connections: self.clone(),
            client,
        }))
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.counts().total
    }

    /// Waits until no connection is open.
    pub async fn until_empty(&self) {
        loop {
            let emptied = self.emptied.notified();
            if self.open() == 0 {
                return;
            }
            emptied.await;
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.connections.counts();
        counts.total = counts.total.saturating_sub(1);
        if let Some(held) = counts.per_client.get_mut(&self.client) {
            *held -= 1;
            if *held == 0 {
                counts.per_client.remove(&self.client);
            }
        }
        if counts.total == 0 {
            self.connections.emptied.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> ClientKey {
        ClientKey::of(text.parse().unwrap())
    }

    #[test]
    fn one_client_cannot_take_every_connection() {
        let connections = Connections::new(5, 2);
        let a1 = connections.admit(key("192.0.2.1")).unwrap();
        let _a2 = connections.admit(key("192.0.2.1")).unwrap();
        assert_eq!(
            connections.admit(key("192.0.2.1")).err(),
            Some(Crowded::Client(2))
        );
        let _b1 = connections.admit(key("192.0.2.2")).unwrap();
        let _b2 = connections.admit(key("192.0.2.2")).unwrap();
        let _c1 = connections.admit(key("192.0.2.3")).unwrap();
        assert_eq!(
            connections.admit(key("192.0.2.4")).err(),
            Some(Crowded::Server(5))
        );
        // A clone (a WebSocket's) keeps the connection counted.
        let kept = a1.clone();
        drop(a1);
        assert_eq!(connections.open(), 5);
        drop(kept);
        assert_eq!(connections.open(), 4);
        assert!(connections.admit(key("192.0.2.1")).is_ok());
    }
}
