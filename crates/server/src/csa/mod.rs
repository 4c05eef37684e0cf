//! Koma's CSA server (`koma serve --csa-port N`): the CSA network protocol
//! 1.2.1 as shogi-server and floodgate speak it, one more front end over
//! the same [`Games`] as the HTTP API, so that engines log in, are matched
//! and play games that are ordinary Koma games: kept in the same store,
//! watched on the board as they happen, their records downloadable.
//!
//! `listener` accepts connections (counted with the HTTP ones, per client
//! and in all); each is a `session` (the login, shogi-server's commands,
//! the lines it reads and writes through `lines`); the `lobby` knows who
//! is logged in and who waits for which game (the games tell it their
//! progress through `listing`, so that they need not know it), and matches two players of
//! the same game name into a `game`, the task that offers it (the
//! `Game_Summary` of `words`), starts it once both agree (the game is
//! created in the store then, with both seats' tokens held by that task)
//! and plays it: each move the client sends is found among the legal ones
//! by its CSA code (the records crate's), applied with `Games::play` and
//! the seat's token, and sent back to both players with its time; the
//! clock is shogi-server's (`ClockRule::Csa`: whole seconds, from the
//! start). `names` reads the game names (`koma-300-10F`, shogi-server's
//! handicaps `hc2p_koma-300-10`) and the password field of a plain CSA
//! login; `turned` turns shogi-server's handicaps (the giver sente) into
//! Koma's (the giver gote) and back.

mod game;
mod lines;
mod listener;
mod listing;
mod lobby;
mod names;
mod session;
mod turned;
mod words;

pub(crate) use listener::serve;

#[cfg(doc)]
use crate::games::service::Games;

use std::time::Duration;

/// The longest line a client may send: a move with floodgate's comment
/// (a score and a line of moves) takes a few hundred bytes; past this the
/// connection is closed.
pub const MAX_LINE: usize = 4096;

/// How long a summary waits for both `AGREE`s before the server withdraws
/// it (shogi-server's `WAITING_EXPIRATION`).
pub const AGREE_TIMEOUT: Duration = Duration::from_secs(120);

/// How long writing a line to a client may take before the connection is
/// given up (shogi-server's write thread waits 20 s).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(20);

/// The limits of the CSA side that `koma serve`'s flags set.
#[derive(Clone, Copy, Debug)]
pub struct CsaLimits {
    /// How long a new connection has to log in.
    pub login_timeout: Duration,
}
