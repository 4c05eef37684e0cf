//! The HTTP side of the JSON API: routes, bodies read within limits, JSON
//! errors. What each call does is in `service.rs`.

use super::app::{blocking, App};
use super::assets;
use super::bodies::{parse_json, read_body};
use super::client::ClientKey;
use super::requests::{ChangeRequest, DeclareRequest, MoveRequest, ResignRequest, UndoRequest};
use super::ws;
use crate::games::details::DetailsRequest;
use crate::games::refusal::Refusal;
use crate::games::rematch::{RematchAnswer, RematchRequest};
use crate::games::service::NewGame;
use crate::games::state;
use crate::study::analysis_target::find_engine;
use crate::study::external_mate::MateJob;
use crate::study::mate;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Request, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

/// The largest JSON body of a move, undo, resignation or new game. Real
/// ones are under 1 KiB; headers for a new game fit easily.
pub const JSON_LIMIT: usize = 64 << 10;
/// The largest record to import: real records are some kilobytes, the
/// longest with comments a few hundred.
pub const IMPORT_LIMIT: usize = 4 << 20;

/// The whole application: API, WebSocket and the page.
pub fn router(app: App) -> Router {
    let routes = match app.workers {
        Some(_) => super::worker_routes::routes(),
        None => Router::new(),
    };
    routes
        .route("/api/variants", get(variants))
        .route("/api/engines", get(engines))
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/declare", post(declare))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/details", post(details))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/mate", get(mate))
        .route("/api/games/{id}/review", get(review))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .fallback(fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(security_headers))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(middleware::from_fn_with_state(app.clone(), rate_limit))
        .with_state(app)
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut body = match &self.state {
            Some(state) => serde_json::json!({ "error": self.message, "state": state }),
            None => serde_json::json!({ "error": self.message }),
        };
        if let Some(code) = self.code {
            body["code"] = code.into();
        }
        let mut response = (self.status, Json(body)).into_response();
        if self.closes {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// A JSON body of type `T`. Requiring `application/json` also keeps other
/// web sites' plain forms from changing games (they cannot send that type
/// without the browser asking this server first, which it never allows).
async fn json_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Body,
    timeout: Duration,
) -> Result<T, Refusal> {
    if !is_json(headers) {
        return Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send JSON, with Content-Type: application/json.",
        ));
    }
    let bytes = read_body(headers, body, JSON_LIMIT, timeout).await?;
    parse_json(&bytes)
}

