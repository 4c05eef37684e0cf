//! Tests of the rematch: at one screen at once, between two machines by
//! offer and answer, one new game whoever asks, and the requests that
//! must be refused (a spectator, a wrong token, a game still going, an
//! offer twice, nothing to decline).

use super::RematchAnswer;
use crate::games::names::{Level, Opponent};
use crate::games::refusal::Refusal;
use crate::games::service::{ComputerTurn, Games, MovePicker, NewGame, Reply};
use crate::games::state::GameState;
use crate::store::memory_store::MemoryStore;
use std::sync::Arc;

/// A computer that never finds a move: these tests have no runtime, so
/// it is never even asked.
struct Silent;

impl MovePicker for Silent {
    fn pick(&self, _turn: &ComputerTurn<'_>) -> Reply {
        Reply::Nothing
    }
}

fn games() -> Arc<Games> {
    Arc::new(Games::new(
        Box::new(MemoryStore::new(64 << 20)),
        Some(Arc::new(Silent)),
        1,
    ))
}

fn create(games: &Arc<Games>, request: serde_json::Value) -> GameState {
    let request: NewGame = serde_json::from_value(request).expect("a request");
    games.create(request).expect("a new game")
}

fn token(state: &GameState, side: &str) -> String {
    state.seats.as_ref().expect("seats")[side].clone()
}

/// A shared shogi game with a clock and Alice as Sente, which Gote has
/// resigned; its id and the two tokens.
fn finished_shared_game(games: &Arc<Games>) -> (String, String, String) {
    let created = create(
        games,
        serde_json::json!({
            "variant": "shogi", "mode": "shared", "impasse": 24,
            "clock": { "initial": 300, "byoyomi": 10 },
            "headers": { "sente": "Alice", "gote": "Bob" },
        }),
    );
    let (sente, gote) = (token(&created, "sente"), token(&created, "gote"));
    games.resign(&created.id, 0, None, Some(&gote)).unwrap();
    (created.id, sente, gote)
}

fn offer(answer: Result<RematchAnswer, Refusal>) -> GameState {
    match answer {
        Ok(RematchAnswer::Offer(state)) => state,
        Ok(RematchAnswer::Game { state, .. }) => panic!("a new game {}", state.id),
        Err(refusal) => panic!("refused: {}", refusal.message),
    }
}

fn new_game(answer: Result<RematchAnswer, Refusal>, made_now: bool) -> GameState {
    match answer {
        Ok(RematchAnswer::Game { state, created }) => {
            assert_eq!(created, made_now, "made by this request");
            state
        }
        Ok(RematchAnswer::Offer(state)) => panic!("only an offer: {:?}", state.rematch),
        Err(refusal) => panic!("refused: {}", refusal.message),
    }
}

