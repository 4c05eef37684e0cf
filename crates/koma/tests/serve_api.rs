//! `koma serve` from the outside: the real binary on a free port, driven
//! over HTTP and WebSocket as the page drives it (see `docs/API.md`).

mod common;
#[path = "common/serve_client.rs"]
mod serve_client;

use serde_json::{json, Value};
use serve_client::{receive, send, start, token, usi_list};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

#[test]
fn every_game_is_created_and_played() {
    let server = start();
    let cases: [(&str, &[&str], &str); 4] = [
        ("spear", &["5d5c", "1b1c", "2e3d"], "gote"),
        ("minishogi", &["5d5c", "1b1c", "5c5b"], "gote"),
        ("shogi", &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"], "gote"),
        ("pawns", &["e2e4", "d7d5", "e4d5"], "black"),
    ];
    for (variant, moves, turn) in cases {
        let state = server.create(variant);
        assert_eq!(state["variant"], variant);
        assert_eq!(state["ply"], 0);
        assert_eq!(state["id"].as_str().unwrap().len(), 16);
        assert!(state["legalMoves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == moves[0]));
        let id = state["id"].as_str().unwrap();
        let state = server.play(id, 0, moves);
        assert_eq!(state["turn"], turn, "{variant}");
        assert_eq!(state["moves"].as_array().unwrap().len(), moves.len());
        assert_eq!(state["outcome"], Value::Null);
        let again = server.get(&format!("/api/games/{id}"));
        assert_eq!(again.status, 200);
        assert_eq!(again.json()["position"], state["position"]);
    }
    // Notation for people, hands, check.
    let shogi = server.create("shogi");
    let id = shogi["id"].as_str().unwrap();
    let state = server.play(id, 0, &["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let notation: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert_eq!(
        notation,
        ["☗７六歩(77)", "☖３四歩(33)", "☗２二角成(88)", "☖同　銀(31)"]
    );
    assert_eq!(state["hands"]["sente"]["B"], 1);
    assert_eq!(state["hands"]["gote"]["B"], 1);
    assert_eq!(state["moves"][1]["color"], "gote");
    let pawns = server.create("pawns");
    let state = server.play(pawns["id"].as_str().unwrap(), 0, &["e2e4", "d7d5"]);
    assert_eq!(state["moves"][1]["notation"], "1... d5");
    assert_eq!(state["hands"], Value::Null);
    // Optional promotion lists both forms; Spear's compulsory one only +.
    let shogi = server.create("shogi");
    let state = server.play(shogi["id"].as_str().unwrap(), 0, &["7g7f", "3c3d"]);
    let legal = state["legalMoves"].as_array().unwrap();
    assert!(legal.iter().any(|m| m == "8h2b") && legal.iter().any(|m| m == "8h2b+"));
    let spear = server.create("spear");
    let legal = spear["legalMoves"].as_array().unwrap();
    assert!(legal.iter().any(|m| m == "1e1b+") && !legal.iter().any(|m| m == "1e1b"));
}

#[test]
fn a_spear_game_ends_when_a_king_is_captured() {
    let server = start();
    let state = server.create("spear");
    let id = state["id"].as_str().unwrap();
    // Sente's spear takes the soldier on 1b (promoting: it now moves as a
    // rook), Gote's spear steps down, and the promoted spear takes the king.
    // The form without `+` is accepted in Spear, where promotion is compulsory.
    let state = server.play(id, 0, &["1e1b", "5a5b", "1b1a"]);
    assert_eq!(usi_list(&state), ["1e1b+", "5a5b", "1b1a"]);
    let outcome = &state["outcome"];
    assert_eq!(outcome["winner"], "sente");
    assert_eq!(outcome["reason"], "king-captured");
    // Spear's players are Black (sente) and White (gote), as in the seed.
    assert_eq!(outcome["message"], "Black wins: White's king was captured.");
    assert_eq!(state["legalMoves"], json!([]));
    assert_eq!(state["hands"]["sente"]["K"], 1);
    // Nothing more can be played.
    let reply = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "5b5c", "ply": 3 }),
    );
    assert_eq!(reply.status, 422);
    let body = reply.json();
    assert!(body["error"].as_str().unwrap().contains("over"), "{body}");
    assert_eq!(body["state"]["ply"], 3);
    // The other side wins the mirror game.
    let state = server.create("spear");
    let id = state["id"].as_str().unwrap();
    let state = server.play(id, 0, &["5d5c", "5a5c", "4e4d", "5c5e+"]);
    assert_eq!(
        state["outcome"]["message"],
        "White wins: Black's king was captured."
    );
}

#[test]
fn stale_forged_and_malformed_requests_are_refused_and_harm_nothing() {
    let server = start();
    let state = server.create("shogi");
    let id = state["id"].as_str().unwrap().to_owned();
    let moves = format!("/api/games/{id}/moves");
    server.play(&id, 0, &["7g7f", "3c3d"]);
    let before = server.get(&format!("/api/games/{id}")).json();

    // A stale page: 409 with the state as it is.
    let reply = server.post(&moves, &json!({ "move": "2g2f", "ply": 0 }));
    assert_eq!(reply.status, 409);
    let body = reply.json();
    assert!(
        body["error"].as_str().unwrap().contains("out of date"),
        "{body}"
    );
    assert_eq!(body["state"]["ply"], 2);

    // Illegal, forged and malformed moves: 422 with the state.
    for (m, says) in [
        ("7f7d", "cannot be played"),
        ("3d3e", "cannot be played"),
        ("G*5e", "cannot be played"),
        ("9z9y", "not a move"),
        ("hello", "not a move"),
        ("", "not a move"),
        ("P*5e+", "not a move"),
    ] {
        let reply = server.post(&moves, &json!({ "move": m, "ply": 2 }));
        assert_eq!(reply.status, 422, "{m}");
        let body = reply.json();
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{m}: {body}"
        );
        assert_eq!(body["state"]["ply"], 2, "{m}");
    }
    let long = "7".repeat(10_000);
    let reply = server.post(&moves, &json!({ "move": long, "ply": 2 }));
    assert_eq!(reply.status, 422);
    assert!(reply.body.len() < 8_000, "the long move is not echoed back");

    // Not JSON, the wrong JSON, the wrong type, numbers out of range.
    for (body, status) in [
        ("{\"move\": \"2g2f\", \"ply\": ", 400),
        ("[1, 2, 3]", 400),
        ("{\"move\": 7, \"ply\": 2}", 400),
        ("{\"move\": \"2g2f\"}", 400),
        ("{\"move\": \"2g2f\", \"ply\": -1}", 400),
        ("{\"move\": \"2g2f\", \"ply\": 2.5}", 400),
        ("{\"move\": \"2g2f\", \"ply\": 1e999}", 400),
        (
            "{\"move\": \"2g2f\", \"ply\": 99999999999999999999999}",
            400,
        ),
        (
            "{\"move\": \"2g2f\", \"ply\": 18446744073709551615, \"token\": \"SENTE\"}",
            409,
        ),
        ("\u{0}\u{1}\u{2}", 400),
    ] {
        let body = body.replace("SENTE", &token(&id, "sente").unwrap());
        let reply = server.request("POST", &moves, Some("application/json"), body.as_bytes());
        assert_eq!(reply.status, status, "{body}");
        assert!(reply.json()["error"].is_string(), "{body}");
    }
    let reply = server.request(
        "POST",
        &moves,
        Some("text/plain"),
        b"{\"move\":\"2g2f\",\"ply\":2}",
    );
    assert_eq!(reply.status, 415);
    let reply = server.request(
        "POST",
        &moves,
        Some("application/json"),
        &[0xff, 0xfe, 0x00],
    );
    assert_eq!(reply.status, 400);

    // Oversized bodies.
    let big = format!(
        "{{\"move\": \"2g2f\", \"ply\": 2, \"x\": \"{}\"}}",
        "a".repeat(100_000)
    );
    let reply = server.request("POST", &moves, Some("application/json"), big.as_bytes());
    assert_eq!(reply.status, 413);
    assert!(reply.json()["error"]
        .as_str()
        .unwrap()
        .contains("too large"));

    // Unknown games, paths and methods.
    let reply = server.get("/api/games/0123456789abcdef");
    assert_eq!(reply.status, 404);
    assert!(reply.json()["error"].as_str().unwrap().contains("No game"));
    assert_eq!(server.get("/api/games/not-an-id").status, 404);
    assert_eq!(server.get("/api/games/..%2F..%2Fetc").status, 404);
    assert_eq!(server.get("/api/nothing").status, 404);
    assert_eq!(server.get(&moves).status, 405);
    let reply = server.post(
        "/api/games/0123456789abcdef/moves",
        &json!({"move": "7g7f", "ply": 0}),
    );
    assert_eq!(reply.status, 404);

    // New games that cannot be.
    for (body, says) in [
        (json!({ "variant": "chess" }), "unknown game"),
        (
            json!({ "variant": "shogi", "position": "not a position" }),
            "not a Shogi position",
        ),
        (
            json!({ "variant": "pawns", "position": "rbsgk/4p/5/P4/KGSBR b - 1" }),
            "position",
        ),
        (
            json!({ "variant": "spear", "opponent": { "kind": "computer", "level": 1e300 } }),
            "level",
        ),
        (
            json!({ "variant": "spear", "opponent": { "kind": "robot" } }),
            "opponent",
        ),
        (
            json!({ "variant": "shogi", "opponent": { "kind": "computer", "level": "perfect" } }),
            "Pawns-Only Chess only",
        ),
        (
            json!({ "variant": "pawns", "opponent": { "kind": "computer", "level": "perfectly" } }),
            "level",
        ),
    ] {
        let reply = server.post("/api/games", &body);
        assert_eq!(reply.status, 422, "{body}");
        let error = reply.json()["error"].as_str().unwrap().to_lowercase();
        assert!(error.contains(&says.to_lowercase()), "{body}: {error}");
    }
    assert_eq!(
        server
            .post("/api/games", &json!({ "game": "spear" }))
            .status,
        400
    );

    // After all that, the game is as it was and still plays.
    let after = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["version"], before["version"]);
    server.play(&id, 2, &["2g2f"]);
}

