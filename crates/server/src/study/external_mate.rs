//! Mate search on a registered engine: USI's `go mate` on the position,
//! answered by `checkmate` and the line. The line is checked before it is
//! shown: every move legal, and the last one mating (the game won by the
//! side to move at the root); an engine that names anything else is
//! refused with a sentence that says so.

use super::mate::{self, MateJson};
use crate::external::pool::{ExternalEngines, Job};
use crate::external::registry::ExternalEngine;
use crate::games::live::{AnyGame, Served};
use crate::games::refusal::Refusal;
use crate::games::state::MoveJson;
use crate::priority::Work;
use koma_rules::{each_shogi_game, Game, Move};
use koma_usi::client::{position_command, MateReply};
use std::sync::Arc;
use std::time::Duration;

/// How long past its time an engine may take to answer `go mate` before
/// it is told to stop.
const GRACE: Duration = Duration::from_secs(5);

/// A mate search on a registered engine.
pub struct MateJob<'a> {
    pub external: &'a Arc<ExternalEngines>,
    pub engine: &'a Arc<ExternalEngine>,
    /// The game's id, so that its process keeps what it learnt of it.
    pub game_id: &'a str,
    /// The move whose position is searched.
    pub ply: usize,
    /// The time the engine is given.
    pub time: Duration,
}

impl MateJob<'_> {
    /// Searches the position after move `ply` of `game`.
    pub fn find(&self, game: &AnyGame) -> Result<MateJson, Refusal> {
        each_shogi_game!(AnyGame, game, g => self.search(g), pawns => Err(mate::no_king()))
    }

    fn search<P: Served>(&self, game: &Game<P>) -> Result<MateJson, Refusal> {
        let name = &self.engine.name;
        let ply = self.ply;
        let root = mate::searched(game, ply)?;
        let job = Job {
            work: Work::Study,
            game: self.game_id,
        };
        let unavailable =
            |sentence: String| Refusal::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, sentence);
        let mut failure = None;
        let mut thought = None;
        for _attempt in 0..2 {
            let mut lent = self
                .external
                .lend(self.engine, P::VARIANT, job)
                .map_err(|e| unavailable(format!("The engine {name} cannot start: {e}.")))?;
            let process = lent.process();
            let command = position_command(game.start(), &game.moves()[..ply], process.dialect());
            match process.solve_mate(&command, Some(self.time), self.time + GRACE) {
                Ok(answer) => {
                    thought = Some(answer);
                    break;
                }
                // Dead or hung: killed, and tried once more on a new process.
                Err(e) => {
                    failure = Some(e);
                    lent.broken();
                }
            }
        }
        let thought = thought.ok_or_else(|| {
            let why = failure.map_or_else(String::new, |e| format!(" ({e})"));
            unavailable(format!("The engine {name} stopped answering{why}."))
        })?;
        let (answer, moves) = match thought.reply {
            MateReply::Mate(texts) => (
                "mate",
                mating_line(root, &texts).ok_or_else(|| {
                    Refusal::new(
                        axum::http::StatusCode::BAD_GATEWAY,
                        format!(
                            "The engine {name} named a line that does not mate: {}.",
                            shorten(&texts)
                        ),
                    )
                })?,
            ),
            MateReply::NoMate => ("nomate", Vec::new()),
            MateReply::Timeout => ("unknown", Vec::new()),
            MateReply::NotImplemented => {
                return Err(Refusal::bad_request(format!(
                    "The engine {name} does not search for mates (USI's go mate)."
                )))
            }
        };
        let previous = ply.checked_sub(1).map(|i| game.moves()[i]);
        Ok(MateJson {
            ply,
            engine: name.clone(),
            answer,
            length: u16::try_from(moves.len()).unwrap_or(u16::MAX),
            line: MoveJson::line(root, &moves, previous),
            nodes: thought.nodes.unwrap_or(0),
            milliseconds: u64::try_from(thought.elapsed.as_millis()).unwrap_or(u64::MAX),
        })
    }
}

/// The moves `texts` if each is legal in turn and the last wins the game
/// for the side to move in `root`.
pub(crate) fn mating_line<P: Served>(root: &P, texts: &[String]) -> Option<Vec<Move>> {
    let attacker = root.turn();
    let mut position = root.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for text in texts {
        let m = position
            .parse_move(text)
            .ok()
            .filter(|&m| position.is_legal(m))?;
        position.play_unchecked(m);
        moves.push(m);
    }
    let won = position
        .outcome()
        .is_some_and(|outcome| outcome.winner == Some(attacker));
    won.then_some(moves)
}

/// The first words of an engine's line, for a sentence.
fn shorten(texts: &[String]) -> String {
    let mut shown: Vec<&str> = texts
        .iter()
        .take(12)
        .map(|t| {
            let end = t.char_indices().nth(8).map_or(t.len(), |(i, _)| i);
            &t[..end]
        })
        .collect();
    if texts.len() > shown.len() {
        shown.push("…");
    }
    shown.join(" ")
}
