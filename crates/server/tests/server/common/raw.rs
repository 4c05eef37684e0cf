//! A `koma serve` inside the test's own process, on a free port of
//! loopback, and the raw HTTP and WebSocket a hostile client would speak
//! to it: whole requests, half ones, and hand-made frames. Async, for
//! `hostile_clients`, whose tests hold many connections at once.

use koma_server::{start, RunningServer, ServeArgs};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A server with games in memory and `flags` beyond those.
pub async fn server(flags: &[&str]) -> RunningServer {
    let mut all = vec!["--memory", "--port", "0"];
    all.extend_from_slice(flags);
    let args = ServeArgs::from_flags(all).expect("the flags are koma serve's");
    start(args).await.expect("the server starts")
}

/// A connection to `server` from `source` (any address of 127.0.0.0/8:
/// each is another client to the server).
pub async fn connect_from(server: &RunningServer, source: &str) -> TcpStream {
    let source: IpAddr = source.parse().unwrap();
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    socket.connect(server.address).await.unwrap()
}

/// A connection to `server` from 127.0.0.1.
pub async fn connect(server: &RunningServer) -> TcpStream {
    connect_from(server, "127.0.0.1").await
}

/// The `Host` header the server answers to.
pub fn host(server: &RunningServer) -> String {
    format!("127.0.0.1:{}", server.address.port())
}

/// A whole request: `method path` with `headers` (lines) and `body`.
pub fn request(
    server: &RunningServer,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &[u8],
) -> Vec<u8> {
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", host(server));
    for header in headers {
        text.push_str(header);
        text.push_str("\r\n");
    }
    if !body.is_empty() || method == "POST" {
        text.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// An answer: its status and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

/// Reads one answer (with a `Content-Length`) from `stream`, within
/// `within`; `None` when the connection closed first or time ran out.
pub async fn read_answer(stream: &mut TcpStream, within: Duration) -> Option<Answer> {
    tokio::time::timeout(within, async {
        let mut seen = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = find(&seen, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&seen[..end]).into_owned();
                let length = head
                    .lines()
                    .find_map(|line| {
                        let (name, value) = line.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                while seen.len() < end + 4 + length {
                    let n = stream.read(&mut chunk).await.ok()?;
                    if n == 0 {
                        return None;
                    }
                    seen.extend_from_slice(&chunk[..n]);
                }
                let status = head.split(' ').nth(1)?.parse().ok()?;
                let body = String::from_utf8_lossy(&seen[end + 4..end + 4 + length]).into_owned();
                return Some(Answer {
                    status,
                    headers: head,
                    body,
                });
            }
            let n = stream.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            seen.extend_from_slice(&chunk[..n]);
        }
    })
    .await
    .ok()
    .flatten()
}

/// One request on a new connection, and its answer.
pub async fn ask(
    server: &RunningServer,
    source: &str,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &[u8],
) -> Answer {
    let mut stream = connect_from(server, source).await;
    stream
        .write_all(&request(server, method, path, headers, body))
        .await
        .unwrap();
    read_answer(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer")
}

/// Waits for the server to close `stream` (end of file or a reset), at
/// most `within`: whether it did.
pub async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut chunk = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A new game of `variant`: its id.
pub async fn new_game(server: &RunningServer, variant: &str) -> String {
    let body = format!("{{\"variant\": \"{variant}\"}}");
    let answer = ask(
        server,
        "127.0.0.1",
        "POST",
        "/api/games",
        &["Content-Type: application/json"],
        body.as_bytes(),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let state: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    state["id"].as_str().unwrap().to_owned()
}

/// A WebSocket to game `id`, opened by hand: the stream after the `101`
/// (its first state message still unread).
pub async fn websocket(server: &RunningServer, id: &str) -> TcpStream {
    let mut stream = connect(server).await;
    let path = format!("/api/games/{id}/ws");
    let handshake = request(
        server,
        "GET",
        &path,
        &[
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ],
        b"",
    );
    stream.write_all(&handshake).await.unwrap();
    // The 101's head, byte by byte so that no frame is read with it.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    assert!(head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "{head}");
    stream
}

/// A client frame: `first` is the FIN bit and opcode byte; masked unless
/// `masked` is false.
pub fn frame(first: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mut out = vec![first];
    let mask_bit = if masked { 0x80 } else { 0 };
    match payload.len() {
        n if n < 126 => out.push(mask_bit | n as u8),
        n if n < 65536 => {
            out.push(mask_bit | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(mask_bit | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    if masked {
        let key = [0x12, 0x34, 0x56, 0x78];
        out.extend_from_slice(&key);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// A server frame: opcode and payload.
#[derive(Debug)]
pub struct Frame {
    pub opcode: u8,
    pub payload: Vec<u8>,
}

impl Frame {
    /// A Close frame's code.
    pub fn close_code(&self) -> Option<u16> {
        (self.opcode == 8 && self.payload.len() >= 2)
            .then(|| u16::from_be_bytes([self.payload[0], self.payload[1]]))
    }
}

/// The next frame the server sends, within `within`.
pub async fn read_frame(stream: &mut TcpStream, within: Duration) -> Option<Frame> {
    tokio::time::timeout(within, async {
        let mut head = [0u8; 2];
        stream.read_exact(&mut head).await.ok()?;
        let length = match head[1] & 0x7f {
            126 => {
                let mut n = [0u8; 2];
                stream.read_exact(&mut n).await.ok()?;
                u16::from_be_bytes(n) as usize
            }
            127 => {
                let mut n = [0u8; 8];
                stream.read_exact(&mut n).await.ok()?;
                u64::from_be_bytes(n) as usize
            }
            n => n as usize,
        };
        let mut payload = vec![0u8; length];
        stream.read_exact(&mut payload).await.ok()?;
        Some(Frame {
            opcode: head[0] & 0x0f,
            payload,
        })
    })
    .await
    .ok()
    .flatten()
}

/// Reads frames until a Close frame: its code (`None` if the connection
/// ended without one).
pub async fn close_code(stream: &mut TcpStream, within: Duration) -> Option<u16> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let frame = read_frame(stream, left).await?;
        if frame.opcode == 8 {
            return frame.close_code();
        }
    }
}
