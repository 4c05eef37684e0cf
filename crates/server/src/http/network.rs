//! The server's side of TCP: accepting connections within the caps,
//! serving each with hyper under its timeouts, and closing them all when
//! the server stops.
//!
//! The timeouts and caps follow what nginx and lila-ws promise: a
//! request's headers arrive within a bound (hyper's header timeout, which
//! also bounds how long an idle keep-alive connection waits for its next
//! request), a connection on which nothing moves is closed ([`IdleIo`]),
//! a body is read within a bound (`bodies::read_body`), and a WebSocket is
//! pinged and closed when it stops answering (`ws`).

use super::client::ClientKey;
use super::connections::{Connections, Crowded, Ticket};
use super::idle_io::IdleIo;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};
use tower_service::Service;

/// The bounds on what one connection, and one client, may hold.
#[derive(Clone, Debug)]
pub struct NetworkLimits {
    /// A request's headers must arrive within this, counted from the
    /// connection's start or the end of the previous answer.
    pub header_timeout: Duration,
    /// A request's body must arrive within this, once its headers have.
    pub body_timeout: Duration,
    /// A connection on which no byte moves either way for this long is
    /// closed.
    pub idle_timeout: Duration,
    /// A WebSocket is pinged after this long without a message from its
    /// client, and closed after twice this long.
    pub ping_interval: Duration,
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one client (an IPv4 address or an
    /// IPv6 /64).
    pub max_client_connections: usize,
    /// HTTP requests a second one client may keep up (three times as many
    /// at once).
    pub requests_per_second: u32,
    /// Whether `X-Forwarded-For` names the client (behind a proxy).
    pub trust_proxy: bool,
}

impl Default for NetworkLimits {
    fn default() -> NetworkLimits {
        NetworkLimits {
            header_timeout: Duration::from_secs(20),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            ping_interval: Duration::from_secs(20),
            max_connections: 4096,
            max_client_connections: 256,
            requests_per_second: 20,
            trust_proxy: false,
        }
    }
}

/// Descriptors kept free beyond the connections: the games file, its
/// journal, PostgreSQL's connections, engines' files, the page's assets.
const RESERVED_FILES: u64 = 128;

/// Raises this process's limit of open files to what the system allows
/// (the soft limit is often 1,024 where the hard one is far higher) and
/// returns how many connections fit below it with room to spare.
pub fn connections_the_file_limit_allows() -> usize {
    // The soft limit raised to the hard one; where that fails (or on a
    // system without limits), the usual soft limit of 1,024.
    let files = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    usize::try_from(files.saturating_sub(RESERVED_FILES).max(16)).unwrap_or(usize::MAX)
}

/// Refusals of crowded connections being written at once; beyond these a
/// crowded connection is closed without a word.
pub(crate) const REFUSALS_AT_ONCE: usize = 64;

/// How long a refusal may take to write before the connection is dropped.
const REFUSAL_WRITE: Duration = Duration::from_secs(2);

/// Serves `router` on `listener` until `stopping` turns true, then lets
/// open requests finish within `grace`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: NetworkLimits,
    connections: Arc<Connections>,
    mut stopping: watch::Receiver<bool>,
    grace: Duration,
) {
    let refusals = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => Some(accepted),
            _ = stopping.wait_for(|&stop| stop) => None,
        };
        let Some(accepted) = accepted else { break };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors (EMFILE, ENFILE) or memory: wait for
                // some to close rather than spin on the error.
                if !is_connection_error(&e) {
                    eprintln!("koma: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            }
        };
        // Each state is one small WebSocket frame: sent at once, not held
        // back for the peer's acknowledgement of the last one (Nagle's
        // algorithm, which added about 40 ms to what a watcher saw).
        let _ = stream.set_nodelay(true);
        match connections.admit(ClientKey::of(peer.ip())) {
            Ok(ticket) => {
                let (router, limits, stopping) = (router.clone(), limits.clone(), stopping.clone());
                tokio::spawn(serve_connection(
                    stream, peer, ticket, router, limits, stopping, grace,
                ));
            }
            Err(crowded) => {
                if let Ok(permit) = refusals.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        refuse(stream, crowded).await;
                        drop(permit);
                    });
                }
            }
        }
    }
    // Stopped: the connections close on their own (each watches
    // `stopping`), within the grace.
    let _ = tokio::time::timeout(grace, connections.until_empty()).await;
}

/// Errors of one connection, not of the listener: try the next at once.
pub(crate) fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

/// One connection, served by hyper until it ends, times out or the server
/// stops.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    ticket: Arc<Ticket>,
    router: Router,
    limits: NetworkLimits,
    mut stopping: watch::Receiver<bool>,
    grace: Duration,
) {
    let io = TokioIo::new(IdleIo::new(stream, limits.idle_timeout));
    let held = ticket.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let extensions = request.extensions_mut();
        extensions.insert(ConnectInfo(peer));
        // A WebSocket upgraded from this connection keeps it counted.
        extensions.insert(held.clone());
        let mut router = router.clone();
        async move { router.call(request).await }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let connection = http.serve_connection(io, service).with_upgrades();
    tokio::pin!(connection);
    let stopped = tokio::select! {
        _ = connection.as_mut() => false,
        _ = stopping.wait_for(|&stop| stop) => true,
    };
    if stopped {
        connection.as_mut().graceful_shutdown();
        let _ = tokio::time::timeout(grace, connection).await;
    }
    drop(ticket);
}

/// Tells a crowded connection why it is closed: a `503` it can show.
async fn refuse(mut stream: TcpStream, crowded: Crowded) {
    let body = serde_json::json!({ "error": crowded.sentence() }).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_WRITE, async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
        // Read what the client sent, so that closing with it unread does
        // not reset the connection (and lose the answer) before the client
        // has read it.
        let mut sink = [0u8; 1024];
        while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
}
