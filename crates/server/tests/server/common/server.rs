//! A `koma serve` inside the test's own process, for tests written as
//! plain blocking functions: a [`Server`] owns a runtime of its own,
//! starts the server on it on a free port of loopback, hands the tests'
//! HTTP requests to its router (no connection, see `client`) and opens
//! WebSockets through the port. Dropping it stops the server gracefully.

use super::client::{with_token, Client, Reply};
use koma_server::{RunningServer, ServeArgs, ServeError};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::time::Duration;

/// The rate limit of the tests' servers, unless a test sets its own: every
/// request of a test comes from 127.0.0.1, one client to the server, and a
/// test imports and reads back records far faster than a person would.
const TEST_REQUESTS_PER_SECOND: &str = "100000";

/// How long dropping a server waits for the work left on its runtime (a
/// computer's search, an analysis) before abandoning it.
const RUNTIME_GRACE: Duration = Duration::from_secs(10);

/// A server on a free port of loopback, in this process.
pub struct Server {
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// Where the games are kept, as `koma serve` says it.
    pub kept: String,
    /// `127.0.0.1:PORT` of the CSA protocol, with `--csa-port`.
    pub csa_address: Option<String>,
    client: Client,
    running: Option<RunningServer>,
    runtime: Option<tokio::runtime::Runtime>,
}

/// Starts a server that keeps its games in memory (so that no test writes
/// into the user's games file).
pub fn start() -> Server {
    start_with(&["--memory"])
}

/// Starts a server with `koma serve`'s flags `extra` (and `--port 0`).
pub fn start_with(extra: &[&str]) -> Server {
    try_start_with(extra).unwrap_or_else(|why| panic!("koma serve {extra:?} does not start: {why}"))
}

/// [`start_with`], or why the server does not start (the flags are the
/// test's own: wrong ones panic).
pub fn try_start_with(extra: &[&str]) -> Result<Server, ServeError> {
    let mut flags = vec!["--port", "0"];
    flags.extend_from_slice(extra);
    if !extra.contains(&"--requests-per-second") {
        flags.extend(["--requests-per-second", TEST_REQUESTS_PER_SECOND]);
    }
    let args = ServeArgs::from_flags(flags.clone())
        .unwrap_or_else(|e| panic!("the flags {flags:?} are not koma serve's: {e}"));
    // Two workers, as `koma serve` runs: the tests see its concurrency.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let running = runtime.block_on(koma_server::start(args))?;
    let address = format!("127.0.0.1:{}", running.address.port());
    Ok(Server {
        client: Client {
            address: address.clone(),
            router: running.router.clone(),
            runtime: runtime.handle().clone(),
        },
        address,
        kept: running.kept.clone(),
        csa_address: running
            .csa_address
            .map(|csa| format!("127.0.0.1:{}", csa.port())),
        running: Some(running),
        runtime: Some(runtime),
    })
}

/// The state a `201 Created` answer carries; fails with its body otherwise.
fn created(reply: Reply) -> Value {
    assert_eq!(
        reply.status,
        201,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

impl Server {
    /// Stops the server as Ctrl-C would (WebSockets closed, requests
    /// finished) and waits until it has: its games file is free to open
    /// again.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if let (Some(running), Some(runtime)) = (self.running.take(), self.runtime.take()) {
            let stopped = runtime.block_on(running.stop());
            runtime.shutdown_timeout(RUNTIME_GRACE);
            if let Err(why) = stopped {
                if !std::thread::panicking() {
                    panic!("the server did not stop cleanly: {why}");
                }
            }
        }
    }

    /// A client of this server that can go to another thread.
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// A request with this Content-Type, if any.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Reply {
        self.client.request(method, path, content_type, body)
    }

    /// One request with exactly these headers (and Content-Length; a Host
    /// header when none is given).
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        self.client.request_with(method, path, headers, body)
    }

    /// [`Server::request_with`], saying why instead of panicking when the
    /// request cannot be made.
    pub fn try_request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Reply, String> {
        self.client.try_request_with(method, path, headers, body)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, None, b"")
    }

    /// `POST path` with a JSON body; a change to a game the tests created
    /// carries the player's seat token (see [`with_token`]).
    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_exactly(path, &with_token(path, body))
    }

    /// `POST path` with exactly this JSON body: no token added.
    pub fn post_exactly(&self, path: &str, body: &Value) -> Reply {
        self.request(
            "POST",
            path,
            Some("application/json"),
            body.to_string().as_bytes(),
        )
    }

    /// A new game of `variant`; its state.
    pub fn create(&self, variant: &str) -> Value {
        self.create_with(&json!({ "variant": variant }))
    }

    /// A new game as `request` asks (`POST /api/games`); its `201` answer,
    /// with the seat tokens.
    pub fn create_with(&self, request: &Value) -> Value {
        created(self.post("/api/games", request))
    }

    /// A new game holding the record `bytes`, read as the extension of
    /// `name` says (`POST /api/games/import`); its `201` answer.
    pub fn import(&self, name: &str, bytes: &[u8]) -> Value {
        let path = format!("/api/games/import?filename={name}");
        created(self.request("POST", &path, Some("application/octet-stream"), bytes))
    }

    /// Plays `moves` in game `id` from ply `from`; the last state.
    pub fn play(&self, id: &str, from: usize, moves: &[&str]) -> Value {
        let mut state = Value::Null;
        for (index, m) in moves.iter().enumerate() {
            let reply = self.post(
                &format!("/api/games/{id}/moves"),
                &json!({ "move": m, "ply": from + index }),
            );
            assert_eq!(
                reply.status,
                200,
                "{m}: {}",
                String::from_utf8_lossy(&reply.body)
            );
            state = reply.json();
            assert_eq!(state["ply"], from + index + 1);
            assert_eq!(
                state["lastMove"].as_str().unwrap().trim_end_matches('+'),
                m.trim_end_matches('+')
            );
        }
        state
    }

    /// Opens game `id`'s WebSocket, through the server's port.
    pub fn websocket(&self, id: &str) -> tungstenite::WebSocket<TcpStream> {
        let stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let url = format!("ws://{}/api/games/{id}/ws", self.address);
        let (socket, _) = tungstenite::client(url.as_str(), stream).expect("WebSocket opens");
        socket
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut_down();
    }
}
