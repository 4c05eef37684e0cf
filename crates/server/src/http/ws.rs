//! `GET /api/games/{id}/ws`: the game's state now and after every change,
//! and moves, undos and resignations sent the other way; and the
//! connection's analysis (`{"type": "analyse"}`, `{"type": "stop-analysis"}`)
//! and review of the game (`{"type": "review"}`, `{"type": "stop-review"}`),
//! whose progress comes back as `{"type": "analysis"}` and `{"type":
//! "review"}` messages.

use super::app::{blocking, App};
use super::connections::Ticket;
use super::rate::{self, WS_PER_SECOND, WS_STRIKES};
use super::requests::{ChangeRequest, DeclareRequest, MoveRequest, ResignRequest, UndoRequest};
use super::ws_protocol::{self, Socket};
use crate::external::registry::BUILT_IN;
use crate::games::refusal::Refusal;
use crate::games::service::{Games, StateMessage};
use crate::store::GameId;
use crate::study::analysis::EngineJob;
use crate::study::analysis_start;
use crate::study::analysis_target::{self, AnalyseRequest};
use crate::study::review;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant, MissedTickBehavior};
use tokio_tungstenite::tungstenite::Message;

/// The analyses (each with its own engine) one connection may run at once:
/// Koma's and one registered engine side by side, or two registered ones.
const ANALYSES_PER_CONNECTION: usize = 2;

/// The largest message a client may send and get an answer to. Real ones
/// are under 100 bytes.
const MESSAGE_LIMIT: usize = 64 << 10;

/// Accepts the WebSocket of a game that exists.
pub async fn upgrade(
    State(app): State<App>,
    Path(id): Path<String>,
    mut request: Request<Body>,
) -> Response {
    let games = app.games.clone();
    let wanted = id.clone();
    let (state, receiver) = match blocking(move || games.subscribe(&wanted)).await {
        Ok(subscription) => subscription,
        Err(refusal) => return refusal.into_response(),
    };
    let Some(accepted) = ws_protocol::accept(&mut request) else {
        drop(receiver);
        if let Ok(game_id) = id.parse::<GameId>() {
            app.games.forget_unwatched(game_id);
        }
        let sentence = if ws_protocol::asks_for_websocket(request.headers()) {
            "The WebSocket handshake is incomplete: it needs Upgrade: websocket, Connection: \
             Upgrade, Sec-WebSocket-Version: 13 and a Sec-WebSocket-Key."
        } else {
            "This address takes a WebSocket connection."
        };
        return Refusal::bad_request(sentence).into_response();
    };
    let first = (
        state.version,
        serde_json::json!({ "type": "state", "state": state }).to_string(),
    );
    // The connection stays counted against its client while the socket lives.
    let ticket = request.extensions().get::<Arc<Ticket>>().cloned();
    tokio::spawn(async move {
        match accepted.upgrade.await {
            Ok(upgraded) => {
                let socket = ws_protocol::socket(upgraded).await;
                session(socket, app.clone(), id.clone(), first, receiver).await;
            }
            Err(_) => drop(receiver),
        }
        if let Ok(game_id) = id.parse::<GameId>() {
            app.games.forget_unwatched(game_id);
        }
        drop(ticket);
    });
    accepted.response
}

/// How a session ended, and what the client is told.
enum Ending {
    /// The client closed, or the connection broke: nothing more to say.
    Quietly,
    /// The client closed with a Close frame: answer it.
    Answered,
    /// Closed by the server with this code and reason.
    Closed(u16, String),
}

