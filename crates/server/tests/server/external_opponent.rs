//! A registered engine as the computer opponent and as the mate searcher:
//! it plays its side at the computer opponents' priority, its resignation
//! ends the game, a move the rules refuse loses it, an engine that dies
//! abandons it; its mate lines are checked before they are shown. The
//! engine is the shell script of `external_engines`.

use crate::common::Server;
use crate::external_engines::{engines, fake_engine, server_with};
use serde_json::{json, Value};
use std::time::Duration;

/// A shogi game against the fake engine playing Gote.
fn against_the_engine(server: &Server) -> String {
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "shogi", "opponent": { "kind": "computer", "engine": "fake", "color": "gote" } }),
    );
    assert_eq!(
        reply.status,
        201,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let state = reply.json();
    assert_eq!(state["opponent"]["engine"], "fake");
    state["id"].as_str().unwrap().to_owned()
}

/// Polls game `id` until `done` holds of its state (at most a minute).
fn wait_until(server: &Server, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..1200 {
        let state = server.get(&format!("/api/games/{id}")).json();
        if done(&state) {
            return state;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("game {id} never got there");
}

/// A file for the fake engine's `gameover` lines, and the mode that
/// writes them there.
fn gameover_log(mode: &str) -> (tempfile::NamedTempFile, String) {
    let log = tempfile::NamedTempFile::new().unwrap();
    let mode = format!("{mode} {}", log.path().display());
    (log, mode)
}

/// What the fake engine wrote to `log`, once it is `expected` (the engine
/// writes it after the server has answered) or after ten seconds.
fn told(log: &tempfile::NamedTempFile, expected: &str) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(log.path()).unwrap();
        if text == expected || std::time::Instant::now() > deadline {
            return text;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_registered_engine_plays_the_computers_side_at_the_opponents_priority() {
    let script = fake_engine();
    let (log, mode) = gameover_log("plays");
    let server = server_with(&script, &mode, &[]);
    let id = against_the_engine(&server);
    server.play(&id, 0, &["7g7f"]);
    let state = wait_until(&server, &id, |s| s["ply"] == 2);
    assert_eq!(state["moves"][1]["usi"], "3c3d");
    assert_eq!(state["moves"][1]["color"], "gote");
    // Its own process, apart from the analyses' one (nice 19), at the
    // computer opponents' priority.
    let listed = engines(&server);
    assert_eq!(listed[1]["started"], 2);
    assert_eq!(listed[1]["idName"], "Fake USI at nice 10");
    // A rematch keeps the engine, on the other side.
    let person = crate::common::token(&id, "sente").unwrap();
    server.post(&format!("/api/games/{id}/resign"), &json!({ "ply": 2 }));
    // The engine is told it won, once, as a GUI tells it.
    assert_eq!(told(&log, "gameover win\n"), "gameover win\n");
    let rematch = server.post(
        &format!("/api/games/{id}/rematch"),
        &json!({ "token": person }),
    );
    let rematch = rematch.json();
    assert_eq!(rematch["opponent"]["engine"], "fake", "{rematch}");
    assert_eq!(rematch["opponent"]["color"], "sente");
}

#[test]
fn games_against_an_engine_the_server_cannot_give_are_refused() {
    let script = fake_engine();
    let server = server_with(&script, "", &[]);
    let refused = |request: Value| {
        let reply = server.post("/api/games", &request);
        assert_eq!(reply.status, 422, "{request}");
        reply.json()["error"].as_str().unwrap().to_owned()
    };
    let unknown =
        refused(json!({ "variant": "shogi", "opponent": { "kind": "computer", "engine": "yo" } }));
    assert!(unknown.contains("this server has koma, fake"), "{unknown}");
    let wrong_game = refused(
        json!({ "variant": "minishogi", "opponent": { "kind": "computer", "engine": "fake" } }),
    );
    assert!(
        wrong_game.contains("does not play minishogi"),
        "{wrong_game}"
    );
    let leveled = refused(
        json!({ "variant": "shogi", "opponent": { "kind": "computer", "engine": "fake", "level": 3 } }),
    );
    assert!(leveled.contains("its own strength"), "{leveled}");
    // "koma" is Koma's own engine, at the level asked.
    let own = server.post(
        "/api/games",
        &json!({ "variant": "shogi", "opponent": { "kind": "computer", "engine": "koma", "level": 3 } }),
    );
    assert_eq!(own.status, 201);
    assert!(own.json()["opponent"].get("engine").is_none());
}

#[test]
fn an_engines_resignation_and_illegal_move_end_the_game_and_a_dead_engine_abandons_it() {
    for (mode, winner, reason) in [
        ("resigns", Value::from("sente"), "resignation"),
        ("illegal", Value::from("sente"), "illegal-move"),
        ("dies", Value::Null, "abandoned"),
    ] {
        let script = fake_engine();
        let (log, logging) = gameover_log(mode);
        let server = server_with(&script, &logging, &[]);
        let id = against_the_engine(&server);
        server.play(&id, 0, &["7g7f"]);
        let state = wait_until(&server, &id, |s| !s["outcome"].is_null());
        // An engine that resigned or lost by its move is told it lost; a
        // dead one has nobody to tell.
        let gameover = if mode == "dies" {
            ""
        } else {
            "gameover lose\n"
        };
        assert_eq!(told(&log, gameover), gameover, "{mode}");
        assert_eq!(state["outcome"]["reason"], reason, "{mode}: {state}");
        assert_eq!(state["outcome"]["winner"], winner, "{mode}");
        assert_eq!(
            state["ply"], 1,
            "{mode}: no move of the engine's was played"
        );
        // A dead engine was started again once for the move.
        if mode == "dies" {
            assert_eq!(engines(&server)[1]["started"], 3);
        }
    }
}

const MATE_IN_ONE: &str = "7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1";

fn mate_search(server: &Server, engine: &str) -> crate::common::Reply {
    let id = server.create_with(&json!({ "variant": "shogi", "position": MATE_IN_ONE }))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    server.get(&format!("/api/games/{id}/mate?seconds=2&engine={engine}"))
}

#[test]
fn a_registered_engine_searches_for_mate_and_its_line_is_checked() {
    let script = fake_engine();
    let server = server_with(&script, "mates", &[]);
    let found = mate_search(&server, "fake");
    assert_eq!(found.status, 200);
    let found = found.json();
    assert_eq!(found["engine"], "fake");
    assert_eq!(found["answer"], "mate");
    assert_eq!(found["length"], 1);
    assert_eq!(found["line"][0]["usi"], "G*1b");
    assert_eq!(found["line"][0]["notation"], "☗１二金打");
    assert_eq!(found["nodes"], 77);
    // Koma's own solver answers the same, and says so.
    let own = mate_search(&server, "koma").json();
    assert_eq!(
        (own["engine"].as_str(), own["answer"].as_str()),
        (Some("koma"), Some("mate"))
    );

    let script = fake_engine();
    let server = server_with(&script, "falsemate", &[]);
    let refused = mate_search(&server, "fake");
    assert_eq!(refused.status, 502);
    let error = refused.json()["error"].as_str().unwrap().to_owned();
    assert!(error.contains("a line that does not mate: G*2b"), "{error}");

    let script = fake_engine();
    let server = server_with(&script, "", &[]);
    let refused = mate_search(&server, "fake");
    assert_eq!(refused.status, 400);
    let error = refused.json()["error"].as_str().unwrap().to_owned();
    assert!(error.contains("does not search for mates"), "{error}");
    assert_eq!(mate_search(&server, "nobody").status, 400);

    // An engine that dies on `go mate` (YaneuraOu's material engine does,
    // in some positions) is started again once, then named; the server
    // goes on.
    let script = fake_engine();
    let server = server_with(&script, "dies", &[]);
    let refused = mate_search(&server, "fake");
    assert_eq!(refused.status, 503);
    let error = refused.json()["error"].as_str().unwrap().to_owned();
    assert!(
        error.contains("fake stopped answering (the engine exited)"),
        "{error}"
    );
    // The warm process, then one more.
    assert_eq!(engines(&server)[1]["started"], 2);
    assert_eq!(mate_search(&server, "koma").json()["answer"], "mate");
}
