//! `koma serve` as a process of its own, for what only a process shows:
//! `kill -9` at any moment loses no acknowledged move (a SQLite file or
//! PostgreSQL), Ctrl-C and SIGTERM stop it, what it prints (the refusals
//! at start and their exit code, no seat token in the log, the warning
//! when listening beyond loopback) and the priority of its analysis
//! threads. Everything else about the server is tested inside the
//! server's crate (crates/server/tests/server/), without a process.

#[path = "../../../server/tests/server/common/postgres.rs"]
mod postgres_db;
// serve_damage.rs uses another part of the client.
use crate::serve_client::{
    receive, start, start_logging, start_with, token, usi_list, Client, Server, TempDir,
};
#[allow(dead_code)]
use postgres_db::{connect, database, TestDatabase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

// Signals.

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_server_even_with_a_socket_open() {
    let mut server = start();
    let state = server.create("shogi");
    let mut socket = server.websocket(state["id"].as_str().unwrap());
    assert_eq!(receive(&mut socket)["type"], "state");
    let pid = server.child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(sent.success());
    let asked = std::time::Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "still serving 10 s after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The socket was closed, not left hanging.
    match socket.read() {
        Ok(tungstenite::Message::Close(_)) | Err(_) => {}
        Ok(other) => panic!("unexpected message {other:?}"),
    }
}

// What it prints: the seats' tokens never, the warning beyond loopback.

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
    let client = crate::serve_client::Client {
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

// The analysis threads' priority, read in /proc.

type Socket = WebSocket<TcpStream>;

fn send_json(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).unwrap();
}

/// The next JSON message of `kind` ("analysis", "error", "state").
fn next(socket: &mut Socket, kind: &str) -> Value {
    loop {
        match socket.read().expect("a message") {
            Message::Text(text) => {
                let message: Value = serde_json::from_str(&text).unwrap();
                if message["type"] == kind {
                    return message;
                }
            }
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
        }
    }
}

/// A server that keeps its games in memory: these tests need no file, and
/// the home folder's games file is the user's, not theirs.
fn analysis_server(engines: u16, seconds: u64) -> Server {
    start_with(&[
        "--memory",
        "--analysis-engines",
        &engines.to_string(),
        "--analysis-seconds",
        &seconds.to_string(),
    ])
}

/// The nice value of each of the server's threads named `name` (Linux).
fn thread_nice(server: &Server, name: &str) -> Vec<i64> {
    let tasks = format!("/proc/{}/task", server.child.id());
    let mut nice = Vec::new();
    for task in std::fs::read_dir(tasks).unwrap().flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim() != name {
            continue;
        }
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        // Fields after the command's closing parenthesis; nice is the 19th
        // field of the line, the 17th after it.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        if let Some(value) = after.split_whitespace().nth(16) {
            nice.push(value.parse().unwrap());
        }
    }
    nice
}

#[test]
fn the_computer_keeps_its_thinking_time_while_analyses_run_below_it() {
    let server = analysis_server(2, 30);
    // Two analyses keep both engines busy.
    let mut sockets: Vec<Socket> = (0..2)
        .map(|_| {
            let id = server.create("shogi")["id"].as_str().unwrap().to_owned();
            let mut socket = server.websocket(&id);
            send_json(&mut socket, json!({ "type": "analyse" }));
            assert_eq!(next(&mut socket, "analysis")["status"], "running");
            socket
        })
        .collect();
    if cfg!(target_os = "linux") {
        let nice = thread_nice(&server, "analysis");
        assert_eq!(
            nice,
            [19, 19],
            "the analysis threads run at the lowest priority"
        );
    }
    // The computer (level 20: a second a move) answers in its time.
    let state = server.create_with(&json!({
        "variant": "shogi",
        "opponent": { "kind": "computer", "level": 20, "color": "gote" }
    }));
    let id = state["id"].as_str().unwrap().to_owned();
    let token = state["seats"]["sente"].as_str().unwrap().to_owned();
    let mut watch = server.websocket(&id);
    next(&mut watch, "state");
    let asked = Instant::now();
    let reply = server.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "7g7f", "ply": 0, "token": token }),
    );
    assert_eq!(reply.status, 200);
    loop {
        let state = next(&mut watch, "state");
        if state["state"]["ply"] == 2 {
            break;
        }
    }
    let took = asked.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "the computer's move of a second came after {took:?}"
    );
    for socket in &mut sockets {
        send_json(socket, json!({ "type": "stop-analysis" }));
    }
}

