//! `koma worker` as a person runs it: a real worker process takes the
//! review a board asks of a `koma serve --memory --worker-keys …
//! --analysis-engines 0` process (so that only the worker can do it), and
//! the board sees it done and kept; it answers the board's mate search
//! and its analysis too (jobs of their own kinds); the worker stops cleanly and at once
//! on SIGTERM (as on Ctrl-C), and stops with a sentence when the server
//! does not know its key.

use crate::common::scratch;
use crate::serve_client::{receive, start_with};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

type Socket = tungstenite::WebSocket<TcpStream>;

/// The next message of one of `kinds`.
fn next_of(socket: &mut Socket, kinds: &[&str]) -> Value {
    loop {
        let message = receive(socket);
        if kinds.iter().any(|kind| message["type"] == *kind) {
            return message;
        }
    }
}

fn send_json(socket: &mut Socket, message: Value) {
    socket
        .send(tungstenite::Message::text(message.to_string()))
        .unwrap();
}

const KEY: &str = "process-test-key-0123456789";

fn worker(address: &str, key_file: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args([
            "worker",
            "--server",
            &format!("http://{address}/"),
            "--key-file",
            key_file,
            "--engines",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma worker starts")
}

#[test]
fn a_koma_worker_process_does_the_review_a_board_asks_for() {
    let keys = scratch("keys");
    std::fs::write(&keys, format!("# the test's worker\ntester {KEY}\n")).unwrap();
    let server = start_with(&[
        "--memory",
        "--worker-keys",
        &keys,
        "--analysis-engines",
        "0",
        "--review-nodes",
        "2000",
        "--analysis-seconds",
        "2",
    ]);
    let state = server.create("shogi");
    let id = state["id"].as_str().unwrap().to_owned();
    server.play(&id, 0, &["7g7f", "3c3d", "2g2f"]);
    let mut socket = server.websocket(&id);
    next_of(&mut socket, &["state"]);
    send_json(&mut socket, json!({ "type": "review" }));
    let waiting = next_of(&mut socket, &["review"]);
    assert_eq!(waiting["status"], "waiting", "{waiting}");

    let key_file = scratch("key");
    std::fs::write(&key_file, format!("{KEY}\n")).unwrap();
    let child = worker(&server.address, &key_file);
    let started = Instant::now();
    loop {
        let message = next_of(&mut socket, &["review"]);
        assert_ne!(message["status"], "failed", "{message}");
        if message["status"] == "done" {
            assert_eq!(message["done"], 4);
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no review");
    }
    let review = server.get(&format!("/api/games/{id}/review"));
    assert_eq!(review.status, 200);
    assert_eq!(review.json()["positions"].as_array().unwrap().len(), 4);

    // "Find mate" on the board: a job the worker answers, and the board
    // gets the mate as from a local search.
    let mate = server.create_with(&json!({
        "variant": "shogi", "position": "7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1"
    }));
    let found = server.get(&format!(
        "/api/games/{}/mate?seconds=2",
        mate["id"].as_str().unwrap()
    ));
    assert_eq!(found.status, 200);
    let found = found.json();
    assert_eq!(
        (found["answer"].as_str(), found["length"].as_u64()),
        (Some("mate"), Some(1))
    );
    assert_eq!(found["line"][0]["usi"], "G*1b", "{found}");

    // Analysis on the board: its lines come from the worker as they
    // deepen, and end with the last depth's.
    send_json(&mut socket, json!({ "type": "analyse", "lines": 2 }));
    let mut depths = Vec::new();
    let done = loop {
        let message = next_of(&mut socket, &["analysis"]);
        assert_ne!(message["status"], "failed", "{message}");
        if message["status"] == "running" {
            assert_eq!(message["lines"].as_array().unwrap().len(), 2, "{message}");
            depths.push(message["depth"].as_u64().unwrap());
        }
        if message["status"] == "done" {
            break message;
        }
    };
    assert!(!depths.is_empty() && depths.is_sorted(), "{depths:?}");
    assert!(done["depth"].as_u64().unwrap() >= depths[depths.len() - 1]);
    assert_eq!(done["lines"].as_array().unwrap().len(), 2, "{done}");

    // SIGTERM, as Ctrl-C: it stops by itself, successfully.
    let pid = child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let asked = Instant::now();
    let output = child.wait_with_output().unwrap();
    // Not after its pending long poll (20 s): at once.
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {said}", output.status);
    assert!(said.contains("3 jobs done"), "{said}");

    // A key the server does not know stops the worker with a sentence.
    let wrong = scratch("wrong-key");
    std::fs::write(&wrong, "not-the-key-0123456789abc\n").unwrap();
    let output = worker(&server.address, &wrong).wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(said.contains("refused the key"), "{said}");
}
