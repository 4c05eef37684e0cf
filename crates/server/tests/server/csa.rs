//! `koma serve --csa-port`: CSA clients scripted line by line against the
//! server's CSA port, and what they played read back through the HTTP API.

use crate::common::server::{self, Server};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A CSA client that sends and reads lines as the test says.
pub(crate) struct Csa {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Csa {
    pub(crate) fn connect(server: &Server) -> Csa {
        let address = server.csa_address.as_ref().expect("the CSA port is open");
        let stream = TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        Csa {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
        }
    }

    pub(crate) fn send(&mut self, line: &str) {
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    /// The next line, without its line break; `None` once the server
    /// closed the connection.
    pub(crate) fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_owned()),
        }
    }

    /// The next lines are `expected`, in order.
    pub(crate) fn expect(&mut self, expected: &[&str]) {
        for want in expected {
            assert_eq!(self.line().as_deref(), Some(*want));
        }
    }

    /// Reads a `Game_Summary` block whole; its lines.
    pub(crate) fn summary(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line().expect("a summary line");
            let end = line == "END Game_Summary";
            lines.push(line);
            if end {
                return lines;
            }
        }
    }

    /// The server closes the connection (within the read timeout).
    pub(crate) fn expect_closed(&mut self) {
        assert_eq!(self.line(), None);
    }

    pub(crate) fn log_in_x1(&mut self, name: &str) {
        self.send(&format!("LOGIN {name} secret x1"));
        self.expect(&[&format!("LOGIN:{name} OK"), "##[LOGIN] +OK x1"]);
    }
}

pub(crate) fn csa_server(extra: &[&str]) -> Server {
    let mut flags = vec!["--memory", "--csa-port", "0"];
    flags.extend_from_slice(extra);
    server::start_with(&flags)
}

/// The summary alice (sente) is offered, with the game's id.
pub(crate) fn expected_summary(id: &str, your_turn: &str, total: u64, byoyomi: u64) -> Vec<String> {
    format!(
        "BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:{id}
Name+:alice
Name-:bob
Your_Turn:{your_turn}
Rematch_On_Draw:NO
To_Move:+
Max_Moves:5000
BEGIN Time
Time_Unit:1sec
Total_Time:{total}
Byoyomi:{byoyomi}
Increment:0
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary"
    )
    .lines()
    .map(str::to_owned)
    .collect()
}

/// alice (sente) and bob (gote) in extended mode, matched in `game` and
/// started: both clients, and the game's id.
pub(crate) fn started(server: &Server, game: &str) -> (Csa, Csa, String) {
    let (mut alice, mut bob) = (Csa::connect(server), Csa::connect(server));
    alice.log_in_x1("alice");
    bob.log_in_x1("bob");
    // Either may come first: the second to ask is matched with the first.
    alice.send(&format!("%%GAME {game} +"));
    bob.send(&format!("%%GAME {game} -"));
    let offered = alice.summary();
    let id = offered[5].strip_prefix("Game_ID:").unwrap().to_owned();
    let bobs = bob.summary();
    assert_eq!(bobs[5], offered[5]);
    assert_eq!(bobs[8], "Your_Turn:-");
    alice.send("AGREE");
    bob.send(&format!("AGREE {id}"));
    alice.expect(&[&format!("START:{id}")]);
    bob.expect(&[&format!("START:{id}")]);
    (alice, bob, id)
}

/// Both clients receive `lines`.
pub(crate) fn both(alice: &mut Csa, bob: &mut Csa, lines: &[&str]) {
    alice.expect(lines);
    bob.expect(lines);
}

