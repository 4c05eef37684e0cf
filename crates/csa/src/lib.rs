//! Koma's client of the CSA network protocol (1.2.1, as floodgate and
//! shogi-server speak it): `koma csa` logs in to a CSA server, plays shogi
//! with Koma's engine or any USI engine, and saves each game as CSA.
//!
//! - [`message`]: the protocol's lines, read and written;
//! - [`summary`]: the `Game_Summary` block that offers a game;
//! - [`clock`]: the server's clocks, the network delay, the engine's `go`;
//! - [`client::play`]: the loop of games, logins and reconnections;
//! - [`command`]: the `koma csa` command line.
//!
//! ```
//! use koma_csa::message::{ClientCommand, ServerMessage, TurnPreference};
//! use koma_csa::summary::GameSummary;
//! use koma_rules::Color;
//!
//! // What the client sends to be matched in shogi-server's extended mode…
//! let ask = ClientCommand::Game { name: "koma-300-10F".into(), turn: TurnPreference::Either };
//! assert_eq!(ask.to_string(), "%%GAME koma-300-10F *");
//! // …the game it is offered…
//! let block = "Game_ID:g1\nName+:a\nName-:b\nYour_Turn:-\nTo_Move:+\nBEGIN Time\n\
//!              Time_Unit:1sec\nTotal_Time:300\nIncrement:10\nEND Time\n\
//!              BEGIN Position\nPI\n+\nEND Position";
//! let lines: Vec<String> = block.lines().map(String::from).collect();
//! let summary = GameSummary::parse(&lines).unwrap();
//! assert_eq!((summary.your_turn, summary.time.increment), (Color::Gote, 10));
//! // …and a move it reads.
//! assert!(matches!(ServerMessage::parse("+7776FU,T2"), Ok(ServerMessage::Move(_))));
//! ```
#![warn(missing_docs)]

pub mod client;
pub mod clock;
pub mod command;
mod connection;
pub mod engine;
pub mod message;
mod record;
mod session;
pub mod summary;

pub use client::{play, Report};
pub use command::{run, CsaArgs};
pub use connection::ServerConnection;
pub use session::GameReport;

use message::{ClientCommand, TurnPreference};
use std::path::PathBuf;
use std::time::Duration;

/// What the client is to do.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `host:port`.
    pub server: String,
    /// The login name.
    pub user: String,
    /// The password.
    pub password: String,
    /// The game to ask for with `%%GAME` or `%%CHALLENGE` (extended mode);
    /// None: plain CSA login, the server offers games by itself.
    pub game: Option<GameRequest>,
    /// How many games to play.
    pub games: usize,
    /// Where to save the records.
    pub records: Option<PathBuf>,
    /// Send an empty line after this long without sending anything.
    pub keep_alive: Option<Duration>,
    /// The margin kept from every move's time besides the delay measured.
    pub margin: Duration,
    /// The first wait before logging in again after a lost connection
    /// (doubled after each failed attempt, up to a minute).
    pub reconnect_delay: Duration,
    /// Send floodgate's `'* score pv` comment with each move.
    pub comments: bool,
    /// Show the protocol's traffic on stderr (the password hidden).
    pub verbose: bool,
}

/// A game asked for in shogi-server's extended mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// `floodgate-300-10F`, `koma-60-5`…
    pub name: String,
    /// The side wanted.
    pub turn: TurnPreference,
    /// `%%CHALLENGE` (join a waiting player) rather than `%%GAME`.
    pub challenge: bool,
}

impl GameRequest {
    /// The command that asks for it.
    pub fn command(&self) -> ClientCommand {
        let (name, turn) = (self.name.clone(), self.turn);
        if self.challenge {
            ClientCommand::Challenge { name, turn }
        } else {
            ClientCommand::Game { name, turn }
        }
    }
}

/// Why the client stopped.
#[derive(Debug, thiserror::Error)]
pub enum CsaError {
    /// The server cannot be reached.
    #[error("cannot connect to {server}: {reason}")]
    Connect {
        /// `host:port`.
        server: String,
        /// The system's reason.
        reason: String,
    },
    /// The connection broke or the server stopped answering.
    #[error("the connection to the server was lost: {0}")]
    ConnectionLost(String),
    /// `LOGIN:incorrect`.
    #[error(
        "the server refused the login of {user:?} (LOGIN:incorrect): a wrong name or \
         password, or that name is logged in already"
    )]
    LoginRefused {
        /// The name tried.
        user: String,
    },
    /// shogi-server refused what was asked (`##[ERROR] …`).
    #[error("the server refused: {0}")]
    Refused(String),
    /// The engine cannot be started or stopped working.
    #[error("the engine cannot play: {0}")]
    Engine(String),
    /// A move from the server that Koma's rules do not allow: the game
    /// cannot go on in step with the server.
    #[error("the server sent the move {code}, which is not legal here: {reason}")]
    IllegalServerMove {
        /// The move as sent.
        code: String,
        /// Why it does not fit.
        reason: String,
    },
    /// Settings that cannot work.
    #[error("{0}")]
    Setting(String),
    /// Ctrl-C.
    #[error("stopped by Ctrl-C")]
    Interrupted,
}
