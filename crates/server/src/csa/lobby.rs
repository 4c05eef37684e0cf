//! Who is logged in to the CSA side and who waits for which game, and the
//! matching of two players into a game, as shogi-server's `League` does.
//!
//! A name is logged in once. A second login with the same name and the
//! same password nudges the first session out unless it is playing (what
//! shogi-server does, so that a client whose connection broke can log in
//! again at once); otherwise it is refused with `LOGIN:incorrect`.

use super::game::{self, Seat, ToSession};
use super::names::GameName;
use crate::games::service::Games;
use koma_csa::message::TurnPreference;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;

/// Where a logged-in player stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    /// Logged in, asking for nothing (shogi-server's `connected`).
    Connected,
    /// Waiting for an opponent in that game (`game_waiting`).
    Waiting {
        game: GameName,
        turn: TurnPreference,
    },
    /// Offered a game or playing it.
    Playing,
}

struct Entry {
    session: u64,
    password: Option<String>,
    outbox: mpsc::UnboundedSender<ToSession>,
    status: Status,
}

/// What asking for a game gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Asked {
    /// Matched: the game is offered (the session hears of it by `Joined`).
    Matched,
    /// Waiting for an opponent.
    Waiting,
    /// `%%CHALLENGE` found nobody waiting.
    NoRival,
    /// Not now: the player is offered a game or plays one.
    Busy,
}

/// The players logged in.
pub struct Lobby {
    games: Arc<Games>,
    players: Mutex<HashMap<String, Entry>>,
    next_session: AtomicU64,
}

impl Lobby {
    /// An empty lobby whose games are kept in `games`.
    pub fn new(games: Arc<Games>) -> Arc<Lobby> {
        Arc::new(Lobby {
            games,
            players: Mutex::new(HashMap::new()),
            next_session: AtomicU64::new(1),
        })
    }

    fn players(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        // Plain data, whole even if a holder panicked.
        self.players.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Logs `name` in: the session's number, or `None` if the name is
    /// taken (a session playing, or another password).
    pub fn login(
        &self,
        name: &str,
        password: Option<String>,
        outbox: mpsc::UnboundedSender<ToSession>,
    ) -> Option<u64> {
        let mut players = self.players();
        if let Some(old) = players.get(name) {
            if old.password != password || old.status == Status::Playing {
                return None;
            }
            let _ = old.outbox.send(ToSession::Nudged);
        }
        let session = self.next_session.fetch_add(1, Ordering::Relaxed);
        players.insert(
            name.to_owned(),
            Entry {
                session,
                password,
                outbox,
                status: Status::Connected,
            },
        );
        Some(session)
    }

    /// Logs the session out (if the name is still its own).
    pub fn logout(&self, name: &str, session: u64) {
        let mut players = self.players();
        if players.get(name).is_some_and(|e| e.session == session) {
            players.remove(name);
        }
    }

    /// The player no longer waits (`%%GAME` alone), or its game is over.
    pub fn back(&self, name: &str, session: u64) {
        if let Some(entry) = self.players().get_mut(name) {
            if entry.session == session {
                entry.status = Status::Connected;
            }
        }
    }

    /// `%%GAME name turn` (or `%%CHALLENGE` when `challenge`): matched with
    /// a player waiting for the same game whose side fits, or waiting.
    pub fn ask(
        &self,
        name: &str,
        session: u64,
        wanted: GameName,
        turn: TurnPreference,
        challenge: bool,
    ) -> Asked {
        let mut players = self.players();
        match players.get(name) {
            Some(entry) if entry.session == session && entry.status != Status::Playing => {}
            _ => return Asked::Busy,
        }
        let rival = players
            .iter()
            .filter(|(other, _)| other.as_str() != name)
            .find_map(|(other, entry)| match &entry.status {
                Status::Waiting {
                    game,
                    turn: their_turn,
                } if game.name == wanted.name && fits(turn, *their_turn) => {
                    Some((other.clone(), *their_turn))
                }
                _ => None,
            });
        let Some((rival, their_turn)) = rival else {
            if challenge {
                return Asked::NoRival;
            }
            if let Some(entry) = players.get_mut(name) {
                entry.status = Status::Waiting { game: wanted, turn };
            }
            return Asked::Waiting;
        };
        let i_am_sente = match (turn, their_turn) {
            (_, TurnPreference::Sente) => false,
            (_, TurnPreference::Gote) => true,
            (TurnPreference::Sente, _) => true,
            (TurnPreference::Gote, _) => false,
            (TurnPreference::Either, TurnPreference::Either) => coin(),
        };
        let seat = |player: &str, players: &mut HashMap<String, Entry>| {
            let entry = players.get_mut(player).expect("both are logged in");
            entry.status = Status::Playing;
            Seat {
                name: player.to_owned(),
                outbox: entry.outbox.clone(),
            }
        };
        let (me, them) = (seat(name, &mut players), seat(&rival, &mut players));
        let (sente, gote) = if i_am_sente { (me, them) } else { (them, me) };
        drop(players);
        game::start(self.games.clone(), wanted, [sente, gote]);
        Asked::Matched
    }
}

/// Whether a player asking for `mine` may play one waiting with `theirs`.
fn fits(mine: TurnPreference, theirs: TurnPreference) -> bool {
    use TurnPreference::*;
    !matches!((mine, theirs), (Sente, Sente) | (Gote, Gote))
}

/// A fair coin, from the operating system's random numbers.
fn coin() -> bool {
    let mut byte = [0u8; 1];
    getrandom::fill(&mut byte).is_ok_and(|()| byte[0] & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_fit_unless_both_want_the_same() {
        use TurnPreference::*;
        assert!(fits(Sente, Gote));
        assert!(fits(Either, Sente));
        assert!(fits(Gote, Either));
        assert!(!fits(Sente, Sente));
        assert!(!fits(Gote, Gote));
    }
}
