//! The attacks' connections: each from a chosen loopback address (the
//! server counts clients by address, and the whole of 127.0.0.0/8 is this
//! machine), HTTP written by hand, and the time until the server closes a
//! connection.

use crate::args::Target;
use crate::client::parse_response;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::{sleep_until, timeout};

/// The attacker: the flood, the hoarded connections, the refused frames.
pub const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
/// The innocent client, whose answers show whether the attacks hurt others.
pub const INNOCENT: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
/// The slow connections, which run alongside the other attacks for as long
/// as the server's timeouts take: from an address of their own, so that
/// neither the attacker's rate limit nor its connection cap touches them.
pub const SLOW: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 3);

/// How long connecting, or a whole exchange, may take.
pub const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read: anything near it is a server gone wrong.
const ANSWER_LIMIT: usize = 4 << 20;

/// A connection to `target` from address `from`.
pub async fn connect(from: Ipv4Addr, target: &Target) -> io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from.into(), 0))?;
    let stream = timeout(EXCHANGE_TIMEOUT, socket.connect(target.address))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no connection in 10 s"))??;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

/// The text of a request for `path` with `body` (keep-alive: the
/// connection is left to the caller).
pub fn request(target: &Target, method: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        target.authority,
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// An HTTP answer: its status and body.
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The body, unchunked.
    pub body: Vec<u8>,
}

impl Answer {
    /// The `error` sentence of a JSON refusal, or the start of the body.
    pub fn sentence(&self) -> String {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|json| json["error"].as_str().map(str::to_owned))
            .unwrap_or_else(|| String::from_utf8_lossy(&self.body).into_owned())
            .chars()
            .take(160)
            .collect()
    }
}

/// How many bytes of `raw` make a whole answer, once they have arrived.
fn answer_length(raw: &[u8]) -> Option<usize> {
    let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
    let header = |name: &str| {
        head.split("\r\n")
            .filter_map(|line| line.split_once(':'))
            .find(|(key, _)| key.trim() == name)
            .map(|(_, value)| value.trim().to_owned())
    };
    if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        let body = &raw[head_end..];
        return body
            .windows(5)
            .position(|w| w == b"0\r\n\r\n")
            .filter(|&at| at == 0 || body[..at].ends_with(b"\r\n"))
            .map(|at| head_end + at + 5);
    }
    let length = header("content-length").and_then(|v| v.parse::<usize>().ok())?;
    (raw.len() >= head_end + length).then_some(head_end + length)
}

/// Reads one answer from `stream`: until it is whole, or until the server
/// closes the connection (an answer without a length ends there).
pub async fn read_answer(stream: &mut TcpStream) -> io::Result<Answer> {
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(length) = answer_length(&raw) {
            raw.truncate(length);
            break;
        }
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            break;
        }
        raw.extend_from_slice(&chunk[..read]);
        if raw.len() > ANSWER_LIMIT {
            return Err(io::Error::other("an answer larger than 4 MiB"));
        }
    }
    if raw.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the connection closed without an answer",
        ));
    }
    let (status, body) =
        parse_response(&raw).map_err(|failure| io::Error::other(failure.message))?;
    Ok(Answer { status, body })
}

/// One request on a new connection from `from`, read to its end, after
/// which the connection is reset rather than closed: a flood of closed
/// connections would leave tens of thousands in TIME_WAIT and run the
/// machine out of ports.
pub async fn exchange(
    from: Ipv4Addr,
    target: &Target,
    method: &str,
    path: &str,
    body: &[u8],
) -> io::Result<Answer> {
    let exchange = async {
        let mut stream = connect(from, target).await?;
        stream
            .write_all(&request(target, method, path, body))
            .await?;
        let answer = read_answer(&mut stream).await;
        let _ = stream.set_zero_linger();
        answer
    };
    timeout(EXCHANGE_TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| Err(io::Error::new(io::ErrorKind::TimedOut, "no answer in 10 s")))
}

/// How a watched connection ended.
#[derive(Debug)]
pub struct Watched {
    /// How long after the watch began the server closed it; `None` when it
    /// was still open at the deadline.
    pub closed_after: Option<Duration>,
    /// How long after the watch began the server's first byte came.
    pub first_byte_after: Option<Duration>,
    /// How long it was watched.
    pub watched: Duration,
    /// What the server sent first (some KiB at most).
    pub received: Vec<u8>,
}

impl Watched {
    /// The status of the answer the server sent, if it sent one.
    pub fn status(&self) -> Option<u16> {
        let line = self.received.split(|&b| b == b'\r').next()?;
        let line = std::str::from_utf8(line).ok()?;
        line.strip_prefix("HTTP/1.")?.get(2..5)?.parse().ok()
    }
}

/// Watches `stream` from `start` until the server closes it (end of
/// stream or reset) or `deadline` passes; meanwhile sends `trickle`'s
/// lines one every `trickle.0`, as a slow client would.
pub async fn watch(
    stream: &mut TcpStream,
    start: Instant,
    deadline: Instant,
    trickle: Option<(Duration, &[u8])>,
) -> Watched {
    let mut received = Vec::new();
    let mut first_byte_after = None;
    let mut chunk = [0u8; 4096];
    let mut next_line = trickle.map(|(every, _)| Instant::now() + every);
    let closed_after = loop {
        let line_at = next_line.unwrap_or(deadline).min(deadline);
        tokio::select! {
            read = stream.read(&mut chunk) => match read {
                Ok(0) | Err(_) => break Some(start.elapsed()),
                Ok(n) => {
                    first_byte_after.get_or_insert_with(|| start.elapsed());
                    if received.len() < 4096 {
                        received.extend_from_slice(&chunk[..n]);
                    }
                }
            },
            _ = sleep_until(line_at.into()) => {
                if Instant::now() >= deadline {
                    break None;
                }
                if let (Some((every, line)), Some(at)) = (trickle, next_line.as_mut()) {
                    // A write refused means the server has gone: the read
                    // says so next.
                    let _ = stream.write_all(line).await;
                    *at += every;
                }
            }
        }
    };
    Watched {
        closed_after,
        first_byte_after,
        watched: start.elapsed(),
        received,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_end_where_their_length_says() {
        let plain = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP";
        assert_eq!(answer_length(plain), Some(plain.len() - 4));
        assert_eq!(
            answer_length(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab"),
            None
        );
        assert_eq!(answer_length(b"HTTP/1.1 200 OK\r\nContent-Le"), None);
        let chunked = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n";
        assert_eq!(answer_length(chunked), Some(chunked.len()));
        let empty = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n";
        assert_eq!(answer_length(empty), Some(empty.len()));
        // No length: the answer ends when the connection does.
        assert_eq!(answer_length(b"HTTP/1.1 200 OK\r\n\r\nab"), None);
    }

    #[test]
    fn a_watched_answer_tells_its_status() {
        let watched = |received: &[u8]| Watched {
            closed_after: None,
            first_byte_after: None,
            watched: Duration::ZERO,
            received: received.to_vec(),
        };
        assert_eq!(
            watched(b"HTTP/1.1 408 Request Timeout\r\n").status(),
            Some(408)
        );
        assert_eq!(watched(b"").status(), None);
        assert_eq!(watched(b"garbage").status(), None);
    }
}
