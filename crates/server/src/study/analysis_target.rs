//! What an analysis is asked and what it answers: the request
//! (`{"type": "analyse", …}`), checked against the game and the engines
//! into a [`Target`], and the `{"type": "analysis", …}` messages, the same
//! whichever engine thinks.

use crate::external::pool::ExternalEngines;
use crate::external::registry::{ExternalEngine, BUILT_IN};
use crate::games::live::{AnyGame, Served};
use crate::games::refusal::Refusal;
use crate::games::state::{EvaluationJson, MoveJson};
use crate::workers::check::played_to;
use koma_rules::{each_game, Game, Move};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// The lines an analysis shows (MultiPV) when the request names none.
pub const DEFAULT_LINES: u32 = 3;
/// The most lines a request may ask for; more (or none) is refused.
pub const MAX_LINES: u32 = 5;
/// The longest variation a request may step into.
const MAX_VARIATION: usize = 64;

/// `{"type": "analyse", "ply": 12, "moves": ["7g7f"], "lines": 3}`: the
/// position after move `ply` of the game (the last when absent), then the
/// variation `moves` played from there, with `lines` best lines (1 to
/// [`MAX_LINES`], [`DEFAULT_LINES`] when absent).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The move of the game; the current position when absent.
    #[serde(default, deserialize_with = "crate::http::requests::optional_ply")]
    pub ply: Option<u64>,
    /// A variation from there, in USI/UCI.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The best lines wanted (MultiPV); [`DEFAULT_LINES`] when absent.
    #[serde(default)]
    pub lines: Option<u32>,
    /// The engine: a registered one's name, or `"koma"` (Koma's own, when
    /// absent).
    #[serde(default)]
    pub engine: Option<String>,
}

/// How busy the server's engines are.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EnginesJson {
    /// Analyses thinking now, server-wide.
    pub thinking: usize,
    /// How many may.
    pub cap: usize,
}

/// One of the best lines.
#[derive(Clone, Debug, Serialize)]
pub struct LineJson {
    /// Its evaluation, from the first player's view, with the first
    /// player's expected score.
    pub score: EvaluationJson,
    /// Its moves, each with the position after it.
    pub moves: Vec<MoveJson>,
}

/// The best lines of the depth under way and of the last depth
/// completed, whichever engine reports them: a search stopped within a
/// depth ends with the last complete set. A line `L` is as the board
/// shows it ([`LineJson`]) or as a worker sends it.
#[derive(Clone, Debug)]
pub(crate) struct DepthLines<L = LineJson> {
    under_way: Vec<L>,
    complete: Vec<L>,
}

impl<L> Default for DepthLines<L> {
    fn default() -> Self {
        DepthLines {
            under_way: Vec::new(),
            complete: Vec::new(),
        }
    }
}

impl<L: Clone> DepthLines<L> {
    /// Takes line number `multipv` (1 for the best) of a depth, made by
    /// `line` if it is the one expected next; true when it completes the
    /// depth's `wanted` lines.
    pub fn take(&mut self, multipv: u32, line: impl FnOnce() -> L, wanted: usize) -> bool {
        let Some(index) = (multipv as usize).checked_sub(1) else {
            return false;
        };
        if index == 0 {
            self.under_way.clear();
        }
        if index != self.under_way.len() {
            return false;
        }
        self.under_way.push(line());
        if self.under_way.len() != wanted {
            return false;
        }
        self.complete.clone_from(&self.under_way);
        true
    }

    /// The last depth's complete set.
    pub fn complete(&self) -> &[L] {
        &self.complete
    }
}

/// `{"type": "analysis", …}`: where an analysis stands.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisJson {
    /// Always `"analysis"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The engine: `"koma"` or a registered one's name.
    pub engine: String,
    /// The move of the game analysed.
    pub ply: usize,
    /// The variation from there, as asked.
    pub moves: Vec<String>,
    /// The lines asked for (the position may have fewer legal moves).
    #[serde(rename = "multiPv")]
    pub multi_pv: u32,
    /// Every legal move in the position analysed (USI/UCI), so that a
    /// page may let the viewer play one there.
    #[serde(rename = "legalMoves")]
    pub legal_moves: Vec<String>,
    /// `"waiting"` (for an engine), `"running"`, `"done"`, or `"failed"`
    /// (a registered engine that died twice or could not start: `error`
    /// says why).
    pub status: &'static str,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds searched.
    pub milliseconds: u64,
    /// The best lines, the best first (empty while waiting, and where the
    /// game is over).
    pub lines: Vec<LineJson>,
    /// The server's engines.
    pub engines: EnginesJson,
}

