//! Games between two machines through `koma serve` (issue 7): seat tokens
//! decide who may move, takebacks need both players, clocks are kept and
//! flags fall on the server, and each client is rate limited.

#[path = "common/serve_client.rs"]
#[allow(dead_code)]
mod serve_client;

use serde_json::{json, Value};
use serve_client::{receive, send, start, start_logging, start_with, token, Server};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A new game from `request`; its `201` answer.
fn create(server: &Server, request: Value) -> Value {
    server.create_with(&request)
}

fn id_of(state: &Value) -> String {
    state["id"].as_str().unwrap().to_owned()
}

/// `POST /api/games/{id}/{call}` with exactly `body`: status and JSON.
fn call(server: &Server, id: &str, call: &str, body: Value) -> (u16, Value) {
    let reply = server.post_exactly(&format!("/api/games/{id}/{call}"), &body);
    (reply.status, reply.json())
}

fn version(server: &Server, id: &str) -> u64 {
    server.get(&format!("/api/games/{id}")).json()["version"]
        .as_u64()
        .unwrap()
}

#[test]
fn only_a_seat_token_moves_its_side() {
    let server = start();
    let created = create(&server, json!({ "variant": "spear", "mode": "shared" }));
    let id = id_of(&created);
    assert_eq!(created["mode"], "shared");
    assert_eq!(created["guarded"], true);
    let sente = created["seats"]["sente"].as_str().unwrap().to_owned();
    let gote = created["seats"]["gote"].as_str().unwrap().to_owned();
    for token in [&sente, &gote] {
        assert_eq!(token.len(), 32, "128 bits as hex");
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    assert_ne!(sente, gote);
    // The tokens are in the creation's answer only.
    let shown = server.get(&format!("/api/games/{id}"));
    let text = String::from_utf8_lossy(&shown.body);
    assert!(!text.contains(&sente) && !text.contains(&gote), "{text}");
    assert!(shown.json().get("seats").is_none());
    let mut watcher = server.websocket(&id);
    let first = receive(&mut watcher).to_string();
    assert!(!first.contains(&sente) && !first.contains(&gote));

    let other = create(&server, json!({ "variant": "spear", "mode": "shared" }));
    let foreign = other["seats"]["sente"].as_str().unwrap().to_owned();
    let mut almost = sente.clone();
    almost.replace_range(31.., if sente.ends_with('0') { "1" } else { "0" });
    let before = version(&server, &id);
    for (token, why, code) in [
        (Value::Null, "no token", "spectator"),
        (json!(almost), "a token one digit off", "bad-token"),
        (json!(foreign), "another game's token", "bad-token"),
        (json!("not a token"), "a malformed token", "bad-token"),
        (json!("f".repeat(10_000)), "a huge token", "bad-token"),
        (json!(gote), "the other side's token", "not-your-turn"),
    ] {
        let mut body = json!({ "move": "5d5c", "ply": 0 });
        if !token.is_null() {
            body["token"] = token;
        }
        let (status, answer) = call(&server, &id, "moves", body);
        assert_eq!(status, 403, "{why}: {answer}");
        assert_eq!(answer["code"], code, "{why}");
        assert_eq!(answer["state"]["ply"], 0, "{why}");
        assert!(answer.to_string().len() < 20_000, "{why}: not echoed");
    }
    assert_eq!(version(&server, &id), before, "refusals change nothing");
    let (_, answer) = call(&server, &id, "moves", json!({ "move": "5d5c", "ply": 0 }));
    assert!(answer["error"].as_str().unwrap().contains("watches"));
    let (_, answer) = call(
        &server,
        &id,
        "moves",
        json!({ "move": "5d5c", "ply": 0, "token": gote }),
    );
    assert!(
        answer["error"].as_str().unwrap().contains("turn"),
        "{answer}"
    );

    // The right token plays; the same request again is stale.
    let good = json!({ "move": "5d5c", "ply": 0, "token": sente });
    assert_eq!(call(&server, &id, "moves", good.clone()).0, 200);
    let (status, answer) = call(&server, &id, "moves", good);
    assert_eq!(status, 409, "a replayed move: {answer}");
    assert_eq!(answer["state"]["ply"], 1);
    assert_eq!(receive(&mut watcher)["state"]["ply"], 1);

    // Over the WebSocket: the same rules.
    for (message, status) in [
        (
            json!({ "type": "move", "move": "1b1c", "ply": 1 }),
            "watches",
        ),
        (
            json!({ "type": "move", "move": "1b1c", "ply": 1, "token": sente }),
            "turn",
        ),
        (
            json!({ "type": "move", "move": "1b1c", "ply": 1, "token": almost }),
            "not one of",
        ),
        (
            json!({ "type": "resign", "ply": 1, "token": 17 }),
            "The field \"token\" is wrong",
        ),
    ] {
        send(&mut watcher, &message.to_string());
        let answer = receive(&mut watcher);
        assert_eq!(answer["type"], "error", "{message}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(status), "{message}: {error}");
        assert_eq!(answer["state"]["ply"], 1);
    }
    send(
        &mut watcher,
        &json!({ "type": "move", "move": "1b1c", "ply": 1, "token": gote }).to_string(),
    );
    assert_eq!(receive(&mut watcher)["state"]["ply"], 2);

    // A seat resigns for itself only.
    let (status, answer) = call(
        &server,
        &id,
        "resign",
        json!({ "ply": 2, "color": "sente", "token": gote }),
    );
    assert_eq!(status, 403, "{answer}");
    assert_eq!(answer["code"], "wrong-side");
    let (status, answer) = call(&server, &id, "resign", json!({ "ply": 2, "token": gote }));
    assert_eq!(status, 200);
    assert_eq!(answer["outcome"]["winner"], "sente");
    assert_eq!(answer["outcome"]["reason"], "resignation");
}

#[test]
fn takebacks_need_both_players() {
    let server = start();
    let created = create(&server, json!({ "variant": "shogi", "mode": "shared" }));
    let id = id_of(&created);
    let (sente, gote) = (token(&id, "sente").unwrap(), token(&id, "gote").unwrap());
    let undo = |token: &str, ply: u64, decline: bool| {
        call(
            &server,
            &id,
            "undo",
            json!({ "ply": ply, "token": token, "decline": decline }),
        )
    };
    let (status, answer) = undo(&sente, 0, false);
    assert_eq!(status, 422, "nothing to take back yet: {answer}");
    server.play(&id, 0, &["7g7f", "3c3d"]);

    // Sente asks; asking again waits; a spectator cannot answer.
    let (status, answer) = undo(&sente, 2, false);
    assert_eq!((status, &answer["takeback"]), (200, &json!("sente")));
    assert_eq!(answer["ply"], 2, "a request takes nothing back yet");
    assert_eq!(undo(&sente, 2, false).0, 422);
    let (status, _) = call(&server, &id, "undo", json!({ "ply": 2 }));
    assert_eq!(status, 403);
    // Gote declines.
    let (status, answer) = undo(&gote, 2, true);
    assert_eq!((status, &answer["takeback"]), (200, &Value::Null));
    assert_eq!(answer["ply"], 2);
    assert_eq!(undo(&gote, 2, true).0, 422, "nothing left to decline");

    // A move drops a request.
    undo(&gote, 2, false);
    let state = server.play(&id, 2, &["2g2f"]);
    assert_eq!(state["takeback"], Value::Null);

    // Sente takes back its last move (gote to move): one move goes.
    assert_eq!(undo(&sente, 3, false).0, 200);
    let (status, answer) = undo(&gote, 3, false);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (answer["ply"].as_u64(), answer["turn"].as_str()),
        (Some(2), Some("sente"))
    );
    // Gote takes back its last move while sente is to move: one move.
    undo(&gote, 2, false);
    let (_, answer) = undo(&sente, 2, false);
    assert_eq!(
        (answer["ply"].as_u64(), answer["turn"].as_str()),
        (Some(1), Some("gote"))
    );
    // Gote to move: sente asks for its 7g7f back, gote accepts: the start.
    undo(&sente, 1, false);
    let (_, answer) = undo(&gote, 1, false);
    assert_eq!(answer["ply"], 0);
    assert_eq!(answer["takeback"], Value::Null);

    // After the end nothing is taken back.
    server.play(&id, 0, &["7g7f"]);
    let (status, _) = call(&server, &id, "resign", json!({ "ply": 1, "token": gote }));
    assert_eq!(status, 200);
    let (status, answer) = undo(&sente, 1, false);
    assert_eq!(status, 422);
    assert!(answer["error"].as_str().unwrap().contains("over"));
}

#[test]
fn a_local_game_and_a_computer_game_keep_their_seats() {
    let server = start();
    // A game at one screen: both seats, undo at once.
    let local = create(&server, json!({ "variant": "pawns" }));
    assert_eq!(local["mode"], "local");
    assert!(local["seats"]["white"].is_string() && local["seats"]["black"].is_string());
    let id = id_of(&local);
    server.play(&id, 0, &["e2e4"]);
    let (status, answer) = call(&server, &id, "undo", json!({ "ply": 1 }));
    assert_eq!(status, 403, "an undo needs a seat too: {answer}");
    let white = token(&id, "white").unwrap();
    let (status, answer) = call(&server, &id, "undo", json!({ "ply": 1, "token": white }));
    assert_eq!((status, answer["ply"].as_u64()), (200, Some(0)));

    // Against the computer only the person has a seat.
    let computer = create(
        &server,
        json!({ "variant": "spear", "opponent": { "kind": "computer", "level": 1, "color": "gote" } }),
    );
    assert!(computer["seats"]["sente"].is_string());
    assert!(
        computer["seats"].get("gote").is_none(),
        "{}",
        computer["seats"]
    );
    // And it is played at one screen.
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "spear", "mode": "shared", "opponent": { "kind": "computer" } }),
    );
    assert_eq!(reply.status, 422);
    let reply = server.post("/api/games", &json!({ "variant": "spear", "mode": "duel" }));
    assert_eq!(reply.status, 422);
}

