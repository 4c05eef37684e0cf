//! Rematch (issue 50): after a game ends, the same game again with the
//! colours swapped — the same game and start position (a handicap too),
//! computer level, clock and impasse rule, the names swapped with the
//! sides. At one screen (two people, or one against the computer) a seat
//! asks and the new game is made at once. Between two players on their
//! own machines (a shared game) one offers, and the other accepts, or
//! declines, or the offerer cancels; every page sees the offer and its
//! answer in the finished game's state (`rematch`). Each player then asks
//! again with its own token and is given its own seat in the new game, so
//! that a token never reaches anyone but its holder. A game has one
//! rematch: whoever asks after it was made gets the same new game.

use super::clock::Clock;
use super::live::AnyGame;
use super::names::{self, Opponent};
use super::record_notes::RecordNotes;
use super::refusal::Refusal;
use super::seats::Mode;
use super::service::{Actor, Games, Setup};
use super::state::{GameState, HeadersView};
use crate::store::{GameId, Rematch, StoreError, StoredGame};
use koma_rules::Color;
use serde::Deserialize;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `POST /api/games/{id}/rematch`: offer or accept (`decline` false), or
/// decline the other's offer or cancel one's own (`decline` true).
#[derive(Debug, Deserialize)]
pub struct RematchRequest {
    /// The asker's seat token in the finished game.
    #[serde(default)]
    pub token: Option<String>,
    /// Drop the offer waiting instead.
    #[serde(default)]
    pub decline: bool,
}

/// What a rematch request gave.
pub enum RematchAnswer {
    /// The finished game, with the offer made or dropped.
    Offer(GameState),
    /// The new game, with the asker's seat tokens in it.
    Game {
        /// Its state, with `seats`.
        state: GameState,
        /// Whether this request made it (`201`), or it was made before.
        created: bool,
    },
}

/// What the change to the finished game decided.
enum Step {
    /// An offer was made or dropped.
    Offer,
    /// The new game is to be kept now, this request having claimed it.
    Make(Box<(StoredGame, AnyGame)>),
    /// The new game was made before.
    Made(GameId),
}

/// How long a request that finds the rematch claimed waits for the new
/// game to be kept by the request that claimed it a moment before.
const MADE_WAIT: Duration = Duration::from_secs(5);

