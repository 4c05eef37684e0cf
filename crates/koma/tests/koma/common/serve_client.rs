//! A client of `koma serve` for the tests that need it as a process of
//! its own (`serve_process.rs`, `serve_damage.rs`): the real binary on a
//! free port, spoken to over plain HTTP/1.1 and over WebSocket. The
//! server's other tests run it inside their process
//! (crates/server/tests/server/).

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

pub use crate::common::TempDir;

/// What the tests remember of each game they created: the seat tokens of
/// the `201` answer and who moved first. Game ids are random, so one table
/// serves every server of a test program (two servers may share games).
struct Seated {
    seats: Value,
    first: String,
    second: String,
    first_to_move: bool,
}

static SEATS: Mutex<BTreeMap<String, Seated>> = Mutex::new(BTreeMap::new());

/// Keeps the seat tokens of a game that `reply` created.
fn remember(reply: &Reply) {
    if reply.status != 201 {
        return;
    }
    let Ok(state) = serde_json::from_slice::<Value>(&reply.body) else {
        return;
    };
    let (Some(id), Some(variant)) = (state["id"].as_str(), state["variant"].as_str()) else {
        return;
    };
    let (first, second) = if variant == "pawns" {
        ("white", "black")
    } else {
        ("sente", "gote")
    };
    let first_to_move = state["turn"] == first;
    let ply = state["ply"].as_u64().unwrap_or(0);
    SEATS.lock().unwrap().insert(
        id.to_owned(),
        Seated {
            seats: state["seats"].clone(),
            first: first.to_owned(),
            second: second.to_owned(),
            // Who moves at ply 0, from who moves now.
            first_to_move: first_to_move == (ply % 2 == 0),
        },
    );
}

/// The seat token of `side` in game `id`, as its creation answered.
pub fn token(id: &str, side: &str) -> Option<String> {
    let seats = SEATS.lock().unwrap();
    seats.get(id)?.seats[side].as_str().map(str::to_owned)
}

/// `body` with the token a player would send, unless it has one: for a
/// move, the token of the side to move at its `ply`; for a resignation, of
/// its `color` (else the side to move); for an undo or a declaration, of
/// the side to move.
/// Tests of the seats themselves send their tokens explicitly.
fn with_token(path: &str, body: &Value) -> Value {
    let mut parts = path.trim_start_matches("/api/games/").split('/');
    let (Some(id), Some("moves" | "undo" | "resign" | "declare")) = (parts.next(), parts.next())
    else {
        return body.clone();
    };
    if body.get("token").is_some() || !body.is_object() {
        return body.clone();
    }
    let seats = SEATS.lock().unwrap();
    let Some(game) = seats.get(id) else {
        return body.clone();
    };
    let ply = body["ply"].as_u64().unwrap_or(0);
    let first_moves = game.first_to_move == (ply % 2 == 0);
    let side = match body["color"].as_str() {
        Some(color) if color == game.first || color == game.second => color.to_owned(),
        _ if first_moves => game.first.clone(),
        _ => game.second.clone(),
    };
    let mut body = body.clone();
    if let Some(token) = game.seats[side.as_str()].as_str() {
        body["token"] = json!(token);
    }
    body
}

/// A running `koma serve --port 0`, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// The second line printed: where the games are kept.
    pub kept: String,
    /// Kept open: a closed pipe would make a later line fail.
    pub stdout: BufReader<ChildStdout>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// The value of header `name`, any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON (panics, naming the body, when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body[..self.body.len().min(500)])
            )
        })
    }
}

/// Starts `koma serve --port 0 --memory` (so that no test writes into the
/// user's games file) and reads the address it prints.
pub fn start() -> Server {
    start_with(&["--memory"])
}

/// Starts `koma serve --port 0` with `extra` arguments and reads the two
/// lines it prints: the address, and where the games are kept.
pub fn start_with(extra: &[&str]) -> Server {
    start_logging(extra, Stdio::inherit())
}

/// The rate limit of the tests' servers, unless a test sets its own: every
/// request of a test comes from 127.0.0.1, one client to the server, and a
/// test imports and reads back records far faster than a person would.
const TEST_REQUESTS_PER_SECOND: &str = "100000";