#[test]
fn clocks_are_checked_and_shown() {
    let server = start();
    for clock in [
        json!({}),
        json!({ "initial": -1 }),
        json!({ "initial": "5" }),
        json!({ "initial": 1e12 }),
        json!({ "increment": 5 }),
        json!("fast"),
    ] {
        let reply = server.post("/api/games", &json!({ "variant": "shogi", "clock": clock }));
        assert!(
            [400, 422].contains(&reply.status),
            "{clock}: {}",
            reply.status
        );
        assert!(reply.json()["error"].is_string());
    }
    let created = create(
        &server,
        json!({ "variant": "shogi", "mode": "shared", "clock": { "initial": 300, "byoyomi": 10 } }),
    );
    assert_eq!(created["headers"]["timeControl"], "300s then 10s byoyomi");
    let clock = &created["clock"];
    assert_eq!(clock["initialMs"], 300_000);
    assert_eq!(clock["byoyomiMs"], 10_000);
    assert_eq!(
        clock["running"],
        Value::Null,
        "it starts after each side's first move"
    );
    assert_eq!(clock["sente"]["mainMs"], 300_000);
    let id = id_of(&created);
    let state = server.play(&id, 0, &["7g7f"]);
    assert_eq!(state["clock"]["running"], Value::Null);
    let state = server.play(&id, 1, &["3c3d"]);
    assert_eq!(state["clock"]["running"], "sente");
    std::thread::sleep(Duration::from_millis(300));
    let later = server.get(&format!("/api/games/{id}")).json();
    let left = later["clock"]["sente"]["mainMs"].as_u64().unwrap();
    assert!((290_000..300_000).contains(&left), "{left}");
    assert_eq!(later["clock"]["gote"]["mainMs"], 300_000);
    let state = server.play(&id, 2, &["2g2f"]);
    assert_eq!(state["clock"]["running"], "gote");
    let charged = state["clock"]["sente"]["mainMs"].as_u64().unwrap();
    assert!(
        charged < 300_000 - 250,
        "sente paid for its move: {charged}"
    );
}

