//! Reviews done by workers (`--worker-keys`, `docs/WORKERS.md`): the
//! workers' routes refuse a missing or unknown key and exist only with
//! keys; a review asked for on the board is queued, taken, reported on and
//! kept, its progress relayed to the board; garbage is refused and the job
//! queued again; a lease that runs out gives the job to another worker and
//! refuses the late result; a result is taken once. The same in memory,
//! in a SQLite file and in PostgreSQL (two servers sharing the queue).
//! The worker here is the test, speaking the protocol with Koma's engine
//! (`koma_server::workers::run`); a real `koma worker` process is
//! crates/koma/tests/koma/worker_process.rs.

use crate::common::postgres::database;
use crate::common::{next_of, send_json, start_with, Reply, Server, TempDir};
use koma_engine::SearchControl;
use koma_server::workers::protocol::{JobJson, JobKind, PositionJson, ResultJson};
use koma_server::workers::run;
use koma_server::ServeError;
use serde_json::{json, Value};
use std::net::TcpStream;
use std::sync::OnceLock;
use std::time::Duration;

pub(crate) const KEY: &str = "alice-0123456789abcdef";
pub(crate) const OTHER_KEY: &str = "bob-fedcba9876543210";
/// Nodes per position: real moves, quick in a test.
const NODES: &str = "2000";
const MOVES: [&str; 4] = ["7g7f", "3c3d", "2g2f", "8c8d"];

type Socket = tungstenite::WebSocket<TcpStream>;

/// A keys file in `dir`.
pub(crate) fn keys(dir: &TempDir) -> String {
    let path = dir.path().join("keys");
    std::fs::write(
        &path,
        format!("# test workers\nalice {KEY}\n\nbob {OTHER_KEY}  # the second\n"),
    )
    .unwrap();
    path.display().to_string()
}

/// A server taking workers with `extra` flags; no local engine takes
/// jobs, so that the test's worker gets them all.
pub(crate) fn serve(dir: &TempDir, lease: &str, extra: &[&str]) -> Server {
    let keys = keys(dir);
    let mut flags = vec![
        "--worker-keys",
        &keys,
        "--worker-lease",
        lease,
        "--analysis-engines",
        "0",
        "--review-nodes",
        NODES,
    ];
    flags.extend_from_slice(extra);
    start_with(&flags)
}

pub(crate) fn call(server: &Server, path: &str, key: Option<&str>, body: &Value) -> Reply {
    let bearer = key.map(|k| format!("Bearer {k}"));
    let mut headers = vec![("content-type", "application/json")];
    if let Some(bearer) = &bearer {
        headers.push(("authorization", bearer.as_str()));
    }
    server.request_with("POST", path, &headers, body.to_string().as_bytes())
}

pub(crate) fn acquire(server: &Server, key: &str) -> Option<JobJson> {
    let reply = call(server, "/api/worker/acquire?wait=10", Some(key), &json!({}));
    match reply.status {
        200 => Some(serde_json::from_value(reply.json()).unwrap()),
        204 => None,
        status => panic!("acquire: {status} {}", String::from_utf8_lossy(&reply.body)),
    }
}

pub(crate) fn progress(server: &Server, key: &str, job: &JobJson, done: usize) -> Reply {
    call(
        server,
        &format!("/api/worker/jobs/{}/progress", job.id),
        Some(key),
        &json!({ "lease": job.lease, "done": done }),
    )
}

pub(crate) fn post_result(server: &Server, key: &str, job: &JobJson, result: &ResultJson) -> Reply {
    call(
        server,
        &format!("/api/worker/jobs/{}/result", job.id),
        Some(key),
        &serde_json::to_value(result).unwrap(),
    )
}

