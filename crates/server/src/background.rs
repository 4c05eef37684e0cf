//! What happens to games without a request: watchers told of every
//! change (this process's and, through the store, other processes'), the
//! flag of a running clock falling, and the computer's turn.

use super::clock;
use super::live::AnyGame;
use super::names::Opponent;
use super::refusal::Refusal;
use super::service::{lock, Actor, Games, StateMessage, Watch, DECLARE};
use super::state::GameState;
use super::store::{Declared, GameId, StoreError, StoredGame};
use axum::http::StatusCode;
use koma_rules::EndReason;
use koma_rules::Outcome;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, Notify};

impl Games {
    /// Tells this process's watchers of the changes other processes make
    /// to the games they watch (a store shared through PostgreSQL).
    pub fn listen_to_store(self: &Arc<Self>) -> Result<(), String> {
        let games = Arc::downgrade(self);
        self.store
            .listen(Arc::new(move |id, version| {
                let Some(games) = games.upgrade() else { return };
                let behind = lock(&games.watchers)
                    .get(&id)
                    .is_some_and(|watch| watch.sent < version);
                if behind {
                    if let Ok(state) = games.state(&id.to_string()) {
                        games.broadcast(id, &state);
                    }
                    // The game changed: its clock's deadline may have moved.
                    if let Some(wake) = lock(&games.timers).get(&id) {
                        wake.notify_one();
                    }
                }
            }))
            .map_err(|e| match e {
                StoreError::Failed(message) => message,
                _ => "the games database cannot tell of other servers' changes".to_owned(),
            })
    }

    /// Whether the side to move in `game` has run out of time at `now`.
    pub(super) fn flag_fell(stored: &StoredGame, game: &AnyGame, now: i64) -> bool {
        game.outcome().is_none()
            && stored
                .clock
                .as_ref()
                .is_some_and(|clock| clock.flagged(game.turn(), now))
    }

    /// Ends `game` on time: the side to move lost.
    pub(super) fn declare_timeout(stored: &mut StoredGame, game: &mut AnyGame, now: i64) {
        let loser = game.turn();
        if game
            .declare(Outcome::win(!loser, EndReason::Timeout))
            .is_ok()
        {
            if let Some(clock) = &mut stored.clock {
                clock.main_ms[loser.index()] = 0;
                clock.restart(game.ply(), true, now);
            }
            stored.declared = game
                .declared()
                .map(|o| Declared::from_outcome(stored.variant, o));
            stored.takeback = None;
            stored.version += 1;
        }
    }

    /// Declares the fall of game `id`'s flag if it has fallen (checked
    /// again inside the change: another process may have got there first),
    /// tells the watchers, and returns the game as it is afterwards.
    pub(super) fn flag(
        self: &Arc<Self>,
        id: GameId,
    ) -> Result<Option<(StoredGame, AnyGame)>, Refusal> {
        let mut after = None;
        let result = self.store.update(id, &mut |stored: &mut StoredGame| {
            let now = clock::now_ms();
            let mut game = Self::replay(stored)?;
            if !Self::flag_fell(stored, &game, now) {
                // Rolled back: nothing to write.
                return Err(Refusal::new(StatusCode::OK, "not yet"));
            }
            Self::declare_timeout(stored, &mut game, now);
            after = Some(game);
            Ok(())
        });
        match (result, after) {
            (Ok(stored), Some(game)) => {
                self.broadcast(id, &GameState::new(&stored, &game));
                Ok(Some((stored, game)))
            }
            (Err(StoreError::Refused(_)), _) => Ok(None),
            (Err(StoreError::NotFound), _) => Err(Refusal::no_game(&id.to_string())),
            (Err(StoreError::Failed(message)), _) => Err(Refusal::internal(message)),
            (Ok(_), None) => Ok(None),
        }
    }

