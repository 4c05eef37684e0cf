//! `koma serve --db`: games kept in a SQLite file survive `kill -9` of the
//! server, at any moment and under load, without losing an acknowledged
//! move (issue 7); a damaged or foreign file is refused with a sentence;
//! two servers on one file see each other's games.

#[path = "common/serve_client.rs"]
#[allow(dead_code)]
mod serve_client;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use serve_client::{start_with, usi_list, Client, Server, TempDir};
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
fn two_servers_on_one_file_see_each_others_games() {
    let dir = TempDir::new("two");
    let db = db_in_new_folder(&dir);
    let one = serve(&db);
    let two = serve(&db);
    let id = one.create("shogi")["id"].as_str().unwrap().to_owned();
    assert_eq!(state(&two, &id), state(&one, &id));
    two.play(&id, 0, &["7g7f"]);
    assert_eq!(state(&one, &id)["ply"], 1);
    one.play(&id, 1, &["3c3d"]);
    assert_eq!(usi_list(&state(&two, &id)), ["7g7f", "3c3d"]);
    let stale = two.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "2g2f", "ply": 1 }),
    );
    assert_eq!(stale.status, 409);
    assert_eq!(stale.json()["state"]["ply"], 2);

    // Both at once, at the same ply: the file lets one change at a time,
    // so exactly one of the two is played and the other is told it is late.
    for round in 0..12 {
        let now = state(&one, &id);
        let ply = now["ply"].as_u64().unwrap();
        let first = now["legalMoves"][0].clone();
        let racers: Vec<_> = [one.client(), two.client()]
            .into_iter()
            .map(|client| {
                let (path, body) = (
                    format!("/api/games/{id}/moves"),
                    json!({ "move": first, "ply": ply }),
                );
                std::thread::spawn(move || client.try_post(&path, &body).unwrap().status)
            })
            .collect();
        let mut statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        statuses.sort();
        assert_eq!(statuses, [200, 409], "round {round}");
        assert_eq!(state(&two, &id)["ply"].as_u64().unwrap(), ply + 1);
    }
    // A game made by the second is seen by the first, and survives both.
    let other = two.create("pawns")["id"].as_str().unwrap().to_owned();
    two.play(&other, 0, &["e2e4"]);
    let (kept, other_kept) = (state(&one, &id), state(&one, &other));
    assert_eq!(other_kept["ply"], 1);
    kill_9(one);
    kill_9(two);
    let again = serve(&db);
    assert_eq!(state(&again, &id), kept);
    assert_eq!(state(&again, &other), other_kept);
}

#[test]
fn memory_only_says_so() {
    let server = start_with(&["--memory"]);
    assert_eq!(
        server.kept,
        "Games are kept in memory only: they are lost when the server stops."
    );
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
