//! Games kept in PostgreSQL (`--db postgres://…`): two servers share one
//! database, each telling its WebSocket watchers of the other's moves
//! (LISTEN/NOTIFY) and never both winning a race for one ply; lost
//! connections are made again; older schemas are brought up to date; a
//! row changed behind Koma's back is refused. See `common/postgres.rs`
//! for where the database comes from; `kill -9` and the refusals at start
//! are crates/koma/tests/koma/serve_process.rs.

use crate::common::postgres::{connect, database, TestDatabase};
use crate::common::{receive, start_with, usi_list, Reply, Server};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// How long a watcher may wait for a state made through the other server.
const PROMPTLY: Duration = Duration::from_secs(5);

fn serve(db: &TestDatabase) -> Server {
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
    fn post_move(&self, server: &Server, ply: usize, text: &str) -> Reply {
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

/// Game `id`'s WebSocket on `server`, past its first state (returned).
fn watch(server: &Server, id: &str) -> (tungstenite::WebSocket<TcpStream>, Value) {
    let mut socket = server.websocket(id);
    socket.get_ref().set_read_timeout(Some(PROMPTLY)).unwrap();
    let first = receive(&mut socket);
    assert_eq!(first["type"], "state", "{first}");
    (socket, first["state"].clone())
}

/// The next state a watcher receives: it must come within [`PROMPTLY`].
fn next_state(socket: &mut tungstenite::WebSocket<TcpStream>) -> Value {
    let started = Instant::now();
    let message = receive(socket);
    assert!(started.elapsed() <= PROMPTLY, "a state came late");
    assert_eq!(message["type"], "state", "{message}");
    message["state"].clone()
}

#[test]
fn watchers_of_each_server_see_every_move_made_through_the_other() {
    let db = database();
    let (a, b) = (serve(&db), serve(&db));
    let game = Game::create(&a, json!({ "variant": "shogi" }));
    let (mut on_a, first_a) = watch(&a, &game.id);
    let (mut on_b, first_b) = watch(&b, &game.id);
    assert_eq!(first_a, first_b);
    let mut version = first_a["version"].as_u64().unwrap();
    let moves = [
        "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b",
    ];
    for (ply, text) in moves.iter().enumerate() {
        // Played through B first: the game was created on A.
        let through = if ply % 2 == 0 { &b } else { &a };
        let answer = game.play(through, ply, text);
        version += 1;
        assert_eq!(answer["version"], version);
        for (name, socket) in [("A", &mut on_a), ("B", &mut on_b)] {
            let state = next_state(socket);
            assert_eq!(
                (state["version"].as_u64(), state["ply"].as_u64()),
                (Some(version), Some(ply as u64 + 1)),
                "the watcher on {name} after {text}"
            );
            assert_eq!(usi_list(&state), moves[..=ply], "the watcher on {name}");
        }
    }
}

#[test]
fn of_two_moves_at_one_ply_through_two_servers_exactly_one_wins() {
    let db = database();
    let (a, b) = (Arc::new(serve(&db)), Arc::new(serve(&db)));
    for round in 0..10 {
        let game = Arc::new(Game::create(&a, json!({ "variant": "shogi" })));
        let start = Arc::new(Barrier::new(2));
        let racers: Vec<_> = [(a.clone(), "7g7f"), (b.clone(), "2g2f")]
            .into_iter()
            .map(|(server, text)| {
                let (game, start) = (game.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    (text, game.post_move(&server, 0, text).status)
                })
            })
            .collect();
        let results: Vec<(&str, u16)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        let winners: Vec<&str> = results
            .iter()
            .filter(|(_, status)| *status == 200)
            .map(|(text, _)| *text)
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {results:?}");
        assert!(
            results.iter().all(|(_, s)| *s == 200 || *s == 409),
            "round {round}: {results:?}"
        );
        for server in [&a, &b] {
            let state = game.state(server);
            assert_eq!(usi_list(&state), winners, "round {round}");
            assert_eq!(state["version"], 2, "round {round}");
        }
    }
}

#[test]
fn a_lost_connection_is_made_again_and_nothing_is_missed() {
    let db = database();
    let (a, b) = (serve(&db), serve(&db));
    let game = Game::create(&a, json!({ "variant": "shogi" }));
    let (mut on_b, _) = watch(&b, &game.id);
    // Ends every connection of both servers, their listeners' included, as
    // a restart of PostgreSQL or an administrator would.
    let mut admin = connect(&db.url);
    let ended: i64 = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(ended >= 2, "ended {ended} connections");
    // A's pooled connection is gone: the move is made on a new one, and B's
    // listener, connected again, tells its watcher.
    game.play(&a, 0, "7g7f");
    let deadline = Instant::now() + Duration::from_secs(20);
    let state = loop {
        let state = next_state(&mut on_b);
        if state["ply"] == 1 || Instant::now() > deadline {
            break state;
        }
    };
    assert_eq!(usi_list(&state), ["7g7f"]);
    game.play(&b, 1, "3c3d");
    assert_eq!(usi_list(&game.state(&a)), ["7g7f", "3c3d"]);
}

#[test]
fn a_database_of_schema_2_is_brought_to_schema_9_and_its_shogi_games_keep_27_points() {
    let db = database();
    let id = {
        let server = serve(&db);
        let game = Game::create(&server, json!({ "variant": "shogi", "impasse": 24 }));
        game.play(&server, 0, "7g7f");
        game.id
    };
    let mut admin = connect(&db.url);
    admin
        .batch_execute(
            "ALTER TABLE koma_games DROP COLUMN impasse, DROP COLUMN notes, DROP COLUMN review, \
             DROP COLUMN checksum, DROP COLUMN rematch; DROP TABLE koma_jobs; \
             UPDATE koma_schema SET version = 2",
        )
        .unwrap();
    let server = serve(&db);
    let state = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(usi_list(&state), ["7g7f"]);
    assert_eq!(state["impasse"]["rule"], 27, "{state}");
    let version: i64 = admin
        .query_one("SELECT version FROM koma_schema", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, 9);
    let game = Game::create(&server, json!({ "variant": "shogi", "impasse": "24" }));
    assert_eq!(game.state(&server)["impasse"]["rule"], 24);
}

/// Issue 53: the rows of a database of schema 4 get their checksums when
/// a server first opens it; a row changed behind Koma's back then answers
/// 500 naming its game, and the other games are served.
#[test]
fn a_changed_row_answers_500_and_the_other_games_are_served() {
    let db = database();
    let (one, two) = {
        let server = serve(&db);
        let one = Game::create(&server, json!({ "variant": "shogi" }));
        one.play(&server, 0, "7g7f");
        let two = Game::create(&server, json!({ "variant": "minishogi" }));
        (one, two)
    };
    let mut admin = connect(&db.url);
    admin
        .batch_execute(
            "ALTER TABLE koma_games DROP COLUMN checksum, DROP COLUMN rematch; \
             DROP TABLE koma_jobs; UPDATE koma_schema SET version = 4",
        )
        .unwrap();
    let server = serve(&db);
    assert_eq!(usi_list(&one.state(&server)), ["7g7f"]);
    let (version, unsummed): (i64, i64) = {
        let row = admin
            .query_one(
                "SELECT (SELECT version FROM koma_schema), \
                 (SELECT count(*) FROM koma_games WHERE checksum IS NULL)",
                &[],
            )
            .unwrap();
        (row.get(0), row.get(1))
    };
    assert_eq!((version, unsummed), (9, 0));

    admin
        .execute(
            "UPDATE koma_games SET moves = '2g2f' WHERE id = $1",
            &[&one.id],
        )
        .unwrap();
    let reply = server.get(&format!("/api/games/{}", one.id));
    assert_eq!(reply.status, 500);
    assert_eq!(
        reply.json()["error"],
        format!(
            "The game {} is damaged in the games database: its contents differ from its \
             checksum.",
            one.id
        )
    );
    assert_eq!(one.post_move(&server, 1, "3c3d").status, 500);
    assert_eq!(two.state(&server)["variant"], "minishogi");
    two.play(&server, 0, "5d5c");
}

/// Schema 6: a database of schema 5 gets the rematch column and its rows
/// keep their checksums; a rematch offered through one server is accepted
/// through another, and there is one new game, whoever asks after.
#[test]
fn a_database_of_schema_5_gets_rematches_that_two_servers_share() {
    let db = database();
    let game = {
        let server = serve(&db);
        let game = Game::create(&server, json!({ "variant": "spear", "mode": "shared" }));
        game.play(&server, 0, "5d5c");
        game
    };
    let mut admin = connect(&db.url);
    admin
        .batch_execute(
            "ALTER TABLE koma_games DROP COLUMN rematch; DROP TABLE koma_jobs; \
             UPDATE koma_schema SET version = 5",
        )
        .unwrap();
    let (one, two) = (serve(&db), serve(&db));
    assert_eq!(usi_list(&game.state(&two)), ["5d5c"], "the checksum holds");
    let version: i64 = admin
        .query_one("SELECT version FROM koma_schema", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, 9);
    let path = format!("/api/games/{}/rematch", game.id);
    let resign = format!("/api/games/{}/resign", game.id);
    assert_eq!(
        one.post_exactly(&resign, &json!({ "ply": 1, "token": game.gote }))
            .status,
        200
    );
    let offer = one.post_exactly(&path, &json!({ "token": game.sente }));
    assert_eq!(offer.status, 200);
    assert_eq!(offer.json()["rematch"]["offeredBy"], "sente");
    let accepted = two.post_exactly(&path, &json!({ "token": game.gote }));
    assert_eq!(accepted.status, 201);
    let made = accepted.json();
    let seats: Vec<&String> = made["seats"].as_object().unwrap().keys().collect();
    assert_eq!(seats, ["sente"], "the accepter plays the other side now");
    let joined = one.post_exactly(&path, &json!({ "token": game.sente }));
    assert_eq!(joined.status, 200);
    assert_eq!(joined.json()["id"], made["id"]);
    assert!(joined.json()["seats"]["gote"].is_string());
    assert_eq!(game.state(&one)["rematch"]["game"], made["id"]);
}
