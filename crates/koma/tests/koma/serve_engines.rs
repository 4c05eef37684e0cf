//! `koma serve --engine` with Koma's own engine registered as an external
//! USI engine (`koma usi`, another process): so that CI checks the whole
//! path a person's YaneuraOu would take without anything else installed.
//! The server's own tests (crates/server/tests/server/external_engines.rs)
//! check the pool and the checks on a scripted engine.

use crate::serve_client::{start_with, Server};
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use tungstenite::{Message, WebSocket};

/// The last message of the analysis with `engine`, once it ended.
fn ended(socket: &mut WebSocket<TcpStream>, engine: &str) -> Value {
    loop {
        let Message::Text(text) = socket.read().expect("a message") else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        let over = message["status"] == "done" || message["status"] == "failed";
        if message["type"] == "analysis" && message["engine"] == engine && over {
            return message;
        }
    }
}

fn analyse(server: &Server, variant: &str, engine: &str) -> Value {
    let id = server.create(variant)["id"].as_str().unwrap().to_owned();
    let mut socket = server.websocket(&id);
    let request = json!({ "type": "analyse", "engine": engine, "lines": 2 });
    socket.send(Message::text(request.to_string())).unwrap();
    ended(&mut socket, engine)
}

/// A server with Koma's own engine registered twice: `koma-usi` (shogi,
/// by `--engine`) and `koma-mini` (minishogi, by an engines file).
fn server_with_koma_registered() -> (Server, tempfile::NamedTempFile) {
    let koma = env!("CARGO_BIN_EXE_koma");
    let mut file = tempfile::NamedTempFile::new().unwrap();
    write!(
        file,
        "[[engine]]\nname = \"koma-mini\"\ncommand = \"{koma} usi\"\ngames = [\"minishogi\"]\n\
         [engine.options]\nUSI_Hash = 16\n"
    )
    .unwrap();
    let flag = format!("koma-usi={koma} usi");
    let engines_file = file.path().to_str().unwrap();
    let server = start_with(&[
        "--memory",
        "--analysis-seconds",
        "1",
        "--engine",
        &flag,
        "--engines-file",
        engines_file,
    ]);
    (server, file)
}

#[test]
fn komas_own_engine_analyses_as_a_registered_usi_engine() {
    let (server, _file) = server_with_koma_registered();
    let listed = server.get("/api/engines").json();
    let names: Vec<&str> = listed["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["koma", "koma-mini", "koma-usi"]);
    assert!(listed["engines"][2]["idName"]
        .as_str()
        .unwrap()
        .starts_with("Koma"));

    for (variant, engine) in [("shogi", "koma-usi"), ("minishogi", "koma-mini")] {
        let done = analyse(&server, variant, engine);
        assert_eq!(done["status"], "done", "{done}");
        assert!(done["depth"].as_u64().unwrap() >= 4, "{done}");
        let lines = done["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 2, "{done}");
        assert_ne!(lines[0]["moves"][0]["usi"], lines[1]["moves"][0]["usi"]);
        assert!(lines[0]["score"]["cp"].is_i64() || lines[0]["score"]["mate"].is_i64());
    }
}

#[test]
fn komas_own_engine_plays_and_finds_mate_as_a_registered_usi_engine() {
    let (server, _file) = server_with_koma_registered();
    // The opponent: a minishogi game against koma-mini, with a clock that
    // it manages itself from `go btime … byoyomi …`.
    let created = server.post(
        "/api/games",
        &json!({
            "variant": "minishogi",
            "opponent": { "kind": "computer", "engine": "koma-mini", "color": "sente" },
            "clock": { "initial": 60, "byoyomi": 1 }
        }),
    );
    assert_eq!(
        created.status,
        201,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
    let id = created.json()["id"].as_str().unwrap().to_owned();
    let mut state = Value::Null;
    for _ in 0..600 {
        state = server.get(&format!("/api/games/{id}")).json();
        if state["ply"] == 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(state["ply"], 1, "the engine opened: {state}");
    assert_eq!(state["moves"][0]["color"], "sente");
    assert!(state["outcome"].is_null(), "{state}");

    // Mate search by `go mate`, its line checked and written for people.
    let mate = server
        .post(
            "/api/games",
            &json!({ "variant": "shogi", "position": "7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1" }),
        )
        .json();
    let id = mate["id"].as_str().unwrap();
    let found = server.get(&format!("/api/games/{id}/mate?seconds=5&engine=koma-usi"));
    assert_eq!(
        found.status,
        200,
        "{}",
        String::from_utf8_lossy(&found.body)
    );
    let found = found.json();
    assert_eq!(found["engine"], "koma-usi");
    assert_eq!(found["answer"], "mate");
    assert_eq!(found["line"][0]["usi"], "G*1b");
}
