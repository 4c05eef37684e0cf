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
//! Comments after a move (`'* 30 …`) are not relayed: as shogi-server
//! does, they are kept in the game's record only (`'** 30 …`), where the
//! board's move list shows them.
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

use super::listing::{Listing, Phase};
use super::names::GameName;
use super::turned::turned_position;
use super::words::{Offer, Standing};
use super::AGREE_TIMEOUT;
use crate::games::names;
use crate::games::refusal::Refusal;
use crate::games::service::Games;
use crate::games::state::{GameState, HeadersView};
use crate::store::GameId;
use koma_csa::message::ClientCommand;
use koma_rules::{Color, Outcome, StandardShogiPosition, Variant};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;

mod playing;
#[cfg(test)]
mod tests;

use playing::Play;

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

/// Offers `wanted` to `seats` (sente's first, `Name+`) and plays it, on a
/// task of its own.
pub fn start(lobby: Arc<dyn Listing>, games: Arc<Games>, wanted: GameName, seats: [Seat; 2]) {
    // From here on a seat's colour is Koma's: in shogi-server's handicaps
    // `Name+` gives the handicap, which in Koma is gote's part.
    let turned = wanted.handicap.is_some();
    let [csa_sente, csa_gote] = seats;
    let seats = if turned {
        [csa_gote, csa_sente]
    } else {
        [csa_sente, csa_gote]
    };
    let (sender, inbox) = mpsc::unbounded_channel();
    for (color, seat) in Color::ALL.into_iter().zip(&seats) {
        let _ = seat.outbox.send(ToSession::Joined {
            game: sender.clone(),
            color,
        });
    }
    drop(sender);
    let game = CsaGame {
        lobby,
        listed: None,
        offer: None,
        games,
        wanted,
        seats,
        turned,
        inbox,
    };
    tokio::spawn(game.run());
}

struct CsaGame {
    /// Told of the game's id and progress, for `%%LIST` and `%%WHO`.
    lobby: Arc<dyn Listing>,
    /// The id the lobby lists, until the game is over.
    listed: Option<String>,
    /// The game offered, once it is.
    offer: Option<Offer>,
    games: Arc<Games>,
    wanted: GameName,
    /// The players by their colours in the store (Koma's).
    seats: [Seat; 2],
    /// Whether the players see the game turned round: shogi-server's
    /// handicaps (see `turned`).
    turned: bool,
    inbox: mpsc::UnboundedReceiver<FromPlayer>,
}

impl CsaGame {
    /// The colour the player of Koma's `color` has in the protocol.
    fn csa_color(&self, color: Color) -> Color {
        if self.turned {
            !color
        } else {
            color
        }
    }

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

    /// Withdraws the offer: `REJECT:id by who` to both.
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
        self.lobby.game_opened(&game_id);
        self.listed = Some(game_id.clone());
        let start = match self.wanted.handicap {
            Some(handicap) => turned_position(&handicap.position()),
            None => StandardShogiPosition::start(),
        };
        let name_of = |csa: Color| self.seats[self.csa_color(csa).index()].name.clone();
        let offer = Offer {
            game_id: game_id.clone(),
            sente: name_of(Color::Sente),
            gote: name_of(Color::Gote),
            control: self.wanted.control,
            start,
        };
        for color in Color::ALL {
            self.tell(color, offer.summary(self.csa_color(color)));
        }
        self.offer = Some(offer);
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
        let handicap = self.wanted.handicap;
        let created = blocking(move || games.create_csa(id, headers, control, handicap)).await;
        let Some((play, state)) = created.ok().and_then(|state| {
            let play = Play::new(&state, self.turned)?;
            Some((play, state))
        }) else {
            return self.reject(&game_id, "the Server");
        };
        self.publish(&play, &state);
        for seat in &self.seats {
            self.lobby.reached(&seat.name, Phase::Started);
        }
        self.tell_both(&format!("START:{game_id}\n"));
        self.play(play).await;
        self.close();
    }

    /// Tells the lobby where the game stands now, for `%%SHOW`: as the
    /// players see it, `+` first.
    fn publish(&self, play: &Play, state: &GameState) {
        let Some(offer) = &self.offer else {
            return;
        };
        let position = if self.turned {
            turned_position(play.position())
        } else {
            *play.position()
        };
        // A player's colour in the protocol and in the store are each
        // other's through `csa_color` both ways.
        // Under the CSA rule the clocks are whole seconds; the view, made
        // just after the move, has taken the running side's milliseconds
        // since off: rounded up, its time is the time charged so far.
        let main = |csa: Color| {
            let koma = self.csa_color(csa);
            state
                .clock
                .as_ref()
                .map_or(0, |clock| clock.main_ms(koma).div_ceil(1000))
        };
        let standing = Standing {
            position: &position,
            remaining_seconds: [main(Color::Sente), main(Color::Gote)],
            last_move: play.last_move(),
            moves: play.moves(),
        };
        self.lobby.shown(&offer.game_id, offer.show(&standing));
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
                    self.lobby.reached(&name, Phase::Agreed);
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
}

impl Drop for CsaGame {
    /// However the game ends, the lobby no longer lists it.
    fn drop(&mut self) {
        if let Some(id) = &self.listed {
            self.lobby.game_closed(id);
        }
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