fn created(state: state::GameState) -> Response {
    let location = format!("/api/games/{}", state.id);
    let mut response = (StatusCode::CREATED, Json(state)).into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

fn answer(result: Result<state::GameState, Refusal>) -> Response {
    match result {
        Ok(state) => Json(state).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

async fn variants() -> Response {
    Json(state::variants()).into_response()
}

/// `GET /api/engines`: Koma's own engine and the registered ones.
async fn engines(State(app): State<App>) -> Response {
    let external = app.analyses.external.clone();
    match blocking(move || Ok(external.list())).await {
        Ok(list) => Json(serde_json::json!({ "engines": list })).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

async fn create(State(app): State<App>, headers: HeaderMap, body: Body) -> Response {
    let request: NewGame = match json_body(&headers, body, app.body_timeout).await {
        Ok(request) => request,
        Err(refusal) => return refusal.into_response(),
    };
    match blocking(move || app.games.create(request)).await {
        Ok(state) => created(state),
        Err(refusal) => refusal.into_response(),
    }
}

/// `POST /api/games/import` as JSON.
#[derive(Deserialize)]
struct ImportRequest {
    text: String,
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    filename: Option<String>,
}

async fn import(
    State(app): State<App>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let query = query_params(query.as_deref());
    let result = if is_json(&headers) {
        match read_body(&headers, body, IMPORT_LIMIT, app.body_timeout)
            .await
            .and_then(|bytes| parse_json::<ImportRequest>(&bytes))
        {
            Ok(request) => {
                blocking(move || {
                    app.games.import(
                        request.text.as_bytes(),
                        request.format.as_deref(),
                        request.variant.as_deref(),
                        request.filename.as_deref(),
                    )
                })
                .await
            }
            Err(refusal) => Err(refusal),
        }
    } else {
        match read_body(&headers, body, IMPORT_LIMIT, app.body_timeout).await {
            Ok(bytes) => {
                blocking(move || {
                    app.games.import(
                        &bytes,
                        query.get("format").map(String::as_str),
                        query.get("variant").map(String::as_str),
                        query.get("filename").map(String::as_str),
                    )
                })
                .await
            }
            Err(refusal) => Err(refusal),
        }
    };
    match result {
        Ok(state) => created(state),
        Err(refusal) => refusal.into_response(),
    }
}

async fn show(State(app): State<App>, Path(id): Path<String>) -> Response {
    answer(blocking(move || app.games.state(&id)).await)
}

/// Reads a change of kind `R` from the body and carries it out.
async fn change<R>(app: App, id: String, headers: HeaderMap, body: Body) -> Response
where
    R: DeserializeOwned + Into<ChangeRequest> + Send + 'static,
{
    let result = async {
        let request: R = json_body(&headers, body, app.body_timeout).await?;
        let request: ChangeRequest = request.into();
        blocking(move || request.apply(&app.games, &id)).await
    };
    answer(result.await)
}

async fn play(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    change::<MoveRequest>(app, id, headers, body).await
}

async fn undo(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    change::<UndoRequest>(app, id, headers, body).await
}

async fn resign(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    change::<ResignRequest>(app, id, headers, body).await
}

async fn declare(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    change::<DeclareRequest>(app, id, headers, body).await
}

/// `POST /api/games/{id}/rematch`: the finished game with the offer made
/// or dropped (`200`), or the new game with the asker's seats (`201` when
/// this request made it, `200` after).
async fn rematch(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let request: RematchRequest = match json_body(&headers, body, app.body_timeout).await {
        Ok(request) => request,
        Err(refusal) => return refusal.into_response(),
    };
    let answer = blocking(move || {
        app.games
            .rematch(&id, request.token.as_deref(), request.decline)
    })
    .await;
    match answer {
        Ok(RematchAnswer::Offer(state)) => Json(state).into_response(),
        Ok(RematchAnswer::Game {
            state,
            created: true,
        }) => created(state),
        Ok(RematchAnswer::Game { state, .. }) => Json(state).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// `POST /api/games/{id}/details`: the players' names, the event and the
/// like, and the opening comment, as a player edits them.
async fn details(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let request: DetailsRequest = match json_body(&headers, body, app.body_timeout).await {
        Ok(request) => request,
        Err(refusal) => return refusal.into_response(),
    };
    answer(blocking(move || app.games.edit_details(&id, request)).await)
}

/// `GET /api/games/{id}/review`: the game's review, once one was made
/// (over the WebSocket).
async fn review(State(app): State<App>, Path(id): Path<String>) -> Response {
    let games = app.games.clone();
    match blocking(move || games.review(&id)).await {
        Ok(review) => Json(review).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// `GET /api/games/{id}/mate?ply=N&seconds=S&engine=E`: mate search on
/// the position after move N (the current one by default), for S seconds
/// (10, at most 30), by Koma's own solver or the registered engine E.
/// With workers (`--worker-keys`), Koma's solver's search is a job for
/// them, answered the same way.
/// Searches beyond the server's count wait their turn; a registered
/// engine's takes as many turns as its threads (at most all of them).
async fn mate(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query_params(query.as_deref());
    let number = |key: &str| -> Result<Option<u64>, Refusal> {
        query
            .get(key)
            .map(|text| {
                text.parse::<u64>().map_err(|_| {
                    Refusal::bad_request(format!("{key} must be a whole number, not {text:?}."))
                })
            })
            .transpose()
    };
    let (ply, seconds) = match (number("ply"), number("seconds")) {
        (Ok(ply), Ok(seconds)) => (ply, seconds),
        (Err(refusal), _) | (_, Err(refusal)) => return refusal.into_response(),
    };
    let asked = query.get("engine").cloned();
    // Refusals come at once; a search allowed waits for its turn.
    let (games, external) = (app.games.clone(), app.analyses.external.clone());
    let target = blocking(move || {
        let (game, ply) = games.study_target(&id, ply)?;
        let engine = find_engine(&external, asked.as_deref(), &game)?;
        Ok((game, ply, engine, id))
    });
    let (game, ply, engine, id) = match target.await {
        Ok(target) => target,
        Err(refusal) => return refusal.into_response(),
    };
    let turns = engine
        .as_ref()
        .map_or(1, |engine| engine.threads.min(app.mate_turns));
    let Ok(_permits) = app.mate_searches.clone().acquire_many_owned(turns).await else {
        return Refusal::internal("the server is stopping").into_response();
    };
    let seconds = seconds.unwrap_or(mate::DEFAULT_SECONDS);
    // Koma's own solver, with workers: a job for them (the server's own
    // engine is one, unless --analysis-engines 0).
    if let (None, Some(workers)) = (&engine, &app.workers) {
        return match workers.find_mate(&id, &game, ply, seconds).await {
            Ok(found) => Json(found).into_response(),
            Err(refusal) => refusal.into_response(),
        };
    }
    let external = app.analyses.external.clone();
    let found = blocking(move || match &engine {
        None => mate::find_mate(&game, ply, seconds),
        Some(engine) => MateJob {
            external: &external,
            engine,
            game_id: &id,
            ply,
            time: Duration::from_secs(seconds.clamp(1, mate::MAX_SECONDS)),
        }
        .find(&game),
    });
    match found.await {
        Ok(found) => Json(found).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

async fn record(
    State(app): State<App>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query_params(query.as_deref());
    let format = query.get("format").cloned();
    match blocking(move || app.games.record(&id, format.as_deref())).await {
        Ok(download) => {
            let disposition = format!("attachment; filename=\"{}\"", download.filename);
            let mut response = download.bytes.into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(download.content_type),
            );
            if let Ok(value) = HeaderValue::from_str(&disposition) {
                headers.insert(header::CONTENT_DISPOSITION, value);
            }
            response
        }
        Err(refusal) => refusal.into_response(),
    }
}

async fn fallback(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return Refusal::new(StatusCode::NOT_FOUND, "No such API call; see docs/API.md.")
            .into_response();
    }
    assets::serve(path)
}

async fn method_not_allowed() -> Response {
    Refusal::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "This address does not take that method; see docs/API.md.",
    )
    .into_response()
}

/// The Content-Security-Policy of the page: its own scripts, styles (the
/// board widgets set inline styles) and images (pieces may be data: URLs),
/// and connections to this server only (`'self'` covers its WebSocket).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; \
    style-src 'self' 'unsafe-inline'; font-src 'self' data:; connect-src 'self'; \
    frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/// Refuses requests addressed to another name (a web site that points its
/// own name at 127.0.0.1, "DNS rebinding", to read the games as if it were
/// this page) and requests that another site's page sends (its `Origin`
/// is not this server).
///
/// Beyond loopback (`--listen`) any host name may be the machine's, and
/// rebinding gains nothing that the network did not already give; there a
/// request's `Origin` must still name the host it was sent to.
async fn guard(State(app): State<App>, request: Request<Body>, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()))
        .unwrap_or("");
    let known = |name: &str| match &app.hosts {
        Some(hosts) => hosts.iter().any(|h| h.eq_ignore_ascii_case(name)),
        None => !host.is_empty() && name.eq_ignore_ascii_case(host),
    };
    if !known(host) {
        let first = app
            .hosts
            .as_ref()
            .and_then(|hosts| hosts.first().cloned())
            .unwrap_or_else(|| "127.0.0.1".to_owned());
        return Refusal::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!("This server answers only to http://{first}/."),
        )
        .into_response();
    }
    let origin = request
        .headers()
        .get(header::ORIGIN)
        .map(|v| v.to_str().unwrap_or(""));
    if let Some(origin) = origin {
        let own = ["http://", "https://"]
            .iter()
            .any(|scheme| origin.strip_prefix(scheme).is_some_and(known));
        if !own {
            return Refusal::new(
                StatusCode::FORBIDDEN,
                "Requests from other web sites are refused.",
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// Refuses a client's requests beyond its rate (`429`, with
/// `Retry-After`), so that one client cannot crowd out the others, however
/// many connections it opens.
async fn rate_limit(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let client = ClientKey::of_request(peer, request.headers(), app.limits.trust_proxy);
    match app.limits.allow(client) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let mut response = Refusal::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "Too many requests: at most {} a second from one address. Try again shortly.",
                    app.limits.per_second
                ),
            )
            .into_response();
            let seconds = wait.as_secs().max(1).to_string();
            if let Ok(value) = HeaderValue::from_str(&seconds) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            response
        }
    }
}

async fn security_headers(request: Request<Body>, next: Next) -> Response {
    let is_api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let is_html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_html {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if is_api {
        // Game states change with every move: never serve one from a cache.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// `a=1&b=x%20y` as a map (later keys win); `+` is a space.
fn query_params(query: Option<&str>) -> HashMap<String, String> {
    query
        .unwrap_or("")
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(key), percent_decode(value))
        })
        .collect()
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    let hex = |b: &u8| (*b as char).to_digit(16);
    while index < bytes.len() {
        match bytes[index] {
            b'%' => match (
                bytes.get(index + 1).and_then(hex),
                bytes.get(index + 2).and_then(hex),
            ) {
                (Some(high), Some(low)) => {
                    out.push((high * 16 + low) as u8);
                    index += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            other => out.push(other),
        }
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_decoded() {
        let params = query_params(Some("format=kif&filename=my%20game.KIF&x&y=%zz%4"));
        assert_eq!(params["format"], "kif");
        assert_eq!(params["filename"], "my game.KIF");
        assert_eq!(params["x"], "");
        assert_eq!(params["y"], "%zz%4");
    }
}
