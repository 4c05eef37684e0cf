//! Analysis on the board: Koma's engine on a position of a game (a move
//! of it, or a variation the viewer steps into from there), streaming its
//! depth, evaluation and best lines over the game's WebSocket.
//!
//! Analysis helps whoever looks, so it is offered only where that helps
//! nobody against anybody: a game between people at one screen, or a
//! finished game (an imported record is one), as mate search
//! ([`crate::study::mate::allowed`]). The server bounds it: at most
//! [`AnalysisLimits::engines`] searches think at once (more wait their
//! turn, and are told so), each connection has one analysis at a time (a
//! new request replaces the old), each position gets at most
//! [`AnalysisLimits::seconds`], and the threads run at the lowest
//! priority, so that analysis never slows the computer opponent's games.

use crate::games::live::{AnyGame, Served};
use crate::games::refusal::Refusal;
use crate::games::state::{EvaluationJson, MoveJson};
use koma_analysis::Evaluation;
use koma_engine::{Engine, Evaluate, Info, Limits, SearchControl};
use koma_rules::{Game, Move};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

/// The lines an analysis shows (MultiPV) when the request names none.
pub const DEFAULT_LINES: u32 = 3;
/// The most lines a request may ask for; more (or none) is refused.
pub const MAX_LINES: u32 = 5;
/// The engine's table per analysis, MiB.
const TABLE_MEGABYTES: usize = 32;
/// The longest variation a request may step into.
const MAX_VARIATION: usize = 64;

/// The node budget per position of a game review: `koma analyze`'s.
pub const DEFAULT_REVIEW_NODES: u64 = 150_000;

/// The server's bounds on analysis.
#[derive(Clone, Debug)]
pub struct AnalysisLimits {
    /// Searches (analyses and reviews) that may think at once.
    pub engines: usize,
    /// The longest one position is analysed.
    pub seconds: u64,
    /// The nodes each position of a review gets.
    pub review_nodes: u64,
}

impl AnalysisLimits {
    /// The default: one core kept for the games, at least one engine, and
    /// 30 seconds a position.
    pub fn default_for_this_machine() -> AnalysisLimits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        AnalysisLimits {
            engines: cores.saturating_sub(1).max(1),
            seconds: 30,
            review_nodes: DEFAULT_REVIEW_NODES,
        }
    }
}

/// What the server's analyses share: the permits and the count of those
/// thinking.
pub struct Analyses {
    /// The bounds.
    pub limits: AnalysisLimits,
    permits: Arc<Semaphore>,
    thinking: AtomicUsize,
}

impl Analyses {
    /// No analysis running yet.
    pub fn new(limits: AnalysisLimits) -> Analyses {
        Analyses {
            permits: Arc::new(Semaphore::new(limits.engines.max(1))),
            limits,
            thinking: AtomicUsize::new(0),
        }
    }

    /// How busy the engines are now.
    pub(crate) fn engines(&self) -> EnginesJson {
        EnginesJson {
            thinking: self.thinking.load(Ordering::SeqCst),
            cap: self.limits.engines.max(1),
        }
    }

    /// Starts `work` (an analysis, a review) on one of the engines: at
    /// once if one is free, else after sending `waiting` (made from how
    /// busy the engines are) on `out` and waiting its turn. `work` runs on
    /// a thread named `name` at the lowest priority, holding the engine
    /// until it drops it, and is stopped through the control it is given
    /// when the job is dropped.
    pub(crate) fn start_job(
        self: Arc<Self>,
        name: &'static str,
        out: mpsc::UnboundedSender<String>,
        waiting: impl FnOnce(EnginesJson) -> String + Send + 'static,
        work: impl FnOnce(HeldEngine, SearchControl) + Send + 'static,
    ) -> EngineJob {
        let control = SearchControl::default();
        let work_control = control.clone();
        let waiting = tokio::spawn(async move {
            let permit = match self.permits.clone().try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => {
                    if out.send(waiting(self.engines())).is_err() {
                        return;
                    }
                    match self.permits.clone().acquire_owned().await {
                        Ok(permit) => permit,
                        Err(_) => return,
                    }
                }
            };
            let thread = std::thread::Builder::new().name(name.into());
            let spawned = thread.spawn(move || {
                lower_priority();
                self.thinking.fetch_add(1, Ordering::SeqCst);
                let held = HeldEngine {
                    analyses: self,
                    _permit: permit,
                };
                work(held, work_control);
            });
            // Without a thread (the system refused one) the permit went
            // back with the closure, and the page hears nothing more.
            drop(spawned);
        });
        EngineJob { control, waiting }
    }
}