#[test]
fn a_game_can_start_anywhere_and_carries_headers() {
    let server = start();
    let reply = server.post(
        "/api/games",
        &json!({
            "variant": "shogi",
            "position": "sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1",
            "headers": { "sente": "Alice", "gote": "Bob" },
            "opponent": { "kind": "human" }
        }),
    );
    assert_eq!(reply.status, 201);
    assert!(reply.header("location").unwrap().starts_with("/api/games/"));
    let state = reply.json();
    assert_eq!(state["headers"]["sente"], "Alice");
    assert_eq!(state["hands"]["sente"]["G"], 1);
    let id = state["id"].as_str().unwrap();
    let state = server.play(id, 0, &["G*5b"]);
    assert_eq!(state["check"], true);
    assert_eq!(state["moves"][0]["check"], true);
    assert_eq!(state["outcome"]["reason"], "checkmate");
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["outcome"]["message"], "Sente wins by checkmate.");
}

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

/// Sente's king and ten pieces in the camp, with `hand` in hand.
fn entered(hand: &str) -> String {
    format!("+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b {hand} 1")
}

#[test]
fn impasse_is_declared_by_the_side_to_move_and_judged_by_the_games_rule() {
    let server = start();
    // 28 points under the 27-point rule (the default): Sente wins.
    let game = server.create_with(&json!({ "variant": "shogi", "position": entered("R5P") }));
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["impasse"]["rule"], 27);
    assert_eq!(game["impasse"]["declaration"], "win");
    let reply = server.post(&format!("/api/games/{id}/declare"), &json!({ "ply": 0 }));
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let state = reply.json();
    assert_eq!(state["outcome"]["reason"], "impasse");
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["impasse"]["declaration"], Value::Null);
    let kif = server.get(&format!("/api/games/{id}/record?format=kifu"));
    assert!(String::from_utf8_lossy(&kif.body).contains("入玉勝ち"));
    let csa = server.get(&format!("/api/games/{id}/record?format=csa"));
    assert!(String::from_utf8_lossy(&csa.body).contains("%KACHI"));
    // An undo takes the declaration back.
    let undone = server.post(&format!("/api/games/{id}/undo"), &json!({ "ply": 0 }));
    assert_eq!(undone.json()["outcome"], Value::Null);

    // One point short: refused with the reason, and nothing changes.
    let short = server.create_with(&json!({ "variant": "shogi", "position": entered("R4P") }));
    assert_eq!(short["impasse"]["declaration"], Value::Null);
    assert_eq!(
        short["impasse"]["shortfall"],
        "27 points are held; 28 are needed."
    );
    let short_id = short["id"].as_str().unwrap();
    let reply = server.post(
        &format!("/api/games/{short_id}/declare"),
        &json!({ "ply": 0 }),
    );
    assert_eq!(reply.status, 422);
    let text = String::from_utf8_lossy(&reply.body);
    assert!(
        text.contains(
            "Sente cannot declare under the 27-point rule: 27 points are held; 28 are needed."
        ),
        "{text}"
    );
    assert_eq!(reply.json()["state"]["outcome"], Value::Null);

    // The 24-point rule, chosen at creation: 28 points draw.
    let human = server.create_with(&json!({
        "variant": "shogi", "position": entered("R5P"), "impasse": 24
    }));
    assert_eq!(human["impasse"]["rule"], 24);
    assert_eq!(human["impasse"]["declaration"], "draw");
    let human_id = human["id"].as_str().unwrap();
    // Only the side to move declares.
    let gote = serve_client::token(human_id, "gote").unwrap();
    let reply = server.post(
        &format!("/api/games/{human_id}/declare"),
        &json!({ "ply": 0, "token": gote }),
    );
    assert_eq!(reply.status, 403);
    let reply = server.post(
        &format!("/api/games/{human_id}/declare"),
        &json!({ "ply": 0 }),
    );
    let state = reply.json();
    assert_eq!(state["outcome"]["winner"], Value::Null);
    assert_eq!(state["outcome"]["message"], "Draw by impasse (jishogi).");

    for (request, refusal) in [
        (json!({ "variant": "shogi", "impasse": 25 }), "27 (points"),
        (json!({ "variant": "shogi", "impasse": [27] }), "27 (points"),
        (
            json!({ "variant": "minishogi", "impasse": "27" }),
            "Only shogi",
        ),
    ] {
        let reply = server.post("/api/games", &request);
        assert_eq!(reply.status, 422, "{request}");
        let text = String::from_utf8_lossy(&reply.body);
        assert!(text.contains(refusal), "{request}: {text}");
    }
    let spear = server.create("spear");
    assert!(spear.get("impasse").is_none(), "{spear}");
    let spear_id = spear["id"].as_str().unwrap();
    let reply = server.post(
        &format!("/api/games/{spear_id}/declare"),
        &json!({ "ply": 0 }),
    );
    assert_eq!(reply.status, 422);
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
    let gote = serve_client::token(&id, "gote").unwrap();
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
fn wait_for_ply(server: &serve_client::Server, id: &str, ply: u64) -> Value {
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
fn undo_and_resign() {
    let server = start();
    let state = server.create("pawns");
    let id = state["id"].as_str().unwrap().to_owned();
    let undo = format!("/api/games/{id}/undo");
    let resign = format!("/api/games/{id}/resign");
    let reply = server.post(&undo, &json!({ "ply": 0 }));
    assert_eq!(reply.status, 422);
    assert!(reply.json()["error"].as_str().unwrap().contains("no move"));
    server.play(&id, 0, &["e2e4", "e7e5"]);
    let reply = server.post(&undo, &json!({ "ply": 1 }));
    assert_eq!(reply.status, 409);
    let reply = server.post(&undo, &json!({ "ply": 2 }));
    assert_eq!(reply.status, 200);
    let state = reply.json();
    assert_eq!(state["ply"], 1);
    assert_eq!(state["turn"], "black");
    assert_eq!(usi_list(&state), ["e2e4"]);

    // Black resigns by default (the side to move); White names itself.
    let reply = server.post(&resign, &json!({ "ply": 1 }));
    assert_eq!(reply.status, 200);
    let outcome = &reply.json()["outcome"];
    assert_eq!(outcome["winner"], "white");
    assert_eq!(outcome["reason"], "resignation");
    assert_eq!(outcome["message"], "White wins: Black resigned.");
    let reply = server.post(&resign, &json!({ "ply": 1, "color": "white" }));
    assert_eq!(reply.status, 422);
    assert!(reply.json()["error"]
        .as_str()
        .unwrap()
        .contains("already over"));
    let reply = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "d7d5", "ply": 1 }),
    );
    assert_eq!(reply.status, 422);
    // Undo takes the resignation back first, then moves.
    let state = server.post(&undo, &json!({ "ply": 1 })).json();
    assert_eq!(state["outcome"], Value::Null);
    assert_eq!(state["ply"], 1);
    let reply = server.post(&resign, &json!({ "ply": 1, "color": "white" }));
    assert_eq!(
        reply.json()["outcome"]["message"],
        "Black wins: White resigned."
    );
    let reply = server.post(&resign, &json!({ "ply": 1, "color": "purple" }));
    assert_eq!(reply.status, 422);
}