// Flags refused at start.

#[test]
fn sizes_and_engines_are_checked() {
    for (args, said) in [
        (&["--memory=12Q"][..], "units"),
        (&["--memory=1000"][..], "too little"),
        (&["--computer-engines", "0"][..], "0"),
    ] {
        let out = crate::common::koma(&[&["serve", "--port", "0"][..], args].concat(), b"");
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}

// A SQLite file through kill -9, and files refused at start.

/// The games file, in a folder the server must create.
fn db_in_new_folder(dir: &TempDir) -> PathBuf {
    dir.path().join("data").join("games.sqlite3")
}

/// A random number generator seeded anew each run; the seed is printed so
/// that a failure can be replayed by seeding it the same.
fn seeded_rng(what: &str) -> ChaCha8Rng {
    let seed = RandomState::new().hash_one(what);
    eprintln!("{what}: seed {seed}");
    ChaCha8Rng::seed_from_u64(seed)
}

fn serve(db: &Path) -> Server {
    let server = start_with(&["--db", db.to_str().unwrap()]);
    assert_eq!(server.kept, format!("Games are kept in {}", db.display()));
    server
}

/// `kill -9`: no chance to finish anything.
fn kill_9(mut server: Server) {
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

fn state(server: &Server, id: &str) -> Value {
    let reply = server.get(&format!("/api/games/{id}"));
    assert_eq!(
        reply.status,
        200,
        "{id}: {}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

fn post_ok(server: &Server, path: &str, body: Value) -> Value {
    let reply = server.post(path, &body);
    assert_eq!(
        reply.status,
        200,
        "{path}: {}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

/// Plays the first legal move of game `id`; the state after it.
fn play_first_legal(server: &Server, id: &str) -> Value {
    let before = state(server, id);
    let ply = before["ply"].as_u64().unwrap();
    let first = before["legalMoves"][0].as_str().unwrap().to_owned();
    let after = post_ok(
        server,
        &format!("/api/games/{id}/moves"),
        json!({ "move": first, "ply": ply }),
    );
    assert_eq!(after["ply"].as_u64().unwrap(), ply + 1);
    after
}

/// Waits (at most 60 s) for the computer's reply in game `id`.
fn wait_for_ply(server: &Server, id: &str, ply: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let state = state(server, id);
        if state["ply"].as_u64().unwrap() >= ply {
            return state;
        }
        assert!(Instant::now() < deadline, "the computer did not reply");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn every_game_continues_exactly_where_it_was_after_kill_9() {
    let dir = TempDir::new("continue");
    let db = db_in_new_folder(&dir);
    let server = serve(&db);
    let mut ids = Vec::new();
    let cases: [(&str, &[&str]); 4] = [
        ("spear", &["5d5c", "1b1c", "2e3d"]),
        ("minishogi", &["5d5c", "1b1c", "5c5b"]),
        ("shogi", &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]),
        ("pawns", &["e2e4", "d7d5", "e4d5"]),
    ];
    for (variant, moves) in cases {
        let reply = server.post(
            "/api/games",
            &json!({
                "variant": variant,
                "headers": { "sente": "Alice 愛", "gote": "Bob", "event": "kill -9",
                             "other": [["Note", "a \"quoted\" value"]] }
            }),
        );
        assert_eq!(reply.status, 201);
        let id = reply.json()["id"].as_str().unwrap().to_owned();
        server.play(&id, 0, moves);
        ids.push(id);
    }
    // A resignation, an undo, a position of one's own and a computer.
    let resigned = server.create("pawns")["id"].as_str().unwrap().to_owned();
    server.play(&resigned, 0, &["e2e4", "d7d5"]);
    let after = post_ok(
        &server,
        &format!("/api/games/{resigned}/resign"),
        json!({ "ply": 2, "color": "white" }),
    );
    assert_eq!(after["outcome"]["reason"], "resignation");
    ids.push(resigned.clone());
    let undone = server.create("shogi")["id"].as_str().unwrap().to_owned();
    server.play(&undone, 0, &["7g7f", "3c3d", "2g2f"]);
    post_ok(
        &server,
        &format!("/api/games/{undone}/undo"),
        json!({ "ply": 3 }),
    );
    ids.push(undone);
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "spear", "position": "lbsgk/4p/5/P4/KGSBL w - 1" }),
    );
    assert_eq!(reply.status, 201);
    ids.push(reply.json()["id"].as_str().unwrap().to_owned());
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "minishogi",
                 "opponent": { "kind": "computer", "level": 1, "color": "gote" } }),
    );
    assert_eq!(reply.status, 201);
    let computer = reply.json()["id"].as_str().unwrap().to_owned();
    server.play(&computer, 0, &["5d5c"]);
    wait_for_ply(&server, &computer, 2);
    ids.push(computer.clone());

    let before: Vec<Value> = ids.iter().map(|id| state(&server, id)).collect();
    kill_9(server);

    let server = serve(&db);
    for (id, was) in ids.iter().zip(&before) {
        assert_eq!(&state(&server, id), was, "game {id} changed across kill -9");
    }
    // And every game goes on.
    for (id, was) in ids.iter().zip(&before) {
        if id == &resigned {
            let after = post_ok(
                &server,
                &format!("/api/games/{id}/undo"),
                json!({ "ply": 2 }),
            );
            assert_eq!(after["outcome"], Value::Null);
            continue;
        }
        let after = play_first_legal(&server, id);
        assert_eq!(
            usi_list(&after)[..usi_list(was).len()],
            usi_list(was)[..],
            "{id}"
        );
        if id == &computer {
            wait_for_ply(&server, id, after["ply"].as_u64().unwrap() + 1);
        }
    }
    let before: Vec<Value> = ids.iter().map(|id| state(&server, id)).collect();
    kill_9(server);
    let server = serve(&db);
    for (id, was) in ids.iter().zip(&before) {
        assert_eq!(&state(&server, id), was, "game {id} changed across kill -9");
    }
}

