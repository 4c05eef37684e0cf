//! shogi-server's `%%WHO` and `%%LIST` on Koma's CSA port: who is logged
//! in and what each does, and the games offered or played.

use crate::csa::{both, csa_server, Csa};

#[test]
fn who_and_list_say_who_does_what_as_shogi_server_does() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, mut carol) = (
        Csa::connect(&server),
        Csa::connect(&server),
        Csa::connect(&server),
    );
    alice.log_in_x1("alice");
    // bob logs in in plain CSA mode, asking for gote in koma-600-10.
    bob.send("LOGIN bob koma-600-10-W");
    bob.expect(&["LOGIN:bob OK"]);
    carol.log_in_x1("carol");
    carol.send("%%LIST");
    carol.expect(&["##[LIST] +OK"]);
    carol.send("%%GAME koma-900-0 *");
    alice.send("%%GAME koma-600-10 +");
    let id = alice.summary()[5]
        .strip_prefix("Game_ID:")
        .unwrap()
        .to_owned();
    bob.summary();
    carol.send("%%WHO");
    carol.expect(&[
        "##[WHO] alice x1 agree_waiting koma-600-10 +",
        "##[WHO] bob CSA agree_waiting koma-600-10 -",
        "##[WHO] carol x1 game_waiting koma-900-0 *",
        "##[WHO] +OK",
    ]);
    carol.send("%%LIST");
    carol.expect(&[&format!("##[LIST] {id}"), "##[LIST] +OK"]);
    alice.send("AGREE");
    // The answer to a second AGREE says the first was read.
    alice.send("AGREE");
    alice.expect(&[
        "##[ERROR] you are in start_waiting status. AGREE is valid in agree_waiting status",
    ]);
    carol.send("%%WHO");
    carol.expect(&["##[WHO] alice x1 start_waiting koma-600-10 +"]);
    carol.expect(&["##[WHO] bob CSA agree_waiting koma-600-10 -"]);
    carol.expect(&["##[WHO] carol x1 game_waiting koma-900-0 *", "##[WHO] +OK"]);
    bob.send("AGREE");
    both(&mut alice, &mut bob, &[&format!("START:{id}")]);
    // A player may ask too, in a game or in plain mode.
    bob.send("%%WHO");
    bob.expect(&[
        "##[WHO] alice x1 game koma-600-10 +",
        "##[WHO] bob CSA game koma-600-10 -",
        "##[WHO] carol x1 game_waiting koma-900-0 *",
        "##[WHO] +OK",
    ]);
    alice.send("%%LIST now");
    alice.expect(&[&format!("##[LIST] {id}"), "##[LIST] +OK"]);
    alice.send("%TORYO");
    alice.expect(&["%TORYO", "#RESIGN", "#LOSE"]);
    // Once the game is over (its task ends and the players' sessions hear
    // of it a moment later), it is no longer listed, and bob's plain
    // session is closed.
    eventually(&mut carol, "%%LIST", &["##[LIST] +OK"]);
    eventually(
        &mut carol,
        "%%WHO",
        &[
            "##[WHO] alice x1 connected",
            "##[WHO] carol x1 game_waiting koma-900-0 *",
            "##[WHO] +OK",
        ],
    );
}

/// `command`'s answer (the lines up to `… +OK`) becomes `expected`
/// within a second.
fn eventually(client: &mut Csa, command: &str, expected: &[&str]) {
    let mut answer = Vec::new();
    for _ in 0..50 {
        client.send(command);
        answer.clear();
        loop {
            let line = client.line().expect("an answer");
            let last = line.ends_with(" +OK");
            answer.push(line);
            if last {
                break;
            }
        }
        if answer == expected {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(answer, expected);
}
