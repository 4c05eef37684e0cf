//! Slow and silent connections: a slowloris that sends a header line
//! every few seconds, a connection that sends nothing, a keep-alive
//! connection left idle after its answer, and a POST whose body never
//! completes. Each is timed until the server closes it, and judged against
//! the limit the server is expected to keep (`--expect-header-timeout`,
//! `--expect-body-timeout`), since the tool cannot know its flags.

use super::net::{self, Watched, SLOW};
use super::report::{round1, Check, Verdict};
use crate::args::Target;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;

/// The limits the server is expected to keep.
#[derive(Clone, Copy, Debug)]
pub struct Expected {
    /// `koma serve --header-timeout`.
    pub header: Duration,
    /// `koma serve --body-timeout`.
    pub body: Duration,
    /// `koma serve --ping-interval`.
    pub ping: Duration,
}

/// Slowloris connections opened at once.
const SLOWLORIS_CONNECTIONS: usize = 3;

/// The latest a limit of `expected` may show: room for the server's timer
/// and this tool's own scheduling while it floods on the same thread.
pub fn allowance(expected: Duration) -> Duration {
    expected + (expected / 4).max(Duration::from_secs(2))
}

/// Held when the server closed within `allowed`; not reached when the run
/// ended before `allowed` had passed.
pub fn judge_close(
    closed_after: Option<Duration>,
    watched: Duration,
    allowed: Duration,
) -> Verdict {
    match closed_after {
        Some(after) => Verdict::of(after <= allowed),
        None if watched < allowed => Verdict::NotReached,
        None => Verdict::NotHeld,
    }
}

/// "closed after N s" or "still open after N s".
fn closing(watched: &Watched) -> String {
    match watched.closed_after {
        Some(after) => format!("closed after {:.1} s", after.as_secs_f64()),
        None => format!("still open after {:.1} s", watched.watched.as_secs_f64()),
    }
}

/// `expected`'s limit in words, for the result sentences.
fn limit_words(expected: Duration, allowed: Duration) -> String {
    format!(
        "limit {} s, held within {:.0} s",
        expected.as_secs(),
        allowed.as_secs_f64()
    )
}

fn could_not_connect(attack: &'static str, label: &str, error: std::io::Error) -> Check {
    Check::new(
        attack,
        label,
        Verdict::NotHeld,
        format!("could not connect from {SLOW}: {error}"),
    )
}

/// Slowloris: connections that start a request and send one more header
/// line every quarter of the header timeout, never ending the headers.
pub async fn slowloris(target: Target, expected: Expected, deadline: Instant) -> Check {
    let label = format!("slowloris ({SLOWLORIS_CONNECTIONS} connections)");
    let every = (expected.header / 4).clamp(Duration::from_millis(250), Duration::from_secs(5));
    let mut opened = Vec::new();
    for _ in 0..SLOWLORIS_CONNECTIONS {
        match net::connect(SLOW, &target).await {
            Ok(stream) => opened.push(stream),
            Err(e) => return could_not_connect("slowloris", &label, e),
        }
    }
    let start = Instant::now();
    let first = format!(
        "GET /api/variants HTTP/1.1\r\nHost: {}\r\n",
        target.authority
    );
    let watches = opened.iter_mut().map(|stream| async {
        stream.write_all(first.as_bytes()).await?;
        Ok(net::watch(
            stream,
            start,
            deadline,
            Some((every, &b"X-Slow: 1\r\n"[..])),
        )
        .await)
    });
    let mut watched = Vec::new();
    for result in futures_util::future::join_all(watches).await {
        match result {
            Ok(one) => watched.push(one),
            Err(e) => return could_not_connect("slowloris", &label, e),
        }
    }
    // The connection closed last (or one still open) says it for all.
    let last = watched
        .into_iter()
        .max_by_key(|w| w.closed_after.unwrap_or(Duration::MAX))
        .expect("SLOWLORIS_CONNECTIONS is not zero");
    let allowed = allowance(expected.header);
    let verdict = judge_close(last.closed_after, last.watched, allowed);
    Check::new(
        "slowloris",
        label,
        verdict,
        format!(
            "{} (a line every {:.1} s; {})",
            closing(&last).replacen("closed", "all closed", 1),
            every.as_secs_f64(),
            limit_words(expected.header, allowed)
        ),
    )
    .with(
        "closedAfterSeconds",
        last.closed_after.map(|d| round1(d.as_secs_f64())),
    )
    .with("watchedSeconds", round1(last.watched.as_secs_f64()))
    .with("expectedSeconds", expected.header.as_secs())
}

/// A connection that sends nothing at all.
pub async fn silent(target: Target, expected: Expected, deadline: Instant) -> Check {
    let label = "silent connection";
    let mut stream = match net::connect(SLOW, &target).await {
        Ok(stream) => stream,
        Err(e) => return could_not_connect("silent", label, e),
    };
    let watched = net::watch(&mut stream, Instant::now(), deadline, None).await;
    timed_close("silent", label, &watched, expected.header, "")
}