    /// The state of game `id` and a receiver of every later `state` message.
    pub fn subscribe(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(GameState, broadcast::Receiver<StateMessage>), Refusal> {
        let game_id = Self::parse_id(id)?;
        // Subscribed before reading, so that no change falls in between.
        let receiver = {
            let mut watchers = lock(&self.watchers);
            watchers
                .entry(game_id)
                .or_insert_with(|| Watch {
                    sender: broadcast::channel(64).0,
                    sent: 0,
                })
                .sender
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
            .is_some_and(|watch| watch.sender.receiver_count() == 0)
        {
            watchers.remove(&id);
        }
    }

    /// Sends `state` to the game's watchers unless a later one was sent.
    pub(super) fn broadcast(&self, id: GameId, state: &GameState) {
        let mut watchers = lock(&self.watchers);
        let Some(watch) = watchers.get_mut(&id) else {
            return;
        };
        if state.version <= watch.sent {
            return;
        }
        watch.sent = state.version;
        let message = serde_json::json!({ "type": "state", "state": state }).to_string();
        if watch.sender.send((state.version, message.into())).is_err() {
            watchers.remove(&id);
        }
    }

    /// What follows a change: the computer's turn, and a timer for a
    /// running clock, woken to read the new deadline.
    pub(super) fn after_change(self: &Arc<Self>, stored: &StoredGame, game: &AnyGame) {
        self.computer_turn(stored, game);
        self.watch_clock(stored, game, true);
    }

    /// What follows a look at a game (after a restart, the first look
    /// brings back the computer's thinking and the clock's timer); an
    /// existing timer is left asleep, as nothing changed.
    pub(super) fn after_look(self: &Arc<Self>, stored: &StoredGame, game: &AnyGame) {
        self.computer_turn(stored, game);
        self.watch_clock(stored, game, false);
    }

    /// Makes sure a running clock has a timer that declares its flag when
    /// it falls, even if nobody moves or looks. One timer per game: a
    /// change wakes it (`changed`) to read the new deadline (the other
    /// side's may be sooner), and it ends when the clocks stand.
    fn watch_clock(self: &Arc<Self>, stored: &StoredGame, game: &AnyGame, changed: bool) {
        let running = game.outcome().is_none()
            && stored
                .clock
                .as_ref()
                .is_some_and(|c| c.running_since.is_some());
        if !running {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let wake = {
            let mut timers = lock(&self.timers);
            if let Some(wake) = timers.get(&stored.id) {
                if changed {
                    wake.notify_one();
                }
                return;
            }
            let wake = Arc::new(Notify::new());
            timers.insert(stored.id, wake.clone());
            wake
        };
        let (games, id) = (self.clone(), stored.id);
        runtime.spawn(async move {
            loop {
                let Some(deadline) = games.clone().deadline(id).await else {
                    lock(&games.timers).remove(&id);
                    // A change between the look and the removal found this
                    // timer and counted on it: look once more.
                    let again = games.clone().deadline(id).await.is_some();
                    if again && !lock(&games.timers).contains_key(&id) {
                        lock(&games.timers).insert(id, wake.clone());
                        continue;
                    }
                    break;
                };
                let wait = u64::try_from(deadline.saturating_sub(clock::now_ms())).unwrap_or(0);
                tokio::select! {
                    // A little after the deadline, so that the flag has surely fallen.
                    _ = tokio::time::sleep(Duration::from_millis(wait + 5)) => {
                        let flagger = games.clone();
                        let _ = tokio::task::spawn_blocking(move || flagger.flag(id)).await;
                    }
                    // The game changed: read the deadline again.
                    _ = wake.notified() => {}
                }
            }
        });
    }

    /// When the flag of game `id`'s side to move falls, if its clock runs.
    async fn deadline(self: Arc<Self>, id: GameId) -> Option<i64> {
        tokio::task::spawn_blocking(move || {
            let stored = self.store.get(id).ok()?;
            let game = Self::replay(&stored).ok()?;
            if game.outcome().is_some() {
                return None;
            }
            stored.clock.as_ref()?.deadline(game.turn())
        })
        .await
        .ok()
        .flatten()
    }

    /// If the computer is to move in this game, asks it for a move in the
    /// background and plays it like any other; a reply to a position the
    /// game has left (even for one with as many moves) is dropped.
    pub(super) fn computer_turn(self: &Arc<Self>, stored: &StoredGame, game: &AnyGame) {
        let (Some(picker), Opponent::Computer { level, .. }) = (&self.picker, &stored.opponent)
        else {
            return;
        };
        let computer = Self::computer_color(stored.variant, &stored.opponent);
        if game.outcome().is_some() || computer != Some(game.turn()) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if !lock(&self.thinking).insert(stored.id) {
            return;
        }
        let budget = stored.clock.as_ref().map(|clock| {
            // A fortieth of the main time left, plus most of the byoyomi
            // and increment: enough to never lose on time.
            let control = clock.control;
            let main = clock.main_ms[game.turn().index()];
            Duration::from_millis(
                (main / 40 + control.byoyomi_ms * 3 / 4 + control.increment_ms * 3 / 4).max(50),
            )
        });
        let (games, picker, game, level) = (self.clone(), picker.clone(), game.clone(), *level);
        let version = stored.version;
        let game_id = stored.id;
        let impasse = stored.impasse_rule();
        runtime.spawn_blocking(move || {
            let id = game_id.to_string();
            let ply = game.ply() as u64;
            let played = picker
                .pick(&game, level, budget, impasse)
                .is_some_and(|text| {
                    if text == DECLARE {
                        games.declare_at(&id, ply, Some(version), Actor::Server)
                    } else {
                        games.play_at(&id, ply, Some(version), &text, Actor::Server)
                    }
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