impl Games {
    /// `POST /api/games/{id}/rematch` with the seat `token`: see the
    /// module's comment and docs/API.md.
    pub fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        decline: bool,
    ) -> Result<RematchAnswer, Refusal> {
        // A flag that has fallen is declared first: the game is over then.
        self.state(id)?;
        let game_id = Self::parse_id(id)?;
        let mut step = None;
        // The asker's side, when it holds one seat of two (a shared game).
        let mut own_seat = None;
        let result = self.store.update(game_id, &mut |stored: &mut StoredGame| {
            let seat = Self::authorize(stored, Actor::Player(token))?;
            if Self::replay(stored)?.outcome().is_none() {
                return Err(Refusal::unprocessable(
                    "The game is not over: a rematch is offered once it has ended.",
                ));
            }
            let mut rematch = stored.rematch.clone().unwrap_or_default();
            if let Some(made) = rematch.game {
                own_seat = seat.filter(|_| stored.mode == Mode::Shared);
                step = Some(Step::Made(made));
                return Ok(());
            }
            if stored.mode == Mode::Shared {
                let me = seat.ok_or_else(|| {
                    Refusal::forbidden("spectator", "Only the players can offer a rematch.")
                })?;
                own_seat = Some(me);
                if let Some(done) = Self::offer(stored, &mut rematch, me, decline)? {
                    stored.rematch = Some(done);
                    stored.version += 1;
                    step = Some(Step::Offer);
                    return Ok(());
                }
            } else if decline {
                return Err(Refusal::unprocessable(
                    "At one screen a rematch starts at once: there is no offer to decline.",
                ));
            }
            let (new, game) = Self::rematch_of(stored)?;
            stored.rematch = Some(Rematch {
                game: Some(new.id),
                ..Rematch::default()
            });
            stored.version += 1;
            step = Some(Step::Make(Box::new((new, game))));
            Ok(())
        });
        let after = result.map_err(|e| self.refused(game_id, e))?;
        // In a shared game the asker gets its own new seat, the other side
        // of its old one; at one screen, every seat.
        let shown = move |color: Color| own_seat.is_none_or(|old| color == !old);
        match step {
            None => Err(Refusal::internal("the rematch was not decided")),
            Some(Step::Offer) => {
                let state = Self::state_of(&after)?;
                self.broadcast(game_id, &state);
                Ok(RematchAnswer::Offer(state))
            }
            Some(Step::Make(made)) => {
                let (new, game) = *made;
                let new_id = new.id;
                match self.keep(new, &game, shown) {
                    Ok(state) => {
                        if let Ok(old) = Self::state_of(&after) {
                            self.broadcast(game_id, &old);
                        }
                        Ok(RematchAnswer::Game {
                            state,
                            created: true,
                        })
                    }
                    Err(refusal) => {
                        self.unclaim(game_id, new_id);
                        Err(refusal)
                    }
                }
            }
            Some(Step::Made(new_id)) => {
                let stored = self.wait_for(new_id)?;
                let state = self.state(&new_id.to_string())?;
                Ok(RematchAnswer::Game {
                    state: Self::with_seats(state, &stored, shown),
                    created: false,
                })
            }
        }
    }

    /// A shared game's offer and its answers, by the seat `me`: the
    /// rematch afterwards, or `None` when `me` accepts the other's offer.
    fn offer(
        stored: &StoredGame,
        rematch: &mut Rematch,
        me: Color,
        decline: bool,
    ) -> Result<Option<Rematch>, Refusal> {
        let variant = stored.variant;
        let offerer =
            (rematch.offered_by.as_deref()).and_then(|name| names::parse_color(variant, name));
        let name = |color| Some(names::color_name(variant, color).to_owned());
        match (decline, offerer) {
            (true, Some(offerer)) => Ok(Some(Rematch {
                offered_by: None,
                declined_by: name(me),
                cancelled: offerer == me,
                game: None,
            })),
            (true, None) => Err(Refusal::unprocessable(
                "There is no rematch offer to decline.",
            )),
            (false, Some(offerer)) if offerer == me => Err(Refusal::unprocessable(format!(
                "You have offered a rematch already; {} has not answered yet.",
                names::color_title(variant, !me)
            ))),
            (false, Some(_)) => Ok(None),
            (false, None) => Ok(Some(Rematch {
                offered_by: name(me),
                ..Rematch::default()
            })),
        }
    }

    /// The rematch of `stored`: the same game from the same start, the
    /// computer (if it plays: the same engine) at its level on the other side, the clock's
    /// control, the impasse rule, and the players' names swapped.
    pub(super) fn rematch_of(stored: &StoredGame) -> Result<(StoredGame, AnyGame), Refusal> {
        let variant = stored.variant;
        let game = AnyGame::new(variant, Some(&stored.start)).map_err(|e| {
            Refusal::internal(format!("The game's start cannot begin a rematch: {e}"))
        })?;
        let opponent = match &stored.opponent {
            Opponent::Human => Opponent::Human,
            Opponent::Computer {
                level,
                color,
                engine,
            } => {
                let side = names::parse_color(variant, color)
                    .ok_or_else(|| Refusal::internal("The computer's side is unknown."))?;
                Opponent::Computer {
                    level: *level,
                    color: names::color_name(variant, !side).to_owned(),
                    engine: engine.clone(),
                }
            }
        };
        let old = &stored.headers;
        let headers = HeadersView {
            sente: old.gote.clone(),
            gote: old.sente.clone(),
            event: old.event.clone(),
            site: old.site.clone(),
            time_control: old.time_control.clone(),
            ..HeadersView::default()
        };
        let setup = Setup {
            headers,
            notes: RecordNotes::default(),
            opponent,
            mode: stored.mode,
            clock: stored.clock.as_ref().map(|clock| Clock::new(clock.control)),
            impasse: stored.impasse,
        };
        let new = Self::new_stored(&game, setup)?;
        Ok((new, game))
    }

    /// Gives up the claim on `new_id`, which could not be kept, so that
    /// the next request makes the rematch again. Best effort: the game is
    /// left as it is if that fails too.
    fn unclaim(self: &Arc<Self>, id: GameId, new_id: GameId) {
        let undone = self.store.update(id, &mut |stored: &mut StoredGame| {
            if stored.rematch.as_ref().and_then(|r| r.game) == Some(new_id) {
                stored.rematch = None;
                stored.version += 1;
            }
            Ok(())
        });
        if let Ok(after) = undone {
            if let Ok(state) = Self::state_of(&after) {
                self.broadcast(id, &state);
            }
        }
    }

    /// The rematch `id`, waiting a moment for the request that claimed it
    /// to keep it (two players who accept at once).
    fn wait_for(&self, id: GameId) -> Result<StoredGame, Refusal> {
        let deadline = Instant::now() + MADE_WAIT;
        loop {
            match self.store.get(id) {
                Err(StoreError::NotFound) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(StoreError::NotFound) => {
                    return Err(Refusal::internal(
                        "The rematch is being made; ask again in a moment.",
                    ))
                }
                Err(StoreError::Refused(refusal)) => return Err(refusal),
                Err(StoreError::Failed(message)) => return Err(Refusal::internal(message)),
                Ok(stored) => return Ok(stored),
            }
        }
    }

    /// A store's refusal of a change to game `id`, carrying the game's
    /// state so that the page resynchronises.
    fn refused(&self, id: GameId, error: StoreError) -> Refusal {
        match error {
            StoreError::NotFound => Refusal::no_game(&id.to_string()),
            StoreError::Failed(message) => Refusal::internal(message),
            StoreError::Refused(mut refusal) => {
                refusal.state = self
                    .load(id)
                    .and_then(|s| Self::state_of(&s))
                    .ok()
                    .map(Box::new);
                refusal
            }
        }
    }
}

#[cfg(test)]
#[path = "rematch_tests.rs"]
mod tests;
