//! A game's details edited by its players before the record is saved
//! (issue 50): the players' names, the event, the place, the date, the
//! time control, the opening and the comment before the first move. They
//! are kept with the game (its `headers` and the record notes' opening
//! comment) and so written into every record saved of it.
//!
//! Text a person types is checked, not silently changed: too long, or
//! holding a control character (a line break only in the comment), is
//! refused with a sentence naming the field.

use super::refusal::Refusal;
use super::service::{Actor, Games};
use super::state::GameState;
use crate::store::{StoreError, StoredGame};
use serde::Deserialize;
use std::sync::Arc;

/// The longest name, event, place, date, time control or opening, in
/// characters: far beyond any real one, well within a record's line.
pub const FIELD_LIMIT: usize = 200;
/// The longest comment before the first move, in characters.
pub const COMMENT_LIMIT: usize = 4000;

/// `POST /api/games/{id}/details`: the fields to change, each replaced
/// when present (an empty text removes it), left alone when absent.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DetailsRequest {
    /// A seat token of the game.
    #[serde(default)]
    pub token: Option<String>,
    /// Sente's (White's in pawns) name.
    #[serde(default)]
    pub sente: Option<String>,
    /// Gote's (Black's in pawns) name.
    #[serde(default)]
    pub gote: Option<String>,
    /// The event.
    #[serde(default)]
    pub event: Option<String>,
    /// Where it was played.
    #[serde(default)]
    pub site: Option<String>,
    /// When it started.
    #[serde(default)]
    pub start_time: Option<String>,
    /// The time control, as words.
    #[serde(default)]
    pub time_control: Option<String>,
    /// The opening.
    #[serde(default)]
    pub opening: Option<String>,
    /// The comment before the first move; lines separated by `\n`.
    #[serde(default)]
    pub comment: Option<String>,
}

/// `text` for the field `name`, checked: at most `limit` characters and no
/// control character (but a line break where `lines`); `None` when it is
/// empty once trimmed.
fn checked(name: &str, text: &str, limit: usize, lines: bool) -> Result<Option<String>, Refusal> {
    let count = text.chars().count();
    if count > limit {
        return Err(Refusal::unprocessable(format!(
            "The {name} is too long: {count} characters, at most {limit}."
        )));
    }
    if let Some(bad) = text
        .chars()
        .find(|&c| c.is_control() && !(lines && c == '\n'))
    {
        return Err(Refusal::unprocessable(format!(
            "The {name} holds a control character (U+{:04X}); {}.",
            bad as u32,
            if lines {
                "only line breaks are allowed"
            } else {
                "it is one line of plain text"
            }
        )));
    }
    let trimmed = text.trim();
    Ok((!trimmed.is_empty()).then(|| trimmed.to_owned()))
}

