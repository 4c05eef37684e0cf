//! Engines registered beside Koma's own (`--engine`, `--engines-file`):
//! listed, analysing beside Koma's engine on one connection, their output
//! checked before it is shown, a dying one started again, an idle one
//! stopped, and a wrong one refused before the server serves. The engine
//! here is a shell script that speaks just enough USI, so that what it
//! says is known exactly; crates/koma/tests runs Koma's own engine as a
//! registered one.

use crate::common::{next_of, send_json, start_with, try_start_with, Server};
use koma_server::ServeError;
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::WebSocket;

type Socket = WebSocket<TcpStream>;

/// A USI engine in sh: its name says its priority (`nice`); at `go` it
/// reports one depth (two lines with MultiPV 2) whose moves are legal in
/// the first three positions of 7g7f 3c3d; after `go infinite` it answers
/// `bestmove` at `stop`, after any other `go` at once. `$1` changes it:
/// `dies` exits at `go`; `garbage` first reports a line whose first move is
/// not legal and an absurd score on a line whose second move is not;
/// `illegal` answers a move that is not legal; `bounded` reports only an
/// upperbound after a `go` other than `go infinite`, as YaneuraOu does when
/// its node count stops it mid-iteration; `resigns` resigns. To `go mate`
/// it answers `checkmate G*1b` (`mates`), a line that does not mate
/// (`falsemate`), or a `bestmove` (otherwise), as an engine that reads it
/// as UCI's "mate in N" does. `$2`, if given, is a file to which it
/// appends each `gameover` it is told.
pub(crate) const FAKE_ENGINE: &str = r#"mode="$1"
log="$2"
multipv=1
n=0
pv="7g7f 3c3d"
while IFS= read -r line; do
  case "$line" in
    usi) echo "id name Fake USI at nice $(nice)"; echo "usiok" ;;
    isready) echo "readyok" ;;
    "setoption name MultiPV value "*) multipv="${line##* }" ;;
    "position startpos") n=0 ;;
    "position startpos moves "*) set -- $line; n=$(($# - 3)) ;;
    "go mate"*)
      case "$mode" in
        mates) echo "info nodes 77 time 3"; echo "checkmate G*1b" ;;
        falsemate) echo "checkmate G*2b" ;;
        dies) exit 3 ;;
        *) echo "bestmove 7g7f" ;;
      esac ;;
    go*)
      if [ "$mode" = dies ]; then exit 3; fi
      if [ "$mode" = resigns ]; then echo "bestmove resign"; continue; fi
      case $n in 0) pv="7g7f 3c3d" ;; 1) pv="3c3d 2g2f" ;; *) pv="2g2f 8c8d" ;; esac
      if [ "$mode" = bounded ] && [ "$line" != "go infinite" ]; then
        echo "info depth 8 multipv 1 score cp 12 upperbound nodes 20005 time 33 pv $pv"
      elif [ "$mode" = garbage ]; then
        echo "info depth 1 multipv 1 score cp 5 pv 5e5d"
        echo "info depth 2 multipv 1 score cp 99999999 nodes 7 time 2 pv 7g7f 7g7f"
      else
        echo "info depth 1 multipv 1 score cp 42 nodes 10 time 1 pv $pv"
        if [ "$multipv" -ge 2 ]; then
          echo "info depth 1 multipv 2 score cp -7 nodes 20 time 1 pv 2g2f 8c8d"
        fi
      fi
      if [ "$line" != "go infinite" ]; then
        if [ "$mode" = illegal ]; then echo "bestmove 5e5d"; else echo "bestmove ${pv%% *}"; fi
      fi
      ;;
    stop) echo "bestmove ${pv%% *}" ;;
    gameover*) if [ -n "$log" ]; then echo "$line" >> "$log"; fi ;;
    quit) exit 0 ;;
  esac
done
"#;

