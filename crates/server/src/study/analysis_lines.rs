//! Tests: the number of lines an analysis request asks for (MultiPV) is
//! bounded, 1 to [`MAX_LINES`] (3 when absent), and that many come back,
//! with the legal moves of the position analysed.

use super::think;
use crate::external::pool::ExternalEngines;
use crate::games::live::AnyGame;
use crate::study::analysis_target::{
    target, AnalyseRequest, AnalysisJson, EnginesJson, DEFAULT_LINES, MAX_LINES,
};
use koma_engine::{Limits, SearchControl};
use koma_rules::Variant;
use serde_json::{json, Value};
use std::sync::Mutex;

fn request(value: Value) -> AnalyseRequest {
    serde_json::from_value(value).expect("a request")
}

fn shogi_start() -> AnyGame {
    AnyGame::new(Variant::Shogi, None).expect("a game")
}

/// The last message of a depth-3 analysis of `game` asked with `value`.
fn analyse(game: AnyGame, value: Value) -> Value {
    let target =
        target(game.clone(), "0", request(value), &ExternalEngines::none()).expect("a target");
    let AnyGame::Shogi(shogi) = &game else {
        panic!("a shogi game");
    };
    let sent: Mutex<Vec<AnalysisJson>> = Mutex::new(Vec::new());
    let engines = || EnginesJson {
        thinking: 1,
        cap: 1,
    };
    think(
        shogi,
        &target,
        &Limits::depth(3),
        &SearchControl::new(false),
        engines,
        |json| sent.lock().unwrap().push(json),
    );
    let done = sent.into_inner().unwrap().pop().expect("the last message");
    serde_json::to_value(done).expect("JSON")
}

#[test]
fn a_request_for_no_lines_or_more_than_five_is_refused() {
    for lines in [0, MAX_LINES + 1, 100] {
        let refused = target(
            shogi_start(),
            "0",
            request(json!({ "lines": lines })),
            &ExternalEngines::none(),
        )
        .err()
        .unwrap_or_else(|| panic!("{lines} lines were accepted"));
        assert_eq!(
            refused.message,
            format!("An analysis shows from 1 to 5 lines, not {lines}.")
        );
    }
    // Not a whole number at all: the message's own parse refuses it.
    assert!(serde_json::from_value::<AnalyseRequest>(json!({ "lines": -1 })).is_err());
    assert!(serde_json::from_value::<AnalyseRequest>(json!({ "lines": "3" })).is_err());
}

#[test]
fn each_number_of_lines_from_one_to_five_comes_back() {
    for lines in 1..=MAX_LINES {
        let done = analyse(shogi_start(), json!({ "lines": lines }));
        assert_eq!(done["status"], "done", "{done}");
        assert_eq!(done["multiPv"], lines, "{done}");
        let sent = done["lines"].as_array().expect("lines");
        assert_eq!(sent.len(), lines as usize, "{done}");
        // Different first moves, the best first.
        let firsts: std::collections::HashSet<&str> = sent
            .iter()
            .map(|line| line["moves"][0]["usi"].as_str().expect("a move"))
            .collect();
        assert_eq!(firsts.len(), lines as usize, "{done}");
    }
}

#[test]
fn without_lines_three_come_back_with_the_legal_moves() {
    let done = analyse(shogi_start(), json!({}));
    assert_eq!(done["multiPv"], DEFAULT_LINES);
    assert_eq!(done["lines"].as_array().expect("lines").len(), 3);
    let legal = done["legalMoves"].as_array().expect("legal moves");
    assert_eq!(legal.len(), 30, "{done}");
    assert!(legal.contains(&json!("7g7f")));
}

#[test]
fn the_legal_moves_are_the_variations() {
    // After 7g7f, 3c3d, 8h2b+ Gote must answer the bishop; the variation
    // 3a2b takes it back, and Sente's moves there include the drop B*4e.
    let mut game = shogi_start();
    for m in ["7g7f", "3c3d", "8h2b+"] {
        game.play_text(m).expect("a legal move");
    }
    let done = analyse(game, json!({ "ply": 3, "moves": ["3a2b"], "lines": 5 }));
    let legal = done["legalMoves"].as_array().expect("legal moves");
    assert!(legal.contains(&json!("B*4e")), "{done}");
    assert!(!legal.contains(&json!("3a2b")), "{done}");
}