#[test]
fn a_flag_falls_on_the_server_with_nobody_asking() {
    let server = start();
    let created = create(
        &server,
        json!({ "variant": "spear", "mode": "shared", "clock": { "initial": 1, "byoyomi": 0.5 } }),
    );
    let id = id_of(&created);
    server.play(&id, 0, &["5d5c", "1b1c"]);
    let mut watcher = server.websocket(&id);
    assert_eq!(receive(&mut watcher)["state"]["clock"]["running"], "sente");
    let started = Instant::now();
    let fallen = receive(&mut watcher);
    let waited = started.elapsed();
    assert_eq!(fallen["state"]["outcome"]["reason"], "timeout", "{fallen}");
    assert_eq!(fallen["state"]["outcome"]["winner"], "gote");
    assert_eq!(
        fallen["state"]["outcome"]["message"],
        "White wins: Black ran out of time."
    );
    assert!(
        waited >= Duration::from_millis(1_200),
        "not before main time and byoyomi: {waited:?}"
    );
    assert_eq!(fallen["state"]["clock"]["running"], Value::Null);
    // Too late to move.
    let reply = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "4e4d", "ply": 2 }),
    );
    assert_eq!(reply.status, 422);
}

#[test]
fn a_sooner_deadline_after_a_move_is_kept() {
    let server = start();
    let created = create(
        &server,
        json!({ "variant": "spear", "clock": { "initial": 4 } }),
    );
    let id = id_of(&created);
    server.play(&id, 0, &["5d5c", "1b1c", "4e4d"]);
    // Gote spends three of its four seconds; sente then thinks a little
    // over a second, so that the timer has woken at gote's old deadline
    // and now waits for sente's, three seconds away. Sente moves, and
    // gote's flag must fall after gote's last second, not at sente's time.
    std::thread::sleep(Duration::from_millis(3_000));
    server.play(&id, 3, &["1c1d"]);
    std::thread::sleep(Duration::from_millis(1_100));
    let mut watcher = server.websocket(&id);
    receive(&mut watcher);
    server.play(&id, 4, &["4d4c"]);
    let moved = Instant::now();
    assert_eq!(receive(&mut watcher)["state"]["ply"], 5);
    let fallen = receive(&mut watcher);
    assert_eq!(fallen["state"]["outcome"]["reason"], "timeout", "{fallen}");
    assert_eq!(fallen["state"]["outcome"]["winner"], "sente");
    let waited = moved.elapsed();
    assert!(
        waited < Duration::from_millis(2_000),
        "gote's flag fell at its own deadline, not sente's: {waited:?}"
    );
}