/// The fake engine's script, kept while the test runs.
pub(crate) fn fake_engine() -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(FAKE_ENGINE.as_bytes()).unwrap();
    file
}

/// The next JSON message of `kind` ("analysis", "error", "state").
fn next(socket: &mut Socket, kind: &str) -> Value {
    next_of(socket, &[kind])
}

/// The last message of each engine's analysis, once both have ended
/// (`"done"` or `"failed"`), by engine name.
fn until_ended(socket: &mut Socket, engines: &[&str]) -> Vec<Value> {
    let mut ended: Vec<Option<Value>> = vec![None; engines.len()];
    while ended.iter().any(Option::is_none) {
        let message = next(socket, "analysis");
        if message["status"] == "done" || message["status"] == "failed" {
            let name = message["engine"].as_str().unwrap();
            let index = engines.iter().position(|e| *e == name).unwrap();
            ended[index] = Some(message);
        }
    }
    ended.into_iter().map(Option::unwrap).collect()
}

pub(crate) fn engines(server: &Server) -> Vec<Value> {
    let reply = server.get("/api/engines");
    assert_eq!(reply.status, 200);
    reply.json()["engines"].as_array().unwrap().clone()
}

pub(crate) fn server_with(script: &tempfile::NamedTempFile, mode: &str, extra: &[&str]) -> Server {
    let engine = format!("fake=/bin/sh {} {mode}", script.path().display());
    let mut flags = vec!["--memory", "--analysis-seconds", "1", "--engine", &engine];
    flags.extend_from_slice(extra);
    start_with(&flags)
}

fn new_shogi_game(server: &Server) -> String {
    server.create("shogi")["id"].as_str().unwrap().to_owned()
}