/// A game a client thread plays, with the moves the server acknowledged.
#[derive(Clone)]
struct Tracked {
    id: String,
    /// The last state the server answered with (200 or 201).
    state: Value,
}

const VARIANTS: [&str; 4] = ["spear", "minishogi", "shogi", "pawns"];

/// Plays random legal moves as fast as the server answers, on `games`,
/// replacing a finished game by a new one, until the server stops
/// answering. Returns every game (old and new) with its last acknowledged
/// state, and how many moves were acknowledged.
fn play_until_killed(
    server: Client,
    mut games: Vec<Tracked>,
    mut rng: ChaCha8Rng,
) -> (Vec<Tracked>, u64) {
    let mut acknowledged = 0;
    let mut playing: Vec<usize> = (0..games.len())
        .filter(|&i| games[i].state["outcome"].is_null())
        .collect();
    loop {
        if playing.is_empty() {
            let variant = VARIANTS[rng.random_range(0..4)];
            let Ok(reply) = server.try_post("/api/games", &json!({ "variant": variant })) else {
                return (games, acknowledged);
            };
            assert_eq!(
                reply.status,
                201,
                "{}",
                String::from_utf8_lossy(&reply.body)
            );
            let state = reply.json();
            games.push(Tracked {
                id: state["id"].as_str().unwrap().to_owned(),
                state,
            });
            playing.push(games.len() - 1);
            continue;
        }
        let slot = rng.random_range(0..playing.len());
        let game = &mut games[playing[slot]];
        let legal = game.state["legalMoves"].as_array().unwrap();
        let finished = !game.state["outcome"].is_null() || legal.is_empty();
        if finished {
            playing.swap_remove(slot);
            continue;
        }
        let chosen = legal[rng.random_range(0..legal.len())].clone();
        let ply = game.state["ply"].as_u64().unwrap();
        let body = json!({ "move": chosen, "ply": ply });
        let Ok(reply) = server.try_post(&format!("/api/games/{}/moves", game.id), &body) else {
            return (games, acknowledged);
        };
        match reply.status {
            200 => {
                let state = reply.json();
                assert_eq!(state["ply"].as_u64().unwrap(), ply + 1);
                game.state = state;
                acknowledged += 1;
            }
            // Koma's limit on a game's length: the game is done with.
            422 => {
                playing.swap_remove(slot);
            }
            other => panic!(
                "{other} for {chosen} in {}: {}",
                game.id,
                String::from_utf8_lossy(&reply.body)
            ),
        }
    }
}