/// One of the server's engines, held by a job's thread: counted as
/// thinking, and free again (its permit back) when dropped.
pub(crate) struct HeldEngine {
    analyses: Arc<Analyses>,
    _permit: OwnedSemaphorePermit,
}

impl HeldEngine {
    /// The server's analyses, this engine among them.
    pub(crate) fn analyses(&self) -> &Arc<Analyses> {
        &self.analyses
    }
}

impl Drop for HeldEngine {
    fn drop(&mut self) {
        self.analyses.thinking.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Work on one of the server's engines (an analysis, a review); dropping
/// it stops its search (the engine is free within a thousand nodes) or
/// takes it out of the queue.
pub struct EngineJob {
    control: SearchControl,
    waiting: tokio::task::JoinHandle<()>,
}

impl Drop for EngineJob {
    fn drop(&mut self) {
        self.control.stop();
        self.waiting.abort();
    }
}

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

/// `{"type": "analysis", …}`: where an analysis stands.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisJson {
    /// Always `"analysis"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
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
    /// `"waiting"` (for an engine), `"running"` or `"done"`.
    pub status: &'static str,
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
    game: AnyGame,
    ply: usize,
    variation: Vec<Move>,
    asked: Vec<String>,
    lines: u32,
    legal: Vec<String>,
}

/// Checks `request` against `game`: the move exists, the variation is
/// legal and the number of lines is one the server gives.
pub fn target(game: AnyGame, request: AnalyseRequest) -> Result<Target, Refusal> {
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
    let variation = match &game {
        AnyGame::Spear(g) => parse_variation(g, ply, &request.moves),
        AnyGame::Minishogi(g) => parse_variation(g, ply, &request.moves),
        AnyGame::Shogi(g) => parse_variation(g, ply, &request.moves),
        AnyGame::Pawns(g) => parse_variation(g, ply, &request.moves),
    }?;
    let (variation, legal) = variation;
    Ok(Target {
        game,
        ply,
        variation,
        asked: request.moves,
        lines,
        legal,
    })
}

/// The variation `texts` played from move `ply` of `game`, and the legal
/// moves (USI/UCI) in the position it reaches.
fn parse_variation<P: Served>(
    game: &Game<P>,
    ply: usize,
    texts: &[String],
) -> Result<(Vec<Move>, Vec<String>), Refusal> {
    let mut position = game.positions()[ply].clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let m = position
            .parse_move(text)
            .ok()
            .filter(|&m| position.is_legal(m))
            .ok_or_else(|| {
                Refusal::bad_request(format!(
                    "Move {} of the variation, {:?}, is not a legal move there.",
                    index + 1,
                    text.chars().take(16).collect::<String>()
                ))
            })?;
        position.play_unchecked(m);
        moves.push(m);
    }
    let legal = position
        .legal_moves()
        .iter()
        .map(|&m| P::move_to_text(m))
        .collect();
    Ok((moves, legal))
}

