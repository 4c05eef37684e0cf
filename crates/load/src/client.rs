//! Speaking to the server: the HTTP calls (one request per connection, over
//! a plain `TcpStream`: the tool only ever talks to Koma's own server), the
//! game's WebSockets (tokio-tungstenite) and the pace each socket keeps.

use super::args::Target;
use super::stats::{ErrorKind, Failure};
use futures_util::StreamExt;
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::WebSocketStream;

/// A game's WebSocket.
pub type Socket = WebSocketStream<TcpStream>;

/// How long an HTTP call or a WebSocket handshake may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest HTTP answer or WebSocket message read: a state of 200 moves
/// is some 30 KiB, so anything near this is a server gone wrong.
const ANSWER_LIMIT: usize = 4 << 20;

/// Messages a second each socket sends at most, and its burst: below the
/// server's 10 a second and 20 at once (`serve/rate.rs`), with room for a
/// message delayed on the way arriving together with the next.
const SEND_PER_SECOND: f64 = 9.0;
/// See [`SEND_PER_SECOND`].
const SEND_BURST: f64 = 10.0;

/// A shared game just created: its id and each side's seat token.
#[derive(Debug, Deserialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// Seat tokens by side name.
    #[serde(default)]
    pub seats: BTreeMap<String, String>,
}

/// A message the server sends on a WebSocket (the parts the tool reads).
#[derive(Debug, Deserialize)]
pub struct ServerMessage {
    /// `"state"` or `"error"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The game's state.
    #[serde(default)]
    pub state: Option<StateView>,
    /// Why a message was refused.
    #[serde(default)]
    pub error: Option<String>,
}

/// The parts of a game state the players need.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateView {
    /// Moves played.
    pub ply: u64,
    /// The side to move.
    pub turn: String,
    /// Every legal move, USI text.
    #[serde(default)]
    pub legal_moves: Vec<String>,
    /// How the game ended; `None` while it goes on.
    #[serde(default)]
    pub outcome: Option<IgnoredAny>,
}

/// A connection to `target`, from the address `from` if one is given
/// (each slot plays from its own, see [`Context::address_of`]).
///
/// [`Context::address_of`]: super::context::Context::address_of
async fn connect(target: &Target, from: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let Some(from) = from else {
        return TcpStream::connect(target.address).await;
    };
    let socket = match from {
        IpAddr::V4(_) => TcpSocket::new_v4()?,
        IpAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.bind(SocketAddr::new(from, 0))?;
    // ::ffff:127.0.0.1 is reached from an IPv4 address as 127.0.0.1.
    let to = SocketAddr::new(target.address.ip().to_canonical(), target.address.port());
    socket.connect(to).await
}

/// One HTTP/1.1 request on its own connection from `from`: the status and
/// the body.
pub async fn request(
    target: &Target,
    from: Option<IpAddr>,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, Vec<u8>), Failure> {
    let exchange = async {
        let mut stream = connect(target, from)
            .await
            .map_err(|e| disconnected(target, e))?;
        let _ = stream.set_nodelay(true);
        let message = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            target.authority,
            body.len()
        );
        stream
            .write_all(message.as_bytes())
            .await
            .map_err(|e| disconnected(target, e))?;
        let mut raw = Vec::new();
        (&mut stream)
            .take(ANSWER_LIMIT as u64 + 1)
            .read_to_end(&mut raw)
            .await
            .map_err(|e| disconnected(target, e))?;
        if raw.len() > ANSWER_LIMIT {
            return Err(protocol("an HTTP answer is larger than 4 MiB"));
        }
        parse_response(&raw)
    };
    timeout(CONNECT_TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| {
            Err(Failure::new(
                ErrorKind::TimedOut,
                format!("{method} {path} had no answer in 10 s"),
            ))
        })
}

/// Creates a shared game of `variant` from `from`.
pub async fn create_game(
    target: &Target,
    from: Option<IpAddr>,
    variant: &str,
) -> Result<Created, Failure> {
    let body = serde_json::json!({ "variant": variant, "mode": "shared" }).to_string();
    let (status, answer) = request(target, from, "POST", "/api/games", &body).await?;
    if status != 201 {
        return Err(Failure::new(
            ErrorKind::Refused,
            format!(
                "POST /api/games answered {status}: {}",
                String::from_utf8_lossy(&answer[..answer.len().min(300)])
            ),
        ));
    }
    let created: Created = serde_json::from_slice(&answer)
        .map_err(|e| protocol(format!("a new game's answer is not a game state: {e}")))?;
    // The id goes into a URL: only what the server's ids are made of.
    let id_ok = !created.id.is_empty()
        && created.id.len() <= 64
        && created.id.bytes().all(|b| b.is_ascii_alphanumeric());
    if !id_ok {
        return Err(protocol("a new game's id is not a short alphanumeric word"));
    }
    Ok(created)
}

/// Opens game `id`'s WebSocket from `from`.
pub async fn open_socket(
    target: &Target,
    from: Option<IpAddr>,
    id: &str,
) -> Result<Socket, Failure> {
    let opening = async {
        let stream = connect(target, from)
            .await
            .map_err(|e| disconnected(target, e))?;
        // Moves are small messages whose latency is measured: send each at once.
        let _ = stream.set_nodelay(true);
        let url = format!("ws://{}/api/games/{id}/ws", target.authority);
        let config = WebSocketConfig::default()
            .max_message_size(Some(ANSWER_LIMIT))
            .max_frame_size(Some(ANSWER_LIMIT));
        tokio_tungstenite::client_async_with_config(url, stream, Some(config))
            .await
            .map(|(socket, _)| socket)
            .map_err(|e| {
                Failure::new(
                    ErrorKind::Refused,
                    format!("game {id}'s WebSocket did not open: {e}"),
                )
            })
    };
    timeout(CONNECT_TIMEOUT, opening).await.unwrap_or_else(|_| {
        Err(Failure::new(
            ErrorKind::TimedOut,
            format!("game {id}'s WebSocket did not open in 10 s"),
        ))
    })
}