/// Checks that each game holds every acknowledged move (and at most one
/// more, the move that was in flight), and takes the server's state.
/// Returns how many games held such an unacknowledged move.
fn check_nothing_lost(server: &Server, games: &mut [Tracked]) -> usize {
    let mut in_flight = 0;
    for game in games {
        let now = state(server, &game.id);
        let acknowledged = usi_list(&game.state);
        let kept = usi_list(&now);
        assert!(
            kept.len() >= acknowledged.len() && kept[..acknowledged.len()] == acknowledged[..],
            "game {} lost acknowledged moves: acknowledged {acknowledged:?}, kept {kept:?}",
            game.id
        );
        assert!(
            kept.len() <= acknowledged.len() + 1,
            "game {} has moves nobody played: acknowledged {acknowledged:?}, kept {kept:?}",
            game.id
        );
        in_flight += kept.len() - acknowledged.len();
        game.state = now;
    }
    in_flight
}

#[test]
fn no_acknowledged_move_is_lost_when_killed_at_random_moments_under_load() {
    const THREADS: usize = 4;
    const ROUNDS: usize = 8;
    let dir = TempDir::new("load");
    let db = db_in_new_folder(&dir);
    let mut rng = seeded_rng("kill -9 under load");
    let mut groups: Vec<Vec<Tracked>> = vec![Vec::new(); THREADS];
    let (mut total, mut in_flight) = (0, 0);
    for round in 0..ROUNDS {
        let server = serve(&db);
        for games in &mut groups {
            in_flight += check_nothing_lost(&server, games);
        }
        let pause = Duration::from_millis(150 + rng.random_range(0..1200));
        let players: Vec<_> = groups
            .drain(..)
            .map(|games| {
                let (client, rng) = (server.client(), ChaCha8Rng::seed_from_u64(rng.random()));
                std::thread::spawn(move || play_until_killed(client, games, rng))
            })
            .collect();
        std::thread::sleep(pause);
        // SIGKILL, whatever the server is doing.
        kill_9(server);
        for player in players {
            let (games, moves) = player.join().unwrap();
            total += moves;
            groups.push(games);
        }
        eprintln!(
            "round {round}: killed after {pause:?}; {total} moves acknowledged so far in {} games; \
             {in_flight} unacknowledged moves found kept",
            groups.iter().map(Vec::len).sum::<usize>()
        );
    }
    assert!(total > 0, "no move was acknowledged at all");
    let server = serve(&db);
    for games in &mut groups {
        check_nothing_lost(&server, games);
        // And they go on.
        for game in games
            .iter()
            .filter(|g| !g.state["legalMoves"].as_array().unwrap().is_empty())
        {
            play_first_legal(&server, &game.id);
        }
    }
}

