//! `koma serve --memory=SIZE` and `--computer-engines N` from the outside:
//! games kept in memory bounded in bytes, and the computer opponents'
//! engines (see docs/API.md, *Persistence* and *Computer*).

mod common;
// This test uses a part of the client.
#[allow(dead_code)]
#[path = "common/serve_client.rs"]
mod serve_client;

use serde_json::json;
use serve_client::start_with;
use std::time::{Duration, Instant};

#[test]
fn a_memory_full_of_games_in_progress_refuses_new_ones_until_one_ends() {
    let server = start_with(&["--memory=1M"]);
    // About 60 KB a game: the megabyte is full after some sixteen.
    let large = json!({ "variant": "spear", "headers": { "event": "x".repeat(60_000) } });
    let mut kept = Vec::new();
    let refusal = loop {
        let reply = server.post("/api/games", &large);
        if reply.status == 503 {
            break reply.json();
        }
        assert_eq!(
            reply.status,
            201,
            "{}",
            String::from_utf8_lossy(&reply.body)
        );
        let state = reply.json();
        let id = state["id"].as_str().unwrap().to_owned();
        kept.push((id, state["seats"]["sente"].as_str().unwrap().to_owned()));
        assert!(kept.len() < 40, "a megabyte never filled");
    };
    assert!(kept.len() >= 10, "only {} games fitted", kept.len());
    let message = refusal["error"].as_str().unwrap();
    assert!(
        message.contains("full of games still in progress"),
        "{message}"
    );
    // Every game in progress is still there.
    for (id, _) in &kept {
        assert_eq!(server.get(&format!("/api/games/{id}")).status, 200);
    }
    // The oldest ends: it may go, and makes room for a new one.
    let (first, token) = &kept[0];
    let resigned = server.post(
        &format!("/api/games/{first}/resign"),
        &json!({ "ply": 0, "token": token }),
    );
    assert_eq!(resigned.status, 200);
    assert_eq!(server.post("/api/games", &large).status, 201);
    assert_eq!(server.get(&format!("/api/games/{first}")).status, 404);
    assert_eq!(server.get(&format!("/api/games/{}", kept[1].0)).status, 200);
}

#[test]
fn sizes_and_engines_are_checked() {
    for (args, said) in [
        (&["--memory=12Q"][..], "units"),
        (&["--memory=1000"][..], "too little"),
        (&["--computer-engines", "0"][..], "0"),
    ] {
        let out = common::koma(&[&["serve", "--port", "0"][..], args].concat(), b"");
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
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