#[test]
fn every_real_record_is_imported_and_saved_back() {
    let server = start();
    let names = common::real_record_names();
    assert!(names.len() >= 19, "{names:?}");
    for name in &names {
        let path = common::real_record(name);
        let bytes = std::fs::read(&path).unwrap();
        eprintln!("{name}");
        let state = server.import(name, &bytes);
        let id = state["id"].as_str().unwrap();
        // The USI line agrees with `koma convert`'s.
        let expected = common::usi_of(&path);
        let usi = server.get(&format!("/api/games/{id}/record?format=usi"));
        assert_eq!(usi.status, 200, "{name}");
        let usi_text = String::from_utf8(usi.body.clone()).unwrap();
        assert_eq!(usi_text.trim_end(), expected, "{name}");
        let listed = usi_list(&state);
        let line_moves: Vec<&str> = expected
            .split_once(" moves ")
            .map_or(vec![], |(_, m)| m.split(' ').collect());
        assert_eq!(listed, line_moves, "{name}");
        // Saved in its own format (KI2 is read only: KIFU) and read back.
        let extension = name.rsplit_once('.').unwrap().1;
        let format = if extension == "ki2" {
            "kifu"
        } else {
            extension
        };
        let saved = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(
            saved.status,
            200,
            "{name}: {}",
            String::from_utf8_lossy(&saved.body)
        );
        let disposition = saved.header("content-disposition").unwrap();
        assert!(
            disposition.starts_with("attachment; filename=\"koma-shogi-")
                && disposition.ends_with(&format!(".{format}\"")),
            "{disposition}"
        );
        let back = server.request(
            "POST",
            &format!("/api/games/import?format={format}"),
            Some("application/octet-stream"),
            &saved.body,
        );
        assert_eq!(
            back.status,
            201,
            "{name} back: {}",
            String::from_utf8_lossy(&back.body)
        );
        let back = back.json();
        assert_eq!(usi_list(&back), listed, "{name} through {format}");
        assert_eq!(back["outcome"], state["outcome"], "{name} through {format}");
        // The record's comments and times come back too.
        assert_eq!(
            back["comments"], state["comments"],
            "{name} through {format}"
        );
        let notes = |state: &Value| -> Vec<(Value, Value)> {
            state["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| (m["comments"].clone(), m["milliseconds"].clone()))
                .collect()
        };
        assert_eq!(notes(&back), notes(&state), "{name} through {format}");
    }
}

#[test]
fn records_in_json_and_formats_that_do_not_fit() {
    let server = start();
    let cases = [
        (
            json!({ "text": "position startpos moves 5d5c 1b1c", "variant": "spear" }),
            "spear",
        ),
        (
            json!({ "text": "position startpos moves 7g7f 3c3d\n" }),
            "shogi",
        ),
        (
            json!({ "text": "[Event \"x\"]\n\n1. e4 d5 2. exd5 *\n", "format": "pgn" }),
            "pawns",
        ),
        (
            json!({ "text": "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c" }),
            "minishogi",
        ),
    ];
    for (body, variant) in cases {
        let reply = server.post("/api/games/import", &body);
        assert_eq!(
            reply.status,
            201,
            "{body}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        assert_eq!(reply.json()["variant"], variant);
    }
    let pawns = server.post(
        "/api/games/import",
        &json!({ "text": "[White \"Ann\"]\n[Black \"Ben\"]\n\n1. e4 d5 2. exd5 1-0\n" }),
    );
    let state = pawns.json();
    assert_eq!(state["headers"]["sente"], "Ann");
    let id = state["id"].as_str().unwrap();
    let pgn = server.get(&format!("/api/games/{id}/record?format=pgn"));
    assert_eq!(pgn.status, 200);
    let text = String::from_utf8(pgn.body).unwrap();
    assert!(text.contains("1. e4 d5 2. exd5"), "{text}");
    for format in ["kif", "kifu", "csa", "ki2", "docx"] {
        let reply = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(reply.status, 422, "{format}");
        assert!(
            reply.json()["error"]
                .as_str()
                .unwrap()
                .contains("pgn or usi"),
            "{format}"
        );
    }
    let spear = server.create("spear");
    let id = spear["id"].as_str().unwrap();
    for (format, status) in [
        ("kif", 200),
        ("kifu", 200),
        ("usi", 200),
        ("csa", 422),
        ("pgn", 422),
    ] {
        let reply = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(reply.status, status, "{format}");
    }
    let kif = server.get(&format!("/api/games/{id}/record?format=kif"));
    assert_eq!(
        kif.header("content-type"),
        Some("text/plain; charset=Shift_JIS")
    );

    // Records that cannot be read say where.
    let reply = server.post(
        "/api/games/import",
        &json!({ "text": "position startpos moves 7g7f 7g7f" }),
    );
    assert_eq!(reply.status, 422);
    let error = reply.json()["error"].as_str().unwrap().to_owned();
    assert!(error.contains("7g7f"), "{error}");
    let reply = server.post(
        "/api/games/import",
        &json!({ "text": "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ９九玉(51)\n" }),
    );
    assert_eq!(reply.status, 422);
    let error = reply.json()["error"].as_str().unwrap().to_owned();
    assert!(
        error.contains("line") || error.contains("move 2"),
        "{error}"
    );
    for body in [
        json!({ "text": "" }),
        json!({ "text": "garbage" }),
        json!({ "text": "x", "format": "doc" }),
    ] {
        let reply = server.post("/api/games/import", &body);
        assert_eq!(reply.status, 422, "{body}");
    }
    // Beyond 4 MiB: 413.
    let huge = vec![b' '; 5 << 20];
    let reply = server.request("POST", "/api/games/import", Some("text/plain"), &huge);
    assert_eq!(reply.status, 413);
}

#[test]
fn websockets_hear_every_change() {
    let server = start();
    let state = server.create("spear");
    let id = state["id"].as_str().unwrap().to_owned();
    let mut watcher = server.websocket(&id);
    let first = receive(&mut watcher);
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"]["ply"], 0);

    // Another client moves over HTTP: the watcher hears it.
    server.play(&id, 0, &["5d5c"]);
    let heard = receive(&mut watcher);
    assert_eq!(heard["type"], "state");
    assert_eq!(heard["state"]["ply"], 1);
    assert_eq!(heard["state"]["lastMove"], "5d5c");

    // Moves over the socket reach every socket, this one included.
    let (sente, gote) = (token(&id, "sente").unwrap(), token(&id, "gote").unwrap());
    let mut player = server.websocket(&id);
    assert_eq!(receive(&mut player)["state"]["ply"], 1);
    send(
        &mut player,
        &format!(r#"{{"type": "move", "move": "1b1c", "ply": 1, "token": "{gote}"}}"#),
    );
    assert_eq!(receive(&mut player)["state"]["ply"], 2);
    assert_eq!(receive(&mut watcher)["state"]["ply"], 2);

    // Refusals go to the sender only, with the state.
    for message in [
        format!(r#"{{"type": "move", "move": "5c5b", "ply": 1, "token": "{sente}"}}"#),
        format!(r#"{{"type": "move", "move": "5a5b", "ply": 2, "token": "{sente}"}}"#),
        r#"{"type": "move", "move": "5c5b""#.to_owned(),
        r#"{"type": "dance"}"#.to_owned(),
        format!(r#"{{"type": "move", "move": "5c5b", "ply": -7, "token": "{sente}"}}"#),
        format!(
            r#"{{"type": "move", "move": "{}", "ply": 2, "token": "{sente}"}}"#,
            "x".repeat(100_000)
        ),
    ] {
        send(&mut player, &message);
        let answer = receive(&mut player);
        assert_eq!(
            answer["type"],
            "error",
            "{}",
            &message[..message.len().min(60)]
        );
        assert!(answer["error"].as_str().unwrap().len() > 10);
        assert_eq!(answer["state"]["ply"], 2);
    }
    player
        .send(tungstenite::Message::Binary(vec![1, 2, 3].into()))
        .unwrap();
    assert_eq!(receive(&mut player)["type"], "error");

    // Undo and resign over the socket.
    send(
        &mut player,
        &format!(r#"{{"type": "undo", "ply": 2, "token": "{sente}"}}"#),
    );
    assert_eq!(receive(&mut player)["state"]["ply"], 1);
    send(
        &mut player,
        &format!(r#"{{"type": "resign", "ply": 1, "color": "sente", "token": "{sente}"}}"#),
    );
    let resigned = receive(&mut player);
    assert_eq!(resigned["state"]["outcome"]["winner"], "gote");
    assert_eq!(receive(&mut watcher)["state"]["ply"], 1);
    let last = receive(&mut watcher);
    assert_eq!(last["state"]["outcome"]["reason"], "resignation");
    assert!(last["state"]["version"].as_u64() > first["state"]["version"].as_u64());

    // A socket for no game is refused; the game is still there.
    let stream = TcpStream::connect(&server.address).unwrap();
    let url = format!("ws://{}/api/games/0123456789abcdef/ws", server.address);
    assert!(tungstenite::client(url.as_str(), stream).is_err());
    let plain = server.get(&format!("/api/games/{id}/ws"));
    assert_eq!(plain.status, 400);
    assert_eq!(server.get(&format!("/api/games/{id}")).json()["ply"], 1);
}

#[test]
fn the_page_and_its_security_headers() {
    let server = start();
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert_eq!(server.get("/../Cargo.toml").status, 404);
    // Another name for this machine (DNS rebinding) or another site's page.
    let port = server.address.rsplit_once(':').unwrap().1;
    let rebound = server.request_with(
        "GET",
        "/api/variants",
        &[("Host", &format!("evil.example:{port}"))],
        b"",
    );
    assert_eq!(rebound.status, 421);
    let localhost = server.request_with("GET", "/", &[("Host", &format!("localhost:{port}"))], b"");
    assert_eq!(localhost.status, 200);
    let foreign = server.request_with(
        "POST",
        "/api/games",
        &[
            ("Origin", "http://evil.example"),
            ("Content-Type", "application/json"),
        ],
        br#"{"variant": "spear"}"#,
    );
    assert_eq!(foreign.status, 403);
    let own = server.request_with(
        "POST",
        "/api/games",
        &[
            ("Origin", &format!("http://{}", server.address)),
            ("Content-Type", "application/json"),
        ],
        br#"{"variant": "spear"}"#,
    );
    assert_eq!(own.status, 201);
    assert_eq!(server.get("/missing-file.js").status, 404);
    let variants = server.get("/api/variants").json();
    let names: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["spear", "minishogi", "shogi", "pawns"]);
    assert_eq!(variants[0]["promotion"], "compulsory");
    assert_eq!(variants[3]["colors"], json!(["white", "black"]));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server_even_with_a_socket_open() {
    let mut server = start();
    let state = server.create("shogi");
    let mut socket = server.websocket(state["id"].as_str().unwrap());
    assert_eq!(receive(&mut socket)["type"], "state");
    let pid = server.child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(sent.success());
    let asked = std::time::Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "still serving 10 s after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The socket was closed, not left hanging.
    match socket.read() {
        Ok(tungstenite::Message::Close(_)) | Err(_) => {}
        Ok(other) => panic!("unexpected message {other:?}"),
    }
}
