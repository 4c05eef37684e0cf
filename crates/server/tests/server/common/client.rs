//! Speaking to a server of the tests: a request handed to its router
//! (tower's `oneshot`, as axum's `examples/testing` does: no connection,
//! no parsing of HTTP by hand), its answer, the seat tokens of the games
//! the tests created (so that a move carries its player's token), and
//! the WebSocket's messages.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue, Request};
use axum::Router;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpStream};
use std::sync::Mutex;
use tower::ServiceExt;

/// What the tests remember of each game they created: the seat tokens of
/// the `201` answer and who moved first. Game ids are random, so one table
/// serves every server of the test program (two servers may share games).
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
pub fn with_token(path: &str, body: &Value) -> Value {
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

/// The peer every request of the tests comes from, as the listener would
/// name it: one client of 127.0.0.1 (its rate limit is the server's).
const PEER: ([u8; 4], u16) = ([127, 0, 0, 1], 40_000);

/// Speaks to one server: its router, on its runtime. Cheap to clone, and
/// usable from any thread but the runtime's own (two clients racing, say).
#[derive(Clone)]
pub struct Client {
    /// `127.0.0.1:PORT`: the `Host` of every request unless it names one.
    pub address: String,
    pub(super) router: Router,
    pub(super) runtime: tokio::runtime::Handle,
}

impl Client {
    /// One request with exactly these headers (and a Content-Length; a
    /// Host header when none is given), or why it could not be made (a
    /// header the HTTP types refuse).
    pub fn try_request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Reply, String> {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_LENGTH, body.len());
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            request = request.header(header::HOST, self.address.as_str());
        }
        for (name, value) in headers {
            let value = HeaderValue::from_bytes(value.as_bytes()).map_err(|e| e.to_string())?;
            request = request.header(*name, value);
        }
        let mut request = request
            .body(Body::from(body.to_vec()))
            .map_err(|e| format!("{method} {path}: {e}"))?;
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(PEER)));
        let router = self.router.clone();
        let reply = self.runtime.block_on(async move {
            let response = router.oneshot(request).await.map_err(|e| e.to_string())?;
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .map(|(name, value)| {
                    let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                    (name.as_str().to_owned(), value)
                })
                .collect();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .map_err(|e| format!("the answer's body failed: {e}"))?;
            Ok::<_, String>(Reply {
                status,
                headers,
                body: body.to_vec(),
            })
        })?;
        remember(&reply);
        Ok(reply)
    }

    /// [`Client::try_request_with`], panicking when the request cannot be
    /// made.
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

    /// A request with this Content-Type, if any.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Reply {
        let headers: Vec<(&str, &str)> = content_type
            .map(|content_type| ("Content-Type", content_type))
            .into_iter()
            .collect();
        self.request_with(method, path, &headers, body)
    }

    /// `POST path` with a JSON body (with the player's token, as
    /// [`with_token`] adds it), or why there was no answer.
    pub fn try_post(&self, path: &str, body: &Value) -> Result<Reply, String> {
        self.try_request_with(
            "POST",
            path,
            &[("Content-Type", "application/json")],
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

/// Sends a text message.
pub fn send(socket: &mut tungstenite::WebSocket<TcpStream>, text: &str) {
    socket
        .send(tungstenite::Message::Text(text.to_owned().into()))
        .unwrap();
}

/// Sends `message` as JSON text.
pub fn send_json(socket: &mut tungstenite::WebSocket<TcpStream>, message: Value) {
    send(socket, &message.to_string());
}

/// The next JSON message whose `"type"` is one of `kinds`, skipping the
/// others; fails if the server closes the socket first.
pub fn next_of(socket: &mut tungstenite::WebSocket<TcpStream>, kinds: &[&str]) -> Value {
    loop {
        match socket.read().expect("a message") {
            tungstenite::Message::Text(text) => {
                let message: Value = serde_json::from_str(text.as_str()).unwrap();
                if kinds.iter().any(|kind| message["type"] == *kind) {
                    return message;
                }
            }
            tungstenite::Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
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
