//! What the API does, apart from HTTP: create, import, change and export
//! games, check who may change them, keep their clocks, tell watchers of
//! every change, and let the computer reply.
//!
//! Every call here may wait for the database: the HTTP side runs them on
//! tokio's blocking threads.

use super::clock::{self, Clock, ClockRule, TimeControl};
use super::live::AnyGame;
use super::names::{self, Level, Opponent};
use super::record_notes::RecordNotes;
use super::refusal::Refusal;
use super::seats::{Mode, Seats, Token};
use super::state::{GameState, HeadersView};
use crate::opponent::computer_pool::ComputerPool;
use crate::store::{Declared, GameId, GameStore, StoreError, StoredGame};
use axum::http::StatusCode;
use koma_records::{read_any, write_any, AnyRecord, Format, Headers, LoadError, Record};
use koma_rules::{each_game, Color, Handicap, ImpasseRule, Position, UnknownHandicap, Variant};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, Notify};

/// Chooses the computer's moves (Koma's engine or a registered one, in
/// `opponent`; a server without one refuses computer opponents).
pub trait MovePicker: Send + Sync + 'static {
    /// The computer's reply on its turn.
    fn pick(&self, turn: &ComputerTurn<'_>) -> Reply;

    /// The engines (cores) a move of the registered engine `name` takes
    /// of the computer opponents' pool: its `Threads`.
    fn threads(&self, _name: &str) -> usize {
        1
    }

    /// Whether the registered engine `name` can play `variant`: the
    /// sentence that says why not otherwise. None is registered unless
    /// the picker says so.
    fn plays(&self, name: &str, _variant: Variant) -> Result<(), String> {
        Err(format!(
            "No engine is named {:?} on this server.",
            name.chars().take(32).collect::<String>()
        ))
    }

    /// Game `game` that the registered engine `name` played has ended with
    /// `result` for the engine: its process is told (USI's `gameover`).
    fn game_over(&self, _name: &str, _game: GameId, _result: GameResult) {}
}

/// How a game ended for one side, as USI's `gameover` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw` (an abandoned game too).
    Draw,
}

impl GameResult {
    /// The result for `side` of a game won by `winner` (`None`: no winner).
    pub fn for_side(winner: Option<Color>, side: Color) -> GameResult {
        match winner {
            Some(winner) if winner == side => GameResult::Win,
            Some(_) => GameResult::Lose,
            None => GameResult::Draw,
        }
    }

    /// The word USI's `gameover` takes.
    pub fn usi(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            GameResult::Draw => "draw",
        }
    }
}

/// What the computer is asked on its turn.
pub struct ComputerTurn<'a> {
    /// The game, as it stands.
    pub game: &'a AnyGame,
    /// Its id: a registered engine's process keeps to its game.
    pub game_id: GameId,
    /// How Koma's engine plays.
    pub level: Level,
    /// The registered engine that plays, if not Koma's own.
    pub engine: Option<&'a str>,
    /// The time Koma's engine takes (a share of its clock), if the game
    /// is timed.
    pub budget: Option<Duration>,
    /// The clocks as they stand now, if the game is timed: a registered
    /// engine manages its own time from them, as in any USI game.
    pub clock: Option<ClockNow>,
    /// The game's impasse rule.
    pub impasse: Option<ImpasseRule>,
}

/// The clocks as a computer to move sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockNow {
    /// Each side's main time left, first mover's first, milliseconds (the
    /// side to move's time spent so far taken off).
    pub main_ms: [u64; 2],
    /// Byoyomi, milliseconds.
    pub byoyomi_ms: u64,
    /// The increment after each move (Fischer), milliseconds.
    pub increment_ms: u64,
}

