//! Analysis on a registered engine: its process lent from the pool, the
//! position sent as `position … moves …`, `go infinite` stopped when the
//! viewer moves on or the time is up, and its `info` lines turned into
//! the same messages as Koma's own analysis. What the engine says is
//! checked before it is shown: a line is cut at its first move that is
//! not legal, scores are kept within bounds, and an engine that dies is
//! started again once before the viewer is told.

use super::analysis_target::{AnalysisJson, DepthLines, EnginesJson, LineJson, Target};
use crate::external::pool::{self, ExternalEngines};
use crate::external::registry::ExternalEngine;
use crate::games::live::Served;
use crate::games::state::{EvaluationJson, MoveJson};
use crate::priority::Work;
use koma_analysis::Evaluation;
use koma_engine::{Score as EngineScore, SearchControl};
use koma_rules::{Game, Move};
use koma_usi::client::{position_command, BestMove, InfoLine, Score};
use koma_usi::Dialect;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The largest score in centipawns shown; beyond it an engine's number is
/// taken as this (a mate it has not counted).
const CENTIPAWN_LIMIT: i32 = 30_000;
/// The longest mate shown, in plies.
const MATE_LIMIT: i32 = 10_000;

/// One analysis on a registered engine.
pub(super) struct Job<'a> {
    pub target: &'a Target,
    pub external: &'a Arc<ExternalEngines>,
    pub engine: &'a Arc<ExternalEngine>,
    /// The longest it thinks.
    pub time: Duration,
    pub control: &'a SearchControl,
}

impl Job<'_> {
    /// Analyses the target's position in `game`, sending each depth's
    /// lines, then the last complete set as `"done"` (or `"failed"`).
    pub fn think<P: Served>(
        &self,
        game: &Game<P>,
        engines: impl Fn() -> EnginesJson,
        send: impl Fn(AnalysisJson),
    ) {
        let (history, previous) = self.target.history(game);
        let root = history[history.len() - 1].clone();
        let legal = root.legal_moves().len();
        if legal == 0 {
            send(
                self.target
                    .message("done", (0, 0, Duration::ZERO), Vec::new(), engines()),
            );
            return;
        }
        let mut moves: Vec<Move> = game.moves()[..self.target.ply].to_vec();
        moves.extend(&self.target.variation);
        let variant = P::VARIANT;
        let wanted = (self.target.lines as usize).min(legal);
        let started = Instant::now();
        let mut last = Progress::default();
        for attempt in 0..2 {
            let job = pool::Job {
                work: Work::Study,
                game: &self.target.game_id,
            };
            let mut lent = match self.external.lend(self.engine, variant, job) {
                Ok(lent) => lent,
                Err(e) => {
                    return send(self.failed(
                        format!("The engine {} cannot start: {e}.", self.engine.name),
                        &last,
                        engines(),
                    ))
                }
            };
            let process = lent.process();
            let dialect = process.dialect();
            let position = position_command(game.start(), &moves, dialect);
            let multipv = process.set_option("MultiPV", &self.target.lines.to_string());
            let left = self.time.saturating_sub(started.elapsed());
            let answer = multipv.and_then(|()| {
                process.analyse(
                    &position,
                    "infinite",
                    Some(left),
                    || !self.control.is_stopped(),
                    |info| {
                        if let Some(progress) = last.take(&root, previous, dialect, wanted, info) {
                            send(self.target.message(
                                "running",
                                (progress.depth, progress.nodes, progress.time),
                                progress.lines.complete().to_vec(),
                                engines(),
                            ));
                        }
                    },
                )
            });
            match answer {
                Ok(BestMove::Move(_) | BestMove::NoMove | BestMove::Resign | BestMove::Win) => {
                    drop(lent);
                    let figures = (last.depth, last.nodes, last.time);
                    send(self.target.message(
                        "done",
                        figures,
                        last.lines.complete().to_vec(),
                        engines(),
                    ));
                    return;
                }
                Err(failure) => {
                    lent.broken();
                    if attempt == 0 && !self.control.is_stopped() && started.elapsed() < self.time {
                        continue;
                    }
                    let sentence = format!(
                        "The engine {} stopped answering ({failure}).",
                        self.engine.name
                    );
                    return send(self.failed(sentence, &last, engines()));
                }
            }
        }
    }

    fn failed(&self, sentence: String, last: &Progress, engines: EnginesJson) -> AnalysisJson {
        let figures = (last.depth, last.nodes, last.time);
        AnalysisJson {
            error: Some(sentence),
            ..self
                .target
                .message("failed", figures, last.lines.complete().to_vec(), engines)
        }
    }
}

/// The lines of an analysis so far.
#[derive(Default)]
struct Progress {
    lines: DepthLines,
    depth: u32,
    nodes: u64,
    time: Duration,
}

