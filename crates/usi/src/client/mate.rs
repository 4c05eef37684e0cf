//! Asking an engine for a mate: USI's `go mate`, answered by `checkmate`.

use super::process::{Engine, Failure};
use std::time::{Duration, Instant};

/// What an engine answered to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateReply {
    /// `checkmate` and the moves, as written (not yet checked).
    Mate(Vec<String>),
    /// `checkmate nomate`.
    NoMate,
    /// `checkmate timeout`.
    Timeout,
    /// `checkmate notimplemented`, or a `bestmove`: an engine that reads
    /// `go mate` as UCI's "mate in N moves" (Fairy-Stockfish in USI mode)
    /// searches as for a move and answers with one.
    NotImplemented,
}

/// An engine's answer to `go mate` and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateThought {
    /// The answer.
    pub reply: MateReply,
    /// From sending `go mate` to reading `checkmate`.
    pub elapsed: Duration,
    /// The last node count it reported (`info … nodes N`).
    pub nodes: Option<u64>,
}

impl Engine {
    /// Sends `position` and `go mate` (with `limit` in milliseconds, or
    /// `infinite`), and reads until `checkmate`. Past `patience` the engine
    /// is told `stop` and given a second more.
    pub fn solve_mate(
        &mut self,
        position: &str,
        limit: Option<Duration>,
        patience: Duration,
    ) -> Result<MateThought, Failure> {
        self.send(position)?;
        let go = match limit {
            Some(limit) => format!("go mate {}", limit.as_millis().max(1)),
            None => "go mate infinite".to_owned(),
        };
        self.send(&go)?;
        let start = Instant::now();
        let mut deadline = start + patience;
        let mut stopped = false;
        let mut nodes = None;
        loop {
            let (at, line) = match self.receive(deadline) {
                Err(Failure::TimedOut) if !stopped => {
                    stopped = true;
                    self.send("stop")?;
                    deadline = Instant::now() + Duration::from_secs(1);
                    continue;
                }
                other => other?,
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    if let Some(at) = words.iter().position(|&w| w == "nodes") {
                        nodes = words.get(at + 1).and_then(|n| n.parse().ok()).or(nodes);
                    }
                }
                Some("bestmove") => {
                    return Ok(MateThought {
                        reply: MateReply::NotImplemented,
                        elapsed: at.saturating_duration_since(start),
                        nodes,
                    });
                }
                Some("checkmate") => {
                    let rest: Vec<String> = words.map(str::to_owned).collect();
                    let reply = match rest.first().map(String::as_str) {
                        Some("nomate") => MateReply::NoMate,
                        Some("timeout") | None => MateReply::Timeout,
                        Some("notimplemented") => MateReply::NotImplemented,
                        Some(_) => MateReply::Mate(rest),
                    };
                    return Ok(MateThought {
                        reply,
                        elapsed: at.saturating_duration_since(start),
                        nodes,
                    });
                }
                _ => {}
            }
        }
    }
}
