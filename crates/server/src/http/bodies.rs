//! A request's body, read within its bounds (a size, and a time for it to
//! arrive), and read as JSON with a sentence naming what is wrong: for the
//! API's calls (`api`) and the workers' (`worker_routes`) alike.

use super::json_errors::json_error_sentence;
use crate::games::refusal::Refusal;
use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use std::time::Duration;

/// The body's bytes, at most `limit` of them (413 beyond), arriving within
/// `timeout` (408 beyond, and the connection closes: what is left of the
/// body would be read as the next request).
pub async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
    timeout: Duration,
) -> Result<Vec<u8>, Refusal> {
    let too_large = || {
        Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The request is too large: at most {} KiB.", limit >> 10),
        )
    };
    // A declared length over the limit is refused before reading any of it.
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    match tokio::time::timeout(timeout, to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(bytes.to_vec()),
        Ok(Err(_)) => Err(too_large()),
        Err(_) => Err(Refusal::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "The request's body did not arrive within {} s.",
                timeout.as_secs()
            ),
        )
        .closing()),
    }
}

/// `bytes` as JSON of type `T`: UTF-8 throughout (RFC 8259), fields the
/// call ignores included, and a wrong field named.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Refusal> {
    if let Err(e) = std::str::from_utf8(bytes) {
        return Err(Refusal::bad_request(format!(
            "The request is not UTF-8: byte {} is not part of a character. JSON is UTF-8.",
            e.valid_up_to()
        )));
    }
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let parsed: T = serde_path_to_error::deserialize(&mut reader)
        .map_err(|e| Refusal::bad_request(json_error_sentence(&e)))?;
    reader.end().map_err(|e| {
        Refusal::bad_request(format!("The request is not the JSON this call takes: {e}."))
    })?;
    Ok(parsed)
}