/// Closes a socket: sends Close and reads until the server's comes back.
pub async fn close_socket(socket: &mut Socket) {
    if socket.close(None).await.is_ok() {
        while let Some(Ok(_)) = socket.next().await {}
    }
}

fn disconnected(target: &Target, error: std::io::Error) -> Failure {
    Failure::new(
        ErrorKind::Disconnected,
        format!("connection to {} failed: {error}", target.url()),
    )
}

fn protocol(message: impl Into<String>) -> Failure {
    Failure::new(ErrorKind::Protocol, message)
}

/// The status and body of a whole HTTP/1.1 answer.
pub(crate) fn parse_response(raw: &[u8]) -> Result<(u16, Vec<u8>), Failure> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| protocol("the HTTP answer has no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..split]);
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .filter(|line| line.starts_with("HTTP/1."))
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| protocol("the HTTP answer has no status line"))?;
    let header = |name: &str| {
        head.split("\r\n")
            .skip(1)
            .filter_map(|line| line.split_once(':'))
            .find(|(key, _)| key.trim().eq_ignore_ascii_case(name))
            .map(|(_, value)| value.trim().to_owned())
    };
    let body = &raw[split + 4..];
    if header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked")) {
        return dechunk(body)
            .map(|body| (status, body))
            .ok_or_else(|| protocol("the HTTP answer's chunks were cut short"));
    }
    match header("content-length") {
        Some(length) => {
            let length: usize = length
                .parse()
                .map_err(|_| protocol("the HTTP answer's Content-Length is not a number"))?;
            let body = body
                .get(..length)
                .ok_or_else(|| protocol("the HTTP answer was cut short"))?;
            Ok((status, body.to_vec()))
        }
        None => Ok((status, body.to_vec())),
    }
}

/// Undoes chunked transfer encoding; `None` when the body was cut short.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let end = body.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&body[..end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(end + 2..size.checked_add(end + 2)?)?);
        body = body.get(end + 2 + size + 2..)?;
    }
}

/// When a socket may send: a token bucket under the server's limit, and
/// the player's own minimum gap between moves (`--pace`).
#[derive(Debug)]
pub struct Pace {
    tokens: f64,
    last: Instant,
    gap: Duration,
    sent: Option<Instant>,
}

impl Pace {
    /// A full bucket, and `gap` between two sends at least.
    pub fn new(gap: Duration, now: Instant) -> Pace {
        Pace {
            tokens: SEND_BURST,
            last: now,
            gap,
            sent: None,
        }
    }

    fn refill(&mut self, now: Instant) {
        let since = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + since * SEND_PER_SECOND).min(SEND_BURST);
        self.last = self.last.max(now);
    }

    /// The first moment from `now` at which a message may go.
    pub fn ready_at(&mut self, now: Instant) -> Instant {
        self.refill(now);
        let token = if self.tokens >= 1.0 {
            now
        } else {
            now + Duration::from_secs_f64((1.0 - self.tokens) / SEND_PER_SECOND)
        };
        let gap = self.sent.map_or(now, |sent| sent + self.gap);
        token.max(gap)
    }

    /// Takes a token for a message sent at `now` (which [`Pace::ready_at`]
    /// allowed).
    pub fn take(&mut self, now: Instant) {
        self.refill(now);
        self.tokens = (self.tokens - 1.0).max(0.0);
        self.sent = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_whole() {
        let plain = b"HTTP/1.1 201 Created\r\ncontent-length: 4\r\n\r\n{\"a\"";
        assert_eq!(parse_response(plain).unwrap(), (201, b"{\"a\"".to_vec()));
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        assert_eq!(parse_response(chunked).unwrap(), (200, b"abcde".to_vec()));
        let short = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc";
        assert_eq!(parse_response(short).unwrap_err().kind, ErrorKind::Protocol);
        for bad in [
            &b"HTTP/1.1 200 OK\r\n"[..],
            b"garbage\r\n\r\n",
            b"HTTP/1.1 2x0 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nab",
        ] {
            assert!(parse_response(bad).is_err());
        }
    }

    #[test]
    fn the_pace_stays_under_the_server_limit() {
        let start = Instant::now();
        let mut pace = Pace::new(Duration::ZERO, start);
        // Send whenever allowed for ten seconds: the burst, then 9 a second.
        let mut now = start;
        let mut sent = Vec::new();
        while now < start + Duration::from_secs(10) {
            now = pace.ready_at(now);
            pace.take(now);
            sent.push(now);
        }
        let count = sent.len() as f64;
        assert!(
            count <= SEND_BURST + 10.0 * SEND_PER_SECOND + 1.0,
            "{count}"
        );
        // No window of one second holds more than the burst plus the rate.
        for (i, &at) in sent.iter().enumerate() {
            let within = sent[i..]
                .iter()
                .take_while(|&&t| t < at + Duration::from_secs(1))
                .count() as f64;
            assert!(within <= SEND_BURST + SEND_PER_SECOND, "{within}");
        }
    }

    #[test]
    fn the_pace_keeps_the_players_gap() {
        let start = Instant::now();
        let mut pace = Pace::new(Duration::from_millis(500), start);
        assert_eq!(pace.ready_at(start), start);
        pace.take(start);
        assert_eq!(pace.ready_at(start), start + Duration::from_millis(500));
    }
}
