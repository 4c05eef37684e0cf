//! One check of positions, one sentence, whatever the program (issue 53):
//! `koma shogi --position`, `koma perft --position`, `koma solve
//! --position`, USI's `position`, and the server's create and import.

// This test uses a part of the client.
#[allow(dead_code)]
use crate::common::koma;
use serde_json::json;

const NO_KING: &str = "there is no king on the board";
const GOTE_NO_KING: &str = "Gote has no king, and only the side to move may play without one (the attacker of a mate problem)";
const PAWN_CANNOT_MOVE: &str = "a pawn on 1a can never move";

/// Standard error of `koma ARGS`, which must fail.
fn refusal(args: &[&str]) -> String {
    let output = koma(args, "quit\n");
    assert!(!output.status.success(), "{args:?} succeeded");
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn the_console_programs_say_the_rules_sentence() {
    let empty = "9/9/9/9/9/9/9/9/9 b - 1";
    assert!(refusal(&["shogi", "--position", empty]).contains(NO_KING));
    assert!(refusal(&["perft", "shogi", "1", "--position", empty]).contains(NO_KING));
    let gote_kingless = "5/5/5/5/K4 b - 1";
    let said = refusal(&[
        "shogi",
        "--variant",
        "minishogi",
        "--position",
        gote_kingless,
    ]);
    assert!(said.contains(GOTE_NO_KING), "{said}");
    let dead = "4P/5/5/5/K3k b - 1";
    let said = refusal(&["shogi", "--variant", "minishogi", "--position", dead]);
    assert!(said.contains(PAWN_CANNOT_MOVE), "{said}");
    // Spear drops a soldier anywhere: there it stands, unpromoted.
    let output = koma(
        &["shogi", "--variant", "spear", "--position", dead],
        "quit\n",
    );
    assert!(output.status.success());
    let said = refusal(&["solve", "pawns", "--position", "8/8/8/8/8/8/P7/8 w - - 0 1"]);
    assert!(
        said.contains("Black has no pawns, and only the side to move"),
        "{said}"
    );
}

#[test]
fn usi_says_the_rules_sentence() {
    let output = koma(
        &["usi"],
        "usi\nposition sfen 9/9/9/9/9/9/9/9/9 b - 1\nisready\nquit\n",
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains(&format!("info string bad position: {NO_KING}")),
        "{text}"
    );
    // A start without a legal move: lost, nothing to play.
    let output = koma(
        &["usi"],
        "usi\nposition sfen 4k4/9/9/9/9/9/9/9/9 b - 1\nisready\ngo depth 3\nquit\n",
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("bestmove resign"), "{text}");
}

#[test]
fn the_server_says_the_rules_sentence_and_shows_a_finished_start() {
    let server = crate::serve_client::start();
    let refused = [
        ("shogi", "9/9/9/9/9/9/9/9/9 b - 1", NO_KING),
        ("spear", "5/5/5/5/5 b - 1", NO_KING),
        ("minishogi", "5/5/5/5/K4 b - 1", GOTE_NO_KING),
        ("minishogi", "4P/5/5/5/K3k b - 1", PAWN_CANNOT_MOVE),
        (
            "pawns",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "there are no pawns on the board",
        ),
    ];
    for (variant, position, sentence) in refused {
        let created = server.post(
            "/api/games",
            &json!({ "variant": variant, "position": position }),
        );
        let keyword = if variant == "pawns" { "fen" } else { "sfen" };
        let imported = server.post(
            "/api/games/import",
            &json!({ "text": format!("position {keyword} {position}"), "format": "usi", "variant": variant }),
        );
        for (path, reply) in [("create", created), ("import", imported)] {
            assert_eq!(reply.status, 422, "{variant} {position}: {path}");
            let message = reply.json()["error"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            assert!(
                message.contains(sentence),
                "{variant} {position}: {path} says {message:?}"
            );
        }
    }
    let finished = [
        (
            "shogi",
            "4k4/9/9/9/9/9/9/9/9 b - 1",
            "Gote wins: Sente has no legal move.",
        ),
        (
            "minishogi",
            "4k/5/5/5/5 b - 1",
            "Gote wins: Sente has no legal move.",
        ),
        (
            "spear",
            "4k/5/5/5/5 b k 1",
            "White wins: Black's king was captured.",
        ),
    ];
    for (variant, position, message) in finished {
        let created = server.create_with(&json!({ "variant": variant, "position": position }));
        let reply = server.post(
            "/api/games/import",
            &json!({ "text": format!("position sfen {position}"), "variant": variant }),
        );
        assert_eq!(
            reply.status,
            201,
            "{}",
            String::from_utf8_lossy(&reply.body)
        );
        for state in [created, reply.json()] {
            assert_eq!(state["outcome"]["message"], message, "{position}");
            assert_eq!(state["legalMoves"], json!([]), "{position}");
        }
    }
    // Spear's soldier on the last row: created and imported alike.
    let spear = "P4/5/5/5/K3k b - 1";
    let created = server.create_with(&json!({ "variant": "spear", "position": spear }));
    let reply = server.post(
        "/api/games/import",
        &json!({ "text": format!("position sfen {spear}"), "variant": "spear" }),
    );
    assert_eq!(
        reply.status,
        201,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let imported = reply.json();
    for state in [created, imported] {
        assert_eq!(state["variant"], "spear");
        assert_eq!(state["outcome"], serde_json::Value::Null);
        assert_eq!(state["start"], spear);
    }
}
