//! Game review on the server: `{"type": "review"}` over a game's WebSocket
//! judges every position with progress, keeps the review with the game
//! (through a restart), gives it at `GET /api/games/{id}/review` and in
//! the state, writes it into the records saved, and is refused where
//! analysis is. Imported comments and move times are kept the same way.

use crate::common::{next_of, send_json, start_with, usi_list, Server, TempDir};
use serde_json::{json, Value};

/// The nodes per position: enough for real moves, quick in a test.
const NODES: &str = "3000";

/// Reviews game `id` over a new WebSocket: the progress messages up to
/// "done", and the state that carries the review (which may come before
/// or after "done": they travel on different channels).
fn review(server: &Server, id: &str) -> (Vec<Value>, Value) {
    let mut socket = server.websocket(id);
    next_of(&mut socket, &["state"]);
    send_json(&mut socket, json!({ "type": "review" }));
    let mut progress: Vec<Value> = Vec::new();
    let mut reviewed = None;
    while reviewed.is_none() || progress.last().is_none_or(|m| m["status"] != "done") {
        let message = next_of(&mut socket, &["review", "state", "error"]);
        match message["type"].as_str() {
            Some("review") => {
                assert_ne!(message["status"], "failed", "{message}");
                progress.push(message);
            }
            Some("state") if !message["state"]["review"].is_null() => {
                reviewed = Some(message["state"].clone());
            }
            Some("error") => panic!("{message}"),
            _ => {}
        }
    }
    (progress, reviewed.unwrap())
}

/// A KIF with a comment before the first move, and a comment and a time
/// on the moves.
const COMMENTED: &str = "手合割：平手\n先手：花子\n後手：太郎\n*序盤の研究\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:12/00:00:12)\n*角道を開ける\n   2 ３四歩(33)   ( 0:03/00:00:03)\n   3 ２二角成(88) ( 1:00/00:01:12)\n*早い交換\n   4 同　銀(31)   ( 0:02/00:00:05)\n   5 ４五角打     ( 0:30/00:01:42)\n";

#[test]
fn a_records_comments_and_times_are_shown_and_saved_back() {
    let server = start_with(&["--memory"]);
    let state = server.import("commented.kif", COMMENTED.as_bytes());
    assert_eq!(state["comments"], json!(["序盤の研究"]));
    let moves = state["moves"].as_array().unwrap();
    assert_eq!(moves[0]["comments"], json!(["角道を開ける"]));
    assert_eq!(moves[0]["milliseconds"], 12_000);
    assert_eq!(moves[1]["comments"], Value::Null);
    assert_eq!(moves[1]["milliseconds"], 3_000);
    assert_eq!(moves[4]["milliseconds"], 30_000);
    let id = state["id"].as_str().unwrap();
    for format in ["kif", "kifu", "csa"] {
        let saved = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(saved.status, 200);
        let back = server.import(&format!("back.{format}"), &saved.body);
        assert_eq!(back["comments"], state["comments"], "{format}");
        for (was, is) in moves.iter().zip(back["moves"].as_array().unwrap()) {
            assert_eq!(is["comments"], was["comments"], "{format}");
            assert_eq!(is["milliseconds"], was["milliseconds"], "{format}");
        }
    }
    // KIFU: KIF in UTF-8.
    let kifu = server.get(&format!("/api/games/{id}/record?format=kifu"));
    let text = String::from_utf8(kifu.body).unwrap();
    assert!(text.contains("*角道を開ける"), "{text}");
    assert!(text.contains("( 1:00/00:01:12)"), "{text}");

    // A move taken back loses its note; the others keep theirs. The
    // imported game is one for one screen, so it can be changed.
    let token = state["seats"]["sente"].as_str().unwrap();
    let undone = server.post(
        &format!("/api/games/{id}/undo"),
        &json!({ "ply": 5, "token": token }),
    );
    assert_eq!(undone.status, 200, "{}", undone.json());
    let after = server.play(id, 4, &["2g2f"]);
    let moves = after["moves"].as_array().unwrap();
    assert_eq!(moves[2]["comments"], json!(["早い交換"]));
    assert_eq!(moves[4]["milliseconds"], Value::Null, "{after}");
}

