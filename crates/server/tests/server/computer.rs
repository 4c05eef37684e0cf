//! The computer opponent through the API: it gives a handicap and opens,
//! declares an impasse as soon as it wins, answers every move (an undo
//! takes its reply back too), plays Pawns-Only Chess perfectly, and plays
//! on its one engine with `--computer-engines 1`.

use crate::common::{start, start_with, token, usi_list, Server};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[test]
fn a_handicap_game_starts_with_the_computer_as_giver() {
    let server = start();
    let reply = server.post(
        "/api/games",
        &json!({
            "variant": "shogi",
            "handicap": "two-piece",
            "opponent": { "kind": "computer", "level": 1, "color": "gote" }
        }),
    );
    assert_eq!(reply.status, 201);
    let state = reply.json();
    assert_eq!(state["handicap"]["name"], "two-piece");
    assert_eq!(state["handicap"]["japanese"], "二枚落ち");
    assert_eq!(
        state["start"],
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // The giver, Gote, moves first: the computer opens.
    let id = state["id"].as_str().unwrap().to_owned();
    let state = wait_for_ply(&server, &id, 1);
    assert_eq!(state["moves"][0]["color"], "gote");
    assert_eq!(state["turn"], "sente");
    // An even game has no handicap in its state; a KIF names it on export.
    let even = server
        .post("/api/games", &json!({ "variant": "shogi" }))
        .json();
    assert!(even.get("handicap").is_none(), "{even}");
    let kif = server.get(&format!("/api/games/{id}/record?format=kifu"));
    let kif = String::from_utf8_lossy(&kif.body);
    assert!(kif.contains("手合割：二枚落ち"), "{kif}");

    for (request, refusal) in [
        (
            json!({ "variant": "shogi", "handicap": "nine-piece" }),
            "Unknown handicap",
        ),
        (
            json!({ "variant": "minishogi", "handicap": "bishop" }),
            "Handicaps are shogi's",
        ),
        (
            json!({ "variant": "shogi", "handicap": "bishop", "position": "startpos" }),
            "not both",
        ),
    ] {
        let reply = server.post("/api/games", &request);
        assert_eq!(reply.status, 422, "{request}");
        let text = String::from_utf8_lossy(&reply.body);
        assert!(text.contains(refusal), "{request}: {text}");
    }
}

#[test]
fn the_computer_declares_as_soon_as_it_wins_and_an_undo_takes_back_the_move_before() {
    let server = start();
    let game = server.create_with(&json!({
        "variant": "shogi",
        "position": "+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 w R5P 1",
        "opponent": { "kind": "computer", "level": 1, "color": "sente" }
    }));
    let id = game["id"].as_str().unwrap().to_owned();
    // Gote (the person) moves; the computer, with 28 points, declares.
    server.play(&id, 0, &["9i9h"]);
    let mut state = Value::Null;
    for _ in 0..300 {
        state = server.get(&format!("/api/games/{id}")).json();
        if !state["outcome"].is_null() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(state["outcome"]["reason"], "impasse", "{state}");
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["ply"], 1);
    let gote = token(&id, "gote").unwrap();
    let undone = server
        .post(
            &format!("/api/games/{id}/undo"),
            &json!({ "ply": 1, "token": gote }),
        )
        .json();
    assert_eq!(undone["ply"], 0, "{undone}");
    assert_eq!(undone["outcome"], Value::Null);
    assert_eq!(undone["turn"], "gote");
}

/// Polls game `id` until `ply` moves have been played.
fn wait_for_ply(server: &Server, id: &str, ply: u64) -> Value {
    for _ in 0..300 {
        let state = server.get(&format!("/api/games/{id}")).json();
        if state["ply"].as_u64() >= Some(ply) {
            return state;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("game {id} never reached ply {ply}");
}

#[test]
fn the_computer_answers_and_undo_takes_its_reply_back_too() {
    let server = start();
    // The computer plays first (Black in Spear) at full strength...
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "spear", "opponent": { "kind": "computer", "level": 20, "color": "black" } }),
    );
    assert_eq!(reply.status, 201);
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let state = wait_for_ply(&server, &id, 1);
    assert_eq!(state["opponent"]["kind"], "computer");
    let first = usi_list(&state)[0].clone();
    use koma_rules::Position;
    assert!(
        koma_rules::SpearPosition::start()
            .parse_move(&first)
            .is_ok(),
        "{first}"
    );
    // ...and answers the player's move at a low level.
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "minishogi", "opponent": { "kind": "computer", "level": 1, "color": "gote" } }),
    );
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.play(&id, 0, &["5e4d"]);
    let state = wait_for_ply(&server, &id, 2);
    assert_eq!(state["turn"], "sente");
    // Undo against the computer gives the turn back to the player.
    let state = server
        .post(&format!("/api/games/{id}/undo"), &json!({ "ply": 2 }))
        .json();
    assert_eq!(state["ply"], 0);
    assert_eq!(state["turn"], "sente");
}

#[test]
fn the_perfect_player_of_pawns_only_chess_plays_the_solved_game() {
    let server = start();
    // Playing White, it opens with the move the 8×8 proof starts with.
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "pawns", "opponent": { "kind": "computer", "level": "perfect", "color": "white" } }),
    );
    assert_eq!(reply.status, 201, "{:?}", reply.json());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let state = wait_for_ply(&server, &id, 1);
    assert_eq!(state["opponent"]["level"], "perfect");
    assert_eq!(usi_list(&state), ["b2b4"]);
    // Playing Black after 1.e3, which loses, it wins the game.
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "pawns", "opponent": { "kind": "computer", "level": "perfect", "color": "black" } }),
    );
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    let mut state = server.play(&id, 0, &["e2e3"]);
    let mut ply = 1;
    while state["outcome"].is_null() {
        state = wait_for_ply(&server, &id, ply as u64 + 1);
        if !state["outcome"].is_null() {
            break;
        }
        // White's first legal move in the list, each time.
        let white = state["legalMoves"][0].as_str().unwrap().to_owned();
        state = server.play(&id, ply + 1, &[&white]);
        ply += 2;
    }
    assert_eq!(state["outcome"]["winner"], "black", "{}", state["outcome"]);
}

#[test]
fn the_computer_plays_on_its_one_engine() {
    let server = start_with(&["--memory", "--computer-engines", "1"]);
    let created = server.create_with(&json!({
        "variant": "spear",
        "opponent": { "kind": "computer", "level": 1, "color": "sente" },
    }));
    let id = created["id"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let state = server.get(&format!("/api/games/{id}")).json();
        if state["ply"] == 1 {
            assert!(state.get("computerWaiting").is_none(), "{state}");
            break;
        }
        assert!(Instant::now() < deadline, "the computer never moved");
        std::thread::sleep(Duration::from_millis(20));
    }
}
