//! WebSocket attacks on a fresh game's socket: frames that break the
//! protocol (each must be answered by a Close frame with the code that
//! says why), and a client that never answers the server's pings.

use super::frames::{self, Ending, RawSocket, CLOSE_WAIT, MASK, PING, TEXT};
use super::net::{self, ATTACKER};
use super::report::{round1, Check, Verdict};
use super::slow::Expected;
use crate::args::Target;
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::time::timeout;

/// Creates a Spear Shogi game from `from`: its id.
pub async fn create_game(from: Ipv4Addr, target: &Target) -> Result<String, String> {
    let answer = net::exchange(
        from,
        target,
        "POST",
        "/api/games",
        br#"{"variant":"spear"}"#,
    )
    .await
    .map_err(|e| format!("POST /api/games from {from} failed: {e}"))?;
    if answer.status != 201 {
        return Err(format!(
            "POST /api/games from {from} answered {}: {}",
            answer.status,
            answer.sentence()
        ));
    }
    let created: serde_json::Value = serde_json::from_slice(&answer.body)
        .map_err(|e| format!("a new game's answer is not JSON: {e}"))?;
    let id = created["id"].as_str().unwrap_or("");
    // The id goes into a URL: only what the server's ids are made of.
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err("a new game's id is not a short alphanumeric word".into());
    }
    Ok(id.to_owned())
}

/// One frame that breaks the protocol, and the Close code it must bring.
struct BadFrame {
    attack: &'static str,
    label: &'static str,
    expected: u16,
    bytes: fn() -> Vec<u8>,
}

/// One byte over the server's limit of 1 MiB for a frame or a message.
const TOO_LARGE: usize = (1 << 20) + 1;

const BAD_FRAMES: [BadFrame; 5] = [
    BadFrame {
        attack: "wsTooLarge",
        label: "WebSocket frame over 1 MiB",
        expected: 1009,
        bytes: || frames::frame(TEXT, &vec![b' '; TOO_LARGE], Some(MASK)),
    },
    BadFrame {
        attack: "wsNotUtf8",
        label: "WebSocket text not UTF-8",
        expected: 1007,
        bytes: || frames::frame(TEXT, b"{\"type\":\"\xff\xfe\"}", Some(MASK)),
    },
    BadFrame {
        attack: "wsUnmasked",
        label: "unmasked WebSocket frame",
        expected: 1002,
        bytes: || frames::frame(TEXT, br#"{"type":"undo"}"#, None),
    },
    BadFrame {
        attack: "wsReservedOpcode",
        label: "reserved WebSocket opcode",
        expected: 1002,
        bytes: || frames::frame(0x3, b"?", Some(MASK)),
    },
    BadFrame {
        attack: "wsLongControl",
        label: "WebSocket ping over 125 bytes",
        expected: 1002,
        bytes: || frames::frame(PING, &[b'p'; 126], Some(MASK)),
    },
];

/// Each protocol error on its own socket of game `id`.
pub async fn protocol_errors(target: &Target, id: &str) -> Vec<Check> {
    let mut checks = Vec::new();
    for bad in &BAD_FRAMES {
        let mut socket = match RawSocket::open(ATTACKER, target, id).await {
            Ok(socket) => socket,
            Err(e) => {
                checks.push(Check::new(
                    bad.attack,
                    bad.label,
                    Verdict::NotHeld,
                    format!("the WebSocket did not open: {e}"),
                ));
                continue;
            }
        };
        let bytes = (bad.bytes)();
        let until = Instant::now() + CLOSE_WAIT;
        // Written while the answer is read: the server may close before
        // the whole megabyte is sent (it need not read what it refuses).
        let (ending, _) = tokio::join!(
            read_until_close(&mut socket.reader, &mut socket.buffer, until),
            timeout(CLOSE_WAIT, async {
                let _ = socket.writer.write_all(&bytes).await;
            })
        );
        let verdict = Verdict::of(ending == Ending::Close(Some(bad.expected)));
        let result = match ending {
            Ending::StillOpen => format!(
                "no Close in {} s (Close {} expected)",
                CLOSE_WAIT.as_secs(),
                bad.expected
            ),
            ending => format!("{} (Close {} expected)", ending.words(), bad.expected),
        };
        let code = match ending {
            Ending::Close(code) => code,
            _ => None,
        };
        checks.push(
            Check::new(bad.attack, bad.label, verdict, result)
                .with("closeCode", code)
                .with("expectedCloseCode", bad.expected),
        );
    }
    checks
}

/// Reads the server's frames until its Close (or the end, or `until`).
async fn read_until_close(
    reader: &mut tokio::net::tcp::OwnedReadHalf,
    buffer: &mut Vec<u8>,
    until: Instant,
) -> Ending {
    frames::until_close(reader, buffer, until, |_| {}).await
}

/// A socket that reads the server's messages but never answers its pings:
/// it should be closed with 1001 after twice the ping interval (the
/// server's check runs once an interval, so up to three times).
pub async fn ignored_pings(target: Target, expected: Expected, deadline: Instant) -> Check {
    let (attack, label) = ("wsIgnoredPings", "WebSocket never answering pings");
    let id = match create_game(net::SLOW, &target).await {
        Ok(id) => id,
        Err(e) => return Check::new(attack, label, Verdict::NotHeld, e),
    };
    let mut socket = match RawSocket::open(net::SLOW, &target, &id).await {
        Ok(socket) => socket,
        Err(e) => {
            return Check::new(
                attack,
                label,
                Verdict::NotHeld,
                format!("the WebSocket did not open: {e}"),
            )
        }
    };
    let start = Instant::now();
    let mut pings = 0u32;
    let ending = frames::until_close(&mut socket.reader, &mut socket.buffer, deadline, |frame| {
        if frame.opcode == PING {
            pings += 1;
        }
    })
    .await;
    let after = start.elapsed();
    let allowed = expected.ping * 3 + Duration::from_secs(2);
    let limit = format!(
        "limit twice the {} s ping interval, held within {:.0} s",
        expected.ping.as_secs(),
        allowed.as_secs_f64()
    );
    let (verdict, what) = match ending {
        Ending::Close(Some(1001)) => (Verdict::of(after <= allowed), "Close 1001".to_owned()),
        Ending::StillOpen if after < allowed => (Verdict::NotReached, "still open".to_owned()),
        other => (Verdict::NotHeld, other.words()),
    };
    let times = if pings == 1 { "time" } else { "times" };
    Check::new(
        attack,
        label,
        verdict,
        format!(
            "{what} after {:.1} s, pinged {pings} {times} ({limit})",
            after.as_secs_f64()
        ),
    )
    .with(
        "closeCode",
        match ending {
            Ending::Close(code) => code,
            _ => None,
        },
    )
    .with("afterSeconds", round1(after.as_secs_f64()))
    .with("pings", pings)
    .with("expectedSeconds", (expected.ping * 2).as_secs())
}