#[test]
fn a_review_judges_every_move_keeps_it_and_writes_it_into_the_records() {
    let server = start_with(&["--memory", "--review-nodes", NODES]);
    let state = server.import("commented.kif", COMMENTED.as_bytes());
    let id = state["id"].as_str().unwrap().to_owned();
    let missing = server.get(&format!("/api/games/{id}/review"));
    assert_eq!(missing.status, 404);
    let (progress, reviewed) = review(&server, &id);
    // Progress counts up over the six positions.
    let done: Vec<u64> = progress
        .iter()
        .filter(|m| m["status"] == "running")
        .map(|m| m["done"].as_u64().unwrap())
        .collect();
    assert_eq!(done.first(), Some(&0), "{progress:?}");
    assert_eq!(done.last(), Some(&6), "{progress:?}");
    assert!(done.windows(2).all(|d| d[0] <= d[1]), "{done:?}");
    assert!(progress.iter().all(|m| m["total"] == 6));
    assert_eq!(progress.last().unwrap()["status"], "done");

    let review = &reviewed["review"];
    assert_eq!(review["nodes"], 3000);
    assert_eq!(review["positions"].as_array().unwrap().len(), 6);
    assert_eq!(review["moves"].as_array().unwrap().len(), 5);
    for position in review["positions"].as_array().unwrap() {
        let expected = position["evaluation"]["expected"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&expected), "{position}");
    }
    // 5. ４五角打 walks into 4e's pawn... it is a blunder or not, but the
    // labels follow the losses.
    for m in review["moves"].as_array().unwrap() {
        let loss = m["loss"].as_f64().unwrap();
        let label = m["label"].as_str();
        let want = if loss >= 0.15 {
            Some("blunder")
        } else if loss >= 0.10 {
            Some("mistake")
        } else if loss >= 0.05 {
            Some("inaccuracy")
        } else {
            None
        };
        assert_eq!(label, want, "{m}");
        if loss > 0.0 {
            let better = m["better"]["notation"].as_str().unwrap();
            assert!(better.starts_with('☗') || better.starts_with('☖'), "{m}");
        }
    }
    let sides = &review["sides"];
    assert_eq!(sides["sente"]["moves"], 3);
    assert_eq!(sides["gote"]["moves"], 2);

    // The API gives what the state gives.
    let api = server.get(&format!("/api/games/{id}/review")).json();
    assert_eq!(&api, review);

    // The records carry it: KIF as ShogiHome writes it, CSA as floodgate.
    let kif = server.get(&format!("/api/games/{id}/record?format=kifu"));
    let kif = String::from_utf8(kif.body).unwrap();
    assert!(kif.contains("*#評価値="), "{kif}");
    assert!(kif.contains("*#エンジン=Koma"), "{kif}");
    assert!(
        kif.contains("*角道を開ける"),
        "the record's own comments stay"
    );
    let csa = server.get(&format!("/api/games/{id}/record?format=csa"));
    let csa = String::from_utf8(csa.body).unwrap();
    assert!(csa.lines().any(|l| l.starts_with("'** ")), "{csa}");
    // Read back, the annotated KIF has the same moves.
    let back = server.import("annotated.kifu", kif.as_bytes());
    assert_eq!(usi_list(&back), usi_list(&state));

    // A move played afterwards (the game is one for one screen) drops the
    // review of other moves.
    let after = server.play(&id, 5, &["6c6d"]);
    assert!(after["review"].is_null(), "{after}");
    assert_eq!(server.get(&format!("/api/games/{id}/review")).status, 404);
}

#[test]
fn pawns_reviews_are_written_as_lichess_writes_them() {
    let server = start_with(&["--memory", "--review-nodes", NODES]);
    let pgn = "[Event \"Test\"]\n[Variant \"Pawns-Only\"]\n\n1. e4 d5 2. exd5 c6 3. dxc6 bxc6 *\n";
    let state = server.import("pawns.pgn", pgn.as_bytes());
    let id = state["id"].as_str().unwrap().to_owned();
    let (_, reviewed) = review(&server, &id);
    assert_eq!(reviewed["review"]["positions"].as_array().unwrap().len(), 7);
    assert_eq!(reviewed["review"]["sides"]["white"]["moves"], 3);
    let saved = server.get(&format!("/api/games/{id}/record?format=pgn"));
    let text = String::from_utf8(saved.body).unwrap();
    assert!(text.contains("[%eval "), "{text}");
}

#[test]
fn a_review_is_refused_while_a_game_against_the_computer_goes_on() {
    let server = start_with(&["--memory", "--review-nodes", NODES]);
    let state = server.create_with(&json!({
        "variant": "minishogi",
        "opponent": { "kind": "computer", "level": 1, "color": "gote" }
    }));
    let id = state["id"].as_str().unwrap();
    let mut socket = server.websocket(id);
    send_json(&mut socket, json!({ "type": "review" }));
    let refused = next_of(&mut socket, &["error", "review"]);
    assert_eq!(refused["type"], "error", "{refused}");
}

#[test]
fn a_review_and_a_records_notes_survive_a_restart() {
    let dir = TempDir::new("review-restart");
    let db = dir.db();
    let db = db.to_str().unwrap();
    let (id, review) = {
        let server = start_with(&["--db", db, "--review-nodes", NODES]);
        let state = server.import("commented.kif", COMMENTED.as_bytes());
        let id = state["id"].as_str().unwrap().to_owned();
        let (_, reviewed) = review(&server, &id);
        (id, reviewed["review"].clone())
    };
    let server = start_with(&["--db", db]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["review"], review);
    assert_eq!(state["comments"], json!(["序盤の研究"]));
    assert_eq!(state["moves"][0]["milliseconds"], 12_000);
}