/// Runs `koma serve` on `db`, which must refuse it: its exit code and
/// what it wrote on standard error.
fn refused(db: &Path) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("koma serve accepted {}", db.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_damaged_or_foreign_file_is_refused_with_a_sentence() {
    let dir = TempDir::new("damaged");
    let db = db_in_new_folder(&dir);
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&db, &garbage).unwrap();
    let (code, stdout, stderr) = refused(&db);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "", "nothing is served");
    assert!(
        stderr.contains("is not a Koma games database, or it is damaged"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        std::fs::read(&db).unwrap(),
        garbage,
        "the file is left alone"
    );

    // Another program's SQLite database is not written into.
    std::fs::remove_file(&db).unwrap();
    {
        let other = rusqlite::Connection::open(&db).unwrap();
        other
            .execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    let foreign = std::fs::read(&db).unwrap();
    let (code, _, stderr) = refused(&db);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("another program's database"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        std::fs::read(&db).unwrap(),
        foreign,
        "the file is left alone"
    );

    // A Koma file whose pages were damaged on the disk.
    std::fs::remove_file(&db).unwrap();
    let server = serve(&db);
    for variant in VARIANTS {
        let id = server.create(variant)["id"].as_str().unwrap().to_owned();
        play_first_legal(&server, &id);
    }
    // Stopped gracefully, so that everything is in the file itself.
    let mut server = server;
    Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    server.child.wait().unwrap();
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() >= 8192, "{} bytes", bytes.len());
    // Page 2 onwards: the tables themselves.
    for byte in &mut bytes[4096..] {
        *byte = 0xA5;
    }
    std::fs::write(&db, &bytes).unwrap();
    let _ = std::fs::remove_file(db.with_extension("sqlite3-wal"));
    let (code, _, stderr) = refused(&db);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("damaged"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // The --db folder itself.
    let (code, _, stderr) = refused(db.parent().unwrap());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("is a folder"), "{stderr}");
}

#[test]
fn a_computer_killed_while_thinking_thinks_again_after_the_restart() {
    let dir = TempDir::new("computer");
    let server = serve(&db_in_new_folder(&dir));
    // At full strength the computer thinks about a second: kill it meanwhile.
    let reply = server.post(
        "/api/games",
        &json!({ "variant": "spear", "opponent": { "kind": "computer", "level": 20, "color": "black" } }),
    );
    assert_eq!(reply.status, 201);
    let created = reply.json();
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["ply"], 0);
    kill_9(server);
    let server = serve(&db_in_new_folder(&dir));
    // Looking at the game wakes the computer up.
    let state = wait_for_ply(&server, &id, 1);
    assert_eq!(usi_list(&state).len(), 1);
}

// PostgreSQL through kill -9, and databases refused at start.

fn serve_postgres(db: &TestDatabase) -> Server {
    let server = start_with(&["--db", &db.url]);
    assert!(
        server
            .kept
            .starts_with("Games are kept in PostgreSQL at postgres://"),
        "{}",
        server.kept
    );
    if let Some(password) = &db.password {
        // The password alone, unless the rest of the URL has the same text
        // (a user named as their password).
        let rest = db.url.replace(&format!(":{password}@"), "@");
        let secret = if rest.contains(password.as_str()) {
            format!(":{password}@")
        } else {
            password.clone()
        };
        assert!(!server.kept.contains(&secret), "{}", server.kept);
    }
    server
}

/// A game with seats, created on `server`: its id and the two tokens.
struct Game {
    id: String,
    sente: String,
    gote: String,
}

impl Game {
    fn create(server: &Server, body: Value) -> Game {
        let state = server.create_with(&body);
        let text = |v: &Value| v.as_str().unwrap().to_owned();
        Game {
            id: text(&state["id"]),
            sente: text(&state["seats"]["sente"]),
            gote: text(&state["seats"]["gote"]),
        }
    }

    /// The token of the side to move at `ply` (shogi: sente first).
    fn token(&self, ply: usize) -> &str {
        if ply % 2 == 0 {
            &self.sente
        } else {
            &self.gote
        }
    }

