//! One CSA game, from its offer to its end: a task that holds both
//! players' sides, as shogi-server's `Game` does.
//!
//! The `Game_Summary` goes to both; once both `AGREE`, the game is created
//! in the store (not before: an offer withdrawn leaves nothing behind) and
//! `START:id` sent. Each move the side to move sends is found among the
//! legal moves by its CSA code, played with `Games::play` and that seat's
//! token (held here and nowhere else, so nobody else can move), and sent
//! back to both with the whole seconds the clock charged (`+7776FU,T3`);
//! a move sent out of turn waits for its turn, as shogi-server defers it.
//! Comments after a move (`'* 30 …`) are not relayed: shogi-server keeps
//! them in its record only.
//!
//! Endings as shogi-server words them: `%TORYO` resigns (also when the
//! connection is lost: shogi-server's abnormal end), `%KACHI` declares
//! under the 27-point rule (a false one loses, `#ILLEGAL_MOVE`), an
//! illegal move loses, the flag falls (`#TIME_UP`), repetition draws
//! (`#SENNICHITE`) or loses for the checker (`#OUTE_SENNICHITE`). shogi-
//! server does not see mate: its players resign. Koma's rules end the game
//! at mate, and the mated player's `%TORYO` (or anything else it sends,
//! or its flag) is then awaited, so that both are told as shogi-server
//! would tell them.

use super::names::GameName;
use super::words::{self, Offer, MAX_MOVES};
use super::AGREE_TIMEOUT;
use crate::games::names;
use crate::games::refusal::Refusal;
use crate::games::service::Games;
use crate::games::state::{GameState, HeadersView};
use crate::store::GameId;
use koma_csa::message::ClientCommand;
use koma_records::csa::move_code;
use koma_rules::{Color, EndReason, Outcome, Position, StandardShogiPosition, Variant};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Moves a player may send ahead of its turn; more are dropped.
const MAX_DEFERRED: usize = 8;

/// What the lobby or a game tells a session.
#[derive(Debug)]
pub enum ToSession {
    /// Lines to write, with their line breaks.
    Text(String),
    /// The session plays `color` in the game that `game` reaches.
    Joined {
        /// Where its lines go.
        game: mpsc::UnboundedSender<FromPlayer>,
        /// Its side.
        color: Color,
    },
    /// The game is over (or was withdrawn).
    GameOver,
    /// Another login with this name took the place: close.
    Nudged,
}

/// A player of the game, as the lobby hands it over.
pub struct Seat {
    /// Its login name.
    pub name: String,
    /// Where its session takes lines.
    pub outbox: mpsc::UnboundedSender<ToSession>,
}

/// What a player's session passes on to its game.
#[derive(Debug)]
pub struct FromPlayer {
    /// The player's side.
    pub color: Color,
    /// What it did.
    pub event: Event,
}

/// What a player did.
#[derive(Debug)]
pub enum Event {
    /// A command it sent.
    Command(ClientCommand),
    /// Its connection closed (or it logged out).
    Gone,
}

/// Offers `wanted` to `seats` (sente's first) and plays it, on a task of
/// its own.
pub fn start(games: Arc<Games>, wanted: GameName, seats: [Seat; 2]) {
    let (sender, inbox) = mpsc::unbounded_channel();
    for (color, seat) in Color::ALL.into_iter().zip(&seats) {
        let _ = seat.outbox.send(ToSession::Joined {
            game: sender.clone(),
            color,
        });
    }
    drop(sender);
    let game = CsaGame {
        games,
        wanted,
        seats,
        inbox,
    };
    tokio::spawn(game.run());
}

struct CsaGame {
    games: Arc<Games>,
    wanted: GameName,
    seats: [Seat; 2],
    inbox: mpsc::UnboundedReceiver<FromPlayer>,
}

/// The game as it is played.
struct Play {
    id: String,
    tokens: [String; 2],
    ply: u64,
    position: StandardShogiPosition,
    /// When the side to move's flag falls (checked with the store then).
    deadline: Instant,
    /// A mated player, whose answer is awaited.
    mated: Option<Color>,
}

/// Whether the game goes on.
enum Flow {
    Continue,
    Over,
}

