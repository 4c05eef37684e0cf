//! What happens to games without a request: watchers told of every
//! change (this process's and, through the store, other processes'), the
//! flag of a running clock falling, and the computer's turn.

use super::clock;
use super::live::AnyGame;
use super::names::Opponent;
use super::refusal::Refusal;
use super::service::{
    lock, Actor, ClockNow, ComputerTurn, GameResult, Games, Reply, StateMessage, Watch,
};
use super::state::GameState;
use crate::store::{Declared, GameId, StoreError, StoredGame};
use axum::http::StatusCode;
use koma_rules::{Color, EndReason, Outcome};
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
                self.tell_engine_game_over(&stored, &game);
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

    /// Sends `state` to the game's watchers unless this version or a
    /// later one was sent.
    pub(crate) fn broadcast(&self, id: GameId, state: &GameState) {
        self.send(id, state, false);
    }

    /// Sends `state` to the game's watchers unless a later version was
    /// sent (or this one, unless `again`).
    fn send(&self, id: GameId, state: &GameState, again: bool) {
        let mut watchers = lock(&self.watchers);
        let Some(watch) = watchers.get_mut(&id) else {
            return;
        };
        if state.version < watch.sent || (state.version == watch.sent && !again) {
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
        self.tell_engine_game_over(stored, game);
    }

    /// If a registered engine played this game and it has ended, tells the
    /// engine how (`gameover`), as a GUI does. Its process then forgets
    /// the game, so that telling it again does nothing.
    fn tell_engine_game_over(&self, stored: &StoredGame, game: &AnyGame) {
        let (
            Some(picker),
            Opponent::Computer {
                engine: Some(name), ..
            },
        ) = (&self.picker, &stored.opponent)
        else {
            return;
        };
        let (Some(outcome), Some(computer)) = (
            game.outcome(),
            Self::computer_color(stored.variant, &stored.opponent),
        ) else {
            return;
        };
        picker.game_over(
            name,
            stored.id,
            GameResult::for_side(outcome.winner, computer),
        );
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

    /// If the computer is to move in this game, queues its move for one of
    /// the computer opponents' engines ([`crate::opponent::computer_pool`]) and plays
    /// the answer like any other move; a reply to a position the game has
    /// left (even for one with as many moves) is dropped.
    pub(super) fn computer_turn(self: &Arc<Self>, stored: &StoredGame, game: &AnyGame) {
        let (Some(picker), Opponent::Computer { level, engine, .. }) =
            (&self.picker, &stored.opponent)
        else {
            return;
        };
        let computer = Self::computer_color(stored.variant, &stored.opponent);
        let Some(computer) = computer.filter(|&side| side == game.turn()) else {
            return;
        };
        if game.outcome().is_some() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if !lock(&self.thinking).insert(stored.id) {
            return;
        }
        let (games, picker, game) = (self.clone(), picker.clone(), game.clone());
        let (level, engine) = (*level, engine.clone());
        let version = stored.version;
        let game_id = stored.id;
        let impasse = stored.impasse_rule();
        // A registered engine's move takes as many engines as its threads.
        let slots = engine.as_deref().map_or(1, |name| picker.threads(name));
        self.computers.submit(game_id, slots, move |waited| {
            // On an engine's thread, at its lower priority. The game may
            // have changed while this waited (a takeback): then there is
            // nothing to think about.
            if waited {
                // Its watchers were told the computer waits: they learn
                // that it thinks now, from the requests' threads.
                let games = games.clone();
                runtime.spawn_blocking(move || games.send_state_again(game_id));
            }
            let reply = games
                .load(game_id)
                .ok()
                .filter(|now| now.version == version)
                .map_or(Reply::Nothing, |now| {
                    let clock = clock_now(&now, &game);
                    picker.pick(&ComputerTurn {
                        game: &game,
                        game_id,
                        level,
                        engine: engine.as_deref(),
                        budget: clock.map(|clock| computer_budget(&clock, computer)),
                        clock,
                        impasse,
                    })
                });
            // The move is played as a person's is, on tokio's blocking
            // threads at the requests' priority: the store is shared with
            // them, and must not wait for a thread the searches slow.
            runtime.spawn_blocking(move || {
                let id = game_id.to_string();
                let ply = game.ply() as u64;
                let at = (ply, version);
                let played = match &reply {
                    Reply::Move(text) => {
                        games.play_at(&id, ply, Some(version), text, Actor::Server)
                    }
                    Reply::Declare => games.declare_at(&id, ply, Some(version), Actor::Server),
                    Reply::Resign => games.computer_ends(&id, at, computer, |side| {
                        Outcome::win(!side, EndReason::Resignation)
                    }),
                    Reply::Illegal(why) | Reply::Failed(why) => {
                        eprintln!("koma: game {id}: {why}");
                        let illegal = matches!(reply, Reply::Illegal(_));
                        games.computer_ends(&id, at, computer, |side| {
                            if illegal {
                                Outcome::win(!side, EndReason::IllegalMove)
                            } else {
                                Outcome::draw(EndReason::Abandoned)
                            }
                        })
                    }
                    Reply::Nothing => Err(Refusal::internal("no move")),
                }
                .is_ok();
                lock(&games.thinking).remove(&game_id);
                // If the game moved on meanwhile and the computer is to move
                // in the new position, it thinks again (never twice on one
                // version).
                let moved_on = games.load(game_id).is_ok_and(|s| s.version != version);
                if !played && moved_on {
                    let _ = games.state(&id);
                }
            });
        });
    }

    /// Ends game `id` with `outcome(computer)` for its computer, if the
    /// game is still at `(ply, version)`: a registered engine resigned,
    /// played a move the rules refuse, or could not play.
    fn computer_ends(
        self: &Arc<Self>,
        id: &str,
        (ply, version): (u64, u64),
        computer: Color,
        outcome: impl Fn(Color) -> Outcome,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, Some(version), Actor::Server, &mut |seated| {
            seated
                .game
                .declare(outcome(computer))
                .map_err(|error| Refusal::unprocessable(error.to_string()))
        })
    }

    /// Sends game `id`'s state as it is now to its watchers, even if they
    /// have this version already: what changed is not the game but where
    /// its computer stands (it left the engines' queue and thinks).
    fn send_state_again(self: &Arc<Self>, id: GameId) {
        if !lock(&self.watchers).contains_key(&id) {
            return;
        }
        if let Ok(state) = self.state(&id.to_string()) {
            self.send(id, &state, true);
        }
    }

    /// `state` with where the game's computer stands in the engines'
    /// queue, if it waits there.
    pub(super) fn with_waiting(&self, mut state: GameState) -> GameState {
        if let Ok(id) = state.id.parse() {
            state.computer_waiting = self.computers.waiting(id);
        }
        state
    }
}

