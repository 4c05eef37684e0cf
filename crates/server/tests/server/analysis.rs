//! Analysis over a game's WebSocket: the best three lines with depth and
//! evaluation, variations, refusals where it would help a player, the
//! server's cap on engines thinking at once, and an engine freed as soon
//! as its viewer leaves.

use crate::common::{next_of, send_json, start_with, Server};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::WebSocket;

type Socket = WebSocket<TcpStream>;

/// The next JSON message of `kind` ("analysis", "error", "state").
fn next(socket: &mut Socket, kind: &str) -> Value {
    next_of(socket, &[kind])
}

/// The analysis messages up to the one with `status` "done".
fn until_done(socket: &mut Socket) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let message = next(socket, "analysis");
        let done = message["status"] == "done";
        seen.push(message);
        if done {
            return seen;
        }
    }
}

/// A server that keeps its games in memory: these tests need no file, and
/// the home folder's games file is the user's, not theirs.
fn server(engines: u16, seconds: u64) -> Server {
    start_with(&[
        "--memory",
        "--analysis-engines",
        &engines.to_string(),
        "--analysis-seconds",
        &seconds.to_string(),
    ])
}

#[test]
fn a_position_is_analysed_with_three_lines_written_for_people() {
    let server = server(1, 1);
    let state = server.create("shogi");
    let id = state["id"].as_str().unwrap().to_owned();
    server.play(&id, 0, &["7g7f", "3c3d"]);
    let mut socket = server.websocket(&id);
    next(&mut socket, "state");
    send_json(&mut socket, json!({ "type": "analyse", "ply": 2 }));
    let messages = until_done(&mut socket);
    let running: Vec<&Value> = messages
        .iter()
        .filter(|m| m["status"] == "running")
        .collect();
    assert!(running.len() >= 2, "{messages:?}");
    let depths: Vec<u64> = running
        .iter()
        .map(|m| m["depth"].as_u64().unwrap())
        .collect();
    assert!(depths.windows(2).all(|d| d[0] < d[1]), "{depths:?}");
    let done = messages.last().unwrap();
    assert_eq!(done["ply"], 2);
    let lines = done["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    for line in lines {
        assert!(
            line["score"]["cp"].is_i64() || line["score"]["mate"].is_i64(),
            "{line}"
        );
        let first = &line["moves"][0];
        assert_eq!(first["color"], "sente");
        assert!(
            first["notation"].as_str().unwrap().starts_with('☗'),
            "{first}"
        );
        assert!(first["position"].as_str().unwrap().contains(' '));
    }
    let firsts: Vec<&str> = lines
        .iter()
        .map(|l| l["moves"][0]["usi"].as_str().unwrap())
        .collect();
    assert_ne!(firsts[0], firsts[1], "three different moves");
    assert_eq!(done["engines"]["cap"], 1);

    // A variation from move 1: the position after 7g7f 3c3d 8h2b+ is
    // Gote's to move, and Gote takes the bishop back.
    send_json(
        &mut socket,
        json!({ "type": "analyse", "ply": 2, "moves": ["8h2b+"] }),
    );
    let done = until_done(&mut socket).pop().unwrap();
    assert_eq!(done["moves"], json!(["8h2b+"]));
    let best = &done["lines"][0]["moves"][0];
    assert_eq!(best["color"], "gote");
    // With the silver or the rook, as deep as the machine lets the
    // second's search go: either way on 2b (同).
    let notation = best["notation"].as_str().unwrap();
    assert!(
        notation == "☖同　銀(31)" || notation == "☖同　飛(82)",
        "{notation}"
    );
    // A bishop up for Sente until then: the evaluation is Sente's view.
    assert!(done["lines"][0]["score"]["cp"].as_i64().unwrap() < 400);

    // Mistakes in the request are refused, and nothing runs.
    send_json(
        &mut socket,
        json!({ "type": "analyse", "ply": 2, "moves": ["8h1a"] }),
    );
    let refused = next(&mut socket, "error");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("not a legal move"),
        "{refused}"
    );
    send_json(&mut socket, json!({ "type": "analyse", "ply": 9 }));
    let refused = next(&mut socket, "error");
    assert!(
        refused["error"].as_str().unwrap().contains("no move 9"),
        "{refused}"
    );
}