impl CsaGame {
    fn tell(&self, color: Color, text: impl Into<String>) {
        let _ = self.seats[color.index()]
            .outbox
            .send(ToSession::Text(text.into()));
    }

    fn tell_both(&self, text: &str) {
        for color in Color::ALL {
            self.tell(color, text);
        }
    }

    /// Both sessions hear that the game is over.
    fn close(&self) {
        for seat in &self.seats {
            let _ = seat.outbox.send(ToSession::GameOver);
        }
    }

    /// What a change for `color` needs: the games, the id, the ply the
    /// game is at and `color`'s token.
    fn args(&self, play: &Play, color: Color) -> (Arc<Games>, String, u64, String) {
        (
            self.games.clone(),
            play.id.clone(),
            play.ply,
            play.tokens[color.index()].clone(),
        )
    }

    fn reject(&self, id: &str, by: &str) {
        self.tell_both(&format!("REJECT:{id} by {by}\n"));
        self.close();
    }

    async fn run(mut self) {
        let id = match GameId::random() {
            Ok(id) => id,
            Err(_) => return self.reject("none", "the Server"),
        };
        let game_id = id.to_string();
        let offer = Offer {
            game_id: &game_id,
            sente: &self.seats[0].name,
            gote: &self.seats[1].name,
            control: self.wanted.control,
        };
        for color in Color::ALL {
            self.tell(color, offer.summary(color));
        }
        if !self.agreed(&game_id).await {
            return;
        }
        let headers = HeadersView {
            sente: Some(self.seats[0].name.clone()),
            gote: Some(self.seats[1].name.clone()),
            event: Some(self.wanted.name.clone()),
            time_control: Some(self.wanted.control.describe()),
            ..HeadersView::default()
        };
        let (games, control) = (self.games.clone(), self.wanted.control);
        let created = blocking(move || games.create_csa(id, headers, control)).await;
        let Some(play) = created.ok().and_then(|state| Play::new(&state)) else {
            return self.reject(&game_id, "the Server");
        };
        self.tell_both(&format!("START:{game_id}\n"));
        self.play(play).await;
        self.close();
    }

    /// Waits for both `AGREE`s: `false` if the offer was withdrawn.
    async fn agreed(&mut self, id: &str) -> bool {
        let deadline = Instant::now() + AGREE_TIMEOUT;
        let mut agreed = [false; 2];
        loop {
            let received = tokio::select! {
                received = self.inbox.recv() => received,
                _ = tokio::time::sleep_until(deadline) => {
                    self.reject(id, "the Server (timed out)");
                    return false;
                }
            };
            let Some(FromPlayer { color, event }) = received else {
                return false;
            };
            let name = self.seats[color.index()].name.clone();
            let status = if agreed[color.index()] {
                "start_waiting"
            } else {
                "agree_waiting"
            };
            match event {
                Event::Gone => {
                    self.reject(id, &name);
                    return false;
                }
                Event::Command(ClientCommand::Reject) if status == "agree_waiting" => {
                    self.reject(id, &name);
                    return false;
                }
                Event::Command(ClientCommand::Agree) if status == "agree_waiting" => {
                    agreed[color.index()] = true;
                    if agreed == [true, true] {
                        return true;
                    }
                }
                Event::Command(command @ (ClientCommand::Agree | ClientCommand::Reject)) => {
                    self.tell(color, status_error(status, &command));
                }
                // Moves before the start are not read, as in shogi-server.
                Event::Command(_) => {}
            }
        }
    }

