//! Mate searches done by workers (`--worker-keys`, `docs/WORKERS.md`):
//! "Find mate" on the board (`GET /api/games/{id}/mate`) becomes a job
//! that only workers asking for mate searches (`kinds=…,mate`) are given,
//! whose answer is checked (a legal line that mates, a length that fits
//! it) and answers the board's request as a local search does; garbage is
//! refused with 422 and the search queued again; an answer is taken once.
//! The same in memory, in a SQLite file and in PostgreSQL (a worker of one
//! server answering the other's request), and by the server's own engine.
//! The worker is the test, running Koma's solver as `koma worker` does
//! (`koma_server::workers::run::mate_job`).

use crate::common::postgres::{connect, database};
use crate::common::{start_with, Reply, Server, TempDir};
use crate::workers::{
    acquire, call, keys, post_result, progress, serve, status_of, KEY, OTHER_KEY,
};
use koma_server::workers::protocol::{JobJson, JobKind, MateResultJson, ResultJson};
use koma_server::workers::run;
use serde_json::json;
use std::thread::JoinHandle;

/// Gold drop on 1b mates.
const MATE_IN_ONE: &str = "7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1";

/// A job of any kind, as `koma worker` asks for one.
fn acquire_any(server: &Server, key: &str) -> Option<JobJson> {
    let path = "/api/worker/acquire?wait=10&kinds=review,mate";
    let reply = call(server, path, Some(key), &json!({}));
    match reply.status {
        200 => Some(serde_json::from_value(reply.json()).unwrap()),
        204 => None,
        status => panic!("acquire: {status} {}", String::from_utf8_lossy(&reply.body)),
    }
}

