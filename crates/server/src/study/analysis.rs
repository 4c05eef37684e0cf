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
//!
//! A request may name a registered engine (`"engine": "yaneuraou"`) rather
//! than Koma's own: it thinks under the same permits, as many as its
//! `Threads` (`study::external_analysis`).
//!
//! With `--worker-keys`, an analysis by Koma's own engine that finds no
//! engine free goes to the workers instead of waiting, and every one does
//! with `--analysis-engines 0` (`study::analysis_start` chooses).

use super::analysis_target::{AnalysisJson, DepthLines, EnginesJson, LineJson, Target};
use super::external_analysis;
use crate::external::pool::ExternalEngines;
use crate::games::live::{AnyGame, Served};
use crate::games::state::{EvaluationJson, MoveJson};
use koma_analysis::Evaluation;
use koma_engine::{Engine, Evaluate, Info, Limits, SearchControl};
use koma_rules::{each_game, Game};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

/// The engine's table per analysis, MiB (a worker's too).
pub(crate) const TABLE_MEGABYTES: usize = 32;

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
    /// Whether Koma's own analyses think on the server's cores: false
    /// with `--analysis-engines 0`, which leaves them to the workers.
    pub local: bool,
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
            local: true,
        }
    }
}

/// What the server's analyses share: the permits and the count of those
/// thinking.
pub struct Analyses {
    /// The bounds.
    pub limits: AnalysisLimits,
    /// The engines people registered, and their processes.
    pub external: Arc<ExternalEngines>,
    permits: Arc<Semaphore>,
    thinking: AtomicUsize,
    /// The workers, with `--worker-keys`: reviews by Koma's own engine go
    /// to their queue (`workers/`).
    pub workers: std::sync::OnceLock<Arc<crate::workers::service::Workers>>,
}

impl Analyses {
    /// No analysis running yet.
    pub fn new(limits: AnalysisLimits, external: Arc<ExternalEngines>) -> Analyses {
        Analyses {
            permits: Arc::new(Semaphore::new(limits.engines.max(1))),
            limits,
            external,
            thinking: AtomicUsize::new(0),
            workers: std::sync::OnceLock::new(),
        }
    }

    /// Whether one of the engines is free now.
    pub(crate) fn engine_free(&self) -> bool {
        self.permits.available_permits() > 0
    }

    /// How busy the engines are now.
    pub(crate) fn engines(&self) -> EnginesJson {
        EnginesJson {
            thinking: self.thinking.load(Ordering::SeqCst),
            cap: self.limits.engines.max(1),
        }
    }

    /// Starts `work` (an analysis, a review) on `slots` of the engines'
    /// permits (a registered engine's threads; at most all of them): at
    /// once if they are free, else after sending `waiting` (made from how
    /// busy the engines are) on `out` and waiting its turn. `work` runs on
    /// a thread named `name` at the lowest priority, holding the engine
    /// until it drops it, and is stopped through the control it is given
    /// when the job is dropped.
    pub(crate) fn start_job(
        self: Arc<Self>,
        name: &'static str,
        slots: u32,
        out: mpsc::UnboundedSender<String>,
        waiting: impl FnOnce(EnginesJson) -> String + Send + 'static,
        work: impl FnOnce(HeldEngine, SearchControl) + Send + 'static,
    ) -> EngineJob {
        let control = SearchControl::default();
        let work_control = control.clone();
        let cap = u32::try_from(self.limits.engines.max(1)).unwrap_or(u32::MAX);
        let slots = slots.clamp(1, cap);
        let waiting = tokio::spawn(async move {
            let permit = match self.permits.clone().try_acquire_many_owned(slots) {
                Ok(permit) => permit,
                Err(_) => {
                    if out.send(waiting(self.engines())).is_err() {
                        return;
                    }
                    match self.permits.clone().acquire_many_owned(slots).await {
                        Ok(permit) => permit,
                        Err(_) => return,
                    }
                }
            };
            let thread = std::thread::Builder::new().name(name.into());
            let spawned = thread.spawn(move || {
                crate::priority::Work::Study.lower_this_thread();
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

impl EngineJob {
    /// The job `task` does (a review queued for workers): dropping it
    /// aborts the task.
    pub(crate) fn of_task(task: tokio::task::JoinHandle<()>) -> EngineJob {
        EngineJob {
            control: SearchControl::new(false),
            waiting: task,
        }
    }
}

impl Drop for EngineJob {
    fn drop(&mut self) {
        self.control.stop();
        self.waiting.abort();
    }
}

/// Starts analysing `target` on the server's own engines: waits for one
/// (saying so on `out` when it must), then searches, sending each
/// completed depth and the end as [`AnalysisJson`] text.
pub(super) fn start_here(
    analyses: Arc<Analyses>,
    target: Target,
    out: mpsc::UnboundedSender<String>,
) -> EngineJob {
    let waiting_message = target.message(
        "waiting",
        (0, 0, Duration::ZERO),
        Vec::new(),
        analyses.engines(),
    );
    let waiting = move |engines| {
        serde_json::to_string(&AnalysisJson {
            engines,
            ..waiting_message
        })
        .unwrap_or_default()
    };
    let slots = target.engine.as_ref().map_or(1, |engine| engine.threads);
    analyses.start_job(
        "analysis",
        slots,
        out.clone(),
        waiting,
        move |held, control| {
            let seconds = held.analyses().limits.seconds.max(1);
            // A replaced analysis, or one whose viewer left, says no more.
            let send = |json: AnalysisJson| {
                if !control.is_stopped() {
                    let _ = out.send(serde_json::to_string(&json).unwrap_or_default());
                }
            };
            let engines = || held.analyses().engines();
            if let Some(engine) = &target.engine {
                let external = held.analyses().external.clone();
                let time = Duration::from_secs(seconds);
                let job = external_analysis::Job {
                    target: &target,
                    external: &external,
                    engine,
                    time,
                    control: &control,
                };
                each_game!(AnyGame, &target.game, g => job.think(g, engines, send));
                return;
            }
            let limits = Limits::move_time(Duration::from_secs(seconds));
            each_game!(AnyGame, &target.game, g => {
                think(g, &target, &limits, &control, engines, send)
            })
        },
    )
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
    let (history, previous) = target.history(game);
    let root = history[history.len() - 1];
    let message = |status, depth, nodes, time: Duration, lines: Vec<LineJson>| {
        target.message(status, (depth, nodes, time), lines, engines())
    };
    let legal = root.legal_moves().len();
    if legal == 0 {
        send(message("done", 0, 0, Duration::ZERO, Vec::new()));
        return;
    }
    let mut engine = Engine::<P>::new(TABLE_MEGABYTES);
    engine.options.multipv = target.lines;
    let wanted = (target.lines as usize).min(legal);
    let mut lines = DepthLines::default();
    let mut depth = 0;
    let result = engine.search(&history, limits, control, &mut |info: &Info| {
        if info.bound.is_some() || info.pv.is_empty() {
            return;
        }
        let line = || LineJson {
            score: EvaluationJson::new(P::VARIANT, Evaluation::from_score(info.score, root.turn())),
            moves: MoveJson::line(&root, &info.pv, previous),
        };
        if lines.take(info.multipv, line, wanted) {
            depth = info.depth;
            let complete = lines.complete().to_vec();
            send(message(
                "running", info.depth, info.nodes, info.time, complete,
            ));
        }
    });
    let complete = lines.complete().to_vec();
    send(message("done", depth, result.nodes, result.time, complete));
}

#[cfg(test)]
#[path = "analysis_notations.rs"]
mod notations;

#[cfg(test)]
#[path = "analysis_lines.rs"]
mod lines;
