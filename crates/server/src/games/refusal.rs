//! A request the server will not carry out, with its reason for people.

use super::state::GameState;
use axum::http::StatusCode;

/// A request the server will not carry out: the HTTP status, a sentence for
/// people, and the game's current state when the request was about a game,
/// so that the page can resynchronise at once.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// 400, 403, 404, 409, 413, 415, 421, 422, 429 or 500.
    pub status: StatusCode,
    /// What went wrong, in plain English.
    pub message: String,
    /// The game as it is now.
    pub state: Option<Box<GameState>>,
    /// For a refused seat (403), a word a page can act on: `"spectator"`
    /// (no token), `"bad-token"` (not one of the game's), `"not-your-turn"`
    /// or `"wrong-side"`.
    pub code: Option<&'static str>,
    /// Whether the connection closes after this answer (`Connection:
    /// close`): the rest of the request cannot be told from the next one.
    pub closes: bool,
}

/// The longest message sent: library messages may quote the input, and a
/// hostile request must not be echoed back at length.
const MESSAGE_LIMIT: usize = 400;

impl Refusal {
    /// A refusal with `status` and `message` (cut to a few hundred characters).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        let mut message = message.into();
        if let Some((cut, _)) = message.char_indices().nth(MESSAGE_LIMIT) {
            message.truncate(cut);
            message.push('…');
        }
        Refusal {
            status,
            message,
            state: None,
            code: None,
            closes: false,
        }
    }

    /// This refusal, closing the connection after it.
    pub fn closing(self) -> Refusal {
        Refusal {
            closes: true,
            ..self
        }
    }

    /// 403: the seat token does not allow it; `code` says why, for pages.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code: Some(code),
            ..Refusal::new(StatusCode::FORBIDDEN, message)
        }
    }

    /// 422: well-formed but impossible.
    pub fn unprocessable(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 400: not what the call takes.
    pub fn bad_request(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404 for a game id.
    pub fn no_game(id: &str) -> Refusal {
        let shown: String = id.chars().take(32).collect();
        Refusal::new(
            StatusCode::NOT_FOUND,
            format!("No game {shown:?} on this server."),
        )
    }

    /// 500: the server failed (its database, or a bug).
    pub fn internal(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}