    async fn play(&mut self, mut play: Play) {
        let mut deferred: [VecDeque<ClientCommand>; 2] = Default::default();
        loop {
            let turn = play.position.turn();
            let next = match deferred[turn.index()].pop_front() {
                Some(command) => Some(FromPlayer {
                    color: turn,
                    event: Event::Command(command),
                }),
                None => tokio::select! {
                    received = self.inbox.recv() => received,
                    _ = tokio::time::sleep_until(play.deadline) => {
                        match self.flag(&mut play).await {
                            Flow::Continue => continue,
                            Flow::Over => return,
                        }
                    }
                },
            };
            let Some(FromPlayer { color, event }) = next else {
                // Both sessions are gone: the side to move lost its connection last.
                self.gone(&play, turn).await;
                return;
            };
            let command = match event {
                Event::Gone => {
                    self.gone(&play, color).await;
                    return;
                }
                Event::Command(command) => command,
            };
            let flow = match command {
                command @ (ClientCommand::Agree | ClientCommand::Reject) => {
                    self.tell(color, status_error("game", &command));
                    Flow::Continue
                }
                command @ (ClientCommand::Move { .. }
                | ClientCommand::Resign
                | ClientCommand::Declare)
                    if color != turn =>
                {
                    if deferred[color.index()].len() < MAX_DEFERRED {
                        deferred[color.index()].push_back(command);
                    }
                    Flow::Continue
                }
                ClientCommand::Move { code, .. } => self.on_move(&mut play, &code).await,
                ClientCommand::Resign => self.resign(&play, turn).await,
                ClientCommand::Declare => self.declare(&mut play).await,
                _ => Flow::Continue,
            };
            if let Flow::Over = flow {
                return;
            }
        }
    }

    /// Sends each side its ending.
    fn end(&self, outcome: Outcome) -> Flow {
        for color in Color::ALL {
            self.tell(color, words::ending(outcome, color));
        }
        Flow::Over
    }

    /// The ending `state` holds, told to both; `Continue` if it holds none.
    fn end_with(&self, state: &GameState) -> Flow {
        match outcome_of(state) {
            Some(outcome) => self.end(outcome),
            None => Flow::Continue,
        }
    }

    /// What a refused change leaves: a fallen flag ends the game; anything
    /// else (the store failed) breaks it off.
    fn refused(&self, refusal: Refusal) -> Flow {
        if let Some(outcome) = refusal.state.as_deref().and_then(outcome_of) {
            return self.end(outcome);
        }
        self.tell_both(&format!("##[ERROR] {}\n#CHUDAN\n", refusal.message));
        Flow::Over
    }

    async fn on_move(&self, play: &mut Play, code: &str) -> Flow {
        let turn = play.position.turn();
        if let Some(loser) = play.mated {
            // The mated side can only resign; anything else is illegal.
            return self.end(Outcome::win(!loser, EndReason::IllegalMove));
        }
        let legal = play
            .position
            .legal_moves()
            .into_iter()
            .find(|&m| move_code(&play.position, m) == code);
        let Some(legal) = legal else {
            return self.lose(play, turn, EndReason::IllegalMove, false).await;
        };
        let text = StandardShogiPosition::move_to_text(legal);
        let (games, id, ply, token) = self.args(play, turn);
        let played = blocking(move || games.play(&id, ply, &text, Some(&token))).await;
        let state = match played {
            Ok(state) => state,
            Err(refusal) => return self.refused(refusal),
        };
        let seconds = state
            .clock
            .as_ref()
            .and_then(|c| c.last_charge_seconds())
            .unwrap_or(0);
        self.tell_both(&format!("{code},T{seconds}\n"));
        play.position.play_unchecked(legal);
        play.ply += 1;
        play.follow(&state);
        match outcome_of(&state) {
            Some(outcome)
                if matches!(
                    outcome.reason,
                    EndReason::Checkmate | EndReason::NoLegalMoves
                ) =>
            {
                play.mated = Some(!turn);
                Flow::Continue
            }
            Some(outcome) => self.end(outcome),
            None if play.ply as usize >= MAX_MOVES => {
                let (games, id, ply, token) = self.args(play, !turn);
                let limit = move |_| Outcome::draw(EndReason::Abandoned);
                match blocking(move || games.conclude(&id, ply, &token, &limit)).await {
                    Ok(state) => self.end_with(&state),
                    Err(refusal) => self.refused(refusal),
                }
            }
            None => Flow::Continue,
        }
    }

    /// `color` loses for `reason` (an illegal move; a false `%KACHI` when
    /// `declared`).
    async fn lose(&self, play: &Play, color: Color, reason: EndReason, declared: bool) -> Flow {
        let (games, id, ply, token) = self.args(play, color);
        let lost = move |seat: Color| Outcome::win(!seat, reason);
        match blocking(move || games.conclude(&id, ply, &token, &lost)).await {
            Ok(_) if declared => {
                for side in Color::ALL {
                    self.tell(side, words::false_declaration(color, side));
                }
                Flow::Over
            }
            Ok(state) => self.end_with(&state),
            Err(refusal) => self.refused(refusal),
        }
    }