async fn session(
    mut socket: Socket,
    app: App,
    id: String,
    (mut shown, first): (u64, String),
    mut receiver: broadcast::Receiver<StateMessage>,
) {
    let mut shutdown = app.shutdown.clone();
    let limit = rate::websocket_limit();
    let mut strikes = 0;
    // This connection's analyses, one per engine and at most
    // [`ANALYSES_PER_CONNECTION`]: dropping one (a new request for its
    // engine, a stop, or the end of the connection) frees its engine.
    let (analysis_out, mut analysis_in) = mpsc::unbounded_channel::<String>();
    let mut running: Vec<(String, EngineJob)> = Vec::new();
    let mut reviewing: Option<EngineJob> = None;
    // The client's last word, of any kind (a pong included): a socket
    // silent for a ping interval is pinged, and closed if the ping is
    // still unanswered an interval after it went out. The deadline runs
    // from the ping, not from the last word, so that a client answering
    // at once is never closed by the phase of the checks; and the checks
    // come four times an interval, so the ping goes out on time.
    let mut last_heard = Instant::now();
    let mut pinged_at: Option<Instant> = None;
    let check_every = (app.ping_interval / 4).max(Duration::from_millis(10));
    let mut ticks = tokio::time::interval_at(Instant::now() + check_every, check_every);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut ending = Ending::Quietly;
    if socket.send(Message::text(first)).await.is_ok() {
        loop {
            let outgoing = tokio::select! {
                incoming = socket.next() => {
                    if matches!(incoming, Some(Ok(_))) {
                        last_heard = Instant::now();
                        pinged_at = None;
                    }
                    match incoming {
                    Some(Ok(Message::Text(_) | Message::Binary(_))) if limit.check().is_err() => {
                        strikes += 1;
                        if strikes >= WS_STRIKES {
                            ending = Ending::Closed(1008, "too many messages".into());
                            break;
                        }
                        Some(too_fast())
                    }
                    Some(Ok(Message::Text(text))) => match study_message(&text) {
                        Some(Ok(StudyMessage::Analyse(request))) => {
                            // The engine's old analysis stops before the new one is looked at.
                            let engine = request.engine.clone().unwrap_or_else(|| BUILT_IN.to_owned());
                            running.retain(|(name, _)| *name != engine);
                            if running.len() >= ANALYSES_PER_CONNECTION {
                                let (app, id) = (app.clone(), id.clone());
                                let sentence = format!(
                                    "A connection analyses with at most {ANALYSES_PER_CONNECTION} engines at once: stop one first (\"stop-analysis\" with its \"engine\")."
                                );
                                let named = engine.clone();
                                let refusal = Refusal::new(StatusCode::BAD_REQUEST, sentence);
                                let reply = blocking(move || Ok(refusal_message_for(&app, &id, refusal, Some(&named)))).await.ok();
                                if let Some(text) = reply {
                                    if socket.send(Message::text(text)).await.is_err() {
                                        break;
                                    }
                                }
                                continue;
                            }
                            let (analyses, out) = (app.analyses.clone(), analysis_out.clone());
                            let external = analyses.external.clone();
                            let target = move |games: &Arc<Games>, id: &str| {
                                let (game, _) = games.study_target(id, None)?;
                                analysis_target::target(game, id, request, &external)
                            };
                            let (job, reply) = study(&app, &id, Some(&engine), target, |target| {
                                analysis_start::start(analyses, target, out)
                            })
                            .await;
                            running.extend(job.map(|job| (engine, job)));
                            reply
                        }
                        Some(Ok(StudyMessage::StopAnalysis(engine))) => {
                            running.retain(|(name, _)| engine.as_ref().is_some_and(|e| e != name));
                            None
                        }
                        Some(Ok(StudyMessage::Review(engine))) => {
                            drop(reviewing.take());
                            let (analyses, games, out) =
                                (app.analyses.clone(), app.games.clone(), analysis_out.clone());
                            let external = analyses.external.clone();
                            let target = move |games: &Arc<Games>, id: &str| {
                                let (game, _) = games.study_target(id, None)?;
                                let engine = analysis_target::find_engine(&external, engine.as_deref(), &game)?;
                                Ok((game, Games::parse_id(id)?, engine))
                            };
                            let (job, reply) = study(&app, &id, None, target, |(game, game_id, engine)| {
                                review::start(analyses, games, game_id, game, engine, out)
                            })
                            .await;
                            reviewing = job;
                            reply
                        }
                        Some(Ok(StudyMessage::StopReview)) => {
                            reviewing = None;
                            None
                        }
                        Some(Err(sentence)) => {
                            let (app, id) = (app.clone(), id.clone());
                            blocking(move || Ok(error(&app, &id, &sentence))).await.ok()
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
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => None,
                    Some(Ok(Message::Close(_))) => {
                        ending = Ending::Answered;
                        break;
                    }
                    Some(Err(error)) => {
                        if let Some((code, reason)) = ws_protocol::close_for(&error) {
                            ending = Ending::Closed(code, reason.into());
                        }
                        break;
                    }
                    None => break,
                }},
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
                            Err(_) => {
                                ending = Ending::Closed(1011, "the game cannot be read".into());
                                break;
                            }
                        }
                    }
                    Err(RecvError::Closed) => {
                        ending = Ending::Closed(1001, "the game is no longer served".into());
                        break;
                    }
                },
                Some(text) = analysis_in.recv() => Some(text),
                _ = ticks.tick() => {
                    match pinged_at {
                        Some(at) if at.elapsed() >= app.ping_interval => {
                            ending = Ending::Closed(1001, "the connection stopped answering".into());
                            break;
                        }
                        Some(_) => {}
                        None if last_heard.elapsed() >= app.ping_interval => {
                            pinged_at = Some(Instant::now());
                            if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                                break;
                            }
                        }
                        None => {}
                    }
                    None
                }
                _ = shutdown.changed() => {
                    ending = Ending::Closed(1001, "the server is stopping".into());
                    break;
                }
            };
            if let Some(text) = outgoing {
                if socket.send(Message::text(text)).await.is_err() {
                    break;
                }
            }
        }
    }
    drop(running);
    drop(reviewing);
    drop(receiver);
    match ending {
        Ending::Quietly => {}
        Ending::Answered => ws_protocol::linger(&mut socket).await,
        Ending::Closed(code, reason) => ws_protocol::close(&mut socket, code, &reason).await,
    }
}

