//! One connection of the CSA side: the login, then shogi-server's
//! commands, until the client logs out, closes, is nudged out by a new
//! login of its name, or (in plain CSA mode) its game ends, after which
//! shogi-server closes the connection too.
//!
//! Before the login only `LOGIN` is read, for at most
//! [`CsaLimits::login_timeout`] from the connection's start; anything
//! else is answered `LOGIN:incorrect`. Afterwards an unknown line gets
//! shogi-server's `##[ERROR] unknown command: …` (a `LOGIN`'s password
//! hidden), and a line over [`super::MAX_LINE`] bytes closes the
//! connection. In a game, every command goes to the game's task; a
//! connection that closes there loses the game.

use super::game::{Event, FromPlayer, ToSession};
use super::lines::{self, LineReader, Read};
use super::lobby::{Asked, Lobby};
use super::names::{self, read_game_name, read_plain_password};
use super::{CsaLimits, MAX_LINE};
use crate::http::connections::Ticket;
use koma_csa::message::{ClientCommand, TurnPreference};
use koma_rules::Color;
use std::sync::Arc;
use tokio::io::AsyncWrite;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// Serves one connection until it ends; `ticket` counts it meanwhile.
pub async fn run(
    stream: TcpStream,
    lobby: Arc<Lobby>,
    limits: CsaLimits,
    mut stopping: watch::Receiver<bool>,
    ticket: Arc<Ticket>,
) {
    let _ticket = ticket;
    let _ = stream.set_nodelay(true);
    let (reader, writer) = stream.into_split();
    let mut reader = LineReader::new(reader);
    let (outbox, mut inbox) = mpsc::unbounded_channel();
    let mut session = Session {
        lobby,
        writer,
        outbox,
        login: None,
        game: None,
    };
    let login_deadline = Instant::now() + limits.login_timeout;
    loop {
        let woken = tokio::select! {
            read = reader.next() => Woken::Read(read),
            Some(message) = inbox.recv() => Woken::Message(message),
            _ = tokio::time::sleep_until(login_deadline), if session.login.is_none() => Woken::Stop,
            // The guard `wait_for` gives is dropped at once: not held across awaits.
            _ = async { drop(stopping.wait_for(|stop| *stop).await) } => Woken::Stop,
        };
        let go_on = match woken {
            Woken::Read(Read::Line(line)) => session.on_line(&line).await,
            Woken::Read(Read::TooLong) => {
                let refusal = format!("##[ERROR] a line is at most {MAX_LINE} bytes\n");
                lines::write(&mut session.writer, &refusal).await;
                false
            }
            Woken::Read(Read::Closed) | Woken::Stop => false,
            Woken::Message(message) => session.on_message(message).await,
        };
        if !go_on {
            break;
        }
    }
    session.leave(&mut inbox);
}

/// What a session woke up for.
enum Woken {
    Read(Read),
    Message(ToSession),
    Stop,
}

/// A logged-in player.
struct Login {
    name: String,
    session: u64,
    /// shogi-server's extended mode (`LOGIN name password x1`).
    extended: bool,
}

struct Session<W> {
    lobby: Arc<Lobby>,
    writer: W,
    /// Where the lobby and games reach this session.
    outbox: mpsc::UnboundedSender<ToSession>,
    login: Option<Login>,
    game: Option<(mpsc::UnboundedSender<FromPlayer>, Color)>,
}

impl<W: AsyncWrite + Unpin> Session<W> {
    async fn write(&mut self, text: &str) -> bool {
        lines::write(&mut self.writer, text).await
    }

    /// Acts on a line from the client: `false` to close.
    async fn on_line(&mut self, line: &str) -> bool {
        let command = ClientCommand::parse(line);
        let Some(login) = &self.login else {
            return match command {
                Some(ClientCommand::Login {
                    user,
                    password,
                    extended,
                }) if names::good_identifier(&user) => self.log_in(user, password, extended).await,
                _ => {
                    let mut answer = "LOGIN:incorrect\n".to_owned();
                    if line.split_whitespace().count() >= 4 {
                        answer.push_str("type 'LOGIN name password' or 'LOGIN name password x1'\n");
                    }
                    self.write(&answer).await
                }
            };
        };
        let (name, session) = (login.name.clone(), login.session);
        if line.trim_end() == "%%GAME" {
            return match self.game {
                Some(_) => self.write(&game_status_error("game")).await,
                None => {
                    self.lobby.back(&name, session);
                    true
                }
            };
        }
        // shogi-server reads these by their first letters only.
        if line.starts_with("%%LIST") {
            return self.write(&self.lobby.list()).await;
        }
        if line.starts_with("%%WHO") {
            return self.write(&self.lobby.who()).await;
        }
        if line.starts_with("%%SHOW") {
            let id = line.split_whitespace().nth(1).unwrap_or("");
            return self.write(&self.lobby.show(id)).await;
        }
        if line.starts_with("CHALLENGE") {
            // The CSA's testing servers' command, answered as shogi-server
            // answers it; it means nothing here.
            return self.write("CHALLENGE ACCEPTED\n").await;
        }
        let Some(command) = command else {
            return self.write(&unknown(line)).await;
        };
        match command {
            ClientCommand::KeepAlive if line.is_empty() => self.write("\n").await,
            ClientCommand::KeepAlive => true,
            ClientCommand::Logout => {
                self.write("LOGOUT:completed\n").await;
                false
            }
            ClientCommand::Login { .. } => self.write(&unknown(line)).await,
            ClientCommand::Game { name: game, turn } => self.ask(&game, turn, false).await,
            ClientCommand::Challenge { name: game, turn } => self.ask(&game, turn, true).await,
            command => match &self.game {
                Some((game, color)) => {
                    let _ = game.send(FromPlayer {
                        color: *color,
                        event: Event::Command(command),
                    });
                    true
                }
                None if matches!(command, ClientCommand::Agree | ClientCommand::Reject) => {
                    let text = format!(
                        "##[ERROR] you are in connected status. {command} is valid in \
                         agree_waiting status\n"
                    );
                    self.write(&text).await
                }
                // Moves out of a game are not read, as in shogi-server.
                None => true,
            },
        }
    }

