//! Attacks by numbers, all from the attacker's one address: connections
//! hoarded until the server refuses more, requests each on a new
//! connection to get around the rate limit, and a flood of them — while
//! the innocent client, from its own address, must still be answered.

use super::innocent::{self, Samples};
use super::net::{self, ATTACKER};
use super::report::{round1, round3, Check, Verdict};
use crate::args::Target;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncReadExt;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::sleep;

/// A hoarded connection the server has said nothing on.
const OPEN: u8 = 0;
/// A hoarded connection answered `503`.
const REFUSED: u8 = 1;
/// A hoarded connection closed without a `503`, or answered otherwise.
const CLOSED: u8 = 2;

/// How long the hoard waits, once opened, for the server's refusals.
const SETTLE: Duration = Duration::from_millis(300);
/// How long the innocent client asks while the hoard holds.
const HOARD_INNOCENT: Duration = Duration::from_millis(500);

/// Opens `wanted` idle connections from the attacker and counts how many
/// the server took before it answered `503`; meanwhile the innocent client
/// must be answered.
pub async fn hoard(target: &Target, wanted: usize) -> Check {
    let (attack, label) = ("hoard", format!("{wanted} idle connections hoarded"));
    let states: Arc<[AtomicU8]> = (0..wanted).map(|_| AtomicU8::new(OPEN)).collect();
    let (stop, stopped) = watch::channel(false);
    let mut held = JoinSet::new();
    let start = Instant::now();
    let mut connect_error = None;
    for index in 0..wanted {
        let mut stream = match net::connect(ATTACKER, target).await {
            Ok(stream) => stream,
            Err(e) => {
                connect_error = Some(format!("connection {} could not be opened: {e}", index + 1));
                break;
            }
        };
        let (states, mut stopped) = (states.clone(), stopped.clone());
        held.spawn(async move {
            let mut first = [0u8; 16];
            tokio::select! {
                read = stream.read(&mut first) => {
                    let state = match read {
                        Ok(n) if first[..n].starts_with(b"HTTP/1.1 503") => REFUSED,
                        _ => CLOSED,
                    };
                    states[index].store(state, Ordering::Relaxed);
                }
                _ = stopped.wait_for(|&stop| stop) => {}
            }
            let _ = stream.set_zero_linger();
        });
    }
    let opened = held.len();
    let opening = start.elapsed();
    sleep(SETTLE).await;
    let seen: Vec<u8> = states[..opened]
        .iter()
        .map(|s| s.load(Ordering::Relaxed))
        .collect();
    let count = |state| seen.iter().filter(|&&s| s == state).count();
    let (open, refused, closed) = (count(OPEN), count(REFUSED), count(CLOSED));
    let accepted = seen
        .iter()
        .position(|&s| s == REFUSED)
        .or_else(|| seen.iter().position(|&s| s == CLOSED))
        .unwrap_or(opened);
    let mut samples = innocent::finish(innocent::start(
        target.clone(),
        innocent::EVERY,
        Instant::now() + HOARD_INNOCENT,
    ))
    .await;
    stop.send_replace(true);
    while held.join_next().await.is_some() {}
    // The server lets the connections go once it reads their resets: give
    // it that moment, so that the next attack does not meet its cap.
    sleep(SETTLE).await;

    let innocent_ok = samples.all_answered();
    let capped = refused + closed > 0;
    let mut result = format!(
        "{accepted} accepted before the first refusal; {refused} answered 503, {closed} closed \
         without one, {open} held open (opened in {:.1} s); innocent {}",
        opening.as_secs_f64(),
        samples.answered_words()
    );
    if !capped {
        result +=
            "; no cap met (give --hostile-connections above the server's --max-client-connections)";
    }
    if let Some(error) = &connect_error {
        result += &format!("; {error}");
    }
    let median = samples.summary().median;
    Check::new(attack, label, Verdict::of(capped && innocent_ok), result)
        .with("opened", opened)
        .with("acceptedBeforeRefusal", accepted)
        .with("refused503", refused)
        .with("closedWithoutAnswer", closed)
        .with("heldOpen", open)
        .with("innocentAnswered", samples.answered.len())
        .with("innocentSent", samples.sent)
        .with("innocentMedianMs", median.map(round3))
}

/// Requests each on a new connection from the attacker, to get around a
/// rate limit kept per connection.
pub const BYPASS_REQUESTS: usize = 300;
/// The server's default burst of requests from one client (`koma serve
/// --requests-per-second` 20, three times as many at once).
pub const DEFAULT_BURST: usize = 60;

