//! Hostile JSON: bytes that are not UTF-8 where the server would ignore
//! the field anyway (JSON is UTF-8 throughout: `400`), and an analysis
//! message whose ply is negative (an `error` message naming the field).

use super::frames::{self, RawSocket, CLOSE_WAIT, MASK, TEXT};
use super::net::{self, ATTACKER};
use super::report::{Check, Verdict};
use crate::args::Target;
use std::time::Instant;

/// A new game whose request carries a byte that is not UTF-8 in a field
/// the server ignores: it must be refused with `400`, not read around.
pub async fn not_utf8(target: &Target) -> Check {
    let (attack, label) = ("jsonNotUtf8", "JSON not UTF-8 (ignored field)");
    let body = b"{\"variant\":\"spear\",\"note\":\"\xff\"}";
    match net::exchange(ATTACKER, target, "POST", "/api/games", body).await {
        Ok(answer) => Check::new(
            attack,
            label,
            Verdict::of(answer.status == 400),
            format!("{}: {} (400 expected)", answer.status, answer.sentence()),
        )
        .with("status", answer.status),
        Err(e) => Check::new(
            attack,
            label,
            Verdict::NotHeld,
            format!("POST /api/games failed: {e}"),
        ),
    }
}

/// `{"type":"analyse","ply":-1}` on game `id`'s socket: an `error`
/// message that names `ply`.
pub async fn negative_ply(target: &Target, id: &str) -> Check {
    let (attack, label) = ("jsonBadPly", "analyse with ply -1");
    let refused = |why: String| Check::new(attack, label, Verdict::NotHeld, why);
    let mut socket = match RawSocket::open(ATTACKER, target, id).await {
        Ok(socket) => socket,
        Err(e) => return refused(format!("the WebSocket did not open: {e}")),
    };
    let message = frames::frame(TEXT, br#"{"type":"analyse","ply":-1}"#, Some(MASK));
    if let Err(e) = socket.send(&message).await {
        return refused(format!("the message could not be sent: {e}"));
    }
    let until = Instant::now() + CLOSE_WAIT;
    let mut error = None;
    let reading = async {
        while let Ok(Some(frame)) = socket.next_frame().await {
            if frame.opcode != TEXT {
                continue;
            }
            let Ok(json) = serde_json::from_slice::<serde_json::Value>(&frame.payload) else {
                continue;
            };
            if json["type"] == "error" {
                error = Some(json["error"].as_str().unwrap_or("").to_owned());
                return;
            }
        }
    };
    let _ = tokio::time::timeout(until.saturating_duration_since(Instant::now()), reading).await;
    match error {
        Some(sentence) => {
            let short: String = sentence.chars().take(120).collect();
            // A server that does not know the message lists the ones it
            // takes, whose example has a "ply": that names no field at fault.
            let names_ply = sentence.contains("\"ply\"") && !sentence.contains("unknown variant");
            Check::new(
                attack,
                label,
                Verdict::of(names_ply),
                format!("error: {short}"),
            )
            .with("error", sentence)
        }
        None => refused(format!(
            "no error message in {} s (one naming \"ply\" expected)",
            CLOSE_WAIT.as_secs()
        )),
    }
}
