//! A worker's result, checked before anything of it is kept: one
//! judgement per position of the job's game, each move it names legal
//! where it is played (the engine's move in its position, its line move
//! after move), each score in the engine's range. A result that fails is
//! garbage: it is refused whole.

use super::protocol::{PositionJson, ResultJson, ScoreJson};
use super::queue::JobSpec;
use crate::games::live::AnyGame;
use crate::games::names;
use crate::study::review_kept::{KeptEvaluation, StoredJudgement, StoredReview};
use koma_analysis::Evaluation;
use koma_rules::{each_game, Game, Move, Position, Variant};

/// The largest centipawn score: Koma's engine's mate value; a score
/// beyond it is no evaluation.
pub const CP_LIMIT: i32 = koma_engine::MATE;

/// The longest line read from a worker.
pub const MAX_PV: usize = 256;

/// The moves of a line kept, as a local review keeps.
const LINE_KEPT: usize = 8;

/// The review `result` makes of job `spec`, as a local review would be
/// kept; or why the result is garbage, as a sentence.
pub fn check(spec: &JobSpec, result: &ResultJson) -> Result<StoredReview, String> {
    let variant: Variant = spec
        .variant
        .parse()
        .map_err(|_| format!("The job's game {} is unknown.", spec.variant))?;
    let game = AnyGame::replay(variant, &spec.position, &spec.moves, None)
        .map_err(|e| format!("The job's game cannot be replayed: {e}"))?;
    let positions = each_game!(AnyGame, &game, g => judgements(g, &result.positions))?;
    Ok(StoredReview {
        engine: None,
        nodes: spec.nodes,
        positions,
    })
}

fn judgements<P: Position>(
    game: &Game<P>,
    sent: &[PositionJson],
) -> Result<Vec<StoredJudgement>, String> {
    let positions = game.positions();
    if sent.len() != positions.len() {
        return Err(format!(
            "The result judges {} positions; the game has {} (one more than its moves).",
            sent.len(),
            positions.len()
        ));
    }
    sent.iter()
        .zip(positions)
        .enumerate()
        .map(|(ply, (judged, position))| {
            judgement(position, judged).map_err(|problem| format!("Position {ply}: {problem}"))
        })
        .collect()
}

/// The evaluation `score` names in `P`'s game, if its winner is a side of
/// that game and it is within the engine's range; why not otherwise.
pub fn checked_score<P: Position>(score: &ScoreJson) -> Result<Evaluation, String> {
    let evaluation = score.read(P::VARIANT).ok_or_else(|| {
        "the mate's winner is not a side of this game (sente/gote, white/black).".to_owned()
    })?;
    match evaluation {
        Evaluation::Centipawns(cp) if cp.unsigned_abs() > CP_LIMIT.unsigned_abs() => Err(format!(
            "the score {cp} is beyond the engine's range (±{CP_LIMIT})."
        )),
        Evaluation::Mate { plies, .. } if plies > koma_engine::MAX_PLY as u32 => Err(format!(
            "a mate in {plies} plies is beyond the engine's reach ({}).",
            koma_engine::MAX_PLY
        )),
        _ => Ok(evaluation),
    }
}

/// The moves `texts` (USI/UCI) played one after another from `from`, or
/// the index of the first that is not legal where it is played.
pub fn played<P: Position>(from: &P, texts: &[String]) -> Result<Vec<Move>, usize> {
    played_to(from, texts).map(|(moves, _)| moves)
}

/// [`played`], with the position the moves reach.
pub fn played_to<P: Position>(from: &P, texts: &[String]) -> Result<(Vec<Move>, P), usize> {
    let mut at = from.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let m = at
            .parse_move(text)
            .ok()
            .filter(|&m| at.is_legal(m))
            .ok_or(index)?;
        at.play_unchecked(m);
        moves.push(m);
    }
    Ok((moves, at))
}

fn judgement<P: Position>(position: &P, judged: &PositionJson) -> Result<StoredJudgement, String> {
    let evaluation = checked_score::<P>(&judged.score)?;
    if judged.pv.len() > MAX_PV {
        return Err(format!(
            "the line has {} moves; at most {MAX_PV} are read.",
            judged.pv.len()
        ));
    }
    let mut line: Vec<String> = judged.pv.clone();
    match (&judged.best, line.first()) {
        (None, Some(_)) => return Err("the line has moves but no best move.".to_owned()),
        (Some(best), Some(first)) if best != first => {
            return Err(format!(
                "the best move {best} is not the line's first ({first})."
            ))
        }
        (Some(best), None) => line.push(best.clone()),
        _ => {}
    }
    let moves = played(position, &line).map_err(|index| {
        let text = &line[index];
        match index {
            0 => format!("the best move {text} is not legal in the position."),
            _ => format!(
                "move {} of the line ({text}) is not legal there.",
                index + 1
            ),
        }
    })?;
    let kept = moves
        .iter()
        .take(LINE_KEPT)
        .map(|&m| P::move_to_text(m))
        .collect();
    Ok(StoredJudgement {
        evaluation: match evaluation {
            Evaluation::Centipawns(cp) => KeptEvaluation::Cp(cp),
            Evaluation::Mate { winner, plies } => KeptEvaluation::Mate {
                winner: names::color_name(P::VARIANT, winner).to_owned(),
                plies,
            },
        },
        line: kept,
        depth: judged.depth,
        nodes: judged.nodes,
    })
}