/// Starts analysing `target`: waits for an engine (saying so on `out`
/// when it must), then searches, sending each completed depth and the end
/// as [`AnalysisJson`] text.
pub fn start(
    analyses: Arc<Analyses>,
    target: Target,
    out: mpsc::UnboundedSender<String>,
) -> EngineJob {
    let (ply, asked) = (target.ply, target.asked.clone());
    let (multi_pv, legal_moves) = (target.lines, target.legal.clone());
    let waiting = move |engines| {
        serde_json::to_string(&AnalysisJson {
            kind: "analysis",
            ply,
            moves: asked,
            multi_pv,
            legal_moves,
            status: "waiting",
            depth: 0,
            nodes: 0,
            milliseconds: 0,
            lines: Vec::new(),
            engines,
        })
        .unwrap_or_default()
    };
    analyses.start_job("analysis", out.clone(), waiting, move |held, control| {
        let seconds = held.analyses().limits.seconds.max(1);
        let limits = Limits::move_time(Duration::from_secs(seconds));
        // A replaced analysis, or one whose viewer left, says no more.
        let send = |json: AnalysisJson| {
            if !control.is_stopped() {
                let _ = out.send(serde_json::to_string(&json).unwrap_or_default());
            }
        };
        let engines = || held.analyses().engines();
        match &target.game {
            AnyGame::Spear(g) => think(g, &target, &limits, &control, engines, send),
            AnyGame::Minishogi(g) => think(g, &target, &limits, &control, engines, send),
            AnyGame::Shogi(g) => think(g, &target, &limits, &control, engines, send),
            AnyGame::Pawns(g) => think(g, &target, &limits, &control, engines, send),
        }
    })
}

/// Runs the analysis threads below the games: the computer opponent's
/// search keeps its core whatever analyses run (Linux: the nice value of
/// this thread alone).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; on Linux, PRIO_PROCESS
    // with 0 names the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Searches the target's position in `game`, sending each depth's lines.
fn think<P: Served + Evaluate>(
    game: &Game<P>,
    target: &Target,
    limits: &Limits,
    control: &SearchControl,
    engines: impl Fn() -> EnginesJson,
    send: impl Fn(AnalysisJson),
) {
    let mut history: Vec<P> = game.positions()[..=target.ply].to_vec();
    for &m in &target.variation {
        let mut next = history[history.len() - 1];
        next.play_unchecked(m);
        history.push(next);
    }
    let root = history[history.len() - 1];
    let previous = target
        .variation
        .last()
        .copied()
        .or_else(|| target.ply.checked_sub(1).map(|i| game.moves()[i]));
    let message = |status, depth, nodes, time: Duration, lines: Vec<LineJson>| AnalysisJson {
        kind: "analysis",
        ply: target.ply,
        moves: target.asked.clone(),
        multi_pv: target.lines,
        legal_moves: target.legal.clone(),
        status,
        depth,
        nodes,
        milliseconds: time.as_millis() as u64,
        lines,
        engines: engines(),
    };
    let legal = root.legal_moves().len();
    if legal == 0 {
        send(message("done", 0, 0, Duration::ZERO, Vec::new()));
        return;
    }
    let mut engine = Engine::<P>::new(TABLE_MEGABYTES);
    engine.options.multipv = target.lines;
    let wanted = (target.lines as usize).min(legal);
    // The lines of the depth under way, and of the last depth completed:
    // a search stopped within a depth ends with the complete set.
    let mut lines: Vec<LineJson> = Vec::new();
    let mut complete: Vec<LineJson> = Vec::new();
    let mut depth = 0;
    let result = engine.search(&history, limits, control, &mut |info: &Info| {
        if info.bound.is_some() || info.pv.is_empty() {
            return;
        }
        let index = info.multipv as usize - 1;
        if index == 0 {
            lines.clear();
        }
        if index != lines.len() {
            return;
        }
        lines.push(LineJson {
            score: EvaluationJson::new(P::VARIANT, Evaluation::from_score(info.score, root.turn())),
            moves: MoveJson::line(&root, &info.pv, previous),
        });
        if lines.len() == wanted {
            complete.clone_from(&lines);
            depth = info.depth;
            send(message(
                "running",
                info.depth,
                info.nodes,
                info.time,
                lines.clone(),
            ));
        }
    });
    send(message("done", depth, result.nodes, result.time, complete));
}

#[cfg(test)]
#[path = "analysis_notations.rs"]
mod notations;

#[cfg(test)]
#[path = "analysis_lines.rs"]
mod lines;
