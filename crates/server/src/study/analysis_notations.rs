//! Tests: every move the API sends of a shogi game carries its notations
//! (Japanese, Japanese with the origin square, Western, USI and
//! Kitao–Kawasaki) — the game's moves in its state and each move of an
//! analysis line — and a Pawns-Only Chess move carries none.

use super::think;
use crate::external::pool::ExternalEngines;
use crate::games::live::AnyGame;
use crate::games::service::Games;
use crate::store::memory_store::MemoryStore;
use crate::study::analysis_target::{target, AnalyseRequest, AnalysisJson, EnginesJson};
use koma_engine::{Limits, SearchControl};
use koma_rules::Variant;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

fn games() -> Arc<Games> {
    Arc::new(Games::new(Box::new(MemoryStore::new(64 << 20)), None, 1))
}

/// The JSON state of a game imported from a USI record of `variant`.
fn imported(variant: &str, record: &str) -> Value {
    let state = games()
        .import(record.as_bytes(), Some("usi"), Some(variant), None)
        .unwrap_or_else(|refusal| panic!("{}", refusal.message));
    serde_json::to_value(state).expect("JSON")
}

#[test]
fn a_shogi_games_moves_carry_every_notation() {
    let state = imported("shogi", "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e");
    let moves = state["moves"].as_array().expect("moves");
    assert_eq!(
        moves[3]["notations"],
        json!({
            "japanese": "△同　銀",
            "japaneseOrigin": "△同　銀(31)",
            "western": "Sx2b",
            "usi": "3a2b",
            "kitaoKawasaki": "銀x",
        })
    );
    assert_eq!(moves[2]["notations"]["western"], "Bx2b+");
    assert_eq!(moves[2]["notations"]["kitaoKawasaki"], "角x22+");
    assert_eq!(moves[4]["notations"]["japanese"], "▲４五角");
    assert_eq!(moves[4]["notations"]["western"], "B*4e");
    // `notation` stays as it was, for pages written before `notations`.
    assert_eq!(moves[3]["notation"], "☖同　銀(31)");
}

#[test]
fn minishogi_and_spear_have_their_notations_and_pawns_none() {
    let state = imported("minishogi", "position startpos moves 5d5c");
    assert_eq!(state["moves"][0]["notations"]["western"], "P-5c");
    assert_eq!(state["moves"][0]["notations"]["japanese"], "▲５三歩");
    // Spear's pieces have no Western letters: Japanese and USI only, and
    // its seed's notation beside them.
    let state = imported("spear", "position startpos moves 2e3d");
    let spear = &state["moves"][0];
    assert_eq!(
        spear["notations"],
        json!({ "japanese": "▲３四象", "japaneseOrigin": "▲３四象(25)", "usi": "2e3d" })
    );
    assert_eq!(spear["seed"], "b 25 34");
    let state = imported("pawns", "position startpos moves e2e4");
    assert!(state["moves"][0].get("notations").is_none(), "{state}");
}

#[test]
fn an_analysis_lines_moves_carry_every_notation() {
    let mut game = AnyGame::new(Variant::Shogi, None).expect("a game");
    for m in ["7g7f", "3c3d", "8h2b+"] {
        game.play_text(m).expect("a legal move");
    }
    let AnyGame::Shogi(shogi) = &game else {
        panic!("a shogi game");
    };
    let request: AnalyseRequest = serde_json::from_value(json!({ "ply": 3 })).expect("a request");
    let target = target(game.clone(), "0", request, &ExternalEngines::none()).expect("a target");
    let sent: Mutex<Vec<AnalysisJson>> = Mutex::new(Vec::new());
    let engines = || EnginesJson {
        thinking: 1,
        cap: 1,
    };
    let control = SearchControl::new(false);
    think(
        shogi,
        &target,
        &Limits::depth(3),
        &control,
        engines,
        |json| sent.lock().unwrap().push(json),
    );
    let done = sent.into_inner().unwrap().pop().expect("the last message");
    let done = serde_json::to_value(done).expect("JSON");
    assert_eq!(done["status"], "done");
    let lines = done["lines"].as_array().expect("lines");
    assert!(!lines.is_empty(), "{done}");
    for line in lines {
        for m in line["moves"].as_array().expect("moves") {
            let notations = &m["notations"];
            assert_eq!(notations["usi"], m["usi"], "{m}");
            // The KIF text is `notation`'s with the other marks.
            let kif = m["notation"]
                .as_str()
                .unwrap()
                .replace('☗', "▲")
                .replace('☖', "△");
            assert_eq!(notations["japaneseOrigin"], kif.as_str(), "{m}");
            for key in ["japanese", "western", "kitaoKawasaki"] {
                assert!(
                    notations[key].as_str().is_some_and(|t| !t.is_empty()),
                    "{m}"
                );
            }
        }
    }
    // After 8h2b+ the bishop is taken back at once, on the same square.
    let first = &lines[0]["moves"][0]["notations"];
    assert_eq!(first["usi"], "3a2b", "{done}");
    assert_eq!(first["japanese"], "△同　銀");
}