    async fn log_in(&mut self, user: String, password: String, extended: bool) -> bool {
        let plain = (!extended).then(|| read_plain_password(&password));
        let password = match &plain {
            Some(plain) => plain.password.clone(),
            None => Some(password).filter(|p| !p.is_empty()),
        };
        let Some(session) = self
            .lobby
            .login(&user, password, extended, self.outbox.clone())
        else {
            let mut answer = "LOGIN:incorrect\n".to_owned();
            if extended {
                answer.push_str(&format!("username {user} is already connected\n"));
            }
            self.write(&answer).await;
            return false;
        };
        self.login = Some(Login {
            name: user.clone(),
            session,
            extended,
        });
        let mut answer = format!("LOGIN:{user} OK\n");
        if extended {
            answer.push_str("##[LOGIN] +OK x1\n");
        }
        if !self.write(&answer).await {
            return false;
        }
        match plain {
            // A plain login asks for the game its password names at once.
            Some(plain) => self.ask(&plain.game, plain.turn, false).await,
            None => true,
        }
    }

    /// `%%GAME` or `%%CHALLENGE`.
    async fn ask(&mut self, game: &str, turn: TurnPreference, challenge: bool) -> bool {
        let Some(login) = &self.login else {
            return false;
        };
        if self.game.is_some() {
            return self.write(&game_status_error("game")).await;
        }
        let wanted = match read_game_name(game) {
            Ok(wanted) => wanted,
            Err(why) => return self.write(&format!("##[ERROR] {why}\n")).await,
        };
        if wanted.handicap.is_some() && turn == TurnPreference::Either {
            // The giver is sente: each player says which side it takes.
            let text = "##[ERROR] Random turn preference is not allowed for handicapped games\n";
            return self.write(text).await;
        }
        match self
            .lobby
            .ask(&login.name, login.session, wanted, turn, challenge)
        {
            Asked::Matched | Asked::Waiting => true,
            Asked::NoRival => {
                let text = format!("##[ERROR] can't find rival for {game}\n");
                self.write(&text).await
            }
            Asked::Busy => self.write(&game_status_error("agree_waiting")).await,
        }
    }

    /// Acts on what the lobby or a game says: `false` to close.
    async fn on_message(&mut self, message: ToSession) -> bool {
        match message {
            ToSession::Text(text) => self.write(&text).await,
            ToSession::Joined { game, color } => {
                self.game = Some((game, color));
                true
            }
            ToSession::GameOver => {
                self.game = None;
                match &self.login {
                    Some(login) => {
                        self.lobby.back(&login.name, login.session);
                        // shogi-server ends a plain CSA session with its game.
                        login.extended
                    }
                    None => false,
                }
            }
            ToSession::Nudged => false,
        }
    }

    /// The connection ends: a game in progress (or offered) is told, and
    /// the name is free again.
    fn leave(&mut self, inbox: &mut mpsc::UnboundedReceiver<ToSession>) {
        inbox.close();
        // A game that matched this player as it left hears that it is gone.
        while let Ok(message) = inbox.try_recv() {
            if let ToSession::Joined { game, color } = message {
                self.game = Some((game, color));
            }
        }
        if let Some((game, color)) = self.game.take() {
            let _ = game.send(FromPlayer {
                color,
                event: Event::Gone,
            });
        }
        if let Some(login) = &self.login {
            self.lobby.logout(&login.name, login.session);
        }
    }
}

/// shogi-server's answer to `%%GAME` out of place.
fn game_status_error(status: &str) -> String {
    format!(
        "##[ERROR] you are in {status} status. GAME is valid in connected or game_waiting status\n"
    )
}

/// shogi-server's answer to a line it does not know, a password hidden.
fn unknown(line: &str) -> String {
    let mut shown: String = line.chars().take(200).collect();
    if let Some(rest) = shown.strip_prefix("LOGIN") {
        let name = rest.split_whitespace().next().unwrap_or("");
        shown = format!("LOGIN {name}...");
    }
    format!("##[ERROR] unknown command: {shown}\n")
}