impl Games {
    /// `POST /api/games/{id}/details` by a seat of the game: the fields
    /// given replace the game's, and every watcher gets the new state.
    pub fn edit_details(
        self: &Arc<Self>,
        id: &str,
        request: DetailsRequest,
    ) -> Result<GameState, Refusal> {
        let game_id = Self::parse_id(id)?;
        let fields = [
            ("sente", "first player's name", &request.sente),
            ("gote", "second player's name", &request.gote),
            ("event", "event", &request.event),
            ("site", "place", &request.site),
            ("startTime", "date", &request.start_time),
            ("timeControl", "time control", &request.time_control),
            ("opening", "opening", &request.opening),
        ];
        let mut changes = Vec::new();
        for (key, name, value) in fields {
            if let Some(text) = value {
                changes.push((key, checked(name, text, FIELD_LIMIT, false)?));
            }
        }
        let comment = match &request.comment {
            Some(text) => Some(checked("comment", text, COMMENT_LIMIT, true)?),
            None => None,
        };
        let token = request.token.clone();
        let result = self.store.update(game_id, &mut |stored: &mut StoredGame| {
            Self::authorize(stored, Actor::Player(token.as_deref()))?;
            let headers = &mut stored.headers;
            for (key, value) in &changes {
                let slot = match *key {
                    "sente" => &mut headers.sente,
                    "gote" => &mut headers.gote,
                    "event" => &mut headers.event,
                    "site" => &mut headers.site,
                    "startTime" => &mut headers.start_time,
                    "timeControl" => &mut headers.time_control,
                    _ => &mut headers.opening,
                };
                *slot = value.clone();
            }
            if let Some(comment) = &comment {
                stored.notes.comments = comment
                    .as_deref()
                    .map(|text| {
                        text.split('\n')
                            .map(|line| line.trim_end().to_owned())
                            .collect()
                    })
                    .unwrap_or_default();
            }
            stored.version += 1;
            Ok(())
        });
        match result {
            Ok(stored) => {
                let state = Self::state_of(&stored)?;
                self.broadcast(game_id, &state);
                Ok(state)
            }
            Err(StoreError::NotFound) => Err(Refusal::no_game(id)),
            Err(StoreError::Failed(message)) => Err(Refusal::internal(message)),
            Err(StoreError::Refused(mut refusal)) => {
                refusal.state = self
                    .load(game_id)
                    .and_then(|s| Self::state_of(&s))
                    .ok()
                    .map(Box::new);
                Err(refusal)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::service::NewGame;
    use crate::store::memory_store::MemoryStore;

    fn games() -> Arc<Games> {
        Arc::new(Games::new(Box::new(MemoryStore::new(64 << 20)), None, 1))
    }

    fn shogi(games: &Arc<Games>) -> (String, String) {
        let request: NewGame =
            serde_json::from_value(serde_json::json!({ "variant": "shogi" })).unwrap();
        let state = games.create(request).unwrap();
        let token = state.seats.as_ref().unwrap()["sente"].clone();
        (state.id, token)
    }

    fn request(value: serde_json::Value) -> DetailsRequest {
        serde_json::from_value(value).expect("a request")
    }

    #[test]
    fn details_are_kept_and_written_into_the_saved_record() {
        let games = games();
        let (id, token) = shogi(&games);
        games.play(&id, 0, "7g7f", Some(&token)).unwrap();
        let state = games
            .edit_details(
                &id,
                request(serde_json::json!({
                    "token": token, "sente": " 羽生善治 ", "gote": "Bob",
                    "event": "Club championship", "startTime": "2026/11/28",
                    "comment": "A fine game.\nBoth played well.",
                })),
            )
            .unwrap();
        assert_eq!(state.headers.sente.as_deref(), Some("羽生善治"));
        assert_eq!(state.comments, ["A fine game.", "Both played well."]);
        assert_eq!(state.ply, 1, "the moves stay");
        let kif = String::from_utf8(games.record(&id, Some("kifu")).unwrap().bytes).unwrap();
        for line in [
            "先手：羽生善治",
            "後手：Bob",
            "棋戦：Club championship",
            "*A fine game.",
            "*Both played well.",
        ] {
            assert!(kif.contains(line), "{line} in\n{kif}");
        }
        let csa = String::from_utf8(games.record(&id, Some("csa")).unwrap().bytes).unwrap();
        assert!(
            csa.contains("N+羽生善治") && csa.contains("$EVENT:Club championship"),
            "{csa}"
        );
        // An empty text removes a field; absent ones stay.
        let state = games
            .edit_details(
                &id,
                request(serde_json::json!({ "token": token, "event": "", "comment": "" })),
            )
            .unwrap();
        assert_eq!((state.headers.event, state.comments.len()), (None, 0));
        assert_eq!(state.headers.gote.as_deref(), Some("Bob"));
    }

    #[test]
    fn pawns_details_are_written_as_pgn_tags() {
        let games = games();
        let new_game: NewGame =
            serde_json::from_value(serde_json::json!({ "variant": "pawns" })).unwrap();
        let state = games.create(new_game).unwrap();
        let token = state.seats.as_ref().unwrap()["white"].clone();
        games
            .edit_details(
                &state.id,
                request(serde_json::json!({
                    "token": token, "sente": "Ann", "gote": "Ben", "event": "Pawn cup",
                    "comment": "Before the first move.",
                })),
            )
            .unwrap();
        let pgn = String::from_utf8(games.record(&state.id, Some("pgn")).unwrap().bytes).unwrap();
        for tag in [
            "[White \"Ann\"]",
            "[Black \"Ben\"]",
            "[Event \"Pawn cup\"]",
            "{Before the first move.}",
        ] {
            assert!(pgn.contains(tag), "{tag} in\n{pgn}");
        }
    }

    #[test]
    fn hostile_details_are_refused_with_the_field_named() {
        let games = games();
        let (id, token) = shogi(&games);
        let refused =
            |value: serde_json::Value| games.edit_details(&id, request(value)).unwrap_err();
        let long = refused(serde_json::json!({ "token": token, "event": "x".repeat(201) }));
        assert_eq!(long.status, 422);
        assert!(
            long.message.contains("event is too long"),
            "{}",
            long.message
        );
        let control = refused(serde_json::json!({ "token": token, "sente": "Ann\u{1b}[31m" }));
        assert!(control.message.contains("U+001B"), "{}", control.message);
        let newline = refused(serde_json::json!({ "token": token, "gote": "Bob\nEve" }));
        assert!(newline.message.contains("one line"), "{}", newline.message);
        let comment = refused(serde_json::json!({ "token": token, "comment": "tab\there" }));
        assert!(
            comment.message.contains("only line breaks"),
            "{}",
            comment.message
        );
        let spectator = refused(serde_json::json!({ "sente": "Mallory" }));
        assert_eq!(
            (spectator.status.as_u16(), spectator.code),
            (403, Some("spectator"))
        );
        let wrong = refused(serde_json::json!({ "token": "0".repeat(32), "sente": "Mallory" }));
        assert_eq!(wrong.code, Some("bad-token"));
        assert!(
            serde_json::from_value::<DetailsRequest>(serde_json::json!({ "colour": "x" })).is_err()
        );
        assert_eq!(
            games.state(&id).unwrap().headers.sente,
            None,
            "nothing was kept"
        );
    }
}
