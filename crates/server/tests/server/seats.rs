//! Games between two machines (issue 7): seat tokens decide who may
//! move, takebacks need both players, and local and computer games keep
//! their seats. Clocks are `clocks`; rate limits, `hostile_clients`.

use crate::common::{receive, send, start, token, Server};
use serde_json::{json, Value};

/// A new game from `request`; its `201` answer.
fn create(server: &Server, request: Value) -> Value {
    server.create_with(&request)
}

fn id_of(state: &Value) -> String {
    state["id"].as_str().unwrap().to_owned()
}

/// `POST /api/games/{id}/{call}` with exactly `body`: status and JSON.
fn call(server: &Server, id: &str, call: &str, body: Value) -> (u16, Value) {
    let reply = server.post_exactly(&format!("/api/games/{id}/{call}"), &body);
    (reply.status, reply.json())
}

fn version(server: &Server, id: &str) -> u64 {
    server.get(&format!("/api/games/{id}")).json()["version"]
        .as_u64()
        .unwrap()
}

#[test]
fn only_a_seat_token_moves_its_side() {
    let server = start();
    let created = create(&server, json!({ "variant": "spear", "mode": "shared" }));
    let id = id_of(&created);
    assert_eq!(created["mode"], "shared");
    assert_eq!(created["guarded"], true);
    let sente = created["seats"]["sente"].as_str().unwrap().to_owned();
    let gote = created["seats"]["gote"].as_str().unwrap().to_owned();
    for token in [&sente, &gote] {
        assert_eq!(token.len(), 32, "128 bits as hex");
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    assert_ne!(sente, gote);
    // The tokens are in the creation's answer only.
    let shown = server.get(&format!("/api/games/{id}"));
    let text = String::from_utf8_lossy(&shown.body);
    assert!(!text.contains(&sente) && !text.contains(&gote), "{text}");
    assert!(shown.json().get("seats").is_none());
    let mut watcher = server.websocket(&id);
    let first = receive(&mut watcher).to_string();
    assert!(!first.contains(&sente) && !first.contains(&gote));

    let other = create(&server, json!({ "variant": "spear", "mode": "shared" }));
    let foreign = other["seats"]["sente"].as_str().unwrap().to_owned();
    let mut almost = sente.clone();
    almost.replace_range(31.., if sente.ends_with('0') { "1" } else { "0" });
    let before = version(&server, &id);
    for (token, why, code) in [
        (Value::Null, "no token", "spectator"),
        (json!(almost), "a token one digit off", "bad-token"),
        (json!(foreign), "another game's token", "bad-token"),
        (json!("not a token"), "a malformed token", "bad-token"),
        (json!("f".repeat(10_000)), "a huge token", "bad-token"),
        (json!(gote), "the other side's token", "not-your-turn"),
    ] {
        let mut body = json!({ "move": "5d5c", "ply": 0 });
        if !token.is_null() {
            body["token"] = token;
        }
        let (status, answer) = call(&server, &id, "moves", body);
        assert_eq!(status, 403, "{why}: {answer}");
        assert_eq!(answer["code"], code, "{why}");
        assert_eq!(answer["state"]["ply"], 0, "{why}");
        assert!(answer.to_string().len() < 20_000, "{why}: not echoed");
    }
    assert_eq!(version(&server, &id), before, "refusals change nothing");
    let (_, answer) = call(&server, &id, "moves", json!({ "move": "5d5c", "ply": 0 }));
    assert!(answer["error"].as_str().unwrap().contains("watches"));
    let (_, answer) = call(
        &server,
        &id,
        "moves",
        json!({ "move": "5d5c", "ply": 0, "token": gote }),
    );
    assert!(
        answer["error"].as_str().unwrap().contains("turn"),
        "{answer}"
    );

    // The right token plays; the same request again is stale.
    let good = json!({ "move": "5d5c", "ply": 0, "token": sente });
    assert_eq!(call(&server, &id, "moves", good.clone()).0, 200);
    let (status, answer) = call(&server, &id, "moves", good);
    assert_eq!(status, 409, "a replayed move: {answer}");
    assert_eq!(answer["state"]["ply"], 1);
    assert_eq!(receive(&mut watcher)["state"]["ply"], 1);

    // Over the WebSocket: the same rules.
    for (message, status) in [
        (
            json!({ "type": "move", "move": "1b1c", "ply": 1 }),
            "watches",
        ),
        (
            json!({ "type": "move", "move": "1b1c", "ply": 1, "token": sente }),
            "turn",
        ),
        (
            json!({ "type": "move", "move": "1b1c", "ply": 1, "token": almost }),
            "not one of",
        ),
        (
            json!({ "type": "resign", "ply": 1, "token": 17 }),
            "The field \"token\" is wrong",
        ),
    ] {
        send(&mut watcher, &message.to_string());
        let answer = receive(&mut watcher);
        assert_eq!(answer["type"], "error", "{message}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(status), "{message}: {error}");
        assert_eq!(answer["state"]["ply"], 1);
    }
    send(
        &mut watcher,
        &json!({ "type": "move", "move": "1b1c", "ply": 1, "token": gote }).to_string(),
    );
    assert_eq!(receive(&mut watcher)["state"]["ply"], 2);

    // A seat resigns for itself only.
    let (status, answer) = call(
        &server,
        &id,
        "resign",
        json!({ "ply": 2, "color": "sente", "token": gote }),
    );
    assert_eq!(status, 403, "{answer}");
    assert_eq!(answer["code"], "wrong-side");
    let (status, answer) = call(&server, &id, "resign", json!({ "ply": 2, "token": gote }));
    assert_eq!(status, 200);
    assert_eq!(answer["outcome"]["winner"], "sente");
    assert_eq!(answer["outcome"]["reason"], "resignation");
}

#[test]
fn takebacks_need_both_players() {
    let server = start();
    let created = create(&server, json!({ "variant": "shogi", "mode": "shared" }));
    let id = id_of(&created);
    let (sente, gote) = (token(&id, "sente").unwrap(), token(&id, "gote").unwrap());
    let undo = |token: &str, ply: u64, decline: bool| {
        call(
            &server,
            &id,
            "undo",
            json!({ "ply": ply, "token": token, "decline": decline }),
        )
    };
    let (status, answer) = undo(&sente, 0, false);
    assert_eq!(status, 422, "nothing to take back yet: {answer}");
    server.play(&id, 0, &["7g7f", "3c3d"]);

    // Sente asks; asking again waits; a spectator cannot answer.
    let (status, answer) = undo(&sente, 2, false);
    assert_eq!((status, &answer["takeback"]), (200, &json!("sente")));
    assert_eq!(answer["ply"], 2, "a request takes nothing back yet");
    assert_eq!(undo(&sente, 2, false).0, 422);
    let (status, _) = call(&server, &id, "undo", json!({ "ply": 2 }));
    assert_eq!(status, 403);
    // Gote declines.
    let (status, answer) = undo(&gote, 2, true);
    assert_eq!((status, &answer["takeback"]), (200, &Value::Null));
    assert_eq!(answer["ply"], 2);
    assert_eq!(undo(&gote, 2, true).0, 422, "nothing left to decline");

    // A move drops a request.
    undo(&gote, 2, false);
    let state = server.play(&id, 2, &["2g2f"]);
    assert_eq!(state["takeback"], Value::Null);

    // Sente takes back its last move (gote to move): one move goes.
    assert_eq!(undo(&sente, 3, false).0, 200);
    let (status, answer) = undo(&gote, 3, false);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (answer["ply"].as_u64(), answer["turn"].as_str()),
        (Some(2), Some("sente"))
    );
    // Gote takes back its last move while sente is to move: one move.
    undo(&gote, 2, false);
    let (_, answer) = undo(&sente, 2, false);
    assert_eq!(
        (answer["ply"].as_u64(), answer["turn"].as_str()),
        (Some(1), Some("gote"))
    );
    // Gote to move: sente asks for its 7g7f back, gote accepts: the start.
    undo(&sente, 1, false);
    let (_, answer) = undo(&gote, 1, false);
    assert_eq!(answer["ply"], 0);
    assert_eq!(answer["takeback"], Value::Null);

    // After the end nothing is taken back.
    server.play(&id, 0, &["7g7f"]);
    let (status, _) = call(&server, &id, "resign", json!({ "ply": 1, "token": gote }));
    assert_eq!(status, 200);
    let (status, answer) = undo(&sente, 1, false);
    assert_eq!(status, 422);
    assert!(answer["error"].as_str().unwrap().contains("over"));
}

#[test]
fn a_local_game_and_a_computer_game_keep_their_seats() {
    let server = start();
    // A game at one screen: both seats, undo at once.
    let local = create(&server, json!({ "variant": "pawns" }));
    assert_eq!(local["mode"], "local");
    assert!(local["seats"]["white"].is_string() && local["seats"]["black"].is_string());
    let id = id_of(&local);
    server.play(&id, 0, &["e2e4"]);
    let (status, answer) = call(&server, &id, "undo", json!({ "ply": 1 }));
    assert_eq!(status, 403, "an undo needs a seat too: {answer}");
    let white = token(&id, "white").unwrap();
    let (status, answer) = call(&server, &id, "undo", json!({ "ply": 1, "token": white }));
    assert_eq!((status, answer["ply"].as_u64()), (200, Some(0)));

    // Against the computer only the person has a seat.
    let computer = create(
        &server,
        json!({ "variant": "spear", "opponent": { "kind": "computer", "level": 1, "color": "gote" } }),
    );
    assert!(computer["seats"]["sente"].is_string());
    assert!(
        computer["seats"].get("gote").is_none(),
        "{}",
        computer["seats"]
    );
    // And it is played at one screen.
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "spear", "mode": "shared", "opponent": { "kind": "computer" } }),
    );
    assert_eq!(reply.status, 422);
    let reply = server.post("/api/games", &json!({ "variant": "spear", "mode": "duel" }));
    assert_eq!(reply.status, 422);
}