/// The computer's reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, as USI/UCI text.
    Move(String),
    /// A declaration of impasse, as USI's `bestmove win`.
    Declare,
    /// Resignation, as USI's `bestmove resign`.
    Resign,
    /// A move or declaration the rules refuse (a registered engine's):
    /// the computer loses the game, as shogi-server has it. The sentence
    /// says what it was.
    Illegal(String),
    /// The engine could not play (it cannot start, or died or hung twice):
    /// the game is abandoned, and the sentence says why.
    Failed(String),
    /// No move (the game is over).
    Nothing,
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
    /// A shogi handicap (`two-piece`, `二枚落ち`...) in place of a position.
    #[serde(default)]
    pub handicap: Option<String>,
    /// Names and the like.
    #[serde(default)]
    pub headers: Option<HeadersView>,
    /// Who plays the other side.
    #[serde(default)]
    pub opponent: Option<OpponentRequest>,
    /// `"local"` (default: this page holds both seats) or `"shared"`
    /// (each player opens a seat link).
    #[serde(default)]
    pub mode: Option<String>,
    /// The clocks, if the game is timed.
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// Shogi's impasse rule: 27 (the default) or 24, as a number or text
    /// (any JSON, checked here).
    #[serde(default)]
    pub impasse: Option<serde_json::Value>,
}

/// A time control in seconds, checked before it is kept (any JSON, so that
/// `-1` or `"5"` get a sentence rather than a 400).
#[derive(Debug, Deserialize)]
pub struct ClockRequest {
    /// Main time per side.
    #[serde(default)]
    pub initial: Option<serde_json::Value>,
    /// Added after each move.
    #[serde(default)]
    pub increment: Option<serde_json::Value>,
    /// Time per move once the main time is spent.
    #[serde(default)]
    pub byoyomi: Option<serde_json::Value>,
}

/// Who asks for a change.
#[derive(Clone, Copy, Debug)]
pub enum Actor<'a> {
    /// The server itself: the computer's reply.
    Server,
    /// A request, with the seat token it carries if any.
    Player(Option<&'a str>),
}

/// What a change sees: the replayed game, the stored one (for its seats,
/// mode and takeback request) and the side of the seat asking, if any.
pub struct Seated<'a> {
    /// The game, replayed; the change applies itself here.
    pub game: &'a mut AnyGame,
    /// The stored game; `moves`, `declared`, `clock` and `version` are
    /// brought up to date from `game` after the change.
    pub stored: &'a mut StoredGame,
    /// The side whose token came with the request (`None` for the server,
    /// or in a game from before seats).
    pub seat: Option<Color>,
}

/// A `state` message for a game's watchers, with its state's version: a
/// WebSocket sends only states newer than the last it sent, as a new
/// watcher's first state may also come as a message (a change of another
/// server sharing the store, told of after the watcher read the game).
pub type StateMessage = (u64, Arc<str>);

/// A watched game's channel and the last version sent through it, so that
/// a state older than one already sent is never sent after it.
pub(super) struct Watch {
    pub(super) sender: broadcast::Sender<StateMessage>,
    pub(super) sent: u64,
}

/// The opponent asked for, checked before it is kept.
#[derive(Debug, Deserialize)]
pub struct OpponentRequest {
    /// `"human"` or `"computer"`.
    pub kind: String,
    /// 1–20, or `"perfect"` in Pawns-Only Chess (any JSON, checked here,
    /// so that `1e99` is a message, not a 400).
    #[serde(default)]
    pub level: Option<serde_json::Value>,
    /// A registered engine's name, to play instead of Koma's own (which
    /// `"koma"` or nothing names).
    #[serde(default)]
    pub engine: Option<String>,
    /// The computer's side.
    #[serde(default)]
    pub color: Option<String>,
}

/// What a new game is made of besides its position and moves.
pub(super) struct Setup {
    pub(super) headers: HeadersView,
    pub(super) notes: RecordNotes,
    pub(super) opponent: Opponent,
    pub(super) mode: Mode,
    pub(super) clock: Option<Clock>,
    pub(super) impasse: Option<ImpasseRule>,
}

