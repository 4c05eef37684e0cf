//! Games kept in memory (`--memory[=SIZE]`, see docs/API.md,
//! *Persistence*): bounded in bytes, a memory full of games in progress
//! refuses new ones until one ends, and the server says where its games
//! are kept.

use crate::common::start_with;
use serde_json::json;

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
fn memory_only_says_so() {
    let server = start_with(&["--memory"]);
    assert_eq!(
        server.kept,
        "Games are kept in memory only: they are lost when the server stops."
    );
}