#[test]
fn a_flag_that_fell_while_the_server_was_down_is_declared_on_return() {
    let dir = std::env::temp_dir().join(format!("koma-seats-flag-{}", std::process::id()));
    let db = dir.join("games.sqlite3");
    let db_text = db.to_str().unwrap().to_owned();
    let mut server = start_with(&["--db", &db_text]);
    let created = create(
        &server,
        json!({ "variant": "minishogi", "clock": { "initial": 0.5 , "byoyomi": 0.2 } }),
    );
    let id = id_of(&created);
    server.play(&id, 0, &["5e4d", "1a2b"]);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(900));
    let server = start_with(&["--db", &db_text]);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(state["outcome"]["reason"], "timeout", "{state}");
    assert_eq!(state["outcome"]["winner"], "gote");
    // The time is spent: a loss on time is not taken back.
    let sente = token(&id, "sente").unwrap();
    let (status, answer) = call(&server, &id, "undo", json!({ "ply": 2, "token": sente }));
    assert_eq!(status, 422, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("on time"));
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sends `count` GETs on one kept-alive connection as fast as answers
/// come; the statuses.
fn statuses_on_one_connection(server: &Server, count: usize) -> Vec<(u16, Option<String>)> {
    let stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.set_nodelay(true).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut out = Vec::new();
    for _ in 0..count {
        // One write: small pieces would wait for acknowledgements (Nagle).
        let request = format!(
            "GET /api/variants HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address
        );
        writer.write_all(request.as_bytes()).unwrap();
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        let (mut length, mut retry) = (0, None);
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap(),
                "retry-after" => retry = Some(value.trim().to_owned()),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        out.push((status, retry));
    }
    out
}

