//! Endings of CSA games beyond the plain ones of `csa.rs`.

use crate::csa::{both, csa_server, started, Csa};

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