/// [`BYPASS_REQUESTS`] requests, each on a new connection: held if at
/// least half of those beyond the default burst are refused with `429`.
pub async fn bypass(target: &Target) -> Check {
    let (attack, label) = (
        "rateLimitBypass",
        format!("{BYPASS_REQUESTS} requests, a connection each"),
    );
    let start = Instant::now();
    let mut counts = Counts::default();
    for _ in 0..BYPASS_REQUESTS {
        counts.add(net::exchange(ATTACKER, target, "GET", "/api/variants", b"").await);
    }
    let seconds = start.elapsed().as_secs_f64();
    let needed = ((BYPASS_REQUESTS - DEFAULT_BURST) / 2) as u64;
    Check::new(
        attack,
        label,
        Verdict::of(counts.too_many >= needed),
        format!(
            "{} answered 429, {} answered 200{} in {seconds:.1} s (held from {needed} refused)",
            counts.too_many,
            counts.ok,
            counts.others_words()
        ),
    )
    .with("answered429", counts.too_many)
    .with("answered200", counts.ok)
    .with("failed", counts.failed)
    .with("seconds", round3(seconds))
}

/// Tasks that flood at once.
const FLOOD_TASKS: usize = 4;
/// How many times the innocent client's idle median its median during the
/// flood may be (the criterion).
const SLOWDOWN_ALLOWED: f64 = 10.0;
/// How long the innocent client's idle latency is measured.
const IDLE_MEASURE: Duration = Duration::from_secs(1);

/// The attacker's answers, counted by status.
#[derive(Debug, Default)]
struct Counts {
    ok: u64,
    too_many: u64,
    unavailable: u64,
    other: u64,
    failed: u64,
    first_failure: Option<String>,
}

impl Counts {
    fn add(&mut self, answer: std::io::Result<net::Answer>) {
        match answer.map(|answer| answer.status) {
            Ok(200) => self.ok += 1,
            Ok(429) => self.too_many += 1,
            Ok(503) => self.unavailable += 1,
            Ok(_) => self.other += 1,
            Err(e) => {
                self.failed += 1;
                self.first_failure.get_or_insert_with(|| e.to_string());
            }
        }
    }

    fn merge(&mut self, other: Counts) {
        self.ok += other.ok;
        self.too_many += other.too_many;
        self.unavailable += other.unavailable;
        self.other += other.other;
        self.failed += other.failed;
        if self.first_failure.is_none() {
            self.first_failure = other.first_failure;
        }
    }

    fn answered(&self) -> u64 {
        self.ok + self.too_many + self.unavailable + self.other
    }

    /// ", 3 answered 503, 2 otherwise, 1 failed (why)" for those that are not zero.
    fn others_words(&self) -> String {
        let mut words = String::new();
        if self.unavailable > 0 {
            words += &format!(", {} answered 503", self.unavailable);
        }
        if self.other > 0 {
            words += &format!(", {} answered otherwise", self.other);
        }
        if self.failed > 0 {
            words += &format!(", {} failed", self.failed);
            if let Some(why) = &self.first_failure {
                words += &format!(" ({why})");
            }
        }
        words
    }
}

