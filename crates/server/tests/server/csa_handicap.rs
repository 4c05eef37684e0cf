//! shogi-server's handicap games on Koma's CSA port (`hc2p_koma-600-10`):
//! offered as shogi-server offers them (the giver is `Name+`, its pieces
//! off the bottom of the board, moving first), kept as Koma's handicap
//! (the giver gote), and shown by `%%SHOW` as the players see it.

use crate::csa::{both, csa_server, expected_summary, Csa};

/// The summary of a handicap game whose board shogi-server writes as
/// `rows` (`P1`…`P9`), alice giving the handicap.
fn handicap_summary(id: &str, your_turn: &str, rows: &str) -> Vec<String> {
    let mut lines = expected_summary(id, your_turn, 600, 10);
    let (p1, p9) = (20, 28);
    assert_eq!((&lines[p1][..2], &lines[p9][..2]), ("P1", "P9"));
    lines.splice(p1..=p9, rows.lines().map(str::to_owned));
    lines
}

/// alice (giving the handicap: `+`) and bob, offered `game`: both
/// clients and the game's id.
fn offered(server: &crate::common::server::Server, game: &str, rows: &str) -> (Csa, Csa, String) {
    let (mut alice, mut bob) = (Csa::connect(server), Csa::connect(server));
    alice.log_in_x1("alice");
    bob.log_in_x1("bob");
    alice.send(&format!("%%GAME {game} +"));
    alice.send("");
    alice.expect(&[""]);
    bob.send(&format!("%%GAME {game} -"));
    let summary = alice.summary();
    let id = summary[5].strip_prefix("Game_ID:").unwrap().to_owned();
    assert_eq!(summary, handicap_summary(&id, "+", rows));
    assert_eq!(bob.summary(), handicap_summary(&id, "-", rows));
    (alice, bob, id)
}

const TWO_PIECES: &str = "\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 *  *  *  *  *  *  *  *  * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
";

const LANCE: &str = "\
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9 * +KE+GI+KI+OU+KI+GI+KE+KY
";

#[test]
fn a_two_piece_handicap_is_offered_played_and_kept_as_komas() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = offered(&server, "hc2p_koma-600-10", TWO_PIECES);
    alice.send("AGREE");
    bob.send("AGREE");
    both(&mut alice, &mut bob, &[&format!("START:{id}")]);
    // The giver (sente to the protocol) moves first: bob's move waits.
    bob.send("-3334FU");
    alice.send("+5958OU");
    both(&mut alice, &mut bob, &["+5958OU,T0", "-3334FU,T0"]);
    // %%SHOW tells it as the players see it: the giver `+`, its king moved.
    alice.send(&format!("%%SHOW {id}"));
    let shown: Vec<String> = std::iter::from_fn(|| alice.line())
        .take_while(|line| line != "##[SHOW] +OK")
        .collect();
    assert!(
        shown.contains(&"##[SHOW] Name+:alice".to_owned()),
        "{shown:?}"
    );
    assert!(
        shown.contains(&"##[SHOW] Last_Move:-3334FU,T0".to_owned()),
        "{shown:?}"
    );
    assert!(
        shown.contains(&"##[SHOW] P8 *  *  *  * +OU *  *  *  * ".to_owned()),
        "{shown:?}"
    );
    assert!(
        shown.contains(&"##[SHOW] P4 *  *  *  *  *  * -FU *  * ".to_owned()),
        "{shown:?}"
    );
    // The giver has no bishop to move.
    alice.send("+8822KA");
    alice.expect(&["#ILLEGAL_MOVE", "#LOSE"]);
    bob.expect(&["#ILLEGAL_MOVE", "#WIN"]);

    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["handicap"]["name"], "two-piece", "{state}");
    // Koma's handicap: the giver is gote.
    assert_eq!(state["headers"]["sente"], "bob");
    assert_eq!(state["headers"]["gote"], "alice");
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["5a5b", "7g7f"]);
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["outcome"]["reason"], "illegal-move");
}

#[test]
fn a_lance_handicap_is_shogi_servers_and_needs_a_side() {
    let server = csa_server(&[]);
    let mut carol = Csa::connect(&server);
    carol.log_in_x1("carol");
    carol.send("%%GAME hclance_koma-600-10 *");
    carol.expect(&["##[ERROR] Random turn preference is not allowed for handicapped games"]);
    let (mut alice, mut bob, id) = offered(&server, "hclance_koma-600-10", LANCE);
    bob.send("REJECT");
    both(&mut alice, &mut bob, &[&format!("REJECT:{id} by bob")]);
}