/// A study job (an analysis, a review) on game `id`: what `target` finds
/// there (on a blocking thread) started by `start`, or the message of its
/// refusal.
async fn study<T: Send + 'static>(
    app: &App,
    id: &str,
    engine: Option<&str>,
    target: impl FnOnce(&Arc<Games>, &str) -> Result<T, Refusal> + Send + 'static,
    start: impl FnOnce(T) -> EngineJob,
) -> (Option<EngineJob>, Option<String>) {
    let (games, wanted) = (app.games.clone(), id.to_owned());
    match blocking(move || target(&games, &wanted)).await {
        Ok(found) => (Some(start(found)), None),
        Err(refusal) => {
            let (app, id, engine) = (app.clone(), id.to_owned(), engine.map(str::to_owned));
            let reply =
                blocking(move || Ok(refusal_message_for(&app, &id, refusal, engine.as_deref())))
                    .await;
            (None, reply.ok())
        }
    }
}

/// The messages about analysis.
enum StudyMessage {
    /// Analyse a position (replacing this connection's analysis).
    Analyse(AnalyseRequest),
    /// Stop this connection's analysis with the engine named, or all.
    StopAnalysis(Option<String>),
    /// Review the game (replacing this connection's review), with the
    /// registered engine named (Koma's own when `None`).
    Review(Option<String>),
    /// Stop this connection's review.
    StopReview,
}

