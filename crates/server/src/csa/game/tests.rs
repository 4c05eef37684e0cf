//! A CSA game whose store fails under it, driven through its task's
//! channels as the sessions drive it.

use super::{start, Event, FromPlayer, Seat, ToSession};
use crate::csa::lobby::Lobby;
use crate::csa::names::read_game_name;
use crate::games::service::Games;
use crate::store::memory_store::MemoryStore;
use crate::store::{Change, GameId, GameStore, StoreError, StoredGame};
use koma_csa::message::ClientCommand;
use koma_rules::Color;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Games in memory whose next `failures` updates fail, as a database that
/// went away fails.
struct FailingStore {
    games: MemoryStore,
    failures: Arc<AtomicUsize>,
}

impl GameStore for FailingStore {
    fn insert(&self, game: StoredGame) -> Result<(), StoreError> {
        self.games.insert(game)
    }

    fn get(&self, id: GameId) -> Result<StoredGame, StoreError> {
        self.games.get(id)
    }

    fn update(&self, id: GameId, change: Change<'_>) -> Result<StoredGame, StoreError> {
        let take_one = |left: usize| left.checked_sub(1);
        if self
            .failures
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, take_one)
            .is_ok()
        {
            return Err(StoreError::Failed("the database went away".into()));
        }
        self.games.update(id, change)
    }
}

/// The next message to a session, within a few seconds.
async fn next(inbox: &mut mpsc::UnboundedReceiver<ToSession>) -> ToSession {
    tokio::time::timeout(Duration::from_secs(5), inbox.recv())
        .await
        .expect("a message in time")
        .expect("the game holds the session's outbox")
}

/// The next lines to a session.
async fn text(inbox: &mut mpsc::UnboundedReceiver<ToSession>) -> String {
    match next(inbox).await {
        ToSession::Text(text) => text,
        other => panic!("lines expected, not {other:?}"),
    }
}

#[tokio::test]
async fn a_store_failure_breaks_the_game_off_and_ends_it_in_the_store() {
    let failures = Arc::new(AtomicUsize::new(0));
    let store = FailingStore {
        games: MemoryStore::new(64 << 20),
        failures: failures.clone(),
    };
    let games = Arc::new(Games::new(Box::new(store), None, 1));
    let (alice_out, mut alice) = mpsc::unbounded_channel();
    let (bob_out, mut bob) = mpsc::unbounded_channel();
    let seats = [
        Seat {
            name: "alice".into(),
            outbox: alice_out,
        },
        Seat {
            name: "bob".into(),
            outbox: bob_out,
        },
    ];
    let wanted = read_game_name("koma-600-10").unwrap();
    start(Lobby::new(games.clone()), games.clone(), wanted, seats);
    let mut game = None;
    for inbox in [&mut alice, &mut bob] {
        let ToSession::Joined { game: to_game, .. } = next(inbox).await else {
            panic!("joined first");
        };
        game = Some(to_game);
        assert!(text(inbox).await.starts_with("BEGIN Game_Summary"));
    }
    let game = game.unwrap();
    let send = |color, command| {
        let event = Event::Command(command);
        game.send(FromPlayer { color, event }).unwrap();
    };
    send(Color::Sente, ClientCommand::Agree);
    send(Color::Gote, ClientCommand::Agree);
    let started = text(&mut alice).await;
    assert_eq!(started, text(&mut bob).await);
    let id = started
        .trim_end()
        .strip_prefix("START:")
        .unwrap()
        .to_owned();

    // The store fails to keep the first move.
    failures.store(1, Ordering::SeqCst);
    send(
        Color::Sente,
        ClientCommand::parse("+7776FU").expect("a move"),
    );
    for inbox in [&mut alice, &mut bob] {
        let told = text(inbox).await;
        assert!(told.starts_with("##[ERROR] "), "{told}");
        assert!(told.ends_with("\n#CHUDAN\n"), "{told}");
        assert!(matches!(next(inbox).await, ToSession::GameOver));
    }
    // Nothing of the move is kept, and the game is not left running.
    let state = games.state(&id).unwrap();
    assert!(state.moves.is_empty());
    let outcome = state.outcome.expect("ended");
    assert_eq!((outcome.winner, outcome.reason), (None, "abandoned"));
}
