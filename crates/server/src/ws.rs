//! `GET /api/games/{id}/ws`: the game's state now and after every change,
//! and moves, undos and resignations sent the other way; and the
//! connection's analysis (`{"type": "analyse"}`, `{"type": "stop-analysis"}`)
//! and review of the game (`{"type": "review"}`, `{"type": "stop-review"}`),
//! whose progress comes back as `{"type": "analysis"}` and `{"type":
//! "review"}` messages.

use super::analysis::{self, AnalyseRequest, EngineJob};
use super::app::{blocking, App};
use super::rate::{self, WS_PER_SECOND, WS_STRIKES};
use super::refusal::Refusal;
use super::requests::ChangeRequest;
use super::review;
use super::service::{Games, StateMessage};
use super::store::GameId;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;

/// The largest message a client may send and get an answer to. Real ones
/// are under 100 bytes.
const MESSAGE_LIMIT: usize = 64 << 10;
/// Beyond this the WebSocket layer itself closes the connection (code 1009)
/// rather than buffer more.
const FRAME_LIMIT: usize = 1 << 20;

/// Accepts the WebSocket of a game that exists.
pub async fn upgrade(
    State(app): State<App>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let games = app.games.clone();
    let wanted = id.clone();
    let (state, receiver) = match blocking(move || games.subscribe(&wanted)).await {
        Ok(subscription) => subscription,
        Err(refusal) => return refusal.into_response(),
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(_) => {
            drop(receiver);
            if let Ok(game_id) = id.parse::<GameId>() {
                app.games.forget_unwatched(game_id);
            }
            return Refusal::bad_request("This address takes a WebSocket connection.")
                .into_response();
        }
    };
    let first = (
        state.version,
        serde_json::json!({ "type": "state", "state": state }).to_string(),
    );
    upgrade
        .max_message_size(FRAME_LIMIT)
        .max_frame_size(FRAME_LIMIT)
        .on_upgrade(move |socket| session(socket, app, id, first, receiver))
}

async fn session(
    mut socket: WebSocket,
    app: App,
    id: String,
    (mut shown, first): (u64, String),
    mut receiver: broadcast::Receiver<StateMessage>,
) {
    let mut shutdown = app.shutdown.clone();
    let limit = rate::websocket_limit();
    let mut strikes = 0;
    // This connection's analysis: dropping it (a new request, a stop, or
    // the end of the connection) frees its engine.
    let (analysis_out, mut analysis_in) = mpsc::unbounded_channel::<String>();
    let mut running: Option<EngineJob> = None;
    let mut reviewing: Option<EngineJob> = None;
    if socket.send(Message::Text(first.into())).await.is_ok() {
        loop {
            let outgoing = tokio::select! {
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(_) | Message::Binary(_))) if limit.check().is_err() => {
                        strikes += 1;
                        if strikes >= WS_STRIKES {
                            let close = CloseFrame { code: 1008, reason: "too many messages".into() };
                            let _ = socket.send(Message::Close(Some(close))).await;
                            break;
                        }
                        Some(too_fast())
                    }
                    Some(Ok(Message::Text(text))) => match study_message(&text) {
                        Some(StudyMessage::Analyse(request)) => {
                            // The old analysis stops before the new one is looked at.
                            drop(running.take());
                            let (analyses, out) = (app.analyses.clone(), analysis_out.clone());
                            let target = move |games: &Arc<Games>, id: &str| {
                                let (game, _) = games.study_target(id, None)?;
                                analysis::target(game, request)
                            };
                            let (job, reply) = study(&app, &id, target, |target| {
                                analysis::start(analyses, target, out)
                            })
                            .await;
                            running = job;
                            reply
                        }
                        Some(StudyMessage::StopAnalysis) => {
                            running = None;
                            None
                        }
                        Some(StudyMessage::Review) => {
                            drop(reviewing.take());
                            let (analyses, games, out) =
                                (app.analyses.clone(), app.games.clone(), analysis_out.clone());
                            let target = |games: &Arc<Games>, id: &str| {
                                let (game, _) = games.study_target(id, None)?;
                                Ok((game, Games::parse_id(id)?))
                            };
                            let (job, reply) = study(&app, &id, target, |(game, game_id)| {
                                review::start(analyses, games, game_id, game, out)
                            })
                            .await;
                            reviewing = job;
                            reply
                        }
                        Some(StudyMessage::StopReview) => {
                            reviewing = None;
                            None
                        }
                        None => {
                            let (app, id) = (app.clone(), id.clone());
                            let text = text.to_string();
                            blocking(move || Ok(answer(&app, &id, &text))).await.unwrap_or(None)
                        }
                    },
                    Some(Ok(Message::Binary(_))) => {
                        let (app, id) = (app.clone(), id.clone());
                        blocking(move || Ok(error(&app, &id, "Send JSON text messages, not binary ones.")))
                            .await
                            .ok()
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                },
                broadcast = receiver.recv() => match broadcast {
                    // Only states newer than the last one sent.
                    Ok((version, message)) if version > shown => {
                        shown = version;
                        Some(message.to_string())
                    }
                    Ok(_) => None,
                    // Fell behind: the latest state is all that matters.
                    Err(RecvError::Lagged(_)) => {
                        let (games, id) = (app.games.clone(), id.clone());
                        match blocking(move || games.state(&id)).await {
                            Ok(state) => {
                                shown = shown.max(state.version);
                                Some(serde_json::json!({ "type": "state", "state": state }).to_string())
                            }
                            Err(_) => break,
                        }
                    }
                    Err(RecvError::Closed) => break,
                },
                Some(text) = analysis_in.recv() => Some(text),
                _ = shutdown.changed() => {
                    let close = CloseFrame { code: 1001, reason: "the server is stopping".into() };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    break;
                }
            };
            if let Some(text) = outgoing {
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    drop(running);
    drop(reviewing);
    drop(receiver);
    if let Ok(game_id) = id.parse::<GameId>() {
        app.games.forget_unwatched(game_id);
    }
}

/// A study job (an analysis, a review) on game `id`: what `target` finds
/// there (on a blocking thread) started by `start`, or the message of its
/// refusal.
async fn study<T: Send + 'static>(
    app: &App,
    id: &str,
    target: impl FnOnce(&Arc<Games>, &str) -> Result<T, Refusal> + Send + 'static,
    start: impl FnOnce(T) -> EngineJob,
) -> (Option<EngineJob>, Option<String>) {
    let (games, wanted) = (app.games.clone(), id.to_owned());
    match blocking(move || target(&games, &wanted)).await {
        Ok(found) => (Some(start(found)), None),
        Err(refusal) => {
            let (app, id) = (app.clone(), id.to_owned());
            let reply = blocking(move || Ok(refusal_message(&app, &id, refusal))).await;
            (None, reply.ok())
        }
    }
}