/// A flood of requests, each on a new connection, from the attacker for
/// `seconds` on a few tasks; the innocent client's latency during it
/// against its latency just before.
pub async fn flood(target: &Target, seconds: Duration) -> Check {
    let label = format!("flood of new connections, {} s", seconds.as_secs());
    let mut idle = innocent::finish(innocent::start(
        target.clone(),
        innocent::EVERY,
        Instant::now() + IDLE_MEASURE,
    ))
    .await;
    let start = Instant::now();
    let deadline = start + seconds;
    let during = innocent::start(target.clone(), innocent::EVERY, deadline);
    let mut tasks = JoinSet::new();
    for _ in 0..FLOOD_TASKS {
        let target = target.clone();
        tasks.spawn(async move {
            let mut counts = Counts::default();
            while Instant::now() < deadline {
                let answer = net::exchange(ATTACKER, &target, "GET", "/api/variants", b"").await;
                if answer.is_err() {
                    // Out of ports or descriptors: let them come back
                    // rather than spin on the error.
                    sleep(Duration::from_millis(1)).await;
                }
                counts.add(answer);
            }
            counts
        });
    }
    let mut counts = Counts::default();
    while let Some(joined) = tasks.join_next().await {
        if let Ok(task) = joined {
            counts.merge(task);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let mut during = innocent::finish(during).await;
    judge_flood(label, counts, elapsed, &mut idle, &mut during)
}

fn judge_flood(
    label: String,
    counts: Counts,
    elapsed: f64,
    idle: &mut Samples,
    during: &mut Samples,
) -> Check {
    let per_second = counts.answered() as f64 / elapsed.max(0.001);
    let share_429 = counts.too_many as f64 / (counts.answered().max(1)) as f64;
    let (idle_summary, during_summary) = (idle.summary(), during.summary());
    let ms = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"));
    let slowdown = match (idle_summary.median, during_summary.median) {
        (Some(idle), Some(during)) if idle > 0.0 => Some(during / idle),
        _ => None,
    };
    let held = idle.all_answered()
        && during.all_answered()
        && slowdown.is_some_and(|slowdown| slowdown <= SLOWDOWN_ALLOWED);
    let mut result = format!(
        "{per_second:.0} requests/s, {:.1} % answered 429{}; innocent median {} ms (p90 {}) vs {} ms idle",
        share_429 * 100.0,
        counts.others_words(),
        ms(during_summary.median),
        ms(during_summary.p90),
        ms(idle_summary.median),
    );
    if !during.all_answered() {
        result += &format!("; innocent {} during the flood", during.answered_words());
    }
    if !idle.all_answered() {
        result += &format!("; innocent {} before it", idle.answered_words());
    }
    if let Some(slowdown) = slowdown.filter(|&s| s > SLOWDOWN_ALLOWED) {
        result += &format!("; {slowdown:.0} times slower (at most {SLOWDOWN_ALLOWED:.0} held)");
    }
    Check::new("flood", label, Verdict::of(held), result)
        .with("requestsPerSecond", round1(per_second))
        .with("share429", round3(share_429))
        .with("answered200", counts.ok)
        .with("answered429", counts.too_many)
        .with("answered503", counts.unavailable)
        .with("failed", counts.failed)
        .with("innocentIdleMedianMs", idle_summary.median.map(round3))
        .with("innocentFloodMedianMs", during_summary.median.map(round3))
        .with("innocentFloodP90Ms", during_summary.p90.map(round3))
        .with("innocentFloodAnswered", during.answered.len())
        .with("innocentFloodSent", during.sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(latencies_ms: &[u32], refused: usize) -> Samples {
        Samples {
            sent: latencies_ms.len() + refused,
            answered: latencies_ms.iter().map(|ms| ms * 1000).collect(),
            refused,
            first_problem: (refused > 0).then(|| "429: slow down".to_owned()),
        }
    }

    fn counts() -> Counts {
        Counts {
            ok: 100,
            too_many: 900,
            ..Counts::default()
        }
    }

    #[test]
    fn the_flood_holds_while_the_innocent_is_at_most_ten_times_slower() {
        let check = judge_flood(
            "flood".into(),
            counts(),
            2.0,
            &mut samples(&[1, 1, 2], 0),
            &mut samples(&[5, 9, 30], 0),
        );
        assert_eq!(check.verdict, Verdict::Held, "{}", check.result);
        assert_eq!(check.figures["requestsPerSecond"], 500.0);
        assert_eq!(check.figures["share429"], 0.9);
        assert_eq!(check.figures["innocentFloodMedianMs"], 9.0);
        assert!(check.result.starts_with("500 requests/s, 90.0 % answered 429; innocent median 9.00 ms (p90 30.00) vs 1.00 ms idle"), "{}", check.result);

        let slow = judge_flood(
            "flood".into(),
            counts(),
            2.0,
            &mut samples(&[1, 1, 2], 0),
            &mut samples(&[5, 11, 30], 0),
        );
        assert_eq!(slow.verdict, Verdict::NotHeld);
        assert!(
            slow.result.ends_with("11 times slower (at most 10 held)"),
            "{}",
            slow.result
        );

        let refused = judge_flood(
            "flood".into(),
            counts(),
            2.0,
            &mut samples(&[1], 0),
            &mut samples(&[1, 1], 1),
        );
        assert_eq!(refused.verdict, Verdict::NotHeld);
        assert!(
            refused
                .result
                .contains("innocent answered 2 of 3 (429: slow down)"),
            "{}",
            refused.result
        );
    }
}