    async fn resign(&self, play: &Play, color: Color) -> Flow {
        if let Some(loser) = play.mated {
            // The game ended at mate: the resignation only says so.
            return self.end(Outcome::win(!loser, EndReason::Resignation));
        }
        let (games, id, ply, token) = self.args(play, color);
        match blocking(move || games.resign(&id, ply, None, Some(&token))).await {
            Ok(state) => self.end_with(&state),
            Err(refusal) => self.refused(refusal),
        }
    }

    async fn declare(&self, play: &mut Play) -> Flow {
        let turn = play.position.turn();
        if let Some(loser) = play.mated {
            for side in Color::ALL {
                self.tell(side, words::false_declaration(loser, side));
            }
            return Flow::Over;
        }
        let (games, id, ply, token) = self.args(play, turn);
        match blocking(move || games.declare(&id, ply, Some(&token))).await {
            Ok(state) => self.end_with(&state),
            Err(refusal) if refusal.state.as_deref().and_then(outcome_of).is_some() => {
                self.refused(refusal)
            }
            // The rule refuses it: the declarer loses, as in shogi-server.
            Err(_) => self.lose(play, turn, EndReason::IllegalMove, true).await,
        }
    }

    /// The side to move's deadline passed: the store declares the flag
    /// if it fell (or the board's timer did already).
    async fn flag(&self, play: &mut Play) -> Flow {
        let turn = play.position.turn();
        if play.mated.is_some() {
            return self.end(Outcome::win(!turn, EndReason::Timeout));
        }
        let (games, id) = (self.games.clone(), play.id.clone());
        match blocking(move || games.state(&id)).await {
            Ok(state) if outcome_of(&state).is_some() => self.end_with(&state),
            Ok(state) => {
                play.follow(&state);
                Flow::Continue
            }
            Err(refusal) => self.refused(refusal),
        }
    }

    /// `color`'s connection is gone: it resigns (shogi-server's abnormal
    /// end), and the other side is told.
    async fn gone(&self, play: &Play, color: Color) {
        if play.mated.is_none() {
            let (games, id, ply, token) = self.args(play, color);
            let _ = blocking(move || games.resign(&id, ply, None, Some(&token))).await;
        }
        self.tell(
            !color,
            words::ending(Outcome::win(!color, EndReason::Resignation), !color),
        );
    }
}

impl Play {
    fn new(state: &GameState) -> Option<Play> {
        let seats = state.seats.as_ref()?;
        let token = |color| seats.get(names::color_name(Variant::Shogi, color)).cloned();
        let mut play = Play {
            id: state.id.clone(),
            tokens: [token(Color::Sente)?, token(Color::Gote)?],
            ply: 0,
            position: StandardShogiPosition::from_text(&state.position).ok()?,
            deadline: Instant::now(),
            mated: None,
        };
        play.follow(state);
        Some(play)
    }

    /// The side to move's deadline, from `state`'s clock.
    fn follow(&mut self, state: &GameState) {
        let turn = self.position.turn();
        let left = state
            .clock
            .as_ref()
            .map_or(u64::MAX / 4, |c| c.left_ms(turn));
        // A little after, so that the flag has surely fallen when looked at.
        self.deadline = Instant::now() + Duration::from_millis(left.min(1 << 40) + 5);
    }
}

/// shogi-server's answer to `AGREE` or `REJECT` out of place.
fn status_error(status: &str, command: &ClientCommand) -> String {
    format!("##[ERROR] you are in {status} status. {command} is valid in agree_waiting status\n")
}

/// The ending `state` holds, if any.
fn outcome_of(state: &GameState) -> Option<Outcome> {
    let outcome = state.outcome.as_ref()?;
    let reason = names::parse_reason(outcome.reason)?;
    Some(match outcome.winner {
        Some(winner) => Outcome::win(names::parse_color(Variant::Shogi, winner)?, reason),
        None => Outcome::draw(reason),
    })
}

/// Runs `work` (which may wait for the database) on tokio's blocking threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(Refusal::internal(format!("the game's work failed: {e}"))))
}
