//! A job done by Koma's own engine: a review as a local review is
//! (`koma_analysis::review` at the job's node budget, one thread), a mate
//! search as the board's local one is (`study::mate`, Koma's mate
//! solver), an analysis as the board's local one is (MultiPV, one
//! thread); by the server's own engines ([`super::local`]) and by `koma
//! worker`.

use super::protocol::{
    AnalysisLineJson, AnalysisResultJson, JobJson, MateResultJson, PositionJson, ScoreJson,
};
use crate::games::live::AnyGame;
use crate::study::analysis::TABLE_MEGABYTES;
use crate::study::analysis_target::{DepthLines, MAX_LINES};
use crate::study::mate::find_mate_within;
use koma_analysis::review::review_whole;
use koma_analysis::Evaluation;
use koma_analysis::Review;
use koma_engine::{Engine, Evaluate, Info, Limits, SearchControl};
use koma_rules::{each_game, Game, Position, Variant};
use std::time::Duration;

/// Why a job cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Its game is none Koma knows.
    #[error("the job's game {0} is not one Koma plays")]
    UnknownVariant(String),
    /// Its position or moves do not replay.
    #[error("the job's game cannot be replayed: {0}")]
    Replay(String),
    /// It was stopped before the end.
    #[error("the review was stopped")]
    Stopped,
    /// Its position is none to search for mate.
    #[error("the job's position cannot be searched for mate: {0}")]
    NoMateSearch(String),
}

/// Searches `job`'s position for a mate for its seconds (and at most its
/// nodes, unless 0) with the solver the board's local search uses; its
/// answer as the result sends it. A search lasts its seconds at most (30),
/// so it is not stopped early.
pub fn mate_job(job: &JobJson) -> Result<MateResultJson, RunError> {
    let variant: Variant = job
        .variant
        .parse()
        .map_err(|_| RunError::UnknownVariant(job.variant.clone()))?;
    let game = AnyGame::new(variant, Some(&job.position)).map_err(RunError::Replay)?;
    let nodes = (job.nodes > 0).then_some(job.nodes);
    let found = find_mate_within(&game, 0, job.seconds, nodes)
        .map_err(|refusal| RunError::NoMateSearch(refusal.message))?;
    Ok(MateResultJson {
        answer: found.answer.to_owned(),
        length: found.length,
        line: found.line.into_iter().map(|step| step.usi).collect(),
        nodes: found.nodes,
        milliseconds: found.milliseconds,
    })
}

/// The game of `job`: its moves played from its position.
fn replayed(job: &JobJson) -> Result<AnyGame, RunError> {
    let variant: Variant = job
        .variant
        .parse()
        .map_err(|_| RunError::UnknownVariant(job.variant.clone()))?;
    AnyGame::replay(variant, &job.position, &job.moves, None).map_err(RunError::Replay)
}

/// The longest analysis a job may ask for, seconds: the server's own
/// bound (`--analysis-seconds`) at its largest.
pub const MAX_ANALYSIS_SECONDS: u64 = 3600;

/// Analyses the position after `job`'s moves for its seconds (and at most
/// its nodes, unless 0) with its best `lines`, as the board's local
/// analysis does, calling `report` with the lines of each depth
/// completed; stops early when `control` is stopped. The last lines.
pub fn analysis_job(
    job: &JobJson,
    control: &SearchControl,
    report: &mut dyn FnMut(&AnalysisResultJson),
) -> Result<AnalysisResultJson, RunError> {
    let game = replayed(job)?;
    let mut limits = Limits::move_time(Duration::from_secs(
        job.seconds.clamp(1, MAX_ANALYSIS_SECONDS),
    ));
    limits.nodes = (job.nodes > 0).then_some(job.nodes);
    let lines = job.lines.clamp(1, MAX_LINES);
    Ok(each_game!(AnyGame, &game, g => analyse(g, lines, &limits, control, report)))
}

fn analyse<P: Evaluate>(
    game: &Game<P>,
    lines: u32,
    limits: &Limits,
    control: &SearchControl,
    report: &mut dyn FnMut(&AnalysisResultJson),
) -> AnalysisResultJson {
    let history = game.positions();
    let root = &history[history.len() - 1];
    let mut found = AnalysisResultJson {
        depth: 0,
        nodes: 0,
        milliseconds: 0,
        lines: Vec::new(),
    };
    let legal = root.legal_moves().len();
    if legal == 0 {
        return found;
    }
    let mut engine = Engine::<P>::new(TABLE_MEGABYTES);
    engine.options.multipv = lines;
    let wanted = (lines as usize).min(legal);
    let mut depth_lines = DepthLines::<AnalysisLineJson>::default();
    let result = engine.search(history, limits, control, &mut |info: &Info| {
        if info.bound.is_some() || info.pv.is_empty() {
            return;
        }
        let line = || AnalysisLineJson {
            score: ScoreJson::new(P::VARIANT, Evaluation::from_score(info.score, root.turn())),
            pv: info.pv.iter().map(|&m| P::move_to_text(m)).collect(),
        };
        if depth_lines.take(info.multipv, line, wanted) {
            found.depth = info.depth;
            found.nodes = info.nodes;
            found.milliseconds = u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX);
            found.lines = depth_lines.complete().to_vec();
            report(&found);
        }
    });
    found.nodes = result.nodes;
    found.milliseconds = u64::try_from(result.time.as_millis()).unwrap_or(u64::MAX);
    found
}

/// Judges every position of `job` at its node budget, calling
/// `progress(done, total)` after each; stops early when `control` is
/// stopped. The judgements, the start's first, as the result sends them.
pub fn review_job(
    job: &JobJson,
    control: &SearchControl,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<PositionJson>, RunError> {
    let game = replayed(job)?;
    let nodes = job.nodes.max(1);
    each_game!(AnyGame, &game, g => judge(g, nodes, control, progress))
}

fn judge<P: Evaluate>(
    game: &Game<P>,
    nodes: u64,
    control: &SearchControl,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<PositionJson>, RunError> {
    let review =
        review_whole(game, &Limits::nodes(nodes), control, progress).ok_or(RunError::Stopped)?;
    Ok(positions::<P>(&review))
}

/// `review`'s judgements as a result sends them.
fn positions<P: Position>(review: &Review) -> Vec<PositionJson> {
    review
        .positions
        .iter()
        .map(|judgement| PositionJson {
            score: ScoreJson::new(review.variant, judgement.evaluation),
            best: judgement.best.map(P::move_to_text),
            pv: judgement.line.iter().map(|&m| P::move_to_text(m)).collect(),
            depth: judgement.depth,
            nodes: judgement.nodes,
        })
        .collect()
}