#[test]
fn a_flooding_client_slows_only_itself() {
    let server = start();
    // HTTP: a burst of 60, then about 20 a second. (That another address
    // is served at once meanwhile, and that new connections share the
    // bucket, is crates/server/tests/hostile_clients.rs.)
    let statuses = statuses_on_one_connection(&server, 120);
    let refused: Vec<_> = statuses.iter().filter(|(s, _)| *s == 429).collect();
    assert!(statuses[..50].iter().all(|(s, _)| *s == 200));
    assert!(refused.len() >= 30, "{} refused", refused.len());
    assert!(refused
        .iter()
        .all(|(_, retry)| retry.as_deref() == Some("1")));
    // The limit slows, it does not ban: three seconds refill the burst.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(server.get("/api/variants").status, 200);

    // WebSocket: 10 a second after a burst of 20; the flood is answered
    // with errors, the connection stays open, and later moves are played.
    let created = create(&server, json!({ "variant": "spear" }));
    let id = id_of(&created);
    let sente = token(&id, "sente").unwrap();
    let mut socket = server.websocket(&id);
    receive(&mut socket);
    for _ in 0..60 {
        send(&mut socket, r#"{"type": "dance"}"#);
    }
    let answers: Vec<Value> = (0..60).map(|_| receive(&mut socket)).collect();
    let too_fast = answers
        .iter()
        .filter(|a| {
            a["error"]
                .as_str()
                .unwrap()
                .starts_with("Too many messages")
        })
        .count();
    assert!(too_fast >= 30, "{too_fast} refused for speed");
    std::thread::sleep(Duration::from_millis(1_500));
    send(
        &mut socket,
        &json!({ "type": "move", "move": "5d5c", "ply": 0, "token": sente }).to_string(),
    );
    assert_eq!(receive(&mut socket)["state"]["ply"], 1);
}

#[test]
fn tokens_never_reach_the_log() {
    let log = std::env::temp_dir().join(format!("koma-seats-log-{}.txt", std::process::id()));
    let file = std::fs::File::create(&log).unwrap();
    let mut server = start_logging(&["--memory"], Stdio::from(file));
    let created = create(&server, json!({ "variant": "spear", "mode": "shared" }));
    let id = id_of(&created);
    let sente = token(&id, "sente").unwrap();
    let gote = token(&id, "gote").unwrap();
    server.play(&id, 0, &["5d5c"]);
    call(
        &server,
        &id,
        "moves",
        json!({ "move": "zz", "ply": 1, "token": gote }),
    );
    call(
        &server,
        &id,
        "moves",
        json!({ "move": "1b1c", "ply": 1, "token": sente }),
    );
    call(&server, &id, "resign", json!({ "ply": 7, "token": sente }));
    // Stopped politely, so that anything buffered is written.
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status();
    server.child.wait().unwrap();
    let mut printed = String::new();
    let _ = server.stdout.read_to_string(&mut printed);
    printed.push_str(&std::fs::read_to_string(&log).unwrap());
    let _ = std::fs::remove_file(&log);
    assert!(
        printed.contains("stopping"),
        "the log was captured: {printed}"
    );
    assert!(
        !printed.contains(&sente) && !printed.contains(&gote),
        "{printed}"
    );
}

#[test]
fn listening_beyond_loopback_checks_origins_not_names() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["serve", "--port", "0", "--memory", "--listen", "0.0.0.0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let address = line
        .trim()
        .strip_prefix("Koma is serving http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{line}"))
        .to_owned();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let port = address.rsplit(':').next().unwrap().to_owned();
    let client = serve_client::Client {
        address: address.clone(),
    };
    let lan = format!("192.168.7.20:{port}");
    let get = |headers: &[(&str, &str)]| {
        client
            .try_request_with("GET", "/api/variants", headers, b"")
            .unwrap()
            .status
    };
    assert_eq!(get(&[("Host", &lan)]), 200, "any name may be the machine's");
    let own = format!("http://{lan}");
    assert_eq!(get(&[("Host", &lan), ("Origin", &own)]), 200);
    assert_eq!(
        get(&[("Host", &lan), ("Origin", "http://evil.example")]),
        403
    );
    let _ = child.kill();
    let _ = child.wait();
    let mut warning = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut warning);
    assert!(warning.contains("plain HTTP"), "{warning}");
}