#[test]
fn two_clients_log_in_are_matched_play_and_one_resigns() {
    let server = csa_server(&[]);
    let (mut alice, mut bob) = (Csa::connect(&server), Csa::connect(&server));
    alice.log_in_x1("alice");
    bob.log_in_x1("bob");
    alice.send("%%GAME koma-600-10 +");
    // The empty line's echo says alice waits: bob's challenge finds her.
    alice.send("");
    alice.expect(&[""]);
    bob.send("%%CHALLENGE koma-600-10 -");
    let offered = alice.summary();
    let id = offered[5].strip_prefix("Game_ID:").unwrap().to_owned();
    assert_eq!(offered, expected_summary(&id, "+", 600, 10));
    assert_eq!(bob.summary(), expected_summary(&id, "-", 600, 10));
    // Not in the store before both agree.
    assert_eq!(server.get(&format!("/api/games/{id}")).status, 404);
    alice.send("AGREE");
    alice.send("AGREE");
    alice.expect(&[
        "##[ERROR] you are in start_waiting status. AGREE is valid in agree_waiting status",
    ]);
    bob.send("AGREE");
    both(&mut alice, &mut bob, &[&format!("START:{id}")]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["headers"]["sente"], "alice");
    assert_eq!(state["headers"]["gote"], "bob");
    assert_eq!(
        state["clock"]["running"], "sente",
        "from the start: {state}"
    );

    alice.send("+7776FU");
    both(&mut alice, &mut bob, &["+7776FU,T0"]);
    // A comment is not relayed (shogi-server keeps it in its record only).
    bob.send("-3334FU,'* -30 +2726FU");
    both(&mut alice, &mut bob, &["-3334FU,T0"]);
    alice.send("+8822UM");
    both(&mut alice, &mut bob, &["+8822UM,T0"]);
    // A move sent ahead of its turn waits for it, as shogi-server defers it.
    alice.send("+2726FU");
    bob.send("-3122GI");
    both(&mut alice, &mut bob, &["-3122GI,T0", "+2726FU,T0"]);
    bob.send("%TORYO");
    alice.expect(&["%TORYO", "#RESIGN", "#WIN"]);
    bob.expect(&["%TORYO", "#RESIGN", "#LOSE"]);

    let state = server.get(&format!("/api/games/{id}")).json();
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f"]);
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["outcome"]["reason"], "resignation");
    let record = server.get(&format!("/api/games/{id}/record?format=csa"));
    let text = String::from_utf8_lossy(&record.body).into_owned();
    assert!(
        text.contains("+8822UM") && text.contains("%TORYO"),
        "{text}"
    );
    assert!(text.contains("N+alice") && text.contains("N-bob"), "{text}");
    assert!(text.contains("+7776FU\nT0\n"), "the time charged: {text}");
    // The comment is kept in the record, as shogi-server keeps it, and the
    // board's move list shows it.
    assert!(text.contains("-3334FU\nT0\n'** -30 +2726FU\n"), "{text}");
    assert_eq!(
        state["moves"][1]["comments"][0], "** -30 +2726FU",
        "{state}"
    );

    // Extended mode: the connection stays, for another game or a logout.
    alice.send("LOGOUT");
    alice.expect(&["LOGOUT:completed"]);
    alice.expect_closed();
}

#[test]
fn a_plain_login_names_its_game_and_a_reject_withdraws_it() {
    let server = csa_server(&[]);
    let (mut a, mut b) = (Csa::connect(&server), Csa::connect(&server));
    a.send("LOGIN carol koma-60-5");
    a.expect(&["LOGIN:carol OK"]);
    b.send("LOGIN dave koma-60-5,secret");
    b.expect(&["LOGIN:dave OK"]);
    let offered = a.summary();
    let id = offered[5].strip_prefix("Game_ID:").unwrap().to_owned();
    assert_eq!(b.summary()[5], offered[5]);
    a.send("REJECT");
    let rejected = format!("REJECT:{id} by carol");
    a.expect(&[&rejected]);
    b.expect(&[&rejected]);
    // Plain CSA mode: the session ends with its game, as in shogi-server.
    a.expect_closed();
    b.expect_closed();
    assert_eq!(server.get(&format!("/api/games/{id}")).status, 404);
}

#[test]
fn an_illegal_move_loses() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = started(&server, "koma-60-5");
    alice.send("+7775FU");
    alice.expect(&["#ILLEGAL_MOVE", "#LOSE"]);
    bob.expect(&["#ILLEGAL_MOVE", "#WIN"]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["winner"], "gote");
    assert_eq!(state["outcome"]["reason"], "illegal-move");
    assert_eq!(state["ply"], 0);
}

#[test]
fn a_false_declaration_loses() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = started(&server, "koma-60-5");
    alice.send("+7776FU");
    both(&mut alice, &mut bob, &["+7776FU,T0"]);
    bob.send("%KACHI");
    alice.expect(&["%KACHI", "#ILLEGAL_MOVE", "#WIN"]);
    bob.expect(&["%KACHI", "#ILLEGAL_MOVE", "#LOSE"]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["outcome"]["reason"], "illegal-move");
}

#[test]
fn the_flag_falls_on_the_side_that_does_not_move() {
    let server = csa_server(&[]);
    let started_at = Instant::now();
    let (mut alice, mut bob, id) = started(&server, "koma-1-0");
    alice.expect(&["#TIME_UP", "#LOSE"]);
    bob.expect(&["#TIME_UP", "#WIN"]);
    assert!(started_at.elapsed() >= Duration::from_secs(1));
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["winner"], "gote");
    assert_eq!(state["outcome"]["reason"], "timeout");
}

