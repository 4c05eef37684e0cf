//! Game review on the board: `{"type": "review"}` over a game's WebSocket
//! judges every position of the game at a fixed node budget, streams its
//! progress to that connection as `{"type": "review"}` messages, and keeps
//! the review with the game, whose new state then goes to every watcher
//! (its `review`).
//!
//! A review is allowed where analysis is, and bounded as analysis is: it
//! holds one of the server's analysis engines for its whole run (waiting
//! for one, and saying so, when all think), runs at the lowest priority,
//! and belongs to its connection, which may run one review beside its one
//! analysis. A new request replaces it; `{"type": "stop-review"}`, or the
//! connection's end, stops it, and nothing is kept.
//!
//! With `--worker-keys`, a review by Koma's own engine is queued for the
//! workers instead (`workers/`), its progress relayed here in the same
//! messages, and its result kept the same way.

use super::analysis::{Analyses, EngineJob};
use super::analysis_target::EnginesJson;
use super::external_review;
use super::review_kept::StoredReview;
use crate::external::registry::ExternalEngine;
use crate::games::live::{AnyGame, Served};
use crate::games::refusal::Refusal;
use crate::games::service::Games;
use crate::games::state::ReviewJson;
use crate::store::{GameId, StoreError, StoredGame};
use axum::http::StatusCode;
use koma_analysis::review::review_whole;
use koma_engine::{Evaluate, Limits, SearchControl};
use koma_rules::{each_game, Game};
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::mpsc;

/// `{"type": "review", …}`: where a review stands.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewProgressJson {
    /// Always `"review"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `"waiting"` (for an engine), `"running"`, `"done"` (the game's new
    /// state, with the review, follows) or `"failed"`.
    pub status: &'static str,
    /// Positions judged.
    pub done: usize,
    /// Positions to judge: one more than the moves.
    pub total: usize,
    /// Why it failed, as a sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The server's engines.
    pub engines: EnginesJson,
}

/// Starts reviewing `game`, game `id` as it is now: waits for an engine,
/// judges each position within the server's node budget, sends its
/// progress on `out`, and keeps the review if the game's moves are still
/// the same at the end. Dropping the job stops it, and nothing is kept.
pub fn start(
    analyses: Arc<Analyses>,
    games: Arc<Games>,
    id: GameId,
    game: AnyGame,
    engine: Option<Arc<ExternalEngine>>,
    out: mpsc::UnboundedSender<String>,
) -> EngineJob {
    let total = game.ply() + 1;
    let message = move |status, done, error: Option<String>, engines| {
        serde_json::to_string(&ReviewProgressJson {
            kind: "review",
            status,
            done,
            total,
            error,
            engines,
        })
        .unwrap_or_default()
    };
    if engine.is_none() {
        if let Some(workers) = analyses.workers.get() {
            // With workers, Koma's own engine reviews through their queue.
            let engines = analyses.clone();
            let relayed = Box::new(move |status: &'static str, done, error| {
                message(status, done, error, engines.engines())
            });
            return EngineJob::of_task(workers.queue_review(id, &game, out, relayed));
        }
    }
    let waiting = move |engines| message("waiting", 0, None, engines);
    let slots = engine.as_ref().map_or(1, |engine| engine.threads);
    analyses.start_job(
        "review",
        slots,
        out.clone(),
        waiting,
        move |held, control| {
            let analyses = held.analyses().clone();
            let nodes = analyses.limits.review_nodes.max(1);
            let send = |status, done, error| {
                if !control.is_stopped() {
                    let _ = out.send(message(status, done, error, analyses.engines()));
                }
            };
            send("running", 0, None);
            let mut progress = |done: usize, _total: usize| send("running", done, None);
            let kept = match &engine {
                None => each_game!(AnyGame, &game, g => judge(g, nodes, &control, &mut progress)),
                Some(engine) => {
                    let reviewer = external_review::Reviewer {
                        external: &analyses.external,
                        engine,
                        game_id: &id.to_string(),
                        nodes,
                        control: &control,
                    };
                    let reviewed =
                        each_game!(AnyGame, &game, g => reviewer.review(g, &mut progress));
                    match reviewed {
                        Ok(kept) => kept,
                        Err(sentence) => {
                            send("failed", 0, Some(sentence));
                            return;
                        }
                    }
                }
            };
            drop(held);
            if let Some(kept) = kept {
                match games.keep_review(id, &game.move_texts(), kept) {
                    Ok(()) => send("done", total, None),
                    Err(refusal) => send("failed", 0, Some(refusal.message)),
                }
            }
        },
    )
}

/// The review of `game` at `nodes` a position, or `None` if it was
/// stopped.
fn judge<P: Served + Evaluate>(
    game: &Game<P>,
    nodes: u64,
    control: &SearchControl,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<StoredReview> {
    let review = review_whole(game, &Limits::nodes(nodes), control, progress)?;
    Some(StoredReview::new(&review, nodes, P::move_to_text))
}

impl Games {
    /// `GET /api/games/{id}/review`: the review kept with game `id`.
    pub fn review(&self, id: &str) -> Result<ReviewJson, Refusal> {
        let stored = self.load(Self::parse_id(id)?)?;
        let kept = stored.review.as_ref().ok_or_else(|| {
            Refusal::new(
                StatusCode::NOT_FOUND,
                format!(
                    "Game {} has not been reviewed: send {{\"type\": \"review\"}} over its WebSocket.",
                    stored.id
                ),
            )
        })?;
        ReviewJson::new(kept, &Self::replay(&stored)?)
            .ok_or_else(|| Refusal::internal("The game's review does not fit its moves."))
    }

    /// Keeps `review` with game `id` if its moves are still `moves`, and
    /// tells the watchers.
    pub(crate) fn keep_review(
        self: &Arc<Self>,
        id: GameId,
        moves: &[String],
        review: StoredReview,
    ) -> Result<(), Refusal> {
        let changed = self.store.update(id, &mut |stored: &mut StoredGame| {
            if stored.moves != moves {
                return Err(Refusal::new(
                    StatusCode::CONFLICT,
                    "The game changed during its review: review it again.",
                ));
            }
            stored.review = Some(review.clone());
            stored.version += 1;
            Ok(())
        });
        let stored = match changed {
            Ok(stored) => stored,
            Err(StoreError::NotFound) => return Err(Refusal::no_game(&id.to_string())),
            Err(StoreError::Refused(refusal)) => return Err(refusal),
            Err(StoreError::Failed(message)) => return Err(Refusal::internal(message)),
        };
        let state = Self::state_of(&stored)?;
        self.broadcast(id, &state);
        Ok(())
    }
}
