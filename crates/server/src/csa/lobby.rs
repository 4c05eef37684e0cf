//! Who is logged in to the CSA side and who waits for which game, and the
//! matching of two players into a game, as shogi-server's `League` does.
//!
//! A name is logged in once. A second login with the same name and the
//! same password nudges the first session out unless it is playing (what
//! shogi-server does, so that a client whose connection broke can log in
//! again at once); otherwise it is refused with `LOGIN:incorrect`.
//!
//! It answers `%%WHO` (everyone logged in, in the order they logged in,
//! with what they are doing) and `%%LIST` (the games offered or played)
//! as shogi-server words them.

use super::game::{self, Seat, ToSession};
use super::listing::{Listing, Phase};
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
    Playing {
        /// The game name.
        game: String,
        /// The player's side, `+` or `-` (as the protocol has it).
        sign: char,
        /// shogi-server's status: `agree_waiting`, `start_waiting` or
        /// `game`.
        phase: Phase,
    },
}

impl Status {
    fn playing(&self) -> bool {
        matches!(self, Status::Playing { .. })
    }

    /// shogi-server's `Player#to_s` after the name and protocol.
    fn describe(&self) -> String {
        match self {
            Status::Connected => "connected".to_owned(),
            Status::Waiting { game, turn } => {
                let sign = match turn {
                    TurnPreference::Sente => '+',
                    TurnPreference::Gote => '-',
                    TurnPreference::Either => '*',
                };
                format!("game_waiting {} {sign}", game.name)
            }
            Status::Playing { game, sign, phase } => {
                let phase = match phase {
                    Phase::Offered => "agree_waiting",
                    Phase::Agreed => "start_waiting",
                    Phase::Started => "game",
                };
                format!("{phase} {game} {sign}")
            }
        }
    }
}

struct Entry {
    session: u64,
    password: Option<String>,
    /// shogi-server's extended mode (`x1`), else plain CSA.
    extended: bool,
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
    /// The games offered or played, oldest first: each id, and what
    /// `%%SHOW` answers for it once it started.
    games_open: Mutex<Vec<(String, Option<String>)>>,
    next_session: AtomicU64,
}

impl Lobby {
    /// An empty lobby whose games are kept in `games`.
    pub fn new(games: Arc<Games>) -> Arc<Lobby> {
        Arc::new(Lobby {
            games,
            players: Mutex::new(HashMap::new()),
            games_open: Mutex::new(Vec::new()),
            next_session: AtomicU64::new(1),
        })
    }

    fn players(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        // Plain data, whole even if a holder panicked.
        self.players.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Logs `name` in (in `extended` mode or not): the session's number,
    /// or `None` if the name is taken (a session playing, or another
    /// password).
    pub fn login(
        &self,
        name: &str,
        password: Option<String>,
        extended: bool,
        outbox: mpsc::UnboundedSender<ToSession>,
    ) -> Option<u64> {
        let mut players = self.players();
        if let Some(old) = players.get(name) {
            if old.password != password || old.status.playing() {
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
                extended,
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
        self: &Arc<Self>,
        name: &str,
        session: u64,
        wanted: GameName,
        turn: TurnPreference,
        challenge: bool,
    ) -> Asked {
        let mut players = self.players();
        match players.get(name) {
            Some(entry) if entry.session == session && !entry.status.playing() => {}
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
        let seat = |player: &str, sente: bool, players: &mut HashMap<String, Entry>| {
            let entry = players.get_mut(player).expect("both are logged in");
            entry.status = Status::Playing {
                game: wanted.name.clone(),
                sign: if sente { '+' } else { '-' },
                phase: Phase::Offered,
            };
            Seat {
                name: player.to_owned(),
                outbox: entry.outbox.clone(),
            }
        };
        let me = seat(name, i_am_sente, &mut players);
        let them = seat(&rival, !i_am_sente, &mut players);
        let (sente, gote) = if i_am_sente { (me, them) } else { (them, me) };
        drop(players);
        game::start(self.clone(), self.games.clone(), wanted, [sente, gote]);
        Asked::Matched
    }
}

impl Listing for Lobby {
    fn reached(&self, name: &str, reached: Phase) {
        if let Some(Entry {
            status: Status::Playing { phase, .. },
            ..
        }) = self.players().get_mut(name)
        {
            *phase = reached;
        }
    }

    fn game_opened(&self, id: &str) {
        self.games_open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((id.to_owned(), None));
    }

    fn shown(&self, id: &str, show: String) {
        let mut games = self.games_open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, shown)) = games.iter_mut().find(|(open, _)| open == id) {
            *shown = Some(show);
        }
    }

    fn game_closed(&self, id: &str) {
        self.games_open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(open, _)| open != id);
    }
}

impl Lobby {
    /// shogi-server's answer to `%%WHO`: a line for each player logged
    /// in, oldest login first (`##[WHO] name x1 game koma-60-5 +`), then
    /// `##[WHO] +OK`.
    pub fn who(&self) -> String {
        let players = self.players();
        let mut entries: Vec<(&String, &Entry)> = players.iter().collect();
        entries.sort_by_key(|(_, entry)| entry.session);
        let mut text = String::new();
        for (name, entry) in entries {
            let protocol = if entry.extended { "x1" } else { "CSA" };
            let status = entry.status.describe();
            text.push_str(&format!("##[WHO] {name} {protocol} {status}\n"));
        }
        text.push_str("##[WHO] +OK\n");
        text
    }

    /// shogi-server's answer to `%%LIST`: the ids of the games offered or
    /// played, oldest first (`##[LIST] id`), then `##[LIST] +OK`.
    pub fn list(&self) -> String {
        let games = self.games_open.lock().unwrap_or_else(|e| e.into_inner());
        let mut text: String = games
            .iter()
            .map(|(id, _)| format!("##[LIST] {id}\n"))
            .collect();
        text.push_str("##[LIST] +OK\n");
        text
    }

    /// shogi-server's answer to `%%SHOW id`: the game's summary as it
    /// stands (see `words::Offer::show`) while it is played, and only
    /// `##[SHOW] +OK` for any other id.
    pub fn show(&self, id: &str) -> String {
        let games = self.games_open.lock().unwrap_or_else(|e| e.into_inner());
        games
            .iter()
            .find(|(open, _)| open == id)
            .and_then(|(_, shown)| shown.clone())
            .unwrap_or_else(|| "##[SHOW] +OK\n".to_owned())
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