#[test]
fn a_lost_connection_loses_the_game() {
    let server = csa_server(&[]);
    let (mut alice, bob, id) = started(&server, "koma-60-5");
    drop(bob);
    alice.expect(&["%TORYO", "#RESIGN", "#WIN"]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["winner"], "sente");
    assert_eq!(state["outcome"]["reason"], "resignation");
}

#[test]
fn hostile_lines_are_answered_or_closed() {
    let server = csa_server(&["--csa-login-timeout", "2"]);
    // Garbage before the login, then a login too long to read.
    let mut garbage = Csa::connect(&server);
    garbage.send("HELLO");
    garbage.expect(&["LOGIN:incorrect"]);
    garbage.send("LOGIN a b c d");
    garbage.expect(&[
        "LOGIN:incorrect",
        "type 'LOGIN name password' or 'LOGIN name password x1'",
    ]);
    garbage.send(&format!("LOGIN {} x", "a".repeat(10_000)));
    garbage.expect(&["##[ERROR] a line is at most 4096 bytes"]);
    garbage.expect_closed();
    // Silent: closed after the login's time.
    let mut silent = Csa::connect(&server);
    let since = Instant::now();
    silent.expect_closed();
    assert!(since.elapsed() < Duration::from_secs(10));
    // After the login: unknown commands, bad game names, a name taken.
    let mut eve = Csa::connect(&server);
    eve.log_in_x1("eve");
    eve.send("HELLO");
    eve.expect(&["##[ERROR] unknown command: HELLO"]);
    eve.send("LOGIN eve other");
    eve.expect(&["##[ERROR] unknown command: LOGIN eve..."]);
    eve.send("%%GAME nonsense +");
    eve.expect(&[
        "##[ERROR] bad game name: nonsense.",
        "##[ERROR] game name should consist of three parts like game-1500-60.",
    ]);
    eve.send("%%CHALLENGE koma-60-5 *");
    eve.expect(&["##[ERROR] can't find rival for koma-60-5"]);
    eve.send("");
    eve.expect(&[""]);
    eve.send("CHALLENGE");
    eve.expect(&["CHALLENGE ACCEPTED"]);
    let mut twin = Csa::connect(&server);
    twin.send("LOGIN eve another x1");
    twin.expect(&["LOGIN:incorrect", "username eve is already connected"]);
    twin.expect_closed();
    // The same name and password nudge the first session out.
    let mut again = Csa::connect(&server);
    again.log_in_x1("eve");
    eve.expect_closed();
}

#[test]
fn fourfold_repetition_draws() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = started(&server, "koma-60-5");
    // The kings step out and back: the start comes back a fourth time.
    for _ in 0..3 {
        for (code, sente) in [
            ("+5958OU", true),
            ("-5152OU", false),
            ("+5859OU", true),
            ("-5251OU", false),
        ] {
            let mover = if sente { &mut alice } else { &mut bob };
            mover.send(code);
            let echo = format!("{code},T0");
            both(&mut alice, &mut bob, &[&echo]);
        }
    }
    both(&mut alice, &mut bob, &["#SENNICHITE", "#DRAW"]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["ply"], 12);
    assert_eq!(state["outcome"]["reason"], "repetition");
    assert!(state["outcome"]["winner"].is_null());
}

#[test]
fn csa_connections_count_toward_a_clients_cap() {
    let server = csa_server(&["--max-client-connections", "2"]);
    let _first = Csa::connect(&server);
    let _second = Csa::connect(&server);
    let mut third = Csa::connect(&server);
    let refusal = third.line().expect("a refusal");
    assert!(
        refusal.starts_with("##[ERROR] Too many connections from your address"),
        "{refusal}"
    );
    third.expect_closed();
}

#[test]
fn a_move_sent_twice_is_played_once() {
    let server = csa_server(&[]);
    let (mut alice, mut bob, id) = started(&server, "koma-60-5");
    alice.send("+2726FU");
    both(&mut alice, &mut bob, &["+2726FU,T0"]);
    bob.send("-8384FU");
    both(&mut alice, &mut bob, &["-8384FU,T0"]);
    // Sent again out of turn: shogi-server ignores it, rather than playing
    // it (illegally) at bob's next turn.
    bob.send("-8384FU");
    // The keep-alive's echo: the line before it has reached the game.
    bob.send("");
    bob.expect(&[""]);
    alice.send("+2625FU");
    both(&mut alice, &mut bob, &["+2625FU,T0"]);
    bob.send("%TORYO");
    alice.expect(&["%TORYO", "#RESIGN", "#WIN"]);
    bob.expect(&["%TORYO", "#RESIGN", "#LOSE"]);
    assert_eq!(server.get(&format!("/api/games/{id}")).json()["ply"], 3);
}
