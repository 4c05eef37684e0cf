//! shogi-server's `%%WHO`, `%%LIST` and `%%SHOW` on Koma's CSA port: who
//! is logged in and what each does, the games offered or played, and
//! where one stands.

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

#[test]
fn show_tells_where_a_game_stands_as_shogi_server_does() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = crate::csa::started(&server, "koma-600-10");
    let mut carol = Csa::connect(&server);
    carol.log_in_x1("carol");
    alice.send("+7776FU");
    both(&mut alice, &mut bob, &["+7776FU,T0"]);
    bob.send("-3334FU");
    both(&mut alice, &mut bob, &["-3334FU,T0"]);
    carol.send(&format!("%%SHOW {id}"));
    let expected = format!(
        "BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:{id}
Name+:alice
Name-:bob
Rematch_On_Draw:NO
To_Move:+
Max_Moves:5000
BEGIN Time
Time_Unit:1sec
Total_Time:600
Byoyomi:10
Increment:0
Least_Time_Per_Move:0
Remaining_Time+:600
Remaining_Time-:600
Last_Move:-3334FU,T0
Current_Turn:2
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU * -FU-FU
P4 *  *  *  *  *  * -FU *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  * +FU *  *  *  *  *  * 
P7+FU+FU * +FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary
+OK"
    );
    for want in expected.lines() {
        assert_eq!(
            carol.line().as_deref(),
            Some(format!("##[SHOW] {want}").as_str())
        );
    }
    // A game not played here: only the end.
    carol.send("%%SHOW 0123456789abcdef");
    carol.expect(&["##[SHOW] +OK"]);
    // Once over, the game is not shown.
    alice.send("%TORYO");
    bob.expect(&["%TORYO", "#RESIGN", "#WIN"]);
    carol.send(&format!("%%SHOW {id}"));
    carol.expect(&["##[SHOW] +OK"]);
}
