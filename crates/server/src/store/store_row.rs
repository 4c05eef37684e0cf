//! A game as a database row, shared by the SQLite and PostgreSQL stores so
//! that both keep exactly the same columns with the same meanings (see
//! `sqlite_schema::SCHEMA` and `postgres_store::SCHEMA`).
//!
//! Each row carries a checksum of its other columns (schema 5), written
//! with every write and compared at every read, so that a row whose bytes
//! were changed on the disk (a bad sector, a stray write, a bad copy) is
//! refused as damaged rather than served as if it were the game: SQLite's
//! own structure checks cannot see a changed letter inside a text. The
//! checksum is SHA-256 ([`Row::checksum`]), from the `sha2` crate the
//! workspace already uses for its networks' digests; no new dependency,
//! and at a few kilobytes a row it costs microseconds.

use super::{Declared, GameId, Rematch, StoreError, StoredGame};
use crate::games::clock::Clock;
use crate::games::names::Opponent;
use crate::games::record_notes::RecordNotes;
use crate::games::seats::{Mode, Seats};
use crate::games::state::HeadersView;
use crate::study::review_kept::StoredReview;
use koma_rules::{ImpasseRule, Variant};
use sha2::{Digest, Sha256};

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
    /// Schema 6: the rematch as JSON; NULL for none.
    pub rematch: Option<String>,
    /// Milliseconds since 1970-01-01 UTC.
    pub created_at: i64,
    pub updated_at: i64,
}

/// The columns read and written: [`Row`]'s, in its order but for
/// `rematch`, then the checksum, then `rematch` (schema 6 added it after
/// the checksum).
pub const COLUMNS: &str = "id, variant, start, moves, declared_winner, declared_reason, headers, \
     opponent, version, seats, mode, takeback, clock, impasse, notes, review, created_at, \
     updated_at, checksum, rematch";

/// [`COLUMNS`] as a table of schema 5, which has no `rematch`, gives
/// them: `NULL` in its place.
pub const COLUMNS_OF_SCHEMA_5: &str = "id, variant, start, moves, declared_winner, \
     declared_reason, headers, opponent, version, seats, mode, takeback, clock, impasse, notes, \
     review, created_at, updated_at, checksum, NULL";

/// One column's value in the checksum's input.
enum Field<'a> {
    Text(&'a str),
    Integer(i64),
    Null,
}

impl Row {
    /// The columns of `game`, created and last changed at those times
    /// (milliseconds since 1970), or why it cannot be stored.
    pub fn from_game(
        game: &StoredGame,
        created_at: i64,
        updated_at: i64,
    ) -> Result<Row, StoreError> {
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
            rematch: match &game.rematch {
                Some(rematch) => Some(json("rematch", serde_json::to_string(rematch))?),
                None => None,
            },
            created_at,
            updated_at,
        })
    }

    /// The checksum of the row: SHA-256, as 64 lower-case hex digits, of
    /// its columns in [`Row`]'s order, each written as its name, `=`,
    /// and then `N` for NULL, `I` and eight little-endian bytes for an
    /// integer, or `T`, the length in eight little-endian bytes and the
    /// UTF-8 bytes for a text, after the line `koma games row 1`. The
    /// names and lengths make the input unambiguous: no two different rows
    /// give the same bytes. `rematch` (schema 6) comes last and only when
    /// it is not NULL, so that the rows of schema 5 keep their checksums.
    pub fn checksum(&self) -> String {
        fn text(value: &Option<String>) -> Field<'_> {
            match value {
                Some(text) => Field::Text(text),
                None => Field::Null,
            }
        }
        let fields = [
            ("id", Field::Text(&self.id)),
            ("variant", Field::Text(&self.variant)),
            ("start", Field::Text(&self.start)),
            ("moves", Field::Text(&self.moves)),
            ("declared_winner", text(&self.declared_winner)),
            ("declared_reason", text(&self.declared_reason)),
            ("headers", Field::Text(&self.headers)),
            ("opponent", Field::Text(&self.opponent)),
            ("version", Field::Integer(self.version)),
            ("seats", text(&self.seats)),
            ("mode", Field::Text(&self.mode)),
            ("takeback", text(&self.takeback)),
            ("clock", text(&self.clock)),
            ("impasse", text(&self.impasse)),
            ("notes", text(&self.notes)),
            ("review", text(&self.review)),
            ("created_at", Field::Integer(self.created_at)),
            ("updated_at", Field::Integer(self.updated_at)),
        ];
        let rematch = self
            .rematch
            .as_deref()
            .map(|text| ("rematch", Field::Text(text)));
        let mut hasher = Sha256::new();
        hasher.update(b"koma games row 1\n");
        for (name, field) in fields.into_iter().chain(rematch) {
            hasher.update(name.as_bytes());
            hasher.update(b"=");
            match field {
                Field::Null => hasher.update(b"N"),
                Field::Integer(value) => {
                    hasher.update(b"I");
                    hasher.update(value.to_le_bytes());
                }
                Field::Text(value) => {
                    hasher.update(b"T");
                    hasher.update((value.len() as u64).to_le_bytes());
                    hasher.update(value.as_bytes());
                }
            }
        }
        hasher
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// Whether `checksum`, as read beside the row, is the row's: the
    /// reason it is not otherwise.
    pub fn verify(&self, checksum: Option<&str>) -> Result<(), String> {
        match checksum {
            None => Err("it has no checksum".into()),
            Some(kept) if kept != self.checksum() => {
                Err("its contents differ from its checksum".into())
            }
            Some(_) => Ok(()),
        }
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
        let rematch: Option<Rematch> = match &self.rematch {
            Some(text) => Some(
                serde_json::from_str(text)
                    .map_err(|e| format!("its rematch cannot be read: {e}"))?,
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
            rematch,
        })
    }

    /// The game in this row, read with `checksum`, or what is wrong with
    /// it: a checksum that is missing or differs, or a column that does
    /// not read as its part of a game.
    pub fn into_verified(self, checksum: Option<&str>) -> Result<StoredGame, String> {
        let verified = self.verify(checksum);
        match (verified, self.into_game()) {
            (Ok(()), Ok(game)) => Ok(game),
            // Without a checksum, what cannot be read says more.
            (Err(_), Err(why)) if checksum.is_none() => Err(why),
            (Err(why), _) | (Ok(()), Err(why)) => Err(why),
        }
    }

    /// The game in this row, which was asked for as `id` and read with
    /// `checksum` from the `place` (`"games file"`, `"games database"`),
    /// or a sentence saying that it is damaged there.
    pub fn into_checked(
        self,
        id: GameId,
        checksum: Option<&str>,
        place: &str,
    ) -> Result<StoredGame, StoreError> {
        let damaged = |why: String| StoreError::damaged(id, place, &why);
        let game = self.into_verified(checksum).map_err(damaged)?;
        if game.id != id {
            return Err(damaged("its id differs".into()));
        }
        Ok(game)
    }
}
