//! Game review on a registered engine: every position of the game sent as
//! `position … moves …` (so that the engine sees repetitions) and searched
//! with `go nodes N`, the server's review budget; its last score, line and
//! `bestmove` kept as Koma's own review keeps them. What it says is checked
//! as an analysis checks it, and a move it names that is not legal fails
//! the review rather than being kept.

use super::external_analysis::{engine_score, legal_prefix};
use super::review_kept::StoredReview;
use crate::external::pool::{ExternalEngines, Job};
use crate::external::registry::ExternalEngine;
use crate::games::live::Served;
use crate::priority::Work;
use koma_analysis::{Evaluation, Judgement, Review};
use koma_engine::SearchControl;
use koma_rules::{Game, Move};
use koma_usi::client::{position_command, BestMove, InfoLine};
use std::sync::Arc;
use std::time::Duration;

/// The longest one position may take, whatever its node budget: an engine
/// that ignores `go nodes` is stopped here.
const POSITION_LIMIT: Duration = Duration::from_secs(60);

/// A review on a registered engine.
pub(super) struct Reviewer<'a> {
    pub external: &'a Arc<ExternalEngines>,
    pub engine: &'a Arc<ExternalEngine>,
    /// The game's id, so that its process keeps what it learnt of it.
    pub game_id: &'a str,
    /// The node budget of a position.
    pub nodes: u64,
    pub control: &'a SearchControl,
}

impl Reviewer<'_> {
    /// Reviews `game`, calling `progress(done, total)` after each
    /// position: the review as kept, `Ok(None)` when stopped, or the
    /// sentence that says why the engine failed.
    pub fn review<P: Served>(
        &self,
        game: &Game<P>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Option<StoredReview>, String> {
        let Reviewer {
            external,
            engine,
            game_id,
            nodes,
            control,
        } = *self;
        let job = Job {
            work: Work::Study,
            game: game_id,
        };
        let positions = game.positions();
        let total = positions.len();
        let mut judgements = Vec::with_capacity(total);
        let mut lent = None;
        for (index, position) in positions.iter().enumerate() {
            if control.is_stopped() {
                return Ok(None);
            }
            if let Some(outcome) = position.outcome() {
                judgements.push(Judgement::of_ended(&outcome));
                progress(index + 1, total);
                continue;
            }
            let mut attempt = 0;
            let judgement = loop {
                let process = match &mut lent {
                    Some(process) => process,
                    None => {
                        lent.insert(external.lend(engine, P::VARIANT, job).map_err(|e| {
                            format!("The engine {} cannot start: {e}.", engine.name)
                        })?)
                    }
                };
                match judge(game, index, process.process(), nodes, control) {
                    Ok(judgement) => break judgement,
                    Err(Failed::Said(sentence)) => {
                        return Err(format!(
                            "The engine {} {sentence} (move {index}).",
                            engine.name
                        ))
                    }
                    Err(Failed::Process(failure)) => {
                        if let Some(broken) = lent.take() {
                            broken.broken();
                        }
                        attempt += 1;
                        if attempt == 2 {
                            return Err(format!(
                                "The engine {} stopped answering ({failure}).",
                                engine.name
                            ));
                        }
                    }
                }
            };
            if control.is_stopped() {
                // A search cut short is not a judgement.
                return Ok(None);
            }
            judgements.push(judgement);
            progress(index + 1, total);
        }
        drop(lent);
        let review = Review::from_judgements(&positions[0], game.moves(), judgements);
        Ok(Some(StoredReview {
            engine: Some(engine.name.clone()),
            ..StoredReview::new(&review, nodes, P::move_to_text)
        }))
    }
}

/// Why one position has no judgement.
enum Failed {
    /// The process died or hung: start another.
    Process(koma_usi::client::Failure),
    /// It answered something that cannot be kept.
    Said(String),
}

/// The engine's judgement of the position after move `index` of `game`.
fn judge<P: Served>(
    game: &Game<P>,
    index: usize,
    process: &mut koma_usi::client::Engine,
    nodes: u64,
    control: &SearchControl,
) -> Result<Judgement, Failed> {
    let position = &game.positions()[index];
    let dialect = process.dialect();
    let command = position_command(game.start(), &game.moves()[..index], dialect);
    process
        .set_option("MultiPV", "1")
        .map_err(Failed::Process)?;
    // The last exact report, else the last at all: an engine stopped by
    // its node count mid-iteration may report only a bound at the end
    // (YaneuraOu prints nothing before its last line in a short search,
    // and that line is an upperbound), which beats no judgement.
    let mut last = InfoLine::default();
    let mut last_bound = InfoLine::default();
    let best = process
        .analyse(
            &command,
            &format!("nodes {nodes}"),
            Some(POSITION_LIMIT),
            || !control.is_stopped(),
            |info| {
                let first = info.multipv.unwrap_or(1) == 1;
                if first && info.score.is_some() {
                    if info.bound.is_none() {
                        last = info;
                    } else {
                        last_bound = info;
                    }
                }
            },
        )
        .map_err(Failed::Process)?;
    let best = match best {
        BestMove::Move(text) => position
            .parse_move(&text)
            .ok()
            .filter(|&m| position.is_legal(m))
            .ok_or_else(|| Failed::Said(format!("named {text:?}, not a legal move")))?,
        _ => return Err(Failed::Said("gave no move".to_owned())),
    };
    if last.score.is_none() {
        last = last_bound;
    }
    let score = last
        .score
        .and_then(|score| engine_score(score, dialect))
        .ok_or_else(|| Failed::Said("gave no score".to_owned()))?;
    let mut line: Vec<Move> = legal_prefix(position, &last.pv);
    if line.first() != Some(&best) {
        line = vec![best];
    }
    Ok(Judgement {
        evaluation: Evaluation::from_score(score, position.turn()),
        best: Some(best),
        line,
        depth: last.depth.unwrap_or(0),
        nodes: last.nodes.unwrap_or(0),
    })
}
