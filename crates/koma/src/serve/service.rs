//! What the API does, apart from HTTP: create, import, change and export
//! games, tell watchers of every change, and (later) let the computer reply.

use super::live::{AnyGame, Undone, MAX_MOVES};
use super::names::{self, Opponent};
use super::state::{GameState, HeadersView};
use super::store::{Declared, GameId, GameStore, StoreError, StoredGame};
use axum::http::StatusCode;
use koma_records::{read_any, write_any, Format, LoadError};
use koma_rules::{GameError, Variant};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// A request the server will not carry out: the HTTP status, a sentence for
/// people, and the game's current state when the request was about a game,
/// so that the page can resynchronise at once.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// 400, 404, 409, 413, 415, 422 or 500.
    pub status: StatusCode,
    /// What went wrong, in plain English.
    pub message: String,
    /// The game as it is now.
    pub state: Option<Box<GameState>>,
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

    fn internal(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

/// Chooses the computer's moves (the engine, in `computer.rs`; a server
/// without one refuses computer opponents).
pub trait MovePicker: Send + Sync + 'static {
    /// The move to play in `game` at strength `level` (1–20), as USI/UCI
    /// text; `None` if there is none.
    fn pick(&self, game: &AnyGame, level: u8) -> Option<String>;
}

/// A file to download.
pub struct Download {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its name, e.g. `koma-spear-0123456789abcdef.kif`.
    pub filename: String,
    /// Its MIME type with charset.
    pub content_type: &'static str,
}

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
pub struct NewGame {
    /// Game name.
    pub variant: String,
    /// Start position, SFEN or FEN.
    #[serde(default)]
    pub position: Option<String>,
    /// Names and the like.
    #[serde(default)]
    pub headers: Option<HeadersView>,
    /// Who plays the other side.
    #[serde(default)]
    pub opponent: Option<OpponentRequest>,
}

/// The opponent asked for, checked before it is kept.
#[derive(Debug, Deserialize)]
pub struct OpponentRequest {
    /// `"human"` or `"computer"`.
    pub kind: String,
    /// 1–20 (any JSON, checked here, so that `1e99` is a message, not a 400).
    #[serde(default)]
    pub level: Option<serde_json::Value>,
    /// The computer's side.
    #[serde(default)]
    pub color: Option<String>,
}

/// The games, their watchers and the computer.
pub struct Games {
    store: Box<dyn GameStore>,
    /// A channel per watched game, carrying the `state` message to send.
    watchers: Mutex<HashMap<GameId, broadcast::Sender<Arc<str>>>>,
    /// Serialises change-then-broadcast, so that watchers receive the
    /// states of one game in the order they happened.
    changes: Mutex<()>,
    /// Games whose computer is thinking now, so that it thinks once.
    thinking: Mutex<HashSet<GameId>>,
    picker: Option<Arc<dyn MovePicker>>,
}

/// The formats each game can be saved in, for messages.
fn writable_formats(variant: Variant) -> &'static str {
    match variant {
        Variant::Shogi => "kif, kifu, csa or usi",
        Variant::Spear | Variant::Minishogi => "kif, kifu or usi",
        Variant::Pawns => "pgn or usi",
    }
}

