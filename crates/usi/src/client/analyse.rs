//! Analysis on an engine: `go infinite` (or any `go`), every `info` line
//! handed on as it comes, and `stop` when the viewer moves on or the time
//! is up.

use super::info::InfoLine;
use super::process::{BestMove, Engine, Failure};
use std::time::{Duration, Instant};

/// How often an analysis asks whether to go on while the engine is quiet.
const POLL: Duration = Duration::from_millis(50);
/// How long an engine told `stop` may take to answer `bestmove` before it
/// counts as hung. An engine with a large hash table may take a moment.
const STOP_PATIENCE: Duration = Duration::from_secs(5);

impl Engine {
    /// Sets one of the engine's options: `setoption name NAME value VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Sends `position` and `go {go}` (`go infinite` for an analysis),
    /// then hands each `info` line to `on_info` until the engine answers
    /// `bestmove`. Between lines, and at least every 50 ms, `keep_going`
    /// is asked; when it says no, or `limit` has passed since `go`, the
    /// engine is told `stop`. An engine that then says nothing for 5 s is
    /// hung ([`Failure::TimedOut`]): drop it. The answer is the engine's
    /// `bestmove`.
    pub fn analyse(
        &mut self,
        position: &str,
        go: &str,
        limit: Option<Duration>,
        mut keep_going: impl FnMut() -> bool,
        mut on_info: impl FnMut(InfoLine),
    ) -> Result<BestMove, Failure> {
        self.send(position)?;
        self.send(&format!("go {go}"))?;
        let end = limit.map(|limit| Instant::now() + limit);
        let mut stopped_at: Option<Instant> = None;
        loop {
            let now = Instant::now();
            if stopped_at.is_none() && (!keep_going() || end.is_some_and(|end| now >= end)) {
                self.send("stop")?;
                stopped_at = Some(now);
            }
            let deadline = match stopped_at {
                Some(at) => at + STOP_PATIENCE,
                None => end.map_or(now + POLL, |end| end.min(now + POLL)),
            };
            let line = match self.receive(deadline) {
                Ok((_, line)) => line,
                Err(Failure::TimedOut) if stopped_at.is_none() => continue,
                Err(failure) => return Err(failure),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(info) = InfoLine::parse(&line) {
                        on_info(info);
                    }
                }
                Some("bestmove") => {
                    return Ok(match words.next() {
                        None | Some("(none)" | "0000" | "none") => BestMove::NoMove,
                        Some("resign") => BestMove::Resign,
                        Some("win") => BestMove::Win,
                        Some(text) => BestMove::Move(text.to_owned()),
                    })
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{Connection, EngineConfig, Score};
    use koma_rules::Variant;
    use std::sync::mpsc;

    /// An engine that reports two depths at `go`, then waits for `stop`
    /// (or, if `hangs`, never answers it).
    fn thinking_engine(hangs: bool) -> Engine {
        let (to_engine, engine_input) = mpsc::channel::<String>();
        let (engine_output, from_engine) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in engine_input {
                let answer = match line.as_str() {
                    "usi" => "usiok",
                    "isready" => "readyok",
                    "go infinite" => {
                        "info depth 1 multipv 1 score cp 10 pv 7g7f\n\
                         info string thinking\n\
                         info depth 2 multipv 1 score cp 20 lowerbound pv 2g2f 8c8d"
                    }
                    "stop" if !hangs => "bestmove 7g7f ponder 3c3d",
                    _ => "",
                };
                for answer in answer.lines() {
                    let _ = engine_output.send(answer.to_owned());
                }
            }
        });
        let config = EngineConfig::parse(&["cmd=fake".to_owned()]).unwrap();
        let connection = Connection::in_process(to_engine, from_engine);
        Engine::connect(connection, &config, Variant::Shogi, "e", None).unwrap()
    }

    #[test]
    fn lines_stream_until_the_viewer_moves_on() {
        let mut engine = thinking_engine(false);
        let mut seen = Vec::new();
        let mut asked = 0;
        let best = engine
            .analyse(
                "position startpos",
                "infinite",
                None,
                || {
                    asked += 1;
                    asked < 4
                },
                |info| seen.push((info.depth, info.score, info.pv)),
            )
            .unwrap();
        assert_eq!(best, BestMove::Move("7g7f".to_owned()));
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(
            seen[0],
            (
                Some(1),
                Some(Score::Centipawns(10)),
                vec!["7g7f".to_owned()]
            )
        );
        assert_eq!(seen[1].0, Some(2));
    }

    #[test]
    fn the_time_limit_stops_it_and_a_hung_engine_is_told_apart() {
        let mut engine = thinking_engine(false);
        let started = Instant::now();
        let limit = Some(Duration::from_millis(200));
        let best = engine.analyse("position startpos", "infinite", limit, || true, |_| {});
        assert_eq!(best, Ok(BestMove::Move("7g7f".to_owned())));
        assert!(started.elapsed() >= Duration::from_millis(200));
        let mut hung = thinking_engine(true);
        let answer = hung.analyse("position startpos", "infinite", None, || false, |_| {});
        assert_eq!(answer, Err(Failure::TimedOut));
    }
}
