//! The changes a player asks for, the same over HTTP (`POST
//! /api/games/{id}/moves`, `/undo`, `/resign`, `/declare`) and as WebSocket
//! messages,
//! read and carried out once.

use crate::games::refusal::Refusal;
use crate::games::service::Games;
use crate::games::state::GameState;
use serde::Deserialize;
use std::sync::Arc;

/// A `ply` from JSON: any number, checked here so that `-1`, `2.5` or
/// `1e300` get a clear message.
fn ply_of(value: &serde_json::Value) -> Result<u64, Refusal> {
    value.as_u64().ok_or_else(|| {
        Refusal::bad_request("\"ply\" must be a whole number: the number of moves the page shows.")
    })
}

/// An optional `ply` read as a whole number of moves, with a message that
/// says so when it is not one (`-1`, `"2"`, `2.5`).
pub fn optional_ply<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    struct Ply;
    impl serde::de::Visitor<'_> for Ply {
        type Value = Option<u64>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a whole number from 0 to the number of moves played")
        }
        fn visit_u64<E: serde::de::Error>(self, ply: u64) -> Result<Self::Value, E> {
            Ok(Some(ply))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    deserializer.deserialize_any(Ply)
}

/// Play a move.
#[derive(Debug, Deserialize)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    ply: serde_json::Value,
    #[serde(default)]
    token: Option<String>,
}

/// Take back, ask to, or decline the other player's request.
#[derive(Debug, Deserialize)]
pub struct UndoRequest {
    ply: serde_json::Value,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    decline: bool,
}

/// Resign.
#[derive(Debug, Deserialize)]
pub struct ResignRequest {
    ply: serde_json::Value,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

/// Declare impasse (shogi): the side to move, by its seat.
#[derive(Debug, Deserialize)]
pub struct DeclareRequest {
    ply: serde_json::Value,
    #[serde(default)]
    token: Option<String>,
}

/// Any of these, as a WebSocket message says which: `{"type": "move", …}`.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ChangeRequest {
    /// See [`MoveRequest`].
    Move(MoveRequest),
    /// See [`UndoRequest`].
    Undo(UndoRequest),
    /// See [`ResignRequest`].
    Resign(ResignRequest),
    /// See [`DeclareRequest`].
    Declare(DeclareRequest),
}

impl From<MoveRequest> for ChangeRequest {
    fn from(request: MoveRequest) -> ChangeRequest {
        ChangeRequest::Move(request)
    }
}

impl From<UndoRequest> for ChangeRequest {
    fn from(request: UndoRequest) -> ChangeRequest {
        ChangeRequest::Undo(request)
    }
}

impl From<ResignRequest> for ChangeRequest {
    fn from(request: ResignRequest) -> ChangeRequest {
        ChangeRequest::Resign(request)
    }
}

impl From<DeclareRequest> for ChangeRequest {
    fn from(request: DeclareRequest) -> ChangeRequest {
        ChangeRequest::Declare(request)
    }
}

impl ChangeRequest {
    /// Carries out the change on game `id`; the state afterwards.
    pub fn apply(self, games: &Arc<Games>, id: &str) -> Result<GameState, Refusal> {
        match self {
            ChangeRequest::Move(r) => games.play(id, ply_of(&r.ply)?, &r.text, r.token.as_deref()),
            ChangeRequest::Undo(r) => {
                games.undo(id, ply_of(&r.ply)?, r.token.as_deref(), r.decline)
            }
            ChangeRequest::Resign(r) => {
                games.resign(id, ply_of(&r.ply)?, r.color.as_deref(), r.token.as_deref())
            }
            ChangeRequest::Declare(r) => games.declare(id, ply_of(&r.ply)?, r.token.as_deref()),
        }
    }
}