#[test]
fn a_registered_engine_analyses_beside_komas_own() {
    let script = fake_engine();
    let server = server_with(&script, "", &["--analysis-engines", "2"]);
    let listed = engines(&server);
    assert_eq!(listed[0]["name"], "koma");
    assert_eq!(listed[0]["builtIn"], true);
    assert_eq!(listed[1]["name"], "fake");
    // It thinks at the lowest priority, as Koma's own analyses do.
    assert_eq!(listed[1]["idName"], "Fake USI at nice 19");
    assert_eq!(listed[1]["games"], json!(["shogi"]));
    // Started once when the server started, and kept warm.
    assert_eq!(
        (listed[1]["started"].as_u64(), listed[1]["warm"].as_u64()),
        (Some(1), Some(1))
    );

    let id = new_shogi_game(&server);
    let mut socket = server.websocket(&id);
    send_json(
        &mut socket,
        json!({ "type": "analyse", "engine": "fake", "lines": 2 }),
    );
    send_json(&mut socket, json!({ "type": "analyse", "lines": 1 }));
    let [fake, koma] = <[Value; 2]>::try_from(until_ended(&mut socket, &["fake", "koma"])).unwrap();
    assert_eq!(fake["status"], "done", "{fake}");
    assert_eq!(fake["depth"], 1);
    assert_eq!(fake["nodes"], 20);
    let lines = fake["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["moves"][0]["usi"], "7g7f");
    assert_eq!(lines[0]["moves"][1]["usi"], "3c3d");
    assert_eq!(lines[0]["score"]["cp"], 42);
    assert_eq!(lines[1]["moves"][0]["usi"], "2g2f");
    assert_eq!(lines[1]["score"]["cp"], -7);
    assert_eq!(koma["status"], "done");
    assert_eq!(koma["lines"].as_array().unwrap().len(), 1);
    // The process went back to the pool: no second one was started.
    let listed = engines(&server);
    assert_eq!(
        (listed[1]["started"].as_u64(), listed[1]["warm"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn requests_an_engine_cannot_serve_are_refused() {
    let script = fake_engine();
    let server = server_with(&script, "", &["--analysis-engines", "2"]);
    let spear = server.create("spear")["id"].as_str().unwrap().to_owned();
    let mut socket = server.websocket(&spear);
    next(&mut socket, "state");
    send_json(&mut socket, json!({ "type": "analyse", "engine": "fake" }));
    let refused = next(&mut socket, "error");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("does not play spear"),
        "{refused}"
    );
    // The refusal names the engine asked, so that a page shows it there.
    assert_eq!(refused["engine"], "fake");
    send_json(
        &mut socket,
        json!({ "type": "analyse", "engine": "stockfish" }),
    );
    let refused = next(&mut socket, "error");
    let sentence = refused["error"].as_str().unwrap();
    assert!(
        sentence.contains("No engine is named \"stockfish\": this server has koma, fake."),
        "{sentence}"
    );

    // Two engines at once on a connection, not three.
    let id = new_shogi_game(&server);
    let mut socket = server.websocket(&id);
    next(&mut socket, "state");
    send_json(&mut socket, json!({ "type": "analyse", "engine": "fake" }));
    send_json(&mut socket, json!({ "type": "analyse" }));
    send_json(&mut socket, json!({ "type": "analyse", "engine": "other" }));
    let refused = next(&mut socket, "error");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("at most 2 engines"),
        "{refused}"
    );
    assert_eq!(refused["engine"], "other");
    // Stopping one by name leaves the other running.
    send_json(
        &mut socket,
        json!({ "type": "stop-analysis", "engine": "fake" }),
    );
    let ended = until_ended(&mut socket, &["koma"]);
    assert_eq!(ended[0]["status"], "done");
}

#[test]
fn what_an_engine_says_is_checked_before_it_is_shown() {
    let script = fake_engine();
    let server = server_with(&script, "garbage", &[]);
    let id = new_shogi_game(&server);
    let mut socket = server.websocket(&id);
    send_json(
        &mut socket,
        json!({ "type": "analyse", "engine": "fake", "lines": 1 }),
    );
    let done = until_ended(&mut socket, &["fake"]).pop().unwrap();
    assert_eq!(done["status"], "done");
    // The line starting with a move that is not legal was not shown; the
    // other was cut after its first move, and its score kept in bounds.
    assert_eq!(done["depth"], 2);
    let line = &done["lines"][0];
    assert_eq!(line["moves"].as_array().unwrap().len(), 1, "{line}");
    assert_eq!(line["score"]["cp"], 30_000);
}

#[test]
fn an_engine_that_dies_is_started_again_once_then_the_viewer_is_told() {
    let script = fake_engine();
    let server = server_with(&script, "dies", &[]);
    let id = new_shogi_game(&server);
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "analyse", "engine": "fake" }));
    let failed = until_ended(&mut socket, &["fake"]).pop().unwrap();
    assert_eq!(failed["status"], "failed");
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("The engine fake stopped answering"),
        "{failed}"
    );
    // The warm process died, a second was started and died too.
    assert_eq!(engines(&server)[1]["started"], 2);
    assert_eq!(engines(&server)[1]["warm"], 0);
    // The server goes on: Koma's own engine still analyses.
    send_json(&mut socket, json!({ "type": "analyse" }));
    assert_eq!(until_ended(&mut socket, &["koma"])[0]["status"], "done");
}

#[test]
fn an_idle_engine_is_stopped_and_started_again_when_needed() {
    let script = fake_engine();
    let server = server_with(&script, "", &["--engine-idle", "1"]);
    let started = Instant::now();
    while engines(&server)[1]["warm"] != 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "still warm");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(started.elapsed() >= Duration::from_millis(500));
    let id = new_shogi_game(&server);
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "analyse", "engine": "fake" }));
    assert_eq!(until_ended(&mut socket, &["fake"])[0]["status"], "done");
    assert_eq!(engines(&server)[1]["started"], 2);
}