    /// Posts `text` at `ply` through `server` with the mover's token.
    fn post_move(&self, server: &Server, ply: usize, text: &str) -> crate::serve_client::Reply {
        server.post(
            &format!("/api/games/{}/moves", self.id),
            &json!({ "move": text, "ply": ply, "token": self.token(ply) }),
        )
    }

    /// Plays `text` at `ply` through `server`; the state after it.
    fn play(&self, server: &Server, ply: usize, text: &str) -> Value {
        let reply = self.post_move(server, ply, text);
        assert_eq!(
            reply.status,
            200,
            "{text}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        let state = reply.json();
        assert_eq!(state["ply"], ply + 1);
        state
    }

    fn state(&self, server: &Server) -> Value {
        let reply = server.get(&format!("/api/games/{}", self.id));
        assert_eq!(reply.status, 200);
        reply.json()
    }
}

#[test]
fn games_continue_exactly_where_they_were_after_kill_9() {
    let db = database();
    let mut server = serve_postgres(&db);
    let game = Game::create(
        &server,
        json!({ "variant": "shogi", "mode": "shared",
                "headers": { "sente": "Alice 愛", "gote": "Bob", "event": "kill -9",
                             "other": [["Note", "a \"quoted\" value \u{0}"]] } }),
    );
    for (ply, text) in ["7g7f", "3c3d", "8h2b+"].iter().enumerate() {
        game.play(&server, ply, text);
    }
    let before = game.state(&server);
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let server = serve_postgres(&db);
    let after = game.state(&server);
    assert_eq!(after, before, "the game changed across kill -9");
    assert_eq!(usi_list(&after), ["7g7f", "3c3d", "8h2b+"]);
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["headers"]["sente"], "Alice 愛");
    // The seats came back too: sente's token may not move for gote; gote's may.
    let wrong = server.post(
        &format!("/api/games/{}/moves", game.id),
        &json!({ "move": "3a2b", "ply": 3, "token": game.sente }),
    );
    assert_eq!(
        wrong.status,
        403,
        "{}",
        String::from_utf8_lossy(&wrong.body)
    );
    game.play(&server, 3, "3a2b");
}

/// Runs `koma serve` on `url` expecting it to refuse: its standard error.
fn refused_postgres(url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["serve", "--port", "0", "--db", url])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{url}: {stderr}");
    assert!(out.stdout.is_empty(), "{url} printed an address");
    stderr
}

#[test]
fn a_database_that_cannot_be_used_stops_the_server_without_showing_the_password() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://koma:Sup3r-Secret-Pw@127.0.0.1:{port}/koma");
    let stderr = refused_postgres(&url);
    assert!(
        stderr.contains(&format!(
            "cannot reach the games database postgres://koma@127.0.0.1:{port}/koma"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("Sup3r-Secret-Pw"), "{stderr}");
    let stderr = refused_postgres("postgres://koma:Sup3r-Secret-Pw@127.0.0.1:notaport/koma");
    assert!(stderr.contains("not a PostgreSQL URL"), "{stderr}");
    assert!(!stderr.contains("Sup3r-Secret-Pw"), "{stderr}");
}

#[test]
fn foreign_tables_and_a_newer_schema_are_refused() {
    let db = database();
    let mut admin = connect(&db.url);
    admin
        .batch_execute("CREATE TABLE koma_games (id INTEGER PRIMARY KEY, score REAL)")
        .unwrap();
    let stderr = refused_postgres(&db.url);
    assert!(stderr.contains("koma_games that is not Koma's"), "{stderr}");
    admin.batch_execute("DROP TABLE koma_games").unwrap();

    drop(serve_postgres(&db));
    admin
        .batch_execute("UPDATE koma_schema SET version = 99")
        .unwrap();
    let stderr = refused_postgres(&db.url);
    assert!(stderr.contains("newer Koma"), "{stderr}");
}