/// A keep-alive connection that asks once, reads its answer and then
/// says nothing more: timed from the end of the answer.
pub async fn idle_keep_alive(target: Target, expected: Expected, deadline: Instant) -> Check {
    let (attack, label) = ("idleKeepAlive", "idle keep-alive connection");
    let mut stream = match net::connect(SLOW, &target).await {
        Ok(stream) => stream,
        Err(e) => return could_not_connect(attack, label, e),
    };
    let asked = stream
        .write_all(&net::request(&target, "GET", "/api/variants", b""))
        .await;
    let answer = match asked {
        Ok(()) => net::read_answer(&mut stream).await,
        Err(e) => Err(e),
    };
    match answer {
        Ok(answer) if answer.status == 200 => {
            let watched = net::watch(&mut stream, Instant::now(), deadline, None).await;
            timed_close(
                attack,
                label,
                &watched,
                expected.header,
                " after its answer",
            )
        }
        Ok(answer) => Check::new(
            attack,
            label,
            Verdict::NotHeld,
            format!(
                "GET /api/variants answered {}: {}",
                answer.status,
                answer.sentence()
            ),
        ),
        Err(e) => Check::new(
            attack,
            label,
            Verdict::NotHeld,
            format!("GET /api/variants failed: {e}"),
        ),
    }
}

/// A connection closed (or not) against the limit `expected`.
fn timed_close(
    attack: &'static str,
    label: &str,
    watched: &Watched,
    expected: Duration,
    after_what: &str,
) -> Check {
    let allowed = allowance(expected);
    let mut verdict = judge_close(watched.closed_after, watched.watched, allowed);
    let mut result = format!(
        "{}{after_what} ({})",
        closing(watched),
        limit_words(expected, allowed)
    );
    if let Some(status) = watched.status() {
        // A bare connection is closed, not answered; an answer here is
        // still a close, but say what it was.
        result += &format!("; it answered {status} first");
    } else if !watched.received.is_empty() {
        verdict = Verdict::NotHeld;
        result += "; it sent something that is not HTTP";
    }
    Check::new(attack, label, verdict, result)
        .with(
            "closedAfterSeconds",
            watched.closed_after.map(|d| round1(d.as_secs_f64())),
        )
        .with("watchedSeconds", round1(watched.watched.as_secs_f64()))
        .with("expectedSeconds", expected.as_secs())
}

/// A POST whose headers promise a body that never comes whole: the
/// server should answer `408` within its body timeout and close.
pub async fn stalled_body(target: Target, expected: Expected, deadline: Instant) -> Check {
    let (attack, label) = ("stalledBody", "POST body never completed");
    let mut stream = match net::connect(SLOW, &target).await {
        Ok(stream) => stream,
        Err(e) => return could_not_connect(attack, label, e),
    };
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{{\"variant\": ",
        target.authority
    );
    if let Err(e) = stream.write_all(head.as_bytes()).await {
        return could_not_connect(attack, label, e);
    }
    let watched = net::watch(&mut stream, Instant::now(), deadline, None).await;
    let allowed = allowance(expected.body);
    let limit = limit_words(expected.body, allowed);
    let (verdict, result) = match (watched.status(), watched.first_byte_after) {
        (Some(408), Some(at)) => {
            let closed = match watched.closed_after {
                Some(after) => format!("closed at {:.1} s", after.as_secs_f64()),
                None => format!("still open at {:.1} s", watched.watched.as_secs_f64()),
            };
            (
                Verdict::of(at <= allowed && watched.closed_after.is_some()),
                format!("408 after {:.1} s, {closed} ({limit})", at.as_secs_f64()),
            )
        }
        (Some(status), Some(at)) => (
            Verdict::NotHeld,
            format!(
                "{status} after {:.1} s, where 408 was expected",
                at.as_secs_f64()
            ),
        ),
        _ => {
            let verdict = match judge_close(watched.closed_after, watched.watched, allowed) {
                // Closed in time, but without the 408 that says why.
                Verdict::Held => Verdict::NotHeld,
                other => other,
            };
            let without = if watched.closed_after.is_some() {
                " without an answer"
            } else {
                ""
            };
            (verdict, format!("{}{without} ({limit})", closing(&watched)))
        }
    };
    Check::new(attack, label, verdict, result)
        .with("status", watched.status())
        .with(
            "answeredAfterSeconds",
            watched.first_byte_after.map(|d| round1(d.as_secs_f64())),
        )
        .with(
            "closedAfterSeconds",
            watched.closed_after.map(|d| round1(d.as_secs_f64())),
        )
        .with("expectedSeconds", expected.body.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_is_judged_against_its_allowance() {
        let secs = Duration::from_secs;
        assert_eq!(allowance(secs(20)), secs(25));
        assert_eq!(allowance(secs(1)), secs(3));
        let allowed = secs(25);
        assert_eq!(
            judge_close(Some(secs(20)), secs(20), allowed),
            Verdict::Held
        );
        assert_eq!(
            judge_close(Some(secs(26)), secs(26), allowed),
            Verdict::NotHeld
        );
        // Still open: not reached if the run ended first, else not held.
        assert_eq!(judge_close(None, secs(10), allowed), Verdict::NotReached);
        assert_eq!(judge_close(None, secs(30), allowed), Verdict::NotHeld);
    }
}
