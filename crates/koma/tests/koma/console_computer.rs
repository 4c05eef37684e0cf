//! The computer at the terminal: `koma shogi --computer SIDE --level N`
//! and `hint`, and `koma pawns --computer SIDE` in the seed's conversation
//! (whose transcripts without the options are the goldens of golden.rs).

use crate::common::koma;

/// Standard output of `koma ARGS` fed `input`, which must succeed quietly.
fn run(args: &[&str], input: &str) -> String {
    let output = koma(args, input);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The line after the first line equal to `line`.
fn after<'a>(text: &'a str, line: &str) -> Option<&'a str> {
    let mut lines = text.lines();
    lines.find(|l| *l == line)?;
    lines.next()
}

fn is_pawn_move(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

#[test]
fn pawns_against_the_computer_playing_black() {
    let out = run(
        &["pawns", "--computer", "black", "--level", "3"],
        "Ann\ne2e4\nexit\n",
    );
    assert!(
        out.starts_with("Pawns-Only Chess\nFirst Player's name:\nSecond Player's name:\nKoma\n"),
        "{out}"
    );
    let reply = after(&out, "Koma's turn:").expect("the computer's turn");
    assert!(is_pawn_move(reply), "{out}");
    // Its move is on the board: Black has a pawn off the seventh rank.
    assert!(out.trim_end().ends_with("Ann's turn:\nBye!"), "{out}");
    let last_board = out
        .rsplit("+---+---+---+---+---+---+---+---+\n7 |")
        .next()
        .unwrap();
    assert!(last_board.starts_with(' '), "{out}");
    assert_eq!(
        last_board.lines().next().unwrap().matches('B').count(),
        7,
        "{out}"
    );
}

#[test]
fn pawns_computer_playing_white_moves_first_and_names_itself() {
    let out = run(
        &["pawns", "--computer", "white", "--level", "1"],
        "Bob\nexit\n",
    );
    assert!(
        out.starts_with("Pawns-Only Chess\nFirst Player's name:\nKoma\nSecond Player's name:\n"),
        "{out}"
    );
    let first = after(&out, "Koma's turn:").expect("the computer moves first");
    assert!(is_pawn_move(first), "{out}");
    assert!(out.find("Koma's turn:").unwrap() < out.find("Bob's turn:").unwrap());
}

#[test]
fn pawns_hints_only_when_asked_for() {
    let out = run(&["pawns", "--hints"], "Ann\nBob\nhint\nexit\n");
    let hint = after(&out, "Ann's turn:").unwrap();
    assert!(hint.starts_with("Hint: "), "{out}");
    assert!(is_pawn_move(&hint[6..10]), "{hint}");
    assert!(hint.contains(" Line: 1. "), "{hint}");
    // The seed's conversation knows no hint.
    let out = run(&["pawns"], "Ann\nBob\nhint\nexit\n");
    assert_eq!(after(&out, "Ann's turn:"), Some("Invalid Input"), "{out}");
}

#[test]
fn shogi_computer_replies_and_undo_takes_back_both_moves() {
    let out = run(
        &[
            "shogi",
            "--computer",
            "gote",
            "--level",
            "2",
            "--ascii",
            "--color",
            "never",
        ],
        "7g7f\nundo\nquit\n",
    );
    assert!(
        out.contains("Koma (Gote (w), level 2) is thinking…"),
        "{out}"
    );
    let plays = out
        .lines()
        .find(|l| l.starts_with("Koma plays "))
        .expect("a reply");
    assert!(plays.ends_with(").") && plays.contains(" ("), "{plays}");
    let took: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Took back "))
        .collect();
    assert_eq!(took.len(), 2, "{out}");
    assert_eq!(took[1], "Took back 7g7f.");
    // Back at the start, Sente to move, and the computer waits.
    let tail = out.rsplit("Took back 7g7f.").next().unwrap();
    assert!(tail.contains("Sente (b) to move."), "{tail}");
    assert!(!tail.contains("is thinking"), "{tail}");
}

#[test]
fn shogi_computer_as_sente_moves_first_and_hint_advises() {
    let out = run(
        &[
            "shogi",
            "--variant",
            "minishogi",
            "--computer",
            "sente",
            "--ascii",
            "--color",
            "never",
        ],
        "hint\nquit\n",
    );
    let thinking = out.find("is thinking").expect("the computer moves at once");
    let hint = out
        .find("Hint for Gote (w): ")
        .expect("a hint for the side to move");
    assert!(thinking < hint, "{out}");
    let line = &out[hint..out[hint..].find('\n').unwrap() + hint];
    assert!(
        line.contains(" at depth ") && line.contains("Line: △"),
        "{line}"
    );
}

#[test]
fn a_wrong_side_or_level_is_refused_with_a_sentence() {
    for args in [
        &["shogi", "--computer", "purple"][..],
        &["shogi", "--computer", "gote", "--level", "21"],
        &["pawns", "--computer", "sente"],
        &["pawns", "--level", "0"],
    ] {
        let output = koma(args, "");
        assert!(!output.status.success(), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("invalid value"), "{args:?}: {error}");
    }
}
