//! Clocks kept by the server (issue 7): time controls are checked and
//! shown, a flag falls with nobody asking, a sooner deadline after a move
//! is kept, and a flag that fell while the server was stopped is declared
//! when it starts again on the same file.

use crate::common::{receive, start, start_with, token, Server, TempDir};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

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

#[test]
fn clocks_are_checked_and_shown() {
    let server = start();
    for clock in [
        json!({}),
        json!({ "initial": -1 }),
        json!({ "initial": "5" }),
        json!({ "initial": 1e12 }),
        json!({ "increment": 5 }),
        json!("fast"),
    ] {
        let reply = server.post("/api/games", &json!({ "variant": "shogi", "clock": clock }));
        assert!(
            [400, 422].contains(&reply.status),
            "{clock}: {}",
            reply.status
        );
        assert!(reply.json()["error"].is_string());
    }
    let created = create(
        &server,
        json!({ "variant": "shogi", "mode": "shared", "clock": { "initial": 300, "byoyomi": 10 } }),
    );
    assert_eq!(created["headers"]["timeControl"], "300s then 10s byoyomi");
    let clock = &created["clock"];
    assert_eq!(clock["initialMs"], 300_000);
    assert_eq!(clock["byoyomiMs"], 10_000);
    assert_eq!(
        clock["running"],
        Value::Null,
        "it starts after each side's first move"
    );
    assert_eq!(clock["sente"]["mainMs"], 300_000);
    let id = id_of(&created);
    let state = server.play(&id, 0, &["7g7f"]);
    assert_eq!(state["clock"]["running"], Value::Null);
    let state = server.play(&id, 1, &["3c3d"]);
    assert_eq!(state["clock"]["running"], "sente");
    std::thread::sleep(Duration::from_millis(300));
    let later = server.get(&format!("/api/games/{id}")).json();
    let left = later["clock"]["sente"]["mainMs"].as_u64().unwrap();
    assert!((290_000..300_000).contains(&left), "{left}");
    assert_eq!(later["clock"]["gote"]["mainMs"], 300_000);
    let state = server.play(&id, 2, &["2g2f"]);
    assert_eq!(state["clock"]["running"], "gote");
    let charged = state["clock"]["sente"]["mainMs"].as_u64().unwrap();
    assert!(
        charged < 300_000 - 250,
        "sente paid for its move: {charged}"
    );
}

#[test]
fn a_flag_falls_on_the_server_with_nobody_asking() {
    let server = start();
    let created = create(
        &server,
        json!({ "variant": "spear", "mode": "shared", "clock": { "initial": 1, "byoyomi": 0.5 } }),
    );
    let id = id_of(&created);
    server.play(&id, 0, &["5d5c", "1b1c"]);
    let mut watcher = server.websocket(&id);
    assert_eq!(receive(&mut watcher)["state"]["clock"]["running"], "sente");
    let started = Instant::now();
    let fallen = receive(&mut watcher);
    let waited = started.elapsed();
    assert_eq!(fallen["state"]["outcome"]["reason"], "timeout", "{fallen}");
    assert_eq!(fallen["state"]["outcome"]["winner"], "gote");
    assert_eq!(
        fallen["state"]["outcome"]["message"],
        "White wins: Black ran out of time."
    );
    assert!(
        waited >= Duration::from_millis(1_200),
        "not before main time and byoyomi: {waited:?}"
    );
    assert_eq!(fallen["state"]["clock"]["running"], Value::Null);
    // Too late to move.
    let reply = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "4e4d", "ply": 2 }),
    );
    assert_eq!(reply.status, 422);
}

#[test]
fn a_sooner_deadline_after_a_move_is_kept() {
    let server = start();
    let created = create(
        &server,
        json!({ "variant": "spear", "clock": { "initial": 4 } }),
    );
    let id = id_of(&created);
    server.play(&id, 0, &["5d5c", "1b1c", "4e4d"]);
    // Gote spends three of its four seconds; sente then thinks a little
    // over a second, so that the timer has woken at gote's old deadline
    // and now waits for sente's, three seconds away. Sente moves, and
    // gote's flag must fall after gote's last second, not at sente's time.
    std::thread::sleep(Duration::from_millis(3_000));
    server.play(&id, 3, &["1c1d"]);
    std::thread::sleep(Duration::from_millis(1_100));
    let mut watcher = server.websocket(&id);
    receive(&mut watcher);
    server.play(&id, 4, &["4d4c"]);
    let moved = Instant::now();
    assert_eq!(receive(&mut watcher)["state"]["ply"], 5);
    let fallen = receive(&mut watcher);
    assert_eq!(fallen["state"]["outcome"]["reason"], "timeout", "{fallen}");
    assert_eq!(fallen["state"]["outcome"]["winner"], "sente");
    let waited = moved.elapsed();
    assert!(
        waited < Duration::from_millis(2_000),
        "gote's flag fell at its own deadline, not sente's: {waited:?}"
    );
}

#[test]
fn a_flag_that_fell_while_the_server_was_down_is_declared_on_return() {
    let dir = TempDir::new("flag");
    let db_text = dir.db().to_str().unwrap().to_owned();
    let server = start_with(&["--db", &db_text]);
    let created = create(
        &server,
        json!({ "variant": "minishogi", "clock": { "initial": 0.5 , "byoyomi": 0.2 } }),
    );
    let id = id_of(&created);
    server.play(&id, 0, &["5e4d", "1a2b"]);
    // Stopped while sente's clock runs (kill -9 is serve_process.rs's).
    server.stop();
    std::thread::sleep(Duration::from_millis(900));
    let server = start_with(&["--db", &db_text]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["reason"], "timeout", "{state}");
    assert_eq!(state["outcome"]["winner"], "gote");
    // The time is spent: a loss on time is not taken back.
    let sente = token(&id, "sente").unwrap();
    let (status, answer) = call(&server, &id, "undo", json!({ "ply": 2, "token": sente }));
    assert_eq!(status, 422, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("on time"));
}
