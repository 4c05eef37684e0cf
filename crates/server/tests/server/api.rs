//! The API as the page drives it (see `docs/API.md`): every game is
//! created and played, a Spear game ends when a king is captured, a game
//! starts anywhere, impasse is declared and judged, undo and resign, and
//! the WebSockets hear every change.

use crate::common::{receive, send, start, token, usi_list};
use serde_json::{json, Value};
use std::net::TcpStream;

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
    let gote = token(human_id, "gote").unwrap();
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