#[test]
fn an_engine_that_cannot_start_stops_the_server_before_it_serves() {
    let missing = try_start_with(&["--memory", "--engine", "gone=/nonexistent/engine"]);
    let Some(ServeError::Engines(why)) = missing.err() else {
        panic!("an engine that cannot start is the engines' error");
    };
    assert!(why.contains("a registered engine cannot start"), "{why}");
    assert!(why.contains("/nonexistent/engine"), "{why}");
    let twice = try_start_with(&["--memory", "--engine", "a=x", "--engine", "a=y"]);
    let Some(ServeError::Engines(why)) = twice.err() else {
        panic!("two engines of one name are the engines' error");
    };
    assert!(why.contains("two engines are named \"a\""), "{why}");
}

/// The review messages over `socket` up to "done" or "failed"; the last.
fn review_ended(socket: &mut Socket) -> Value {
    loop {
        let message = next(socket, "review");
        if message["status"] == "done" || message["status"] == "failed" {
            return message;
        }
    }
}

#[test]
fn a_registered_engine_reviews_a_game_and_is_named_in_it() {
    let script = fake_engine();
    let server = server_with(&script, "", &[]);
    let id = new_shogi_game(&server);
    server.play(&id, 0, &["7g7f", "3c3d"]);
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "review", "engine": "fake" }));
    let ended = review_ended(&mut socket);
    assert_eq!(ended["status"], "done", "{ended}");
    let review = server.get(&format!("/api/games/{id}/review")).json();
    assert_eq!(review["engine"], "fake");
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    // +42 for the side to move, from the first player's view.
    let scores: Vec<&Value> = positions.iter().map(|p| &p["evaluation"]["cp"]).collect();
    assert_eq!(scores, [&json!(42), &json!(-42), &json!(42)]);
    let best: Vec<&Value> = positions.iter().map(|p| &p["best"]["usi"]).collect();
    assert_eq!(best, [&json!("7g7f"), &json!("3c3d"), &json!("2g2f")]);
    // Both moves were the engine's: nothing lost.
    assert_eq!(review["moves"][0]["loss"], 0.0);
    // Koma's own engine's reviews say so too.
    send_json(&mut socket, json!({ "type": "review" }));
    assert_eq!(review_ended(&mut socket)["status"], "done");
    let review = server.get(&format!("/api/games/{id}/review")).json();
    assert_eq!(review["engine"], "koma");
}

#[test]
fn a_review_fails_on_a_move_that_is_not_legal_and_keeps_nothing() {
    let script = fake_engine();
    let server = server_with(&script, "illegal", &[]);
    let id = new_shogi_game(&server);
    server.play(&id, 0, &["7g7f"]);
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "review", "engine": "fake" }));
    let failed = review_ended(&mut socket);
    assert_eq!(failed["status"], "failed");
    let sentence = failed["error"].as_str().unwrap();
    assert!(
        sentence.contains("The engine fake named \"5e5d\", not a legal move (move 0)"),
        "{sentence}"
    );
    assert_eq!(server.get(&format!("/api/games/{id}/review")).status, 404);
    send_json(&mut socket, json!({ "type": "review", "engine": 7 }));
    let refused = next(&mut socket, "error");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("an engine's name, as text"),
        "{refused}"
    );
}

#[test]
fn a_review_takes_a_bound_when_the_engine_reports_nothing_else() {
    let script = fake_engine();
    let server = server_with(&script, "bounded", &[]);
    let id = new_shogi_game(&server);
    server.play(&id, 0, &["7g7f"]);
    let mut socket = server.websocket(&id);
    send_json(&mut socket, json!({ "type": "review", "engine": "fake" }));
    assert_eq!(review_ended(&mut socket)["status"], "done");
    let review = server.get(&format!("/api/games/{id}/review")).json();
    let scores: Vec<&Value> = review["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["evaluation"]["cp"])
        .collect();
    assert_eq!(scores, [&json!(12), &json!(-12)]);
    assert_eq!(review["positions"][0]["depth"], 8);
}