/// The games, their watchers and the computer.
pub struct Games {
    pub(crate) store: Box<dyn GameStore>,
    /// A channel per watched game, carrying the `state` message to send.
    pub(super) watchers: Mutex<HashMap<GameId, Watch>>,
    /// Games whose computer is thinking now, so that it thinks once.
    pub(super) thinking: Mutex<HashSet<GameId>>,
    /// Games whose running clock has a timer waiting for its flag, and
    /// how to wake it when the game changes.
    pub(super) timers: Mutex<HashMap<GameId, Arc<Notify>>>,
    pub(super) picker: Option<Arc<dyn MovePicker>>,
    /// The engines the computer's moves wait for and think on.
    pub(super) computers: ComputerPool,
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
pub(super) fn sentence(text: &str) -> String {
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

/// Where `record`'s text holds `character`, for a message: `sente's
/// name`, `the comment on move 12`.
fn place_of(record: &AnyRecord, character: char) -> Option<String> {
    each_game!(AnyRecord, record, r => place_in(r, character))
}

fn place_in<P: Position>(record: &Record<P>, character: char) -> Option<String> {
    let holds = |text: &str| text.contains(character);
    let headers = &record.headers;
    let fields = [
        (
            &headers.sente,
            format!("{}'s name", names::color_name(P::VARIANT, Color::Sente)),
        ),
        (
            &headers.gote,
            format!("{}'s name", names::color_name(P::VARIANT, Color::Gote)),
        ),
        (&headers.event, "the event".to_owned()),
        (&headers.site, "the site".to_owned()),
        (&headers.start_time, "the start time".to_owned()),
        (&headers.end_time, "the end time".to_owned()),
        (&headers.time_control, "the time control".to_owned()),
        (&headers.opening, "the opening".to_owned()),
    ];
    let header = fields
        .into_iter()
        .find(|(value, _)| value.as_deref().is_some_and(holds))
        .map(|(_, place)| place);
    let other = || {
        (headers.other.iter())
            .find(|(key, value)| holds(key) || holds(value))
            .map(|(key, _)| format!("the header {:?}", key.chars().take(20).collect::<String>()))
    };
    let before = || {
        (record.comments.iter().any(|c| holds(c)))
            .then(|| "a comment before the first move".to_owned())
    };
    let after = || {
        (record.moves.iter())
            .position(|m| m.comments.iter().any(|c| holds(c)))
            .map(|index| format!("the comment on move {}", index + 1))
    };
    header.or_else(other).or_else(before).or_else(after)
}

/// The impasse rule a new game asks for: 27 or 24, as a number or text.
fn impasse_rule(value: &serde_json::Value) -> Result<ImpasseRule, Refusal> {
    let text = match value {
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.chars().take(20).collect(),
        _ => String::new(),
    };
    text.parse().map_err(|_| {
        Refusal::unprocessable(
            "The impasse rule must be 27 (points, the CSA rule) or 24 (the JSA amateur rule).",
        )
    })
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

pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Nothing here is left half-done by a panic; keep serving.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Games {
    /// Games kept in `store`, with `picker` for computer moves if any,
    /// thinking on at most `computer_engines` engines at once.
    pub fn new(
        store: Box<dyn GameStore>,
        picker: Option<Arc<dyn MovePicker>>,
        computer_engines: usize,
    ) -> Games {
        Games {
            store,
            watchers: Mutex::new(HashMap::new()),
            thinking: Mutex::new(HashSet::new()),
            timers: Mutex::new(HashMap::new()),
            picker,
            computers: ComputerPool::new(computer_engines),
        }
    }

    pub(crate) fn parse_id(text: &str) -> Result<GameId, Refusal> {
        text.parse().map_err(|()| Refusal::no_game(text))
    }

    pub(crate) fn load(&self, id: GameId) -> Result<StoredGame, Refusal> {
        self.store.get(id).map_err(|e| match e {
            StoreError::NotFound => Refusal::no_game(&id.to_string()),
            StoreError::Refused(refusal) => refusal,
            StoreError::Failed(message) => Refusal::internal(message),
        })
    }

    /// Replays a stored game.
    pub(crate) fn replay(stored: &StoredGame) -> Result<AnyGame, Refusal> {
        let declared = stored
            .declared
            .as_ref()
            .and_then(|d| d.to_outcome(stored.variant));
        AnyGame::replay(stored.variant, &stored.start, &stored.moves, declared)
            .map_err(|e| Refusal::internal(format!("The stored game is damaged: {e}")))
    }

    pub(crate) fn state_of(stored: &StoredGame) -> Result<GameState, Refusal> {
        Ok(GameState::new(stored, &Self::replay(stored)?))
    }

    /// The state of game `id`. A flag that has fallen is declared now; if
    /// the computer is to move and not thinking (the server was restarted
    /// while it thought), it starts again; a running clock gets its timer.
    pub fn state(self: &Arc<Self>, id: &str) -> Result<GameState, Refusal> {
        let game_id = Self::parse_id(id)?;
        let mut stored = self.load(game_id)?;
        let mut game = Self::replay(&stored)?;
        if Self::flag_fell(&stored, &game, clock::now_ms()) {
            if let Some((after, replayed)) = self.flag(game_id)? {
                (stored, game) = (after, replayed);
            }
        }
        self.after_look(&stored, &game);
        Ok(self.with_waiting(GameState::new(&stored, &game)))
    }

    /// `GET /api/games/{id}/mate` and analysis: the game and the move
    /// (`ply`, the current one when `None`) whose position the engine may
    /// look at for the viewer; refused where it is not allowed.
    pub fn study_target(
        self: &Arc<Self>,
        id: &str,
        ply: Option<u64>,
    ) -> Result<(AnyGame, usize), Refusal> {
        let stored = self.load(Self::parse_id(id)?)?;
        let game = Self::replay(&stored)?;
        crate::study::mate::allowed(&game, stored.mode, &stored.opponent)?;
        let ply = ply.map_or(game.ply(), |n| usize::try_from(n).unwrap_or(usize::MAX));
        Ok((game, ply))
    }

    /// Keeps a new game and returns its state, with its seat tokens.
    fn insert(self: &Arc<Self>, game: AnyGame, setup: Setup) -> Result<GameState, Refusal> {
        let stored = Self::new_stored(&game, setup)?;
        self.keep(stored, &game, |_| true)
    }

    /// A new game's stored form: a fresh id, version 1, and fresh seat
    /// tokens for the sides a person plays.
    pub(super) fn new_stored(game: &AnyGame, setup: Setup) -> Result<StoredGame, Refusal> {
        let Setup {
            headers,
            notes,
            opponent,
            mode,
            clock,
            impasse,
        } = setup;
        let id = GameId::random().map_err(Refusal::internal)?;
        let variant = game.variant();
        let computer = Self::computer_color(variant, &opponent);
        let seats = Seats::random(|color| computer != Some(color)).map_err(Refusal::internal)?;
        let mut stored = StoredGame {
            id,
            variant,
            start: game.start_text(),
            moves: game.move_texts(),
            declared: game.declared().map(|o| Declared::from_outcome(variant, o)),
            headers,
            opponent,
            version: 1,
            seats: Some(seats),
            mode,
            takeback: None,
            clock,
            impasse,
            notes,
            review: None,
            rematch: None,
        };
        if let Some(clock) = &mut stored.clock {
            clock.restart(game.ply(), game.outcome().is_some(), clock::now_ms());
        }
        Ok(stored)
    }

    /// Keeps the new game `stored` (replayed as `game`) and returns its
    /// state, with the tokens of the seats that `shown` allows.
    pub(super) fn keep(
        self: &Arc<Self>,
        stored: StoredGame,
        game: &AnyGame,
        shown: impl Fn(Color) -> bool,
    ) -> Result<GameState, Refusal> {
        self.store.insert(stored.clone()).map_err(|e| match e {
            StoreError::Failed(message) => Refusal::internal(message),
            // A store with no room left (memory) says so.
            StoreError::Refused(refusal) => refusal,
            StoreError::NotFound => Refusal::internal("the game could not be kept"),
        })?;
        self.after_change(&stored, game);
        let state = self.with_waiting(GameState::new(&stored, game));
        Ok(Self::with_seats(state, &stored, shown))
    }

    /// `state` of `stored` with the tokens of the seats that `shown`
    /// allows, as only the answer that gives a player a game carries them.
    pub(super) fn with_seats(
        mut state: GameState,
        stored: &StoredGame,
        shown: impl Fn(Color) -> bool,
    ) -> GameState {
        let Some(seats) = &stored.seats else {
            return state;
        };
        state.seats = Some(
            Color::ALL
                .into_iter()
                .filter(|&color| shown(color))
                .filter_map(|color| {
                    let token = seats.of(color)?;
                    Some((names::color_name(stored.variant, color), token.reveal()))
                })
                .collect::<BTreeMap<_, _>>(),
        );
        state
    }

    /// The side the computer plays, if it plays.
    pub(super) fn computer_color(variant: Variant, opponent: &Opponent) -> Option<Color> {
        match opponent {
            Opponent::Computer { color, .. } => names::parse_color(variant, color),
            Opponent::Human => None,
        }
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
        let mode =
            match request.mode.as_deref() {
                None | Some("local") => Mode::Local,
                Some("shared") if matches!(opponent, Opponent::Human) => Mode::Shared,
                Some("shared") => return Err(Refusal::unprocessable(
                    "A game against the computer is played at one screen: its mode is \"local\".",
                )),
                Some(other) => {
                    return Err(Refusal::unprocessable(format!(
                "Unknown mode {:?}: expected \"local\" (one screen) or \"shared\" (seat links).",
                other.chars().take(20).collect::<String>()
            )))
                }
            };
        let control = match &request.clock {
            None => None,
            Some(asked) => Some(
                TimeControl::from_seconds(
                    asked.initial.as_ref(),
                    asked.increment.as_ref(),
                    asked.byoyomi.as_ref(),
                )
                .map_err(Refusal::unprocessable)?,
            ),
        };
        let position = match (&request.handicap, request.position) {
            (None, position) => position,
            (Some(_), Some(_)) => {
                return Err(Refusal::unprocessable(
                    "Give a handicap or a position, not both.",
                ))
            }
            (Some(_), None) if variant != Variant::Shogi => {
                return Err(Refusal::unprocessable(format!(
                    "Handicaps are shogi's; this game is {}.",
                    variant.name()
                )))
            }
            (Some(name), None) => {
                let handicap: Handicap = name.parse().map_err(|e: UnknownHandicap| {
                    Refusal::unprocessable(sentence(&e.to_string()))
                })?;
                Some(handicap.position().to_text())
            }
        };
        let impasse = match &request.impasse {
            None => None,
            Some(_) if variant != Variant::Shogi => {
                return Err(Refusal::unprocessable(format!(
                    "Only shogi has an impasse rule; this game is {}.",
                    variant.name()
                )))
            }
            Some(value) => Some(impasse_rule(value)?),
        };
        let game = AnyGame::new(variant, position.as_deref()).map_err(Refusal::unprocessable)?;
        // Names are kept as every record keeps them (koma_records::text):
        // hidden characters escaped, one line; imports get the same from
        // the readers.
        let mut cleaned: Headers = request.headers.unwrap_or_default().into();
        cleaned.clean();
        let mut headers = HeadersView::from(cleaned);
        if let Some(control) = &control {
            headers
                .time_control
                .get_or_insert_with(|| control.describe());
        }
        self.insert(
            game,
            Setup {
                headers,
                notes: RecordNotes::default(),
                opponent,
                mode,
                clock: control.map(Clock::new),
                impasse,
            },
        )
    }

    fn opponent(&self, variant: Variant, asked: OpponentRequest) -> Result<Opponent, Refusal> {
        match asked.kind.as_str() {
            "human" => Ok(Opponent::Human),
            "computer" => {
                let level = match &asked.level {
                    None => Level::Strength(10),
                    Some(value) if value.as_str() == Some("perfect") => {
                        if variant != Variant::Pawns {
                            return Err(Refusal::unprocessable(
                                "The perfect player plays Pawns-Only Chess only.",
                            ));
                        }
                        Level::PERFECT
                    }
                    Some(value) => Level::Strength(
                        value
                            .as_u64()
                            .filter(|level| (1..=20).contains(level))
                            .ok_or_else(|| {
                                Refusal::unprocessable(
                                    "The computer's level must be a whole number from 1 to 20 \
                                     (or \"perfect\" in Pawns-Only Chess).",
                                )
                            })? as u8,
                    ),
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
                let Some(picker) = &self.picker else {
                    return Err(Refusal::unprocessable(
                        "The computer opponent is not available yet.",
                    ));
                };
                let engine = asked
                    .engine
                    .filter(|name| name != crate::external::registry::BUILT_IN);
                if let Some(name) = &engine {
                    if asked.level.is_some() {
                        return Err(Refusal::unprocessable(format!(
                            "The engine {:?} plays at its own strength: leave out the level.",
                            name.chars().take(32).collect::<String>()
                        )));
                    }
                    picker
                        .plays(name, variant)
                        .map_err(Refusal::unprocessable)?;
                }
                Ok(Opponent::Computer {
                    level: if engine.is_some() {
                        Level::Strength(20)
                    } else {
                        level
                    },
                    color: names::color_name(variant, color).to_owned(),
                    engine,
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
        let record = read_any(bytes, format, variant).map_err(|e| {
            Refusal::unprocessable(match e {
                LoadError::Empty => "The record is empty.".to_owned(),
                LoadError::Parse { format, source } => format!(
                    "The record cannot be read as {}: {}",
                    format.name().to_uppercase(),
                    finish(&source.to_string())
                ),
                other => format!("The record cannot be read: {}", finish(&other.to_string())),
            })
        })?;
        let notes = RecordNotes::of(&record);
        let (game, headers) = AnyGame::from_record(record).map_err(Refusal::unprocessable)?;
        self.insert(
            game,
            Setup {
                headers: headers.into(),
                notes,
                opponent: Opponent::Human,
                mode: Mode::Local,
                clock: None,
                impasse: None,
            },
        )
    }

    /// `GET /api/games/{id}/record?format=…`. Without a format (or an
    /// empty one), the game's own record, so that the default download
    /// always works: PGN for Pawns-Only Chess; KIF for the shogi games, in
    /// Shift_JIS as Kifu for Windows writes it, or in UTF-8 (`.kifu`, as
    /// ShogiHome and lishogi name it) when Shift_JIS cannot hold a name or
    /// comment. An explicit `kif` asks for Shift_JIS: that is refused,
    /// naming the character and where it is, rather than answered in
    /// another encoding than asked.
    pub fn record(&self, id: &str, format: Option<&str>) -> Result<Download, Refusal> {
        let stored = self.load(Self::parse_id(id)?)?;
        let variant = stored.variant;
        let asked = format.filter(|name| !name.is_empty());
        let format = match asked {
            None if variant == Variant::Pawns => Format::Pgn,
            None => Format::Kif,
            Some(name) => Format::from_name(name).ok_or_else(|| {
                Refusal::unprocessable(format!(
                    "Unknown record format {:?}: a {} game can be saved as {}.",
                    name.chars().take(20).collect::<String>(),
                    names::variant_title(variant),
                    writable_formats(variant)
                ))
            })?,
        };
        let game = Self::replay(&stored)?;
        let mut record = game.to_record(stored.headers.clone().into());
        stored.notes.write_into(&mut record);
        if let Some(review) = &stored.review {
            crate::study::review_kept::write_review(review, &game, &mut record, format);
        }
        let (bytes, format) = match write_any(&record, format) {
            Err(LoadError::Encode(_)) if asked.is_none() => {
                (write_any(&record, Format::Kifu), Format::Kifu)
            }
            Err(LoadError::Encode(error)) => {
                return Err(Refusal::unprocessable(format!(
                    "Shift_JIS (kif) cannot hold {:?}{}; save as kifu (KIF in UTF-8), \
                     as the download without a format does.",
                    error.character,
                    place_of(&record, error.character)
                        .map_or(String::new(), |place| format!(" in {place}"))
                )))
            }
            written => (written, format),
        };
        let bytes = bytes.map_err(|e| match e {
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

    /// Applies `action` to game `id` for `actor` if the page's `ply` is
    /// current, keeps the result, tells the watchers and returns the new
    /// state. A refusal carries the state as it is.
    pub(super) fn change(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        actor: Actor<'_>,
        action: &mut dyn FnMut(&mut Seated<'_>) -> Result<(), Refusal>,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, None, actor, action)
    }

    /// [`Games::change`], refused also unless the game is still at
    /// `version` (when given): a computer's reply must answer the very
    /// position it was computed for, not one that an undo and a replay
    /// brought back to the same number of moves.
    ///
    /// In order: a flag that has fallen is declared (and kept, whatever the
    /// request), then the seat token is checked, then the ply, then the
    /// change is applied and the clocks charged.
    pub(super) fn change_version(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        version: Option<u64>,
        actor: Actor<'_>,
        action: &mut dyn FnMut(&mut Seated<'_>) -> Result<(), Refusal>,
    ) -> Result<GameState, Refusal> {
        let id = Self::parse_id(id)?;
        let mut after = None;
        let mut flag_fell = false;
        let result = self.store.update(id, &mut |stored: &mut StoredGame| {
            if version.is_some_and(|version| version != stored.version) {
                return Err(Refusal::new(
                    StatusCode::CONFLICT,
                    "The game changed while the computer was thinking.",
                ));
            }
            let now = clock::now_ms();
            let mut game = Self::replay(stored)?;
            if Self::flag_fell(stored, &game, now) {
                Self::declare_timeout(stored, &mut game, now);
                flag_fell = true;
                after = Some(game);
                return Ok(());
            }
            let seat = Self::authorize(stored, actor)?;
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
            let (turn, outcome) = (game.turn(), game.outcome());
            action(&mut Seated {
                game: &mut game,
                stored,
                seat,
            })?;
            let moved = game.ply() != played || game.outcome() != outcome;
            if let Some(clock) = &mut stored.clock {
                if game.ply() == played + 1 && clock.charge(turn, now).is_err() {
                    // Cannot happen: a fallen flag was declared above.
                    return Err(Refusal::unprocessable("The time ran out."));
                }
                if moved {
                    clock.restart(game.ply(), game.outcome().is_some(), now);
                }
            }
            if moved {
                stored.takeback = None;
            }
            stored.set_moves(game.move_texts());
            if game.ply() == played + 1 {
                // A CSA game's record keeps the whole seconds each move was
                // charged (its `T`), as shogi-server's record does.
                let charged = (stored.clock.as_ref())
                    .filter(|clock| clock.rule == ClockRule::Csa)
                    .and_then(|clock| clock.last_charge_ms);
                if let Some(charged) = charged {
                    stored.notes.set_time(played, charged);
                }
            }
            stored.declared = game
                .declared()
                .map(|o| Declared::from_outcome(stored.variant, o));
            stored.version += 1;
            after = Some(game);
            Ok(())
        });
        match (result, after) {
            (Ok(stored), Some(game)) => {
                // The computer's turn first, so that the state says
                // whether its move waits for an engine. A reply quicker
                // than this broadcast is a newer version, which the
                // watchers get instead.
                self.after_change(&stored, &game);
                let state = self.with_waiting(GameState::new(&stored, &game));
                self.broadcast(id, &state);
                if flag_fell {
                    let mut refusal = Refusal::unprocessable(
                        state
                            .outcome
                            .as_ref()
                            .map_or("The time ran out.".to_owned(), |o| o.message.clone()),
                    );
                    refusal.state = Some(Box::new(state));
                    return Err(refusal);
                }
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

    /// The side whose seat token came with the request; `None` for the
    /// server itself and for games kept before seats existed.
    pub(super) fn authorize(
        stored: &StoredGame,
        actor: Actor<'_>,
    ) -> Result<Option<Color>, Refusal> {
        let (Actor::Player(token), Some(seats)) = (actor, &stored.seats) else {
            return Ok(None);
        };
        let Some(token) = token else {
            return Err(Refusal::forbidden(
                "spectator",
                "This page watches the game: only its players, with their seat links, can change it.",
            ));
        };
        // The same sentence for a malformed token and a wrong one.
        Token::parse(token)
            .and_then(|token| seats.side_of(&token))
            .map(Some)
            .ok_or_else(|| {
                Refusal::forbidden("bad-token", "That seat token is not one of this game's.")
            })
    }
}

#[cfg(test)]
#[path = "service_positions.rs"]
mod positions;