/// `text` as a message about analysis, if its type is one: the message,
/// or the sentence that says what is wrong with it. Anything else is a
/// change to the game, or refused as such.
fn study_message(text: &str) -> Option<Result<StudyMessage, String>> {
    if text.len() > MESSAGE_LIMIT {
        return None;
    }
    let kind = message_type(text)?;
    let message = match kind.as_str() {
        "stop-analysis" => match named_engine(text) {
            Ok(engine) => StudyMessage::StopAnalysis(engine),
            Err(sentence) => return Some(Err(sentence)),
        },
        "review" => match named_engine(text) {
            Ok(engine) => StudyMessage::Review(engine),
            Err(sentence) => return Some(Err(sentence)),
        },
        "stop-review" => StudyMessage::StopReview,
        "analyse" => {
            // Read apart from its tag, so that a wrong field is named (a
            // tagged enum reads its fields from a buffer without their path).
            let mut fields: serde_json::Value = serde_json::from_str(text).ok()?;
            if let Some(fields) = fields.as_object_mut() {
                fields.remove("type");
            }
            match serde_path_to_error::deserialize(fields) {
                Ok(request) => StudyMessage::Analyse(request),
                Err(e) => {
                    return Some(Err(format!(
                        "The \"analyse\" message is wrong. {}",
                        crate::http::json_errors::json_error_sentence(&e)
                    )))
                }
            }
        }
        _ => return None,
    };
    Some(Ok(message))
}

/// The `"engine"` a study message names, if any, or the sentence that
/// says it is not a name.
fn named_engine(text: &str) -> Result<Option<String>, String> {
    #[derive(Deserialize)]
    struct Named {
        #[serde(default)]
        engine: Option<String>,
    }
    serde_json::from_str::<Named>(text)
        .map(|named| named.engine)
        .map_err(|_| "A message's \"engine\" is an engine's name, as text.".to_owned())
}

/// `text` as a change to the game, or the sentence that says what is
/// wrong with it, naming the field at fault.
fn change_message(text: &str) -> Result<ChangeRequest, String> {
    fn read<R: serde::de::DeserializeOwned + Into<ChangeRequest>>(
        kind: &str,
        text: &str,
    ) -> Result<ChangeRequest, String> {
        let mut reader = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize::<_, R>(&mut reader)
            .map(Into::into)
            .map_err(|e| {
                format!(
                    "The {kind:?} message is wrong. {}",
                    crate::http::json_errors::json_error_sentence(&e)
                )
            })
    }
    let kind = message_type(text);
    match kind.as_deref() {
        Some("move") => read::<MoveRequest>("move", text),
        Some("undo") => read::<UndoRequest>("undo", text),
        Some("resign") => read::<ResignRequest>("resign", text),
        Some("declare") => read::<DeclareRequest>("declare", text),
        _ => {
            let problem = match serde_json::from_str::<serde_json::Value>(text) {
                Err(e) => format!("it is not JSON: {e}"),
                Ok(_) => match kind {
                    Some(kind) => format!("no message has the type {kind:?}"),
                    None => "it has no \"type\"".to_owned(),
                },
            };
            Err(format!(
                "The message is not one this connection takes ({problem}): send {{\"type\": \"move\", \"move\": \"7g7f\", \"ply\": 0}}, \"undo\", \"declare\", \"resign\", \"analyse\", \"stop-analysis\", \"review\" or \"stop-review\"."
            ))
        }
    }
}

/// The `"type"` of a JSON object message, if it has a text one.
fn message_type(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Typed {
        #[serde(rename = "type")]
        kind: String,
    }
    serde_json::from_str::<Typed>(text).ok().map(|t| t.kind)
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
    let message = match change_message(text) {
        Ok(message) => message,
        Err(sentence) => return Some(error(app, id, &sentence)),
    };
    let result = message.apply(&app.games, id);
    match result {
        Ok(_) => None,
        Err(refusal) => Some(refusal_message(app, id, refusal)),
    }
}

fn refusal_message(app: &App, id: &str, refusal: Refusal) -> String {
    refusal_message_for(app, id, refusal, None)
}

/// A refusal as its message; one of an analysis names the engine asked
/// (`"engine"`), so that a page showing two engines shows it in the right
/// one's part.
fn refusal_message_for(app: &App, id: &str, refusal: Refusal, engine: Option<&str>) -> String {
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
    if let Some(engine) = engine {
        message["engine"] = engine.into();
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