/// What an analysis will search, checked before it waits for an engine.
pub struct Target {
    pub(super) game: AnyGame,
    /// The game's id, so that a registered engine's process keeps what
    /// it learnt of the game from one position to the next.
    pub(super) game_id: String,
    pub(super) ply: usize,
    pub(super) variation: Vec<Move>,
    asked: Vec<String>,
    pub(super) lines: u32,
    legal: Vec<String>,
    /// A registered engine; Koma's own when `None`.
    pub(super) engine: Option<Arc<ExternalEngine>>,
}

impl Target {
    /// The engine's name as the messages give it.
    fn engine_name(&self) -> String {
        self.engine
            .as_ref()
            .map_or_else(|| BUILT_IN.to_owned(), |engine| engine.name.clone())
    }

    /// The message of this analysis standing at `status`.
    pub(super) fn message(
        &self,
        status: &'static str,
        (depth, nodes, time): (u32, u64, Duration),
        lines: Vec<LineJson>,
        engines: EnginesJson,
    ) -> AnalysisJson {
        AnalysisJson {
            kind: "analysis",
            engine: self.engine_name(),
            ply: self.ply,
            moves: self.asked.clone(),
            multi_pv: self.lines,
            legal_moves: self.legal.clone(),
            status,
            error: None,
            depth,
            nodes,
            milliseconds: time.as_millis() as u64,
            lines,
            engines,
        }
    }

    /// The positions of the game up to the one analysed (the variation's
    /// included), and the move that led to it, if any.
    pub(super) fn history<P: Served>(&self, game: &Game<P>) -> (Vec<P>, Option<Move>) {
        let mut history: Vec<P> = game.positions()[..=self.ply].to_vec();
        for &m in &self.variation {
            let mut next = history[history.len() - 1].clone();
            next.play_unchecked(m);
            history.push(next);
        }
        let previous = self
            .variation
            .last()
            .copied()
            .or_else(|| self.ply.checked_sub(1).map(|i| game.moves()[i]));
        (history, previous)
    }
}

/// The registered engine `name` names for `game` (`None`: Koma's own), or
/// the refusal that says which engines the server has, or that it does
/// not play the game.
pub(crate) fn find_engine(
    external: &ExternalEngines,
    name: Option<&str>,
    game: &AnyGame,
) -> Result<Option<Arc<ExternalEngine>>, Refusal> {
    let Some(name) = name.filter(|name| *name != BUILT_IN) else {
        return Ok(None);
    };
    let engine = external
        .for_game(name, game.variant())
        .map_err(Refusal::bad_request)?;
    Ok(Some(engine.clone()))
}

/// Checks `request` against `game` (whose id is `game_id`) and the
/// registered engines: the move
/// exists, the variation is legal, the number of lines is one the server
/// gives, and the engine is known and plays the game.
pub fn target(
    game: AnyGame,
    game_id: &str,
    request: AnalyseRequest,
    external: &ExternalEngines,
) -> Result<Target, Refusal> {
    let engine = find_engine(external, request.engine.as_deref(), &game)?;
    let lines = request.lines.unwrap_or(DEFAULT_LINES);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(Refusal::bad_request(format!(
            "An analysis shows from 1 to {MAX_LINES} lines, not {lines}."
        )));
    }
    let ply = match request.ply {
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
        None => game.ply(),
    };
    if ply > game.ply() {
        return Err(Refusal::bad_request(format!(
            "The game has no move {ply}: it has {}.",
            game.ply()
        )));
    }
    if request.moves.len() > MAX_VARIATION {
        return Err(Refusal::bad_request(format!(
            "A variation of at most {MAX_VARIATION} moves can be analysed."
        )));
    }
    let variation = each_game!(AnyGame, &game, g => parse_variation(g, ply, &request.moves))?;
    let (variation, legal) = variation;
    Ok(Target {
        game,
        game_id: game_id.to_owned(),
        ply,
        variation,
        asked: request.moves,
        lines,
        legal,
        engine,
    })
}

/// The variation `texts` played from move `ply` of `game`, and the legal
/// moves (USI/UCI) in the position it reaches.
fn parse_variation<P: Served>(
    game: &Game<P>,
    ply: usize,
    texts: &[String],
) -> Result<(Vec<Move>, Vec<String>), Refusal> {
    let (moves, position) = played_to(&game.positions()[ply], texts).map_err(|index| {
        Refusal::bad_request(format!(
            "Move {} of the variation, {:?}, is not a legal move there.",
            index + 1,
            texts[index].chars().take(16).collect::<String>()
        ))
    })?;
    let legal = position
        .legal_moves()
        .iter()
        .map(|&m| P::move_to_text(m))
        .collect();
    Ok((moves, legal))
}