/// A game set up at [`MATE_IN_ONE`], and the board's request for a mate
/// search on it, made on a thread of its own as it waits for a worker.
fn ask_for_mate(server: &Server) -> (String, JoinHandle<Reply>) {
    let id = server.create_with(&json!({ "variant": "shogi", "position": MATE_IN_ONE }))["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let client = server.client();
    let path = format!("/api/games/{id}/mate?seconds=2");
    (
        id,
        std::thread::spawn(move || client.request("GET", &path, None, b"")),
    )
}

/// `answer` as the result of `job`.
fn result(job: &JobJson, answer: MateResultJson) -> ResultJson {
    ResultJson {
        lease: job.lease.clone(),
        positions: Vec::new(),
        mate: Some(answer),
        analysis: None,
    }
}

/// The board's answer: the mate in one, written as a local search's.
fn assert_found(asked: JoinHandle<Reply>) {
    let reply = asked.join().unwrap();
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    let found = reply.json();
    assert_eq!(found["engine"], "koma", "{found}");
    assert_eq!(
        (found["answer"].as_str(), found["length"].as_u64()),
        (Some("mate"), Some(1))
    );
    assert_eq!(found["ply"], 0);
    let line = found["line"].as_array().unwrap();
    assert_eq!(line.len(), 1, "{found}");
    assert_eq!(line[0]["usi"], "G*1b");
    assert_eq!(line[0]["notation"], "☗１二金打");
    assert!(line[0]["position"].as_str().unwrap().starts_with("7nk/8G/"));
}

/// The search asked for on `asked` is done by a worker of `worker` (the
/// same server, or another sharing the queue), and answers the board once.
fn a_worker_finds_a_mate(asked: &Server, worker: &Server) {
    let (id, asking) = ask_for_mate(asked);
    let job = acquire_any(worker, KEY).expect("the mate search is queued");
    assert_eq!(job.kind, JobKind::Mate);
    assert_eq!(
        (job.game.as_str(), job.variant.as_str()),
        (id.as_str(), "shogi")
    );
    assert_eq!(job.position, MATE_IN_ONE);
    assert!(job.moves.is_empty());
    assert_eq!((job.seconds, job.nodes), (2, 0));
    let reply = progress(worker, KEY, &job, 0);
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    let answer = run::mate_job(&job).unwrap();
    assert_eq!((answer.answer.as_str(), answer.length), ("mate", 1));
    assert_eq!(answer.line, ["G*1b"]);
    let sent = result(&job, answer);
    let reply = post_result(worker, KEY, &job, &sent);
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    assert_eq!(reply.json()["status"], "kept");
    assert_found(asking);
    // An answer is taken once.
    let again = post_result(worker, KEY, &job, &sent);
    assert_eq!(again.status, 409, "{:?}", status_of(&again));
}

/// Garbage is refused (422), the search goes back to the queue (where a
/// worker that asks for reviews alone does not get it), and the next
/// worker's right answer reaches the board.
fn garbage_mates_are_refused_and_the_search_queued_again(server: &Server) {
    let (_, asking) = ask_for_mate(server);
    let job = acquire_any(server, KEY).unwrap();
    let mate = |answer: &str, length: u16, line: &[&str]| MateResultJson {
        answer: answer.to_owned(),
        length,
        line: line.iter().map(|m| (*m).to_owned()).collect(),
        nodes: 100,
        milliseconds: 5,
    };
    let no_answer = ResultJson {
        lease: String::new(),
        positions: Vec::new(),
        mate: None,
        analysis: None,
    };
    let mut held = Some(job.clone());
    for (garbage, says) in [
        (result(&job, mate("mate", 1, &["5a5b"])), "not legal"),
        (result(&job, mate("mate", 1, &["S*1b"])), "no mate"),
        (result(&job, mate("mate", 3, &["G*1b"])), "does not fit"),
        (result(&job, mate("nomate", 1, &["G*1b"])), "only a mate"),
        (result(&job, mate("yes", 0, &[])), "none of"),
        (no_answer, "answer alone"),
    ] {
        let job = match held.take() {
            Some(job) => job,
            None => {
                // Queued again, but not for a worker of reviews alone.
                let old = call(server, "/api/worker/acquire", Some(KEY), &json!({}));
                assert_eq!(old.status, 204, "{:?}", status_of(&old));
                acquire_any(server, KEY).expect("the search is queued again")
            }
        };
        let garbage = ResultJson {
            lease: job.lease.clone(),
            ..garbage
        };
        let reply = post_result(server, KEY, &job, &garbage);
        assert_eq!(reply.status, 422, "{says}: {:?}", status_of(&reply));
        let error = reply.json()["error"].as_str().unwrap().to_owned();
        assert!(error.contains(says), "{says}: {error}");
        assert_eq!(progress(server, KEY, &job, 0).status, 409);
    }
    let again = acquire_any(server, OTHER_KEY).expect("the search is queued again");
    assert_eq!(again.id, job.id);
    let reply = post_result(
        server,
        OTHER_KEY,
        &again,
        &result(&again, run::mate_job(&again).unwrap()),
    );
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    assert_found(asking);
}

#[test]
fn workers_find_mates_kept_in_memory() {
    let dir = TempDir::new("worker-mates-memory");
    let server = serve(&dir, "10", &["--memory"]);
    a_worker_finds_a_mate(&server, &server);
    garbage_mates_are_refused_and_the_search_queued_again(&server);
}

#[test]
fn workers_find_mates_kept_in_sqlite() {
    let dir = TempDir::new("worker-mates-sqlite");
    let db = dir.db().display().to_string();
    let server = serve(&dir, "10", &["--db", &db]);
    a_worker_finds_a_mate(&server, &server);
    garbage_mates_are_refused_and_the_search_queued_again(&server);
}

#[test]
fn a_worker_of_one_server_answers_the_others_mate_search_on_postgresql() {
    let db = database();
    let dir = TempDir::new("worker-mates-postgres");
    let one = serve(&dir, "10", &["--db", &db.url]);
    let two = serve(&dir, "10", &["--db", &db.url]);
    a_worker_finds_a_mate(&one, &two);
    garbage_mates_are_refused_and_the_search_queued_again(&one);
}

/// Schema 8: the jobs of a database of schema 7, all reviews, stay
/// reviews, and workers of reviews alone still get them.
#[test]
fn the_review_jobs_of_a_postgresql_database_of_schema_7_stay_reviews() {
    let db = database();
    let dir = TempDir::new("worker-mates-postgres-7");
    drop(serve(&dir, "10", &["--db", &db.url]));
    let mut admin = connect(&db.url);
    admin
        .batch_execute(
            "ALTER TABLE koma_jobs DROP COLUMN kind, DROP COLUMN seconds, DROP COLUMN answer, \
             DROP COLUMN lines; \
             UPDATE koma_schema SET version = 7; \
             INSERT INTO koma_jobs VALUES ('00ff', '00000000000000aa', 'shogi', 'startpos', \
               '7g7f', 100, 'queued', NULL, NULL, 0, 0, NULL, 1)",
        )
        .unwrap();
    let server = serve(&dir, "10", &["--db", &db.url]);
    let version: i64 = admin
        .query_one("SELECT version FROM koma_schema", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, 9);
    let job = acquire(&server, KEY).expect("the old job is a review");
    assert_eq!((job.id.as_str(), job.kind), ("00ff", JobKind::Review));
    assert_eq!(job.moves, ["7g7f"]);
}

#[test]
fn the_servers_own_engine_finds_mates_unless_told_not_to() {
    let dir = TempDir::new("worker-mates-local");
    let keys = keys(&dir);
    let server = start_with(&[
        "--memory",
        "--worker-keys",
        &keys,
        "--analysis-engines",
        "1",
    ]);
    let (_, asking) = ask_for_mate(&server);
    assert_found(asking);
    let start = server.create("shogi")["id"].as_str().unwrap().to_owned();
    let reply = server.get(&format!("/api/games/{start}/mate?seconds=1"));
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    assert_eq!(reply.json()["answer"], "nomate");
    // With --analysis-engines 0, a remote worker does it, whoever asks.
    let remote = serve(&dir, "10", &["--memory"]);
    let (_, asking) = ask_for_mate(&remote);
    let job = acquire_any(&remote, KEY).expect("the search waits for a worker");
    let sent = result(&job, run::mate_job(&job).unwrap());
    assert_eq!(post_result(&remote, KEY, &job, &sent).status, 200);
    assert_found(asking);
}
