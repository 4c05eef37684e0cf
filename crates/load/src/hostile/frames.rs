//! A WebSocket client made by hand (RFC 6455), so that it can send what no
//! library would: unmasked frames, reserved opcodes, oversized control
//! frames, text that is not UTF-8, and pings left unanswered.

use super::net;
use crate::args::Target;
use std::io;
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

/// Text frames' opcode.
pub const TEXT: u8 = 0x1;
/// Close frames' opcode.
pub const CLOSE: u8 = 0x8;
/// Ping frames' opcode.
pub const PING: u8 = 0x9;

/// The handshake's key: RFC 6455's own example, as good as any.
const KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";
/// The mask of every masked frame sent (any value will do).
pub const MASK: [u8; 4] = [0x37, 0xfa, 0x21, 0x3d];
/// The largest frame read from the server.
const FRAME_LIMIT: usize = 4 << 20;

/// One whole frame (with FIN set), masked with `mask` if given.
pub fn frame(opcode: u8, payload: &[u8], mask: Option<[u8; 4]>) -> Vec<u8> {
    let mut out = frame_head(opcode, payload.len() as u64, mask);
    match mask {
        Some(mask) => out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4])),
        None => out.extend_from_slice(payload),
    }
    out
}

/// A frame's head announcing `length` bytes of payload.
pub fn frame_head(opcode: u8, length: u64, mask: Option<[u8; 4]>) -> Vec<u8> {
    let mut out = vec![0x80 | (opcode & 0x0f)];
    let masked = if mask.is_some() { 0x80 } else { 0 };
    match length {
        0..=125 => out.push(masked | length as u8),
        126..=0xffff => {
            out.push(masked | 126);
            out.extend_from_slice(&(length as u16).to_be_bytes());
        }
        _ => {
            out.push(masked | 127);
            out.extend_from_slice(&length.to_be_bytes());
        }
    }
    if let Some(mask) = mask {
        out.extend_from_slice(&mask);
    }
    out
}

/// A frame the server sent.
#[derive(Debug, PartialEq, Eq)]
pub struct Frame {
    /// Its opcode.
    pub opcode: u8,
    /// Its payload (unmasked: a server does not mask).
    pub payload: Vec<u8>,
}

impl Frame {
    /// A Close frame's code, if it has one.
    pub fn close_code(&self) -> Option<u16> {
        (self.opcode == CLOSE && self.payload.len() >= 2)
            .then(|| u16::from_be_bytes([self.payload[0], self.payload[1]]))
    }
}

/// The next whole frame in `buffer`, taken out of it; `None` until one is.
fn take_frame(buffer: &mut Vec<u8>) -> io::Result<Option<Frame>> {
    let [first, second, ..] = buffer[..] else {
        return Ok(None);
    };
    let (length, mut at) = match second & 0x7f {
        126 => match buffer.get(2..4) {
            Some(b) => (u64::from(u16::from_be_bytes([b[0], b[1]])), 4),
            None => return Ok(None),
        },
        127 => match buffer.get(2..10) {
            Some(b) => (u64::from_be_bytes(b.try_into().expect("eight bytes")), 10),
            None => return Ok(None),
        },
        short => (u64::from(short), 2),
    };
    let mask = if second & 0x80 != 0 {
        let Some(mask) = buffer.get(at..at + 4) else {
            return Ok(None);
        };
        at += 4;
        Some([mask[0], mask[1], mask[2], mask[3]])
    } else {
        None
    };
    let length = usize::try_from(length)
        .ok()
        .filter(|&length| length <= FRAME_LIMIT)
        .ok_or_else(|| io::Error::other("the server sent a frame over 4 MiB"))?;
    if buffer.len() < at + length {
        return Ok(None);
    }
    let mut payload: Vec<u8> = buffer[at..at + length].to_vec();
    if let Some(mask) = mask {
        payload
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b ^= mask[i % 4]);
    }
    buffer.drain(..at + length);
    Ok(Some(Frame {
        opcode: first & 0x0f,
        payload,
    }))
}

/// A WebSocket opened by hand, its two directions apart so that a frame
/// can be written while the answer is read.
pub struct RawSocket {
    /// What the server sends.
    pub reader: OwnedReadHalf,
    /// What the tool sends.
    pub writer: OwnedWriteHalf,
    /// Bytes read and not yet made into frames.
    pub buffer: Vec<u8>,
}

/// How a socket's wait for a Close ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A Close frame, with its code if it had one.
    Close(Option<u16>),
    /// The connection ended without a Close frame.
    Dropped,
    /// Nothing ended it before the time was up.
    StillOpen,
}

impl Ending {
    /// The ending in words.
    pub fn words(&self) -> String {
        match self {
            Ending::Close(Some(code)) => format!("Close {code}"),
            Ending::Close(None) => "Close without a code".into(),
            Ending::Dropped => "closed without a Close frame".into(),
            Ending::StillOpen => "still open".into(),
        }
    }
}