/// [`start_with`], the server's standard error going to `stderr`.
pub fn start_logging(extra: &[&str], stderr: Stdio) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_koma"));
    command.args(["serve", "--port", "0"]).args(extra);
    if !extra.contains(&"--requests-per-second") {
        command.args(["--requests-per-second", TEST_REQUESTS_PER_SECOND]);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("koma serve starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    stdout
        .read_line(&mut line)
        .expect("koma serve prints its address");
    let address = line
        .trim()
        .strip_prefix("Koma is serving http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let mut kept = String::new();
    stdout
        .read_line(&mut kept)
        .expect("koma serve says where the games are kept");
    assert!(kept.starts_with("Games are kept in "), "{kept:?}");
    Server {
        child,
        address,
        kept: kept.trim().to_owned(),
        stdout,
    }
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

/// Undoes chunked transfer encoding; `None` when the body was cut short.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let end = body.windows(2).position(|w| w == b"\r\n")?;
        let size_text = String::from_utf8_lossy(&body[..end]);
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(end + 2..end + 2 + size)?);
        body = body.get(end + 2 + size + 2..)?;
    }
}

impl Server {
    /// A request with this Content-Type, if any.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Reply {
        let host = self.address.clone();
        let mut headers = vec![("Host", host.as_str())];
        if let Some(content_type) = content_type {
            headers.push(("Content-Type", content_type));
        }
        self.request_with(method, path, &headers, body)
    }

    /// One HTTP/1.1 request on its own connection, with exactly these
    /// headers (and Content-Length; a Host header when none is given). The
    /// body is written by another thread, so that a server that answers
    /// before reading all of it (413) cannot block the test.
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        self.try_request_with(method, path, headers, body)
            .unwrap_or_else(|why| panic!("{method} {path}: {why}"))
    }

    /// [`Server::request_with`], saying why instead of panicking when the
    /// server cannot be reached or gives no whole answer (it was killed).
    pub fn try_request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Reply, String> {
        self.client().try_request_with(method, path, headers, body)
    }

    /// A client of this server that can go to another thread, while this
    /// one keeps the process (to kill it, say).
    pub fn client(&self) -> Client {
        Client {
            address: self.address.clone(),
        }
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

    /// Opens game `id`'s WebSocket.
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

/// Speaks to a server without owning its process.
#[derive(Clone)]
pub struct Client {
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Client {
    /// One request as [`Server::request_with`] sends it, or why there was
    /// no whole answer (the server cannot be reached, or was killed).
    pub fn try_request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Reply, String> {
        let stream =
            TcpStream::connect(&self.address).map_err(|e| format!("cannot connect: {e}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            head.push_str(&format!("Host: {}\r\n", self.address));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        let sending = std::thread::spawn(move || {
            let _ = writer.write_all(&bytes);
        });
        let mut raw = Vec::new();
        let mut reader = stream;
        // A reset after the whole answer arrived (the server closing on an
        // unread body) is no failure: the answer is what counts.
        let _ = reader.read_to_end(&mut raw);
        let _ = sending.join();
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| format!("no HTTP answer: {:?}", String::from_utf8_lossy(&raw)))?;
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| format!("no HTTP status: {head:?}"))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
            .collect();
        let mut reply = Reply {
            status,
            headers,
            body: raw[split + 4..].to_vec(),
        };
        if reply
            .header("transfer-encoding")
            .is_some_and(|v| v.contains("chunked"))
        {
            reply.body = dechunk(&reply.body).ok_or("the answer was cut short")?;
        } else if let Some(length) = reply
            .header("content-length")
            .and_then(|v| v.parse::<usize>().ok())
        {
            if reply.body.len() < length {
                return Err("the answer was cut short".to_owned());
            }
        }
        remember(&reply);
        Ok(reply)
    }

    /// `POST path` with a JSON body (with the player's token, as
    /// [`Server::post`]), or why there was no answer.
    pub fn try_post(&self, path: &str, body: &Value) -> Result<Reply, String> {
        let host = self.address.clone();
        self.try_request_with(
            "POST",
            path,
            &[
                ("Host", host.as_str()),
                ("Content-Type", "application/json"),
            ],
            with_token(path, body).to_string().as_bytes(),
        )
    }
}

/// The next JSON text message on a WebSocket.
pub fn receive(socket: &mut tungstenite::WebSocket<TcpStream>) -> Value {
    loop {
        match socket.read().expect("a message") {
            tungstenite::Message::Text(text) => {
                return serde_json::from_str(text.as_str()).unwrap()
            }
            tungstenite::Message::Ping(_) | tungstenite::Message::Pong(_) => continue,
            other => panic!("unexpected message {other:?}"),
        }
    }
}

/// The USI text of every move of a GameState.
pub fn usi_list(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap().to_owned())
        .collect()
}