/// Every position of the game of [`MOVES`] judged by Koma's engine, as a
/// worker judges them: computed once, before any lease is taken, so that
/// a slow machine never lets a test's lease lapse while it searches.
fn judged() -> Vec<PositionJson> {
    static JUDGED: OnceLock<Vec<PositionJson>> = OnceLock::new();
    JUDGED
        .get_or_init(|| {
            let job = JobJson {
                kind: JobKind::Review,
                seconds: 0,
                lines: 0,
                id: String::new(),
                lease: String::new(),
                lease_seconds: 0,
                game: String::new(),
                variant: "shogi".to_owned(),
                position: "startpos".to_owned(),
                moves: MOVES.iter().map(|m| (*m).to_owned()).collect(),
                nodes: 2000,
            };
            run::review_job(&job, &SearchControl::new(false), &mut |_, _| {}).unwrap()
        })
        .clone()
}

/// The result of `job` (a game of [`MOVES`]), as a worker sends it.
fn work(job: &JobJson) -> ResultJson {
    assert_eq!(job.moves, MOVES);
    ResultJson {
        lease: job.lease.clone(),
        positions: judged(),
        mate: None,
        analysis: None,
    }
}

/// A shogi game of [`MOVES`] and a WebSocket on it that asked for its
/// review.
fn reviewed_game(server: &Server) -> (String, Socket) {
    judged();
    let state = server.create("shogi");
    let id = state["id"].as_str().unwrap().to_owned();
    server.play(&id, 0, &MOVES);
    let mut socket = server.websocket(&id);
    next_of(&mut socket, &["state"]);
    send_json(&mut socket, json!({ "type": "review" }));
    (id, socket)
}

/// The review messages up to "done" (or "failed"), and whether the state
/// carrying the review came.
fn watch_to_the_end(socket: &mut Socket) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let message = next_of(socket, &["review"]);
        let status = message["status"].as_str().unwrap().to_owned();
        seen.push(message);
        if status == "done" || status == "failed" {
            return seen;
        }
    }
}

pub(crate) fn status_of(reply: &Reply) -> (u16, String) {
    (
        reply.status,
        String::from_utf8_lossy(&reply.body).into_owned(),
    )
}

#[test]
fn without_keys_there_are_no_worker_routes_and_with_them_a_key_is_needed() {
    let plain = start_with(&["--memory"]);
    assert_eq!(
        call(&plain, "/api/worker/acquire", Some(KEY), &json!({})).status,
        404
    );
    drop(plain);
    let dir = TempDir::new("worker-keys");
    let server = serve(&dir, "60", &["--memory"]);
    for key in [None, Some("alice-0123456789abcdeX"), Some("")] {
        let reply = call(&server, "/api/worker/acquire", key, &json!({}));
        assert_eq!(reply.status, 401, "{key:?}");
        assert!(reply.json()["error"].as_str().unwrap().contains("Bearer"));
    }
    let reply = server.request_with(
        "POST",
        "/api/worker/acquire",
        &[("authorization", &format!("Basic {KEY}"))],
        b"",
    );
    assert_eq!(reply.status, 401);
    // A key that is known, and no job: 204 at once without a wait.
    let reply = call(&server, "/api/worker/acquire", Some(KEY), &json!({}));
    assert_eq!(reply.status, 204);
}

#[test]
fn a_bad_keys_file_or_analysis_engines_0_without_keys_stops_the_server() {
    let dir = TempDir::new("worker-keys-bad");
    let path = dir.path().join("keys");
    std::fs::write(&path, "alice short\n").unwrap();
    let shown = path.display().to_string();
    let error = crate::common::try_start_with(&["--memory", "--worker-keys", &shown])
        .err()
        .unwrap();
    let ServeError::Workers(sentence) = error else {
        panic!("a bad keys file is the workers' error, not {error:?}");
    };
    assert!(
        sentence.contains("line 1") && sentence.contains("shorter"),
        "{sentence}"
    );
    let error = crate::common::try_start_with(&["--memory", "--analysis-engines", "0"])
        .err()
        .unwrap();
    let ServeError::Workers(sentence) = error else {
        panic!("--analysis-engines 0 alone is the workers' error, not {error:?}");
    };
    assert!(sentence.contains("--worker-keys"), "{sentence}");
}

