//! The workers' HTTP routes (`docs/WORKERS.md`), present only with
//! `--worker-keys`: `POST /api/worker/acquire`, `POST
//! /api/worker/jobs/{id}/progress` and `POST /api/worker/jobs/{id}/result`,
//! each with a worker's key as `Authorization: Bearer KEY`. What they do
//! is in `workers/service.rs`.

use super::app::{blocking, App};
use super::bodies::{parse_json, read_body};
use crate::games::refusal::Refusal;
use crate::workers::protocol::{kinds_of, ProgressJson, ResultJson, MAX_WAIT_SECONDS};
use crate::workers::service::Workers;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// The largest progress report, as the API's other JSON bodies.
const PROGRESS_LIMIT: usize = 64 << 10;
/// The largest result, as an imported record: a game of the longest kind
/// with every position's line fits.
const RESULT_LIMIT: usize = 4 << 20;
/// How often a waiting acquire looks at the queue again.
const ACQUIRE_POLL: Duration = Duration::from_millis(200);

/// The workers' routes, added to the application's.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/api/worker/acquire", post(acquire))
        .route("/api/worker/jobs/{id}/progress", post(progress))
        .route("/api/worker/jobs/{id}/result", post(result))
}

/// The workers and the name of the one the request's key belongs to.
fn worker(
    app: &App,
    headers: &HeaderMap,
    peer: SocketAddr,
) -> Result<(Arc<Workers>, String), Refusal> {
    let workers = app
        .workers
        .clone()
        .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "This server takes no workers."))?;
    let header = headers
        .get(header::AUTHORIZATION)
        .map(|v| v.to_str().unwrap_or(""));
    let name = workers.authenticate(header, &peer.to_string())?;
    Ok((workers, name))
}

/// The body as JSON of type `T`, at most `limit` bytes arriving within the
/// server's body timeout.
async fn body<T: DeserializeOwned>(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<T, Refusal> {
    let bytes = read_body(headers, body, limit, app.body_timeout).await?;
    parse_json(&bytes)
}

/// `?wait=SECONDS`: how long an acquire may wait for a job.
fn wait_of(query: Option<&str>) -> Result<Duration, Refusal> {
    let Some(query) = query else {
        return Ok(Duration::ZERO);
    };
    for pair in query.split('&') {
        if let Some(value) = pair.strip_prefix("wait=") {
            let seconds: u64 = value.parse().map_err(|_| {
                Refusal::bad_request(format!(
                    "\"wait\" is a whole number of seconds, 0 to {MAX_WAIT_SECONDS}."
                ))
            })?;
            return Ok(Duration::from_secs(seconds.min(MAX_WAIT_SECONDS)));
        }
    }
    Ok(Duration::ZERO)
}

/// `POST /api/worker/acquire[?wait=S][&kinds=review,mate]`: a job of the
/// kinds named (reviews alone by default) (`200`), or `204` when none came
/// within the wait.
async fn acquire(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let (workers, name) = worker(&app, &headers, peer)?;
    let until = tokio::time::Instant::now() + wait_of(query.as_deref())?;
    let kinds = kinds_of(query.as_deref());
    loop {
        let (taking, who, kinds) = (workers.clone(), name.clone(), kinds.clone());
        if let Some(job) = blocking(move || taking.acquire(&who, &kinds)).await? {
            return Ok(Json(job).into_response());
        }
        if tokio::time::Instant::now() + ACQUIRE_POLL > until {
            return Ok(StatusCode::NO_CONTENT.into_response());
        }
        tokio::time::sleep(ACQUIRE_POLL).await;
    }
}

/// `POST /api/worker/jobs/{id}/progress`.
async fn progress(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    request: Body,
) -> Result<Response, Refusal> {
    let (workers, name) = worker(&app, &headers, peer)?;
    let report: ProgressJson = body(&app, &headers, request, PROGRESS_LIMIT).await?;
    let accepted = blocking(move || workers.progress(&name, &id, &report)).await?;
    Ok(Json(accepted).into_response())
}

/// `POST /api/worker/jobs/{id}/result`.
async fn result(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    request: Body,
) -> Result<Response, Refusal> {
    let (workers, name) = worker(&app, &headers, peer)?;
    let sent: ResultJson = match body(&app, &headers, request, RESULT_LIMIT).await {
        Ok(sent) => sent,
        Err(refusal) => {
            eprintln!(
                "koma: {name} sent a result for job {id} that is not the JSON of one: {}",
                refusal.message
            );
            return Err(refusal);
        }
    };
    let accepted = blocking(move || workers.result(&name, &id, &sent)).await?;
    Ok(Json(accepted).into_response())
}