/// A sentence from a library message: capital first letter, full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.trim().chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// A library message ending a sentence of ours: full stop added.
fn finish(text: &str) -> String {
    let text = text.trim();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Nothing here is left half-done by a panic; keep serving.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Games {
    /// Games kept in `store`, with `picker` for computer moves if any.
    pub fn new(store: Box<dyn GameStore>, picker: Option<Arc<dyn MovePicker>>) -> Games {
        Games {
            store,
            watchers: Mutex::new(HashMap::new()),
            changes: Mutex::new(()),
            thinking: Mutex::new(HashSet::new()),
            picker,
        }
    }

    fn parse_id(text: &str) -> Result<GameId, Refusal> {
        text.parse().map_err(|()| Refusal::no_game(text))
    }

    fn load(&self, id: GameId) -> Result<StoredGame, Refusal> {
        self.store.get(id).map_err(|e| match e {
            StoreError::NotFound => Refusal::no_game(&id.to_string()),
            StoreError::Refused(refusal) => refusal,
            StoreError::Failed(message) => Refusal::internal(message),
        })
    }

    /// Replays a stored game.
    fn replay(stored: &StoredGame) -> Result<AnyGame, Refusal> {
        let declared = stored
            .declared
            .as_ref()
            .and_then(|d| d.to_outcome(stored.variant));
        AnyGame::replay(stored.variant, &stored.start, &stored.moves, declared)
            .map_err(|e| Refusal::internal(format!("The stored game is damaged: {e}")))
    }

    fn state_of(stored: &StoredGame) -> Result<GameState, Refusal> {
        Ok(GameState::new(stored, Self::replay(stored)?.view()))
    }

    /// The state of game `id`. If the computer is to move and not thinking
    /// (the server was restarted while it thought), it starts again.
    pub fn state(self: &Arc<Self>, id: &str) -> Result<GameState, Refusal> {
        let stored = self.load(Self::parse_id(id)?)?;
        let game = Self::replay(&stored)?;
        self.computer_turn(&stored, &game);
        Ok(GameState::new(&stored, game.view()))
    }

    /// Keeps a new game and returns its state.
    fn insert(
        self: &Arc<Self>,
        game: AnyGame,
        headers: HeadersView,
        opponent: Opponent,
    ) -> Result<GameState, Refusal> {
        let id = GameId::random().map_err(Refusal::internal)?;
        let stored = StoredGame {
            id,
            variant: game.variant(),
            start: game.start_text(),
            moves: game.move_texts(),
            declared: game
                .declared()
                .map(|o| Declared::from_outcome(game.variant(), o)),
            headers,
            opponent,
            version: 1,
        };
        self.store.insert(stored.clone()).map_err(|e| match e {
            StoreError::Failed(message) => Refusal::internal(message),
            _ => Refusal::internal("the game could not be kept"),
        })?;
        self.computer_turn(&stored, &game);
        Ok(GameState::new(&stored, game.view()))
    }

    /// `POST /api/games`.
    pub fn create(self: &Arc<Self>, request: NewGame) -> Result<GameState, Refusal> {
        let variant: Variant =
            request
                .variant
                .parse()
                .map_err(|e: koma_rules::UnknownVariant| {
                    Refusal::unprocessable(sentence(&e.to_string()))
                })?;
        let opponent = match request.opponent {
            None => Opponent::Human,
            Some(asked) => self.opponent(variant, asked)?,
        };
        let game =
            AnyGame::new(variant, request.position.as_deref()).map_err(Refusal::unprocessable)?;
        self.insert(game, request.headers.unwrap_or_default(), opponent)
    }

    fn opponent(&self, variant: Variant, asked: OpponentRequest) -> Result<Opponent, Refusal> {
        match asked.kind.as_str() {
            "human" => Ok(Opponent::Human),
            "computer" => {
                let level = match &asked.level {
                    None => 10,
                    Some(value) => value
                        .as_u64()
                        .filter(|level| (1..=20).contains(level))
                        .ok_or_else(|| {
                            Refusal::unprocessable(
                                "The computer's level must be a whole number from 1 to 20.",
                            )
                        })? as u8,
                };
                let color = match asked.color.as_deref() {
                    None => koma_rules::Color::Gote,
                    Some(name) => names::parse_color(variant, name).ok_or_else(|| {
                        Refusal::unprocessable(format!(
                            "The computer's colour must be {} or {}.",
                            names::color_name(variant, koma_rules::Color::Sente),
                            names::color_name(variant, koma_rules::Color::Gote)
                        ))
                    })?,
                };
                if self.picker.is_none() {
                    return Err(Refusal::unprocessable(
                        "The computer opponent is not available yet.",
                    ));
                }
                Ok(Opponent::Computer {
                    level,
                    color: names::color_name(variant, color).to_owned(),
                })
            }
            other => Err(Refusal::unprocessable(format!(
                "Unknown opponent kind {:?}: expected \"human\" or \"computer\".",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }

    /// `POST /api/games/import`: a new game holding a whole record.
    pub fn import(
        self: &Arc<Self>,
        bytes: &[u8],
        format: Option<&str>,
        variant: Option<&str>,
        filename: Option<&str>,
    ) -> Result<GameState, Refusal> {
        let format = match format.filter(|f| !f.is_empty()) {
            Some(name) => Some(Format::from_name(name).ok_or_else(|| {
                Refusal::unprocessable(format!(
                    "Unknown record format {:?}: expected kif, kifu, ki2, csa, usi or pgn.",
                    name.chars().take(20).collect::<String>()
                ))
            })?),
            None => filename.and_then(Format::from_path),
        };
        let variant = match variant.filter(|v| !v.is_empty()) {
            Some(name) => Some(
                name.parse::<Variant>()
                    .map_err(|e| Refusal::unprocessable(sentence(&e.to_string())))?,
            ),
            None => None,
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(Refusal::unprocessable("The record is empty."));
        }
        let record = read_any(bytes, format, variant).map_err(|e| {
            Refusal::unprocessable(match e {
                LoadError::Parse { format, message } => format!(
                    "The record cannot be read as {}: {}",
                    format.name().to_uppercase(),
                    finish(&message)
                ),
                other => format!("The record cannot be read: {}", finish(&other.to_string())),
            })
        })?;
        let (game, headers) = AnyGame::from_record(record).map_err(Refusal::unprocessable)?;
        self.insert(game, headers.into(), Opponent::Human)
    }

    /// `GET /api/games/{id}/record?format=…`.
    pub fn record(&self, id: &str, format: &str) -> Result<Download, Refusal> {
        let stored = self.load(Self::parse_id(id)?)?;
        let variant = stored.variant;
        let format = Format::from_name(format).ok_or_else(|| {
            Refusal::unprocessable(format!(
                "Unknown record format {:?}: a {} game can be saved as {}.",
                format.chars().take(20).collect::<String>(),
                names::variant_title(variant),
                writable_formats(variant)
            ))
        })?;
        let game = Self::replay(&stored)?;
        let record = game.to_record(stored.headers.clone().into());
        let bytes = write_any(&record, format).map_err(|e| match e {
            LoadError::Unsupported { .. } if format == Format::Ki2 => {
                Refusal::unprocessable(format!(
                    "Koma reads KI2 but does not write it; save as {}.",
                    writable_formats(variant)
                ))
            }
            LoadError::Unsupported { .. } => Refusal::unprocessable(format!(
                "A {} record cannot hold a {} game; save as {}.",
                format.name().to_uppercase(),
                names::variant_title(variant),
                writable_formats(variant)
            )),
            other => Refusal::unprocessable(format!(
                "The record cannot be written as {format}: {}",
                sentence(&other.to_string())
            )),
        })?;
        let content_type = match format {
            Format::Kif => "text/plain; charset=Shift_JIS",
            _ => "text/plain; charset=utf-8",
        };
        Ok(Download {
            bytes,
            filename: format!("koma-{}-{}.{}", variant.name(), stored.id, format.name()),
            content_type,
        })
    }

    /// Applies `action` to game `id` if the page's `ply` is current, keeps
    /// the result, tells the watchers and returns the new state. A refusal
    /// carries the state as it is.
    fn change(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        action: &mut dyn FnMut(&mut AnyGame) -> Result<(), Refusal>,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, None, action)
    }

    /// [`Games::change`], refused also unless the game is still at
    /// `version` (when given): a computer's reply must answer the very
    /// position it was computed for, not one that an undo and a replay
    /// brought back to the same number of moves.
    fn change_version(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        version: Option<u64>,
        action: &mut dyn FnMut(&mut AnyGame) -> Result<(), Refusal>,
    ) -> Result<GameState, Refusal> {
        let id = Self::parse_id(id)?;
        let order = lock(&self.changes);
        let mut after = None;
        let result = self.store.update(id, &mut |stored: &mut StoredGame| {
            if version.is_some_and(|version| version != stored.version) {
                return Err(Refusal::new(
                    StatusCode::CONFLICT,
                    "The game changed while the computer was thinking.",
                ));
            }
            let mut game = Self::replay(stored)?;
            let played = game.ply();
            if ply != played as u64 {
                let moves = |n: u64| if n == 1 { "1 move".to_owned() } else { format!("{n} moves") };
                return Err(Refusal::new(
                    StatusCode::CONFLICT,
                    format!(
                        "The page was out of date: it showed the game after {}, but {} {} been played. It now shows the game as it is.",
                        moves(ply),
                        moves(played as u64),
                        if played == 1 { "has" } else { "have" }
                    ),
                ));
            }
            action(&mut game)?;
            stored.moves = game.move_texts();
            stored.declared = game
                .declared()
                .map(|o| Declared::from_outcome(stored.variant, o));
            stored.version += 1;
            after = Some(game);
            Ok(())
        });
        match (result, after) {
            (Ok(stored), Some(game)) => {
                let state = GameState::new(&stored, game.view());
                self.broadcast(id, &state);
                drop(order);
                self.computer_turn(&stored, &game);
                Ok(state)
            }
            (Err(StoreError::NotFound), _) => Err(Refusal::no_game(&id.to_string())),
            (Err(StoreError::Failed(message)), _) => Err(Refusal::internal(message)),
            (Err(StoreError::Refused(mut refusal)), _) => {
                refusal.state = self
                    .load(id)
                    .and_then(|s| Self::state_of(&s))
                    .ok()
                    .map(Box::new);
                Err(refusal)
            }
            (Ok(_), None) => Err(Refusal::internal("the change was not applied")),
        }
    }

    /// `POST /api/games/{id}/moves`.
    pub fn play(self: &Arc<Self>, id: &str, ply: u64, text: &str) -> Result<GameState, Refusal> {
        self.play_at(id, ply, None, text)
    }

    /// Plays `text` if the game is at `ply` (and at `version`, if given).
    fn play_at(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        version: Option<u64>,
        text: &str,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, version, &mut |game| {
            let variant = game.variant();
            let example = if variant == Variant::Pawns {
                "UCI notation, like e2e4"
            } else {
                "USI notation, like 7g7f, 8h2b+ or P*5e"
            };
            // No move is longer than 5 characters: echo nothing longer.
            let text = text.trim();
            if text.is_empty() || text.len() > 8 {
                return Err(Refusal::unprocessable(format!(
                    "That is not a move in {example}."
                )));
            }
            if game.ply() >= MAX_MOVES {
                return Err(Refusal::unprocessable(format!(
                    "The game has reached Koma's limit of {MAX_MOVES} moves."
                )));
            }
            game.play_text(text).map_err(|error| {
                Refusal::unprocessable(match error {
                    GameError::Finished(outcome) => format!(
                        "The game is over. {}",
                        names::outcome_message(variant, outcome, game.turn())
                    ),
                    GameError::Syntax(_) => {
                        format!("{text:?} is not a move in {example}.")
                    }
                    GameError::Illegal(illegal) => {
                        format!("{text} cannot be played: {}.", illegal.reason)
                    }
                })
            })
        })
    }

    /// `POST /api/games/{id}/undo`.
    ///
    /// Against the computer, a move taken back gives the turn to the
    /// computer, which would only play again: the computer's reply is taken
    /// back with it, so the player is to move, as on lishogi.
    pub fn undo(self: &Arc<Self>, id: &str, ply: u64) -> Result<GameState, Refusal> {
        let stored = self.load(Self::parse_id(id)?)?;
        let computer = match &stored.opponent {
            Opponent::Computer { color, .. } => names::parse_color(stored.variant, color),
            Opponent::Human => None,
        };
        self.change(id, ply, &mut |game| match game.undo() {
            Some(Undone::Move) if computer == Some(game.turn()) && game.ply() > 0 => {
                game.undo();
                Ok(())
            }
            Some(Undone::Ending | Undone::Move) => Ok(()),
            None => Err(Refusal::unprocessable("There is no move to take back.")),
        })
    }

    /// `POST /api/games/{id}/resign`.
    pub fn resign(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        color: Option<&str>,
    ) -> Result<GameState, Refusal> {
        self.change(id, ply, &mut |game| {
            let variant = game.variant();
            let color = match color {
                None => game.turn(),
                Some(name) => names::parse_color(variant, name).ok_or_else(|| {
                    Refusal::unprocessable(format!(
                        "The side that resigns must be {} or {}.",
                        names::color_name(variant, koma_rules::Color::Sente),
                        names::color_name(variant, koma_rules::Color::Gote)
                    ))
                })?,
            };
            game.resign(color).map_err(|error| match error {
                GameError::Finished(outcome) => Refusal::unprocessable(format!(
                    "The game is already over. {}",
                    names::outcome_message(variant, outcome, game.turn())
                )),
                other => Refusal::unprocessable(sentence(&other.to_string())),
            })
        })
    }

    /// The state of game `id` and a receiver of every later `state` message.
    pub fn subscribe(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(GameState, broadcast::Receiver<Arc<str>>), Refusal> {
        let game_id = Self::parse_id(id)?;
        // Subscribed before reading, so that no change falls in between.
        let receiver = {
            let mut watchers = lock(&self.watchers);
            watchers
                .entry(game_id)
                .or_insert_with(|| broadcast::channel(64).0)
                .subscribe()
        };
        match self.state(id) {
            Ok(state) => Ok((state, receiver)),
            Err(refusal) => {
                drop(receiver);
                self.forget_unwatched(game_id);
                Err(refusal)
            }
        }
    }

    /// Drops the channel of a game nobody watches any more.
    pub fn forget_unwatched(&self, id: GameId) {
        let mut watchers = lock(&self.watchers);
        if watchers
            .get(&id)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            watchers.remove(&id);
        }
    }

    fn broadcast(&self, id: GameId, state: &GameState) {
        let sender = lock(&self.watchers).get(&id).cloned();
        if let Some(sender) = sender {
            let message = serde_json::json!({ "type": "state", "state": state }).to_string();
            if sender.send(message.into()).is_err() {
                self.forget_unwatched(id);
            }
        }
    }

    /// If the computer is to move in this game, asks it for a move in the
    /// background and plays it like any other; a reply to a position the
    /// game has left (even for one with as many moves) is dropped.
    fn computer_turn(self: &Arc<Self>, stored: &StoredGame, game: &AnyGame) {
        let (Some(picker), Opponent::Computer { level, color }) = (&self.picker, &stored.opponent)
        else {
            return;
        };
        let computer = names::parse_color(stored.variant, color);
        if game.outcome().is_some() || computer != Some(game.turn()) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if !lock(&self.thinking).insert(stored.id) {
            return;
        }
        let (games, picker, game, level) = (self.clone(), picker.clone(), game.clone(), *level);
        let version = stored.version;
        let game_id = stored.id;
        runtime.spawn_blocking(move || {
            let id = game_id.to_string();
            let played = picker.pick(&game, level).is_some_and(|text| {
                games
                    .play_at(&id, game.ply() as u64, Some(version), &text)
                    .is_ok()
            });
            lock(&games.thinking).remove(&game_id);
            // If the game moved on meanwhile and the computer is to move in
            // the new position, it thinks again (never twice on one version).
            let moved_on = games.load(game_id).is_ok_and(|s| s.version != version);
            if !played && moved_on {
                let _ = games.state(&id);
            }
        });
    }
}