#[test]
fn pawns_lines_are_written_in_coordinates() {
    let server = server(1, 1);
    let state = server.create("pawns");
    let id = state["id"].as_str().unwrap().to_owned();
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "analyse" }));
    let done = until_done(&mut socket).pop().unwrap();
    let notation = done["lines"][0]["moves"][0]["notation"].as_str().unwrap();
    assert!(notation.starts_with("1. "), "{notation}");
}

#[test]
fn analysis_is_not_offered_while_a_game_against_the_computer_goes_on() {
    let server = server(1, 1);
    let state = server.create_with(&json!({
        "variant": "shogi",
        "opponent": { "kind": "computer", "level": 1, "color": "gote" }
    }));
    let id = state["id"].as_str().unwrap().to_owned();
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "analyse" }));
    let refused = next(&mut socket, "error");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("no help while an opponent cannot see it"),
        "{refused}"
    );
}

#[test]
fn twenty_analyses_from_five_clients_never_exceed_the_cap_and_all_finish() {
    let server = server(2, 1);
    let ids: Vec<String> = (0..5)
        .map(|_| {
            server.create("minishogi")["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let handles: Vec<_> = ids
        .into_iter()
        .map(|id| {
            let mut socket = server.websocket(&id);
            std::thread::spawn(move || {
                let mut waited = 0;
                let mut most = 0;
                for _ in 0..4 {
                    send_json(&mut socket, json!({ "type": "analyse" }));
                    for message in until_done(&mut socket) {
                        let thinking = message["engines"]["thinking"].as_u64().unwrap();
                        most = most.max(thinking);
                        if message["status"] == "waiting" {
                            waited += 1;
                        }
                    }
                }
                (waited, most)
            })
        })
        .collect();
    let results: Vec<(u64, u64)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let most = results.iter().map(|r| r.1).max().unwrap();
    assert!(most <= 2, "never more than the cap think: {results:?}");
    assert!(most >= 1);
    let waited: u64 = results.iter().map(|r| r.0).sum();
    assert!(
        waited > 0,
        "five clients and two engines: some wait ({results:?})"
    );
}

#[test]
fn a_client_that_leaves_frees_its_engine_at_once() {
    let server = server(1, 30);
    let first = server.create("shogi")["id"].as_str().unwrap().to_owned();
    let second = server.create("shogi")["id"].as_str().unwrap().to_owned();
    let mut leaving = server.websocket(&first);
    send_json(&mut leaving, json!({ "type": "analyse" }));
    assert_eq!(next(&mut leaving, "analysis")["status"], "running");
    let mut staying = server.websocket(&second);
    send_json(&mut staying, json!({ "type": "analyse" }));
    assert_eq!(next(&mut staying, "analysis")["status"], "waiting");
    let left = Instant::now();
    drop(leaving);
    let started = next(&mut staying, "analysis");
    assert_eq!(started["status"], "running");
    assert!(
        left.elapsed() < Duration::from_secs(1),
        "the engine was freed after {:?}",
        left.elapsed()
    );
    // A stop frees it too: the third client gets it.
    let third = server.create("shogi")["id"].as_str().unwrap().to_owned();
    let mut waiting = server.websocket(&third);
    send_json(&mut waiting, json!({ "type": "analyse" }));
    assert_eq!(next(&mut waiting, "analysis")["status"], "waiting");
    send_json(&mut staying, json!({ "type": "stop-analysis" }));
    assert_eq!(next(&mut waiting, "analysis")["status"], "running");
}
