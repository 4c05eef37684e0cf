//! Endings of CSA games beyond the plain ones of `csa.rs`, and a CSA game
//! kept in PostgreSQL and watched through another server.

use crate::common::postgres::database;
use crate::common::{receive, start_with};
use crate::csa::{both, csa_server, started, Csa};
use std::path::Path;

/// Plays `codes` in turn, alice (sente) first; both see each echoed.
fn play(alice: &mut Csa, bob: &mut Csa, codes: &[&str]) {
    for code in codes {
        let mover = if code.starts_with('+') {
            &mut *alice
        } else {
            &mut *bob
        };
        mover.send(code);
        both(alice, bob, &[&format!("{code},T0")]);
    }
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = started(&server, "koma-60-5");
    // Sente's bishop reaches 44 and gote's pawns leave 33 and 53: from 44
    // it checks a king on 62, from 33 one on 51.
    play(
        &mut alice,
        &mut bob,
        &["+7776FU", "-3334FU", "+8844KA", "-5354FU"],
    );
    // Every sente move a check, the king stepping aside and back: the
    // position after -5354FU comes back a fourth time.
    for _ in 0..3 {
        play(
            &mut alice,
            &mut bob,
            &["+4433KA", "-5162OU", "+3344KA", "-6251OU"],
        );
    }
    alice.expect(&["#OUTE_SENNICHITE", "#LOSE"]);
    bob.expect(&["#OUTE_SENNICHITE", "#WIN"]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["ply"], 16);
    assert_eq!(state["outcome"]["winner"], "gote");
    assert_eq!(state["outcome"]["reason"], "perpetual-check");
}

/// The moves of a game of `testdata/games/`, as CSA codes.
fn moves_of(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/games")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|line| {
            line.len() == 7
                && (line.starts_with('+') || line.starts_with('-'))
                && line[1..5].bytes().all(|b| b.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_mated_player_may_only_resign() {
    let moves = moves_of("selfplay-mate.csa");
    assert_eq!(moves.len(), 200);
    let codes: Vec<&str> = moves.iter().map(String::as_str).collect();
    for ending in ["resigns", "moves on"] {
        let server = csa_server(&[]);
        let (mut alice, mut bob, id) = started(&server, "koma-600-10");
        play(&mut alice, &mut bob, &codes);
        // Koma's rules end the game at the mate; the players are told
        // nothing until the mated side speaks, as shogi-server, which does
        // not see mate, would have it.
        let state = server.get(&format!("/api/games/{id}")).json();
        assert_eq!(state["outcome"]["reason"], "checkmate", "{state}");
        assert_eq!(state["outcome"]["winner"], "gote");
        if ending == "resigns" {
            alice.send("%TORYO");
            alice.expect(&["%TORYO", "#RESIGN", "#LOSE"]);
            bob.expect(&["%TORYO", "#RESIGN", "#WIN"]);
        } else {
            // A move (or any statement but %TORYO) from the mated side is
            // an illegal move.
            alice.send("+5958OU");
            alice.expect(&["#ILLEGAL_MOVE", "#LOSE"]);
            bob.expect(&["#ILLEGAL_MOVE", "#WIN"]);
        }
        // The stored game is the mate, whatever was said after it.
        let state = server.get(&format!("/api/games/{id}")).json();
        assert_eq!(state["ply"], 200, "{ending}");
        assert_eq!(state["outcome"]["reason"], "checkmate", "{ending}");
    }
}

#[test]
fn a_true_declaration_wins_by_impasse() {
    let moves = moves_of("selfplay-kachi.csa");
    assert_eq!(moves.len(), 245);
    let codes: Vec<&str> = moves.iter().map(String::as_str).collect();
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = started(&server, "koma-600-10");
    play(&mut alice, &mut bob, &codes);
    bob.send("%KACHI");
    bob.expect(&["%KACHI", "#JISHOGI", "#WIN"]);
    alice.expect(&["%KACHI", "#JISHOGI", "#LOSE"]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["reason"], "impasse", "{state}");
    assert_eq!(state["outcome"]["winner"], "gote");
    let record = server.get(&format!("/api/games/{id}/record?format=csa"));
    let text = String::from_utf8_lossy(&record.body).into_owned();
    assert!(text.trim_end().ends_with("%KACHI"), "{text}");
}

#[test]
fn a_csa_game_in_postgresql_is_watched_through_another_server() {
    let db = database();
    let server = start_with(&["--db", &db.url, "--csa-port", "0"]);
    let (mut alice, mut bob, id) = started(&server, "koma-60-5");
    // A server sharing the database, with no CSA port, shows the game.
    let board = start_with(&["--db", &db.url]);
    let mut watcher = board.websocket(&id);
    watcher
        .get_ref()
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let first = receive(&mut watcher);
    assert_eq!(first["state"]["headers"]["sente"], "alice", "{first}");
    play(&mut alice, &mut bob, &["+7776FU"]);
    bob.send("-3334FU,'* 12 +2726FU");
    both(&mut alice, &mut bob, &["-3334FU,T0"]);
    // Each move reaches the other server's watcher as it is played.
    let mut seen = 0;
    while seen < 2 {
        let message = receive(&mut watcher);
        if message["type"] == "state" {
            seen = message["state"]["ply"].as_u64().unwrap();
        }
    }
    alice.send("%TORYO");
    bob.expect(&["%TORYO", "#RESIGN", "#WIN"]);
    let state = board.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["reason"], "resignation", "{state}");
    assert_eq!(state["moves"][1]["comments"][0], "** 12 +2726FU");
    let record = board.get(&format!("/api/games/{id}/record?format=csa"));
    let text = String::from_utf8_lossy(&record.body).into_owned();
    assert!(
        text.contains("-3334FU\nT0\n'** 12 +2726FU\n%TORYO"),
        "{text}"
    );
}
