//! The WebSocket protocol's edges, done by hand over hyper's upgrade so
//! that every ending is a proper one: the opening handshake (RFC 6455
//! section 4.2), the Close frame with the code that says why (1002 for a
//! protocol error, 1007 for text that is not UTF-8, 1009 for a message too
//! large), and a lingering close that reads what the client still sends,
//! so that the kernel does not answer it with a reset that would destroy
//! the Close frame before the page reads it (what nginx's lingering_close
//! does for HTTP).

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, Request, StatusCode};
use axum::response::Response;
use futures_util::SinkExt;
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::WebSocketStream;

/// A server's WebSocket over an upgraded connection.
pub type Socket = WebSocketStream<TokioIo<Upgraded>>;

/// Beyond this a message or frame is not read: the connection closes with
/// code 1009.
pub const FRAME_LIMIT: usize = 1 << 20;

/// How long closing waits for the Close frame to be written, and then for
/// the client to finish sending.
const LINGER: Duration = Duration::from_secs(2);

/// A WebSocket handshake that was accepted: the `101` answer to send, and
/// the connection it opens once sent.
pub struct Accepted {
    /// The `101 Switching Protocols` answer.
    pub response: Response,
    /// Resolves to the raw connection after the answer is sent.
    pub upgrade: OnUpgrade,
}

/// Checks the opening handshake of `request`: `None` when it is not a
/// WebSocket request this server can take.
pub fn accept(request: &mut Request<Body>) -> Option<Accepted> {
    let headers = request.headers();
    let has_token = |name: header::HeaderName, token: &str| {
        headers.get_all(name).iter().any(|value| {
            value.to_str().is_ok_and(|value| {
                value
                    .split(',')
                    .any(|part| part.trim().eq_ignore_ascii_case(token))
            })
        })
    };
    let upgrade_ok = has_token(header::UPGRADE, "websocket");
    let connection_ok = has_token(header::CONNECTION, "upgrade");
    let version_ok = headers
        .get(header::SEC_WEBSOCKET_VERSION)
        .is_some_and(|v| v.as_bytes() == b"13");
    let key = headers.get(header::SEC_WEBSOCKET_KEY)?.as_bytes().to_vec();
    if !(upgrade_ok && connection_ok && version_ok) {
        return None;
    }
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(&key);
    let upgrade = request.extensions_mut().remove::<OnUpgrade>()?;
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let answer = response.headers_mut();
    answer.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    answer.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    answer.insert(
        header::SEC_WEBSOCKET_ACCEPT,
        HeaderValue::from_str(&accept).ok()?,
    );
    Some(Accepted { response, upgrade })
}

/// Whether `headers` ask for a WebSocket at all (to tell a plain GET of a
/// WebSocket address from a broken handshake).
pub fn asks_for_websocket(headers: &HeaderMap) -> bool {
    headers.contains_key(header::SEC_WEBSOCKET_KEY) || headers.contains_key(header::UPGRADE)
}

/// The socket over `upgraded`, with the server's limits: messages and
/// frames of at most [`FRAME_LIMIT`], masked client frames only.
pub async fn socket(upgraded: Upgraded) -> Socket {
    let config = WebSocketConfig::default()
        .max_message_size(Some(FRAME_LIMIT))
        .max_frame_size(Some(FRAME_LIMIT))
        .accept_unmasked_frames(false);
    WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await
}

/// The Close code and reason that answer a read error, if the connection
/// can still be told anything (not after it broke or closed).
pub fn close_for(error: &WsError) -> Option<(u16, &'static str)> {
    match error {
        WsError::Capacity(_) => Some((1009, "message too large")),
        WsError::Utf8(_) => Some((1007, "text that is not UTF-8")),
        WsError::Protocol(_) => Some((1002, "WebSocket protocol error")),
        WsError::AttackAttempt => Some((1008, "refused")),
        _ => None,
    }
}

/// Closes `socket` with `code` and `reason`: sends the Close frame, stops
/// writing, then reads and drops what the client still sends until it
/// closes too, for at most a couple of seconds each.
pub async fn close(socket: &mut Socket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code: CloseCode::from(code),
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(LINGER, socket.close(Some(frame))).await;
    linger(socket).await;
}

/// Ends the connection under `socket` gently: shuts the sending side and
/// reads until the client closes (or a couple of seconds pass).
pub async fn linger(socket: &mut Socket) {
    let _ = tokio::time::timeout(LINGER, socket.flush()).await;
    let raw = socket.get_mut();
    let _ = tokio::time::timeout(LINGER, async {
        let _ = raw.shutdown().await;
        let mut sink = [0u8; 4096];
        while matches!(raw.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
}