/// The clocks of a timed game as they stand now: the side to move's time
/// spent so far (waiting for an engine too) taken off its main time, and
/// off its byoyomi once the main time is gone.
fn clock_now(stored: &StoredGame, game: &AnyGame) -> Option<ClockNow> {
    let clock = stored.clock.as_ref()?;
    let elapsed = clock.running_since.map_or(0, |since| {
        u64::try_from(clock::now_ms().saturating_sub(since)).unwrap_or(0)
    });
    let mut main_ms = clock.main_ms;
    let turn = game.turn().index();
    let beyond_main = elapsed.saturating_sub(main_ms[turn]);
    main_ms[turn] = main_ms[turn].saturating_sub(elapsed);
    Some(ClockNow {
        main_ms,
        byoyomi_ms: clock.control.byoyomi_ms.saturating_sub(beyond_main),
        increment_ms: clock.control.increment_ms,
    })
}

/// Koma's engine's time for its move in a timed game, from the clocks as
/// they stand now (the time it waited for an engine is spent): a fortieth
/// of the main time left, plus most of the byoyomi and increment, enough
/// to never lose on time.
fn computer_budget(now: &ClockNow, turn: Color) -> Duration {
    Duration::from_millis(
        (now.main_ms[turn.index()] / 40 + now.byoyomi_ms * 3 / 4 + now.increment_ms * 3 / 4)
            .max(50),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::service::{MovePicker, NewGame};
    use crate::store::memory_store::{parse_size, MemoryStore, DEFAULT_MEMORY};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{mpsc, Mutex};

    /// A computer that counts how many of its searches think at once,
    /// each until the test lets one go, then plays the first legal move.
    struct GatedPicker {
        now: AtomicUsize,
        most: AtomicUsize,
        gate: Mutex<mpsc::Receiver<()>>,
    }

    impl MovePicker for GatedPicker {
        fn pick(&self, turn: &ComputerTurn<'_>) -> Reply {
            let thinking = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(thinking, Ordering::SeqCst);
            let _ = self.gate.lock().unwrap().recv();
            self.now.fetch_sub(1, Ordering::SeqCst);
            turn.game
                .view()
                .legal_moves
                .first()
                .cloned()
                .map_or(Reply::Nothing, Reply::Move)
        }
    }

    /// Waits (at most a minute, for a loaded machine) until `done` holds.
    fn wait_until(mut done: impl FnMut() -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "timed out");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn against_computer(color: &str) -> NewGame {
        serde_json::from_value(serde_json::json!({
            "variant": "spear",
            "opponent": { "kind": "computer", "level": 20, "color": color },
        }))
        .unwrap()
    }

    /// Games in memory whose computer is a [`GatedPicker`] on `engines`
    /// engines, the runtime their moves are played on, and the sender that
    /// lets one search go.
    fn gated_games(
        engines: usize,
    ) -> (
        tokio::runtime::Runtime,
        mpsc::Sender<()>,
        Arc<GatedPicker>,
        Arc<Games>,
    ) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (release, gate) = mpsc::channel();
        let picker = Arc::new(GatedPicker {
            now: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            gate: Mutex::new(gate),
        });
        let store = MemoryStore::new(parse_size(DEFAULT_MEMORY).unwrap());
        let games = Arc::new(Games::new(Box::new(store), Some(picker.clone()), engines));
        (runtime, release, picker, games)
    }

    #[test]
    fn computer_moves_queue_for_the_engines_and_the_state_says_so() {
        let (runtime, release, picker, games) = gated_games(2);
        let _inside = runtime.enter();
        // Five games where the computer moves first: two think, three wait
        // in the order they came.
        let ids: Vec<String> = (0..5)
            .map(|_| games.create(against_computer("sente")).unwrap().id)
            .collect();
        wait_until(|| picker.now.load(Ordering::SeqCst) == 2);
        for (index, id) in ids.iter().enumerate() {
            let waiting = games.state(id).unwrap().computer_waiting;
            match index {
                0 | 1 => assert_eq!(waiting, None, "game {index} thinks"),
                _ => {
                    let waiting = waiting.expect("waits for an engine");
                    assert_eq!((waiting.ahead, waiting.engines), (index - 2, 2));
                    assert!(waiting.since > 0);
                }
            }
        }
        // A person's move in a sixth game: its answer already says that
        // the computer's reply waits, behind the three.
        let created = games.create(against_computer("gote")).unwrap();
        let token = created.seats.as_ref().unwrap()["sente"].clone();
        let first = created.legal_moves[0].clone();
        let answer = games.play(&created.id, 0, &first, Some(&token)).unwrap();
        assert_eq!(answer.computer_waiting.map(|w| w.ahead), Some(3));
        for _ in 0..6 {
            release.send(()).unwrap();
        }
        wait_until(|| games.state(&created.id).unwrap().ply == 2);
        for id in &ids {
            wait_until(|| games.state(id).unwrap().ply == 1);
            assert_eq!(games.state(id).unwrap().computer_waiting, None);
        }
        assert_eq!(picker.most.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_waiting_computer_is_announced_again_when_it_starts_thinking() {
        let (runtime, release, picker, games) = gated_games(1);
        let _inside = runtime.enter();
        let thinking = games.create(against_computer("sente")).unwrap().id;
        wait_until(|| picker.now.load(Ordering::SeqCst) == 1);
        let waiting = games.create(against_computer("sente")).unwrap().id;
        let (state, mut receiver) = games.subscribe(&waiting).unwrap();
        assert!(state.computer_waiting.is_some(), "every engine is busy");
        // The first game's search ends: the second's begins, and its
        // watchers hear of it before its move.
        release.send(()).unwrap();
        wait_until(|| games.state(&thinking).unwrap().ply == 1);
        let (version, message) = runtime
            .block_on(async {
                tokio::time::timeout(Duration::from_secs(60), receiver.recv()).await
            })
            .expect("a state within a minute")
            .expect("the channel is open");
        assert_eq!(version, state.version, "the same game, sent again");
        let sent: serde_json::Value = serde_json::from_str(&message).unwrap();
        assert_eq!(sent["state"]["ply"], 0, "{sent}");
        assert!(sent["state"].get("computerWaiting").is_none(), "{sent}");
        release.send(()).unwrap();
        wait_until(|| games.state(&waiting).unwrap().ply == 1);
    }
}
