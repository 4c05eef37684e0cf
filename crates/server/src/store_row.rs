//! A game as a database row, shared by the SQLite and PostgreSQL stores so
//! that both keep exactly the same columns with the same meanings (see
//! `sqlite_store::SCHEMA` and `postgres_store::SCHEMA`).

use super::clock::Clock;
use super::names::Opponent;
use super::record_notes::RecordNotes;
use super::review_kept::StoredReview;
use super::seats::{Mode, Seats};
use super::state::HeadersView;
use super::store::{Declared, GameId, StoreError, StoredGame};
use koma_rules::{ImpasseRule, Variant};

/// The columns of a game, as written: each field is the column of the
/// same name.
pub struct Row {
    pub id: String,
    pub variant: String,
    pub start: String,
    pub moves: String,
    pub declared_winner: Option<String>,
    pub declared_reason: Option<String>,
    pub headers: String,
    pub opponent: String,
    pub version: i64,
    pub seats: Option<String>,
    pub mode: String,
    pub takeback: Option<String>,
    pub clock: Option<String>,
    pub impasse: Option<String>,
    pub notes: Option<String>,
    pub review: Option<String>,
}

/// The columns read and written, in [`Row`]'s order.
pub const COLUMNS: &str = "id, variant, start, moves, declared_winner, declared_reason, headers, \
     opponent, version, seats, mode, takeback, clock, impasse, notes, review";

impl Row {
    /// The columns of `game`, or why it cannot be stored.
    pub fn from_game(game: &StoredGame) -> Result<Row, StoreError> {
        if let Some(bad) = game
            .moves
            .iter()
            .find(|m| m.is_empty() || m.contains(char::is_whitespace))
        {
            return Err(StoreError::Failed(format!(
                "The move {bad:?} cannot be stored."
            )));
        }
        let json = |what: &str, result: serde_json::Result<String>| {
            result.map_err(|e| StoreError::Failed(format!("The {what} cannot be stored: {e}.")))
        };
        Ok(Row {
            id: game.id.to_string(),
            variant: game.variant.name().to_owned(),
            start: game.start.clone(),
            moves: game.moves.join(" "),
            declared_winner: game.declared.as_ref().and_then(|d| d.winner.clone()),
            declared_reason: game.declared.as_ref().map(|d| d.reason.clone()),
            headers: json("headers", serde_json::to_string(&game.headers))?,
            opponent: json("opponent", serde_json::to_string(&game.opponent))?,
            version: i64::try_from(game.version)
                .map_err(|_| StoreError::Failed("The game's version is too large.".into()))?,
            seats: match &game.seats {
                Some(seats) => Some(json("seats", serde_json::to_string(seats))?),
                None => None,
            },
            mode: json("mode", serde_json::to_string(&game.mode))?
                .trim_matches('"')
                .to_owned(),
            takeback: game.takeback.clone(),
            clock: match &game.clock {
                Some(clock) => Some(json("clock", serde_json::to_string(clock))?),
                None => None,
            },
            impasse: game.impasse.map(|rule| rule.to_string()),
            notes: match game.notes.is_empty() {
                true => None,
                false => Some(json("notes", serde_json::to_string(&game.notes))?),
            },
            review: match &game.review {
                Some(review) => Some(json("review", serde_json::to_string(review))?),
                None => None,
            },
        })
    }

    /// The game in this row, or what is wrong with it.
    pub fn into_game(self) -> Result<StoredGame, String> {
        let id: GameId = self
            .id
            .parse()
            .map_err(|()| "its id is not 16 hex digits")?;
        let variant: Variant = self.variant.parse().map_err(|_| "its game is unknown")?;
        let headers: HeadersView = serde_json::from_str(&self.headers)
            .map_err(|e| format!("its headers cannot be read: {e}"))?;
        let opponent: Opponent = serde_json::from_str(&self.opponent)
            .map_err(|e| format!("its opponent cannot be read: {e}"))?;
        let seats: Option<Seats> = match &self.seats {
            Some(text) => Some(
                serde_json::from_str(text).map_err(|e| format!("its seats cannot be read: {e}"))?,
            ),
            None => None,
        };
        let mode: Mode = serde_json::from_value(serde_json::Value::String(self.mode))
            .map_err(|e| format!("its mode cannot be read: {e}"))?;
        let clock: Option<Clock> = match &self.clock {
            Some(text) => Some(
                serde_json::from_str(text).map_err(|e| format!("its clock cannot be read: {e}"))?,
            ),
            None => None,
        };
        let impasse: Option<ImpasseRule> = match &self.impasse {
            Some(text) => Some(
                text.parse()
                    .map_err(|e| format!("its impasse rule cannot be read: {e}"))?,
            ),
            None => None,
        };
        let notes: RecordNotes = match &self.notes {
            Some(text) => {
                serde_json::from_str(text).map_err(|e| format!("its notes cannot be read: {e}"))?
            }
            None => RecordNotes::default(),
        };
        let review: Option<StoredReview> = match &self.review {
            Some(text) => Some(
                serde_json::from_str(text)
                    .map_err(|e| format!("its review cannot be read: {e}"))?,
            ),
            None => None,
        };
        Ok(StoredGame {
            id,
            variant,
            start: self.start,
            moves: self.moves.split_whitespace().map(str::to_owned).collect(),
            declared: self.declared_reason.map(|reason| Declared {
                winner: self.declared_winner,
                reason,
            }),
            headers,
            opponent,
            version: u64::try_from(self.version).map_err(|_| "its version is negative")?,
            seats,
            mode,
            takeback: self.takeback,
            clock,
            impasse,
            notes,
            review,
        })
    }

    /// The game in this row, which was asked for as `id`, or a sentence
    /// saying that it is damaged.
    pub fn into_stored(self, id: GameId) -> Result<StoredGame, StoreError> {
        let text = id.to_string();
        let game = self.into_game().map_err(|why| {
            StoreError::Failed(format!("The stored game {text} is damaged: {why}."))
        })?;
        if game.id != id {
            return Err(StoreError::Failed(format!(
                "The stored game {text} is damaged: its id differs."
            )));
        }
        Ok(game)
    }
}