/// The messages about analysis.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum StudyMessage {
    /// Analyse a position (replacing this connection's analysis).
    Analyse(AnalyseRequest),
    /// Stop this connection's analysis.
    StopAnalysis,
    /// Review the game (replacing this connection's review).
    Review,
    /// Stop this connection's review.
    StopReview,
}

/// `text` as a message about analysis, if it is one (anything else is a
/// change to the game, or refused as such).
fn study_message(text: &str) -> Option<StudyMessage> {
    if text.len() > MESSAGE_LIMIT {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// The answer to one client message: `None` when the change succeeded (the
/// broadcast carries the new state to every client, this one included).
fn answer(app: &App, id: &str, text: &str) -> Option<String> {
    if text.len() > MESSAGE_LIMIT {
        return Some(error(
            app,
            id,
            &format!(
                "The message is too large: at most {} KiB.",
                MESSAGE_LIMIT >> 10
            ),
        ));
    }
    let message: ChangeRequest = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(e) => {
            return Some(error(
                app,
                id,
                &format!("The message is not one this connection takes ({e}): send {{\"type\": \"move\", \"move\": \"7g7f\", \"ply\": 0}}, \"undo\", \"declare\", \"resign\", \"analyse\", \"stop-analysis\", \"review\" or \"stop-review\"."),
            ))
        }
    };
    let result = message.apply(&app.games, id);
    match result {
        Ok(_) => None,
        Err(refusal) => Some(refusal_message(app, id, refusal)),
    }
}

fn refusal_message(app: &App, id: &str, refusal: Refusal) -> String {
    let state = match refusal.state {
        Some(state) => serde_json::to_value(state).ok(),
        None => app
            .games
            .state(id)
            .ok()
            .and_then(|s| serde_json::to_value(s).ok()),
    };
    let mut message =
        serde_json::json!({ "type": "error", "error": refusal.message, "state": state });
    if let Some(code) = refusal.code {
        message["code"] = code.into();
    }
    message.to_string()
}

/// The answer to a message beyond the rate limit: no state (reading it
/// would be the load the limit keeps away).
fn too_fast() -> String {
    serde_json::json!({
        "type": "error",
        "error": format!("Too many messages: at most {WS_PER_SECOND} a second. This one was not read."),
    })
    .to_string()
}

fn error(app: &App, id: &str, message: &str) -> String {
    refusal_message(app, id, Refusal::new(StatusCode::BAD_REQUEST, message))
}