/// Acquire, progress and result: the board sees the progress and the
/// review kept as a local review is.
fn a_worker_reviews_a_game(server: &Server) {
    let (id, mut socket) = reviewed_game(server);
    let job = acquire(server, KEY).expect("the review is queued");
    assert_eq!(job.game, id);
    assert_eq!((job.kind, job.seconds), (JobKind::Review, 0));
    assert_eq!(job.variant, "shogi");
    assert_eq!(job.moves, MOVES);
    assert_eq!(job.nodes, 2000);
    let first = next_of(&mut socket, &["review"]);
    assert!(
        ["waiting", "running"].contains(&first["status"].as_str().unwrap()),
        "{first}"
    );
    assert_eq!(first["total"], 5);
    let reply = progress(server, KEY, &job, 3);
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    assert_eq!(reply.json()["status"], "running");
    let result = work(&job);
    // The board hears of the progress before the result is sent.
    loop {
        let message = next_of(&mut socket, &["review"]);
        assert_eq!(message["status"], "running", "{message}");
        if message["done"] == 3 {
            break;
        }
    }
    let reply = post_result(server, KEY, &job, &result);
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    assert_eq!(reply.json()["status"], "kept");
    let end = watch_to_the_end(&mut socket);
    let last = end.last().unwrap();
    assert_eq!(
        (last["status"].as_str(), last["done"].as_u64()),
        (Some("done"), Some(5))
    );
    let review = server.get(&format!("/api/games/{id}/review"));
    assert_eq!(review.status, 200, "{:?}", status_of(&review));
    let review = review.json();
    assert_eq!(review["nodes"], 2000);
    assert_eq!(review["positions"].as_array().unwrap().len(), 5);
    assert_eq!(review["moves"].as_array().unwrap().len(), 4);
    // A result taken is taken once.
    let again = post_result(server, KEY, &job, &result);
    assert_eq!(again.status, 409, "{:?}", status_of(&again));
    assert_eq!(progress(server, KEY, &job, 5).status, 409);
}

/// Garbage is refused (422) and the job goes back to the queue, to be
/// done properly by the next worker.
fn garbage_is_refused_and_the_job_queued_again(server: &Server) {
    let (id, mut socket) = reviewed_game(server);
    let job = acquire(server, KEY).unwrap();
    let good = work(&job);
    let mut illegal = good.clone();
    illegal.positions[2].best = Some("5a5b".to_owned());
    illegal.positions[2].pv = vec!["5a5b".to_owned()];
    let mut short = good.clone();
    short.positions.pop();
    let mut huge = good.clone();
    huge.positions[1].score = koma_server::workers::protocol::ScoreJson::Cp(1_000_000);
    let mut wrong_line = good.clone();
    wrong_line.positions[0].pv = vec!["7g7f".to_owned(), "7g7f".to_owned()];
    wrong_line.positions[0].best = Some("7g7f".to_owned());
    let mut held = Some(job.clone());
    for (garbage, says) in [
        (&illegal, "not legal"),
        (&short, "judges 4 positions"),
        (&huge, "range"),
        (&wrong_line, "line"),
    ] {
        let job = match held.take() {
            Some(job) => job,
            None => acquire(server, KEY).expect("the job is queued again"),
        };
        let garbage = ResultJson {
            lease: job.lease.clone(),
            ..garbage.clone()
        };
        let reply = post_result(server, KEY, &job, &garbage);
        assert_eq!(reply.status, 422, "{says}: {:?}", status_of(&reply));
        let error = reply.json()["error"].as_str().unwrap().to_owned();
        assert!(error.contains(says), "{error}");
        // The lease is gone with the garbage.
        assert_eq!(progress(server, KEY, &job, 1).status, 409);
    }
    let again = acquire(server, OTHER_KEY).expect("the job is queued again");
    assert_eq!(again.id, job.id);
    let reply = post_result(server, OTHER_KEY, &again, &work(&again));
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    let last = watch_to_the_end(&mut socket).pop().unwrap();
    assert_eq!(last["status"], "done", "{last}");
    assert_eq!(server.get(&format!("/api/games/{id}/review")).status, 200);
}