impl Progress {
    /// Takes one `info` line; returns the progress when it completed a
    /// depth's set of lines.
    fn take<P: Served>(
        &mut self,
        root: &P,
        previous: Option<Move>,
        dialect: Dialect,
        wanted: usize,
        info: InfoLine,
    ) -> Option<&Progress> {
        if let Some(nodes) = info.nodes {
            self.nodes = nodes;
        }
        if let Some(ms) = info.time_ms {
            self.time = Duration::from_millis(ms);
        }
        if info.bound.is_some() {
            return None;
        }
        let score = engine_score(info.score?, dialect)?;
        let line = legal_prefix(root, &info.pv);
        if line.is_empty() {
            return None;
        }
        let made = || LineJson {
            score: EvaluationJson::new(P::VARIANT, Evaluation::from_score(score, root.turn())),
            moves: MoveJson::line(root, &line, previous),
        };
        if !self.lines.take(info.multipv.unwrap_or(1), made, wanted) {
            return None;
        }
        self.depth = info.depth.unwrap_or(self.depth);
        Some(self)
    }
}

/// An engine's score as Koma's, from the side to move's view: mates in
/// plies (UCI counts moves), everything within bounds; `None` for a mate
/// in 0, which a position with moves cannot have.
pub(super) fn engine_score(score: Score, dialect: Dialect) -> Option<EngineScore> {
    match score {
        Score::Centipawns(cp) => Some(EngineScore::Centipawns(
            cp.clamp(-CENTIPAWN_LIMIT, CENTIPAWN_LIMIT),
        )),
        Score::Mate(0) => None,
        Score::Mate(n) => {
            let plies = match dialect {
                Dialect::Usi => n,
                Dialect::Uci if n > 0 => n.saturating_mul(2).saturating_sub(1),
                Dialect::Uci => n.saturating_mul(2),
            };
            Some(EngineScore::MatePlies(plies.clamp(-MATE_LIMIT, MATE_LIMIT)))
        }
    }
}

/// The moves of `pv` played from `root` up to the first that is not a
/// legal move there.
pub(super) fn legal_prefix<P: Served>(root: &P, pv: &[String]) -> Vec<Move> {
    let mut position = root.clone();
    let mut line = Vec::new();
    for text in pv {
        match position.parse_move(text) {
            Ok(m) if position.is_legal(m) => {
                position.play_unchecked(m);
                line.push(m);
            }
            _ => break,
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::StandardShogiPosition;

    #[test]
    fn lines_are_cut_at_their_first_wrong_move() {
        let start = StandardShogiPosition::start();
        let pv: Vec<String> = ["7g7f", "3c3d", "9a9b", "2g2f"].map(str::to_owned).to_vec();
        assert_eq!(legal_prefix(&start, &pv).len(), 2);
        assert!(legal_prefix(&start, &["garbage".to_owned()]).is_empty());
        assert!(legal_prefix(&start, &[]).is_empty());
    }

    #[test]
    fn scores_are_kept_within_bounds() {
        let usi = |s| engine_score(s, Dialect::Usi);
        assert_eq!(
            usi(Score::Centipawns(i32::MAX)),
            Some(EngineScore::Centipawns(CENTIPAWN_LIMIT))
        );
        assert_eq!(usi(Score::Mate(-5)), Some(EngineScore::MatePlies(-5)));
        assert_eq!(
            usi(Score::Mate(i32::MIN)),
            Some(EngineScore::MatePlies(-MATE_LIMIT))
        );
        assert_eq!(usi(Score::Mate(0)), None);
        // UCI counts moves: mate in 3 is 5 plies; mated in 2 is 4.
        assert_eq!(
            engine_score(Score::Mate(3), Dialect::Uci),
            Some(EngineScore::MatePlies(5))
        );
        assert_eq!(
            engine_score(Score::Mate(-2), Dialect::Uci),
            Some(EngineScore::MatePlies(-4))
        );
    }

    #[test]
    fn a_depth_is_shown_once_all_its_lines_are_in() {
        let start = StandardShogiPosition::start();
        let mut progress = Progress::default();
        let line = |text: &str| InfoLine::parse(text).unwrap();
        let usi = Dialect::Usi;
        assert!(progress
            .take(
                &start,
                None,
                usi,
                2,
                line("info depth 1 multipv 1 score cp 30 pv 7g7f")
            )
            .is_none());
        // A bound, a line out of order and garbage are not shown.
        assert!(progress
            .take(
                &start,
                None,
                usi,
                2,
                line("info depth 1 multipv 2 score cp 9 lowerbound pv 2g2f")
            )
            .is_none());
        assert!(progress
            .take(
                &start,
                None,
                usi,
                2,
                line("info depth 1 multipv 3 score cp 9 pv 2g2f")
            )
            .is_none());
        assert!(progress
            .take(
                &start,
                None,
                usi,
                2,
                line("info depth 1 multipv 2 score cp 9 pv 1a1b")
            )
            .is_none());
        let done = progress
            .take(
                &start,
                None,
                usi,
                2,
                line("info depth 1 multipv 2 score cp 20 nodes 40 time 3 pv 2g2f 8c8d"),
            )
            .unwrap();
        assert_eq!(
            (done.depth, done.nodes, done.time),
            (1, 40, Duration::from_millis(3))
        );
        assert_eq!(done.lines.complete().len(), 2);
        assert_eq!(done.lines.complete()[1].moves.len(), 2);
    }
}