fn refusal(answer: Result<RematchAnswer, Refusal>) -> Refusal {
    match answer {
        Err(refusal) => refusal,
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn two_players_offer_and_accept_and_each_gets_its_own_new_seat() {
    let games = games();
    let (id, sente, gote) = finished_shared_game(&games);
    let offered = offer(games.rematch(&id, Some(&sente), false));
    let rematch = offered.rematch.clone().expect("a rematch");
    assert_eq!(rematch.offered_by.as_deref(), Some("sente"));
    assert_eq!(rematch.game, None);
    // Every page sees the offer: it is in the game's state.
    assert_eq!(
        games.state(&id).unwrap().rematch.unwrap().offered_by,
        Some("sente".into())
    );

    let accepted = new_game(games.rematch(&id, Some(&gote), false), true);
    assert_ne!(accepted.id, id);
    assert_eq!((accepted.variant, accepted.ply), ("shogi", 0));
    assert!(accepted.outcome.is_none());
    // Gote of the old game plays Sente now, and is given that seat alone.
    let seats = accepted.seats.clone().unwrap();
    assert_eq!(seats.keys().copied().collect::<Vec<_>>(), ["sente"]);
    assert_eq!(accepted.headers.sente.as_deref(), Some("Bob"));
    assert_eq!(accepted.headers.gote.as_deref(), Some("Alice"));
    let clock = serde_json::to_value(accepted.clock.as_ref().expect("the same clock")).unwrap();
    assert_eq!(
        (&clock["initialMs"], &clock["byoyomiMs"]),
        (&300_000.into(), &10_000.into())
    );
    assert_eq!(accepted.impasse.as_ref().map(|i| i.rule), Some(24));
    assert_eq!(serde_json::to_value(accepted.mode).unwrap(), "shared");

    // The offerer sees the new game's id, and asking again gets its seat.
    let old = games.state(&id).unwrap().rematch.unwrap();
    assert_eq!(old.game.map(|g| g.to_string()), Some(accepted.id.clone()));
    assert_eq!(old.offered_by, None);
    let joined = new_game(games.rematch(&id, Some(&sente), false), false);
    assert_eq!(joined.id, accepted.id);
    let theirs = joined.seats.clone().unwrap();
    assert_eq!(theirs.keys().copied().collect::<Vec<_>>(), ["gote"]);
    assert_ne!(theirs["gote"], sente, "a fresh token");

    // The tokens play their new sides, and not the other.
    let first = accepted.legal_moves[0].clone();
    let refused = games
        .play(&accepted.id, 0, &first, Some(&theirs["gote"]))
        .unwrap_err();
    assert_eq!(refused.status, 403);
    games
        .play(&accepted.id, 0, &first, Some(&seats["sente"]))
        .expect("the new Sente moves first");
}

#[test]
fn a_second_accept_gives_the_same_game_never_two() {
    let games = games();
    let (id, sente, gote) = finished_shared_game(&games);
    offer(games.rematch(&id, Some(&gote), false));
    let first = new_game(games.rematch(&id, Some(&sente), false), true);
    let again = new_game(games.rematch(&id, Some(&sente), false), false);
    assert_eq!(again.id, first.id);
    assert_eq!(again.seats, first.seats, "the same seat, the same token");
    // A decline after it was made changes nothing either.
    let after = new_game(games.rematch(&id, Some(&gote), true), false);
    assert_eq!(after.id, first.id);
}

#[test]
fn an_offer_declined_or_cancelled_is_shown_and_can_be_made_again() {
    let games = games();
    let (id, sente, gote) = finished_shared_game(&games);
    offer(games.rematch(&id, Some(&sente), false));
    let twice = refusal(games.rematch(&id, Some(&sente), false));
    assert_eq!(twice.status, 422);
    assert!(
        twice.message.contains("offered a rematch already"),
        "{}",
        twice.message
    );

    let declined = offer(games.rematch(&id, Some(&gote), true))
        .rematch
        .unwrap();
    assert_eq!(declined.offered_by, None);
    assert_eq!(declined.declined_by.as_deref(), Some("gote"));
    assert!(!declined.cancelled);

    let nothing = refusal(games.rematch(&id, Some(&sente), true));
    assert_eq!(nothing.status, 422);
    assert!(
        nothing.message.contains("no rematch offer"),
        "{}",
        nothing.message
    );

    let again = offer(games.rematch(&id, Some(&gote), false))
        .rematch
        .unwrap();
    assert_eq!(
        (again.offered_by.as_deref(), again.declined_by),
        (Some("gote"), None)
    );
    let cancelled = offer(games.rematch(&id, Some(&gote), true))
        .rematch
        .unwrap();
    assert_eq!(cancelled.declined_by.as_deref(), Some("gote"));
    assert!(cancelled.cancelled);
    assert_eq!(games.state(&id).unwrap().rematch.unwrap(), cancelled);
}

#[test]
fn spectators_wrong_tokens_and_unfinished_games_are_refused() {
    let games = games();
    let (id, sente, _) = finished_shared_game(&games);
    let spectator = refusal(games.rematch(&id, None, false));
    assert_eq!(
        (spectator.status.as_u16(), spectator.code),
        (403, Some("spectator"))
    );
    assert!(spectator.state.is_some(), "the page resynchronises");
    let stranger = "0123456789abcdef0123456789abcdef";
    for token in [stranger, "not a token", ""] {
        let wrong = refusal(games.rematch(&id, Some(token), false));
        assert_eq!(
            (wrong.status.as_u16(), wrong.code),
            (403, Some("bad-token"))
        );
    }
    assert_eq!(games.state(&id).unwrap().rematch, None, "nothing was kept");

    let going = create(
        &games,
        serde_json::json!({ "variant": "spear", "mode": "shared" }),
    );
    let early = refusal(games.rematch(&going.id, Some(&token(&going, "sente")), false));
    assert_eq!(early.status, 422);
    assert!(early.message.contains("not over"), "{}", early.message);
    // Another game's token is no seat of this one.
    let other = refusal(games.rematch(&going.id, Some(&sente), false));
    assert_eq!(other.status, 403);
    let missing = refusal(games.rematch("0123456789abcdef", Some(&sente), false));
    assert_eq!(missing.status, 404);
}

#[test]
fn against_the_computer_the_rematch_starts_at_once_with_the_colours_swapped() {
    let games = games();
    let created = create(
        &games,
        serde_json::json!({
            "variant": "shogi", "handicap": "two-piece",
            "opponent": { "kind": "computer", "level": 7, "color": "sente" },
            "clock": { "initial": 60, "increment": 2 },
        }),
    );
    let person = token(&created, "gote");
    let refused = refusal(games.rematch(&created.id, Some(&person), true));
    assert_eq!(refused.status, 422, "nothing to decline at one screen");
    games.resign(&created.id, 0, None, Some(&person)).unwrap();
    let rematch = new_game(games.rematch(&created.id, Some(&person), false), true);
    assert_eq!(
        rematch.opponent,
        Opponent::Computer {
            level: Level::Strength(7),
            color: "gote".into(),
            engine: None,
        }
    );
    assert_eq!(rematch.start, created.start, "the same handicap");
    assert_eq!(rematch.handicap.map(|h| h.name), Some("two-piece"));
    let clock = serde_json::to_value(rematch.clock.expect("the same clock")).unwrap();
    assert_eq!(
        (&clock["initialMs"], &clock["incrementMs"]),
        (&60_000.into(), &2_000.into())
    );
    let seats = rematch.seats.unwrap();
    assert_eq!(seats.keys().copied().collect::<Vec<_>>(), ["sente"]);
}

#[test]
fn two_people_at_one_screen_get_both_new_seats() {
    let games = games();
    let created = create(&games, serde_json::json!({ "variant": "pawns" }));
    let white = token(&created, "white");
    games.resign(&created.id, 0, None, Some(&white)).unwrap();
    let rematch = new_game(games.rematch(&created.id, Some(&white), false), true);
    assert_eq!(rematch.variant, "pawns");
    let seats = rematch.seats.unwrap();
    assert_eq!(
        seats.keys().copied().collect::<Vec<_>>(),
        ["black", "white"]
    );
    assert_eq!(serde_json::to_value(rematch.mode).unwrap(), "local");
}

#[test]
fn the_rematch_is_kept_with_the_game_as_plain_json() {
    let games = games();
    let (id, sente, _) = finished_shared_game(&games);
    offer(games.rematch(&id, Some(&sente), false));
    let state = serde_json::to_value(games.state(&id).unwrap()).unwrap();
    assert_eq!(
        state["rematch"],
        serde_json::json!({ "offeredBy": "sente", "declinedBy": null,
                            "cancelled": false, "game": null })
    );
}