/// A lease that runs out gives the job to the next worker; the first
/// one's progress and result are refused; the second's is kept, once.
fn a_lapsed_lease_goes_to_another_worker(server: &Server, other: &Server) {
    let (id, mut socket) = reviewed_game(server);
    let first = acquire(server, KEY).unwrap();
    assert_eq!(progress(server, KEY, &first, 1).status, 200);
    // Nobody else gets it while the lease lives.
    assert!(call(other, "/api/worker/acquire", Some(OTHER_KEY), &json!({})).status == 204);
    std::thread::sleep(Duration::from_millis(3500));
    let second = acquire(other, OTHER_KEY).expect("the job is free again");
    assert_eq!(second.id, first.id);
    assert_ne!(second.lease, first.lease);
    assert_eq!(progress(server, KEY, &first, 2).status, 409);
    let late = post_result(server, KEY, &first, &work(&first));
    assert_eq!(late.status, 409, "{:?}", status_of(&late));
    let reply = post_result(other, OTHER_KEY, &second, &work(&second));
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    assert_eq!(
        post_result(other, OTHER_KEY, &second, &work(&second)).status,
        409
    );
    let last = watch_to_the_end(&mut socket).pop().unwrap();
    assert_eq!(last["status"], "done", "{last}");
    assert_eq!(server.get(&format!("/api/games/{id}/review")).status, 200);
}

/// Stopping the review on the board cancels its job.
fn a_review_stopped_on_the_board_is_no_job(server: &Server) {
    let (_, mut socket) = reviewed_game(server);
    next_of(&mut socket, &["review"]);
    send_json(&mut socket, json!({ "type": "stop-review" }));
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        call(server, "/api/worker/acquire", Some(KEY), &json!({})).status,
        204
    );
}

#[test]
fn workers_review_games_kept_in_memory() {
    let dir = TempDir::new("workers-memory");
    let server = serve(&dir, "3", &["--memory"]);
    a_worker_reviews_a_game(&server);
    garbage_is_refused_and_the_job_queued_again(&server);
    a_lapsed_lease_goes_to_another_worker(&server, &server);
    a_review_stopped_on_the_board_is_no_job(&server);
}

#[test]
fn workers_review_games_kept_in_sqlite() {
    let dir = TempDir::new("workers-sqlite");
    let db = dir.db().display().to_string();
    let server = serve(&dir, "3", &["--db", &db]);
    a_worker_reviews_a_game(&server);
    garbage_is_refused_and_the_job_queued_again(&server);
    a_lapsed_lease_goes_to_another_worker(&server, &server);
    a_review_stopped_on_the_board_is_no_job(&server);
}

#[test]
fn workers_of_two_servers_share_one_postgresql_queue() {
    let db = database();
    let dir = TempDir::new("workers-postgres");
    let one = serve(&dir, "3", &["--db", &db.url]);
    let two = serve(&dir, "3", &["--db", &db.url]);
    a_worker_reviews_a_game(&one);
    garbage_is_refused_and_the_job_queued_again(&one);
    a_lapsed_lease_goes_to_another_worker(&one, &two);
    a_review_stopped_on_the_board_is_no_job(&one);
}

#[test]
fn the_servers_own_engine_takes_jobs_unless_told_not_to() {
    let dir = TempDir::new("workers-local");
    let keys = keys(&dir);
    let server = start_with(&[
        "--memory",
        "--worker-keys",
        &keys,
        "--review-nodes",
        NODES,
        "--analysis-engines",
        "1",
    ]);
    let (id, mut socket) = reviewed_game(&server);
    let last = watch_to_the_end(&mut socket).pop().unwrap();
    assert_eq!(last["status"], "done", "{last}");
    assert_eq!(server.get(&format!("/api/games/{id}/review")).status, 200);
}