impl RawSocket {
    /// Opens game `id`'s WebSocket from `from` with a handshake written by
    /// hand, and checks the server's answer to it.
    pub async fn open(from: Ipv4Addr, target: &Target, id: &str) -> Result<RawSocket, String> {
        let opening = async {
            let mut stream = net::connect(from, target)
                .await
                .map_err(|e| format!("cannot connect from {from}: {e}"))?;
            let handshake = format!(
                "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\n\
                 Connection: Upgrade\r\nSec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n",
                target.authority
            );
            stream
                .write_all(handshake.as_bytes())
                .await
                .map_err(|e| format!("the handshake could not be sent: {e}"))?;
            let mut buffer = Vec::new();
            let mut chunk = [0u8; 4096];
            let head_end = loop {
                if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                    break at + 4;
                }
                match stream.read(&mut chunk).await {
                    Ok(0) | Err(_) => return Err("the handshake had no answer".to_owned()),
                    Ok(n) => buffer.extend_from_slice(&chunk[..n]),
                }
                if buffer.len() > 64 * 1024 {
                    return Err("the handshake's answer has no end".to_owned());
                }
            };
            let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
            let status = head.split("\r\n").next().unwrap_or("");
            if !status.starts_with("HTTP/1.1 101") {
                return Err(format!("the handshake was answered {status:?}"));
            }
            let accept = derive_accept_key(KEY.as_bytes());
            let accepted = head.split("\r\n").any(|line| {
                line.split_once(':').is_some_and(|(name, value)| {
                    name.trim().eq_ignore_ascii_case("sec-websocket-accept")
                        && value.trim() == accept
                })
            });
            if !accepted {
                return Err("the handshake's Sec-WebSocket-Accept is wrong".to_owned());
            }
            buffer.drain(..head_end);
            let (reader, writer) = stream.into_split();
            Ok(RawSocket {
                reader,
                writer,
                buffer,
            })
        };
        timeout(net::EXCHANGE_TIMEOUT, opening)
            .await
            .unwrap_or_else(|_| Err("the handshake had no answer in 10 s".to_owned()))
    }

    /// Sends `bytes` as they are.
    pub async fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.writer.write_all(bytes).await
    }

    /// The next frame, `None` when the connection ended.
    pub async fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        next_frame(&mut self.reader, &mut self.buffer).await
    }
}

/// Reads frames from `reader` until a Close, the end of the connection or
/// `until`, answering nothing (not even pings); `on_frame` sees every
/// frame.
pub async fn until_close(
    reader: &mut (impl AsyncRead + Unpin),
    buffer: &mut Vec<u8>,
    until: Instant,
    mut on_frame: impl FnMut(&Frame),
) -> Ending {
    let reading = async {
        loop {
            match next_frame(reader, buffer).await {
                Ok(Some(frame)) => {
                    on_frame(&frame);
                    if frame.opcode == CLOSE {
                        return Ending::Close(frame.close_code());
                    }
                }
                Ok(None) | Err(_) => return Ending::Dropped,
            }
        }
    };
    let left = until.saturating_duration_since(Instant::now());
    timeout(left, reading).await.unwrap_or(Ending::StillOpen)
}

/// The next frame from `reader`, keeping what is left over in `buffer`.
pub async fn next_frame(
    reader: &mut (impl AsyncRead + Unpin),
    buffer: &mut Vec<u8>,
) -> io::Result<Option<Frame>> {
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(frame) = take_frame(buffer)? {
            return Ok(Some(frame));
        }
        let read = reader.read(&mut chunk).await?;
        if read == 0 {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk[..read]);
    }
}

/// How long a check waits for the server's Close after its bad frame.
pub const CLOSE_WAIT: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_masked_or_not() {
        for length in [0usize, 5, 125, 126, 300, 70_000] {
            let payload: Vec<u8> = (0..length).map(|i| i as u8).collect();
            for mask in [None, Some(MASK)] {
                let mut bytes = frame(TEXT, &payload, mask);
                let whole = bytes.len();
                bytes.extend_from_slice(b"\x81");
                let read = take_frame(&mut bytes).unwrap().unwrap();
                assert_eq!(
                    read,
                    Frame {
                        opcode: TEXT,
                        payload: payload.clone()
                    },
                    "{length}"
                );
                assert_eq!(bytes, b"\x81", "{whole}");
            }
        }
        // A frame cut short waits for the rest.
        let mut short = frame(TEXT, b"hello", None);
        short.pop();
        assert_eq!(take_frame(&mut short).unwrap(), None);
        assert_eq!(take_frame(&mut vec![0x81]).unwrap(), None);
    }

    #[test]
    fn heads_say_the_length_as_rfc_6455_does() {
        assert_eq!(frame_head(TEXT, 5, None), [0x81, 5]);
        assert_eq!(frame_head(PING, 126, None), [0x89, 126, 0, 126]);
        assert_eq!(
            frame_head(TEXT, (1 << 20) + 1, Some(MASK)),
            [0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 1, 0x37, 0xfa, 0x21, 0x3d]
        );
        let close = Frame {
            opcode: CLOSE,
            payload: vec![0x03, 0xf1, b'x'],
        };
        assert_eq!(close.close_code(), Some(1009));
        assert_eq!(
            Frame {
                opcode: CLOSE,
                payload: vec![]
            }
            .close_code(),
            None
        );
        // A frame claiming more than the tool reads is an error, not a wait.
        assert!(take_frame(&mut frame_head(TEXT, 1 << 30, None)).is_err());
    }
}
