//! The worker's side of the HTTP API: the three calls, each answer read
//! into what the loop acts on.

use koma_server::workers::protocol::JobKind;
use koma_server::workers::protocol::{
    AcceptedJson, JobJson, ProgressJson, ResultJson, ACQUIRE_PATH, KINDS_PARAM,
};
use reqwest::{Certificate, StatusCode};
use std::path::Path;
use std::time::Duration;

/// How long a call may take, the acquire's wait on the server included.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// What went wrong with a call.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// `401`: the key is refused.
    #[error("{0}")]
    Unauthorized(String),
    /// `404` or `409`: the job is not this worker's any more.
    #[error("{0}")]
    Lost(String),
    /// `422` (or another 4xx): the server will not take what was sent.
    #[error("{0}")]
    Refused(String),
    /// The server could not be reached, or answered with a 5xx or a 429:
    /// worth trying again.
    #[error("{0}")]
    Network(String),
}

/// A client of one server, with one key.
pub struct Client {
    http: reqwest::Client,
    base: String,
    key: String,
}

/// The certificates of the authorities in the PEM file at `path`, to be
/// trusted beside the usual web ones (`--ca-file`).
pub fn authorities(path: &Path) -> Result<Vec<Certificate>, crate::WorkerError> {
    let refused = |why: String| crate::WorkerError::CaFile {
        path: path.display().to_string(),
        why,
    };
    let pem = std::fs::read(path).map_err(|e| refused(e.to_string()))?;
    let found = Certificate::from_pem_bundle(&pem).map_err(|e| refused(with_causes(&e)))?;
    if found.is_empty() {
        return Err(refused("it holds no PEM certificate".to_owned()));
    }
    Ok(found)
}

/// `error` and the errors beneath it, as one sentence: reqwest's own
/// says only that a request failed, its causes say why (a certificate
/// no authority signed, a refused connection).
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    text
}

impl Client {
    /// A client of the server at `url` (http:// or https://), trusting
    /// `authorities` beside the usual web ones.
    pub fn new(
        url: &str,
        key: &str,
        authorities: &[Certificate],
    ) -> Result<Client, crate::WorkerError> {
        let base = url.trim().trim_end_matches('/').to_owned();
        if !(base.starts_with("http://") || base.starts_with("https://")) || base.len() < 9 {
            return Err(crate::WorkerError::BadUrl(url.to_owned()));
        }
        let mut builder = reqwest::Client::builder()
            .timeout(CALL_TIMEOUT)
            .user_agent(concat!("koma-worker/", env!("CARGO_PKG_VERSION")));
        for authority in authorities {
            builder = builder.add_root_certificate(authority.clone());
        }
        let http = builder
            .build()
            .map_err(|e| crate::WorkerError::Start(e.to_string()))?;
        Ok(Client {
            http,
            base,
            key: key.to_owned(),
        })
    }

    async fn post(
        &self,
        path: &str,
        body: Option<String>,
    ) -> Result<(StatusCode, String), ClientError> {
        let mut request = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.key);
        if let Some(body) = body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body);
        }
        let response = request.send().await.map_err(|e| {
            ClientError::Network(format!("cannot reach {}: {}", self.base, with_causes(&e)))
        })?;
        let status = response.status();
        let text = response.text().await.map_err(|e| {
            ClientError::Network(format!("the answer from {} broke off: {e}", self.base))
        })?;
        if status.is_success() {
            return Ok((status, text));
        }
        // The server's errors are `{"error": "sentence"}`.
        let sentence = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v["error"].as_str().map(str::to_owned))
            .unwrap_or_else(|| text.chars().take(200).collect());
        let said = format!("{status}: {sentence}");
        Err(match status {
            StatusCode::UNAUTHORIZED => ClientError::Unauthorized(said),
            StatusCode::NOT_FOUND | StatusCode::CONFLICT => ClientError::Lost(said),
            StatusCode::TOO_MANY_REQUESTS | StatusCode::REQUEST_TIMEOUT => {
                ClientError::Network(said)
            }
            s if s.is_client_error() => ClientError::Refused(said),
            _ => ClientError::Network(said),
        })
    }

    /// A job of any kind this worker does, or `None` when none came
    /// within `wait` seconds.
    pub async fn acquire(&self, wait: u64) -> Result<Option<JobJson>, ClientError> {
        let kinds: Vec<&str> = JobKind::ALL.iter().map(|kind| kind.word()).collect();
        let kinds = kinds.join(",");
        let (status, text) = self
            .post(
                &format!("{ACQUIRE_PATH}?wait={wait}&{KINDS_PARAM}={kinds}"),
                None,
            )
            .await
            .map_err(|e| match e {
                // No such route: the server takes no workers.
                ClientError::Lost(said) => ClientError::Network(format!(
                    "{said} (was the server started with --worker-keys?)"
                )),
                other => other,
            })?;
        if status == StatusCode::NO_CONTENT {
            return Ok(None);
        }
        serde_json::from_str(&text).map(Some).map_err(|e| {
            ClientError::Network(format!("the server sent a job that is not one: {e}"))
        })
    }

    /// Reports progress on job `id`.
    pub async fn progress(&self, id: &str, report: &ProgressJson) -> Result<(), ClientError> {
        let body =
            serde_json::to_string(report).map_err(|e| ClientError::Refused(e.to_string()))?;
        self.post(&format!("/api/worker/jobs/{id}/progress"), Some(body))
            .await
            .map(|_| ())
    }

    /// Sends the result of job `id`; what the server did with it.
    pub async fn result(&self, id: &str, result: &ResultJson) -> Result<String, ClientError> {
        let body =
            serde_json::to_string(result).map_err(|e| ClientError::Refused(e.to_string()))?;
        let (_, text) = self
            .post(&format!("/api/worker/jobs/{id}/result"), Some(body))
            .await?;
        Ok(serde_json::from_str::<AcceptedJson>(&text)
            .map(|accepted| accepted.status)
            .unwrap_or_else(|_| "accepted".to_owned()))
    }
}
