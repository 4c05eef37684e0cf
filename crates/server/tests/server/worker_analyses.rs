//! Analyses done by workers (`--worker-keys`, `docs/WORKERS.md`): an
//! analysis by Koma's engine that finds no engine of the server free (all
//! of them, with `--analysis-engines 0`) becomes a job that only workers
//! asking for analyses (`kinds=…,analysis`) are given; the lines each
//! progress report carries are checked and reach the board as the local
//! analysis's `analysis` messages; garbage is refused with 422 and the job
//! queued again; stopping the analysis on the board cancels the job, so
//! that the worker's next report is refused and it stops. The same in
//! memory and in PostgreSQL (a worker of one server answering the other's
//! viewer). The worker is the test, running Koma's engine as `koma worker`
//! does (`koma_server::workers::run::analysis_job`).

use crate::common::postgres::database;
use crate::common::{next_of, send_json, Server, TempDir};
use crate::workers::{call, post_result, serve, status_of, KEY, OTHER_KEY};
use koma_engine::SearchControl;
use koma_server::workers::protocol::{
    AnalysisLineJson, AnalysisResultJson, JobJson, JobKind, ResultJson, ScoreJson,
};
use koma_server::workers::run;
use serde_json::{json, Value};
use std::net::TcpStream;

type Socket = tungstenite::WebSocket<TcpStream>;

/// A job of any kind, as `koma worker` asks for one.
fn acquire_all(server: &Server, key: &str) -> Option<JobJson> {
    let path = "/api/worker/acquire?wait=10&kinds=review,mate,analysis";
    let reply = call(server, path, Some(key), &json!({}));
    match reply.status {
        200 => Some(serde_json::from_value(reply.json()).unwrap()),
        204 => None,
        status => panic!("acquire: {status} {}", String::from_utf8_lossy(&reply.body)),
    }
}

fn report(server: &Server, key: &str, job: &JobJson, found: &AnalysisResultJson) -> u16 {
    let path = format!("/api/worker/jobs/{}/progress", job.id);
    let body = json!({ "lease": job.lease, "done": 0, "analysis": found });
    call(server, &path, Some(key), &body).status
}

/// A game between people after 7g7f 3c3d, watched on a WebSocket.
fn watched_game(server: &Server) -> (String, Socket) {
    let id = server.create("shogi")["id"].as_str().unwrap().to_owned();
    server.play(&id, 0, &["7g7f", "3c3d"]);
    let mut socket = server.websocket(&id);
    next_of(&mut socket, &["state"]);
    (id, socket)
}

/// Every set of lines Koma's engine finds for `job`, and the last.
fn analysed(job: &JobJson) -> (Vec<AnalysisResultJson>, AnalysisResultJson) {
    let mut sets = Vec::new();
    let last = run::analysis_job(job, &SearchControl::new(false), &mut |found| {
        sets.push(found.clone())
    })
    .unwrap();
    (sets, last)
}

/// The next analysis message.
fn next_analysis(socket: &mut Socket) -> Value {
    next_of(socket, &["analysis"])
}

/// The viewer on `asked` sees the lines a worker of `worker` (the same
/// server, or one sharing its queue) finds, as they come and at the end.
fn a_worker_analyses_for_the_board(asked: &Server, worker: &Server) {
    let (id, mut socket) = watched_game(asked);
    send_json(
        &mut socket,
        json!({ "type": "analyse", "ply": 2, "moves": ["2g2f"], "lines": 2 }),
    );
    let waiting = next_analysis(&mut socket);
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    // A worker that does not ask for analyses is not given one.
    let old = call(
        worker,
        "/api/worker/acquire?kinds=review,mate",
        Some(KEY),
        &json!({}),
    );
    assert_eq!(old.status, 204, "{:?}", status_of(&old));
    let job = acquire_all(worker, KEY).expect("the analysis is queued");
    assert_eq!(job.kind, JobKind::Analysis);
    assert_eq!(
        (job.game.as_str(), job.lines, job.seconds),
        (id.as_str(), 2, 1)
    );
    assert_eq!(job.moves, ["7g7f", "3c3d", "2g2f"]);
    let (sets, last) = analysed(&job);
    assert!(sets.len() >= 2, "{sets:?}");
    let first = &sets[0];
    assert_eq!(report(worker, KEY, &job, first), 200);
    let running = next_analysis(&mut socket);
    assert_eq!(running["status"], "running", "{running}");
    assert_eq!(running["engine"], "koma");
    assert_eq!(
        (running["ply"].as_u64(), running["multiPv"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(running["moves"], json!(["2g2f"]));
    assert_eq!(running["depth"], first.depth);
    let lines = running["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{running}");
    for (shown, sent) in lines.iter().zip(&first.lines) {
        let moves = shown["moves"].as_array().unwrap();
        assert_eq!(moves.len(), sent.pv.len());
        assert_eq!(moves[0]["usi"], sent.pv[0].as_str());
        // Written for people, gote to move after 2g2f.
        assert!(
            moves[0]["notation"].as_str().unwrap().starts_with('☖'),
            "{shown}"
        );
    }
    let sent = ResultJson {
        lease: job.lease.clone(),
        positions: Vec::new(),
        mate: None,
        analysis: Some(last.clone()),
    };
    let reply = post_result(worker, KEY, &job, &sent);
    assert_eq!(reply.status, 200, "{:?}", status_of(&reply));
    let done = loop {
        let message = next_analysis(&mut socket);
        if message["status"] == "done" {
            break message;
        }
        assert_eq!(message["status"], "running", "{message}");
    };
    assert_eq!(done["depth"], last.depth);
    assert_eq!(done["nodes"], last.nodes);
    assert_eq!(done["lines"].as_array().unwrap().len(), 2, "{done}");
    assert_eq!(
        done["lines"][0]["moves"][0]["usi"],
        last.lines[0].pv[0].as_str()
    );
    // The result is taken once.
    assert_eq!(post_result(worker, KEY, &job, &sent).status, 409);
}

/// Lines that are not the position's are refused (422), the board waits
/// again, and another worker takes the analysis; the viewer stopping it
/// cancels the job under the worker, whose next report is refused.
fn garbage_is_refused_and_stopping_cancels(server: &Server) {
    let (_, mut socket) = watched_game(server);
    send_json(&mut socket, json!({ "type": "analyse", "lines": 1 }));
    assert_eq!(next_analysis(&mut socket)["status"], "waiting");
    let job = acquire_all(server, KEY).expect("the analysis is queued");
    assert_eq!(job.moves, ["7g7f", "3c3d"]);
    let garbage = AnalysisResultJson {
        depth: 3,
        nodes: 100,
        milliseconds: 1,
        lines: vec![AnalysisLineJson {
            score: ScoreJson::Cp(40),
            // Gote's move, where sente is to move.
            pv: vec!["8c8d".to_owned()],
        }],
    };
    let path = format!("/api/worker/jobs/{}/progress", job.id);
    let body = json!({ "lease": job.lease, "done": 0, "analysis": garbage });
    let reply = call(server, &path, Some(KEY), &body);
    assert_eq!(reply.status, 422, "{:?}", status_of(&reply));
    let error = reply.json()["error"].as_str().unwrap().to_owned();
    assert!(error.contains("not legal"), "{error}");
    // The lease went with the garbage.
    let again = acquire_all(server, OTHER_KEY).expect("queued again");
    assert_eq!(again.id, job.id);
    let (sets, _) = analysed(&again);
    assert_eq!(report(server, KEY, &job, &sets[0]), 409);
    assert_eq!(report(server, OTHER_KEY, &again, &sets[0]), 200);
    let running = next_analysis(&mut socket);
    assert_eq!(running["status"], "running", "{running}");
    assert_eq!(running["lines"].as_array().unwrap().len(), 1);
    send_json(&mut socket, json!({ "type": "stop-analysis" }));
    // The relay's cancel reaches the queue within a moment.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let status = report(server, OTHER_KEY, &again, &sets[0]);
        if status == 409 {
            break;
        }
        assert_eq!(status, 200);
        assert!(std::time::Instant::now() < deadline, "never cancelled");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn workers_analyse_for_the_board_in_memory() {
    let dir = TempDir::new("worker-analyses-memory");
    let server = serve(&dir, "10", &["--memory", "--analysis-seconds", "1"]);
    a_worker_analyses_for_the_board(&server, &server);
    garbage_is_refused_and_stopping_cancels(&server);
}

#[test]
fn a_worker_of_one_server_analyses_for_the_others_viewer_on_postgresql() {
    let db = database();
    let dir = TempDir::new("worker-analyses-postgres");
    let one = serve(&dir, "10", &["--db", &db.url, "--analysis-seconds", "1"]);
    let two = serve(&dir, "10", &["--db", &db.url, "--analysis-seconds", "1"]);
    a_worker_analyses_for_the_board(&one, &two);
    garbage_is_refused_and_stopping_cancels(&one);
}

/// A server with one engine and workers, `seconds` an analysis: a first
/// analysis on its engine, and a second, which finds it busy, waiting.
fn one_engine_busy(dir: &TempDir, seconds: &str) -> (Server, Socket, Socket) {
    let keys = crate::workers::keys(dir);
    let server = crate::common::start_with(&[
        "--memory",
        "--worker-keys",
        &keys,
        "--analysis-engines",
        "1",
        "--analysis-seconds",
        seconds,
    ]);
    let (_, mut first) = watched_game(&server);
    send_json(&mut first, json!({ "type": "analyse", "lines": 1 }));
    let local = next_analysis(&mut first);
    assert_eq!(local["status"], "running", "the server's engine: {local}");
    let (_, mut second) = watched_game(&server);
    send_json(&mut second, json!({ "type": "analyse", "lines": 1 }));
    assert_eq!(next_analysis(&mut second)["status"], "waiting");
    (server, first, second)
}

/// With engines of its own, the server analyses itself while one is free
/// and sends the workers only what would wait.
#[test]
fn only_analyses_that_would_wait_go_to_the_workers() {
    let dir = TempDir::new("worker-analyses-busy");
    let (server, _first, _second) = one_engine_busy(&dir, "20");
    let job = acquire_all(&server, KEY).expect("the second goes to the workers");
    assert_eq!(job.kind, JobKind::Analysis);
}

/// An analysis queued while the server's engine was busy comes back to it
/// once it is free, if no worker has taken it: a server whose workers are
/// away analyses as it did without them.
#[test]
fn a_queued_analysis_no_worker_took_is_done_here_once_an_engine_is_free() {
    let dir = TempDir::new("worker-analyses-back");
    let (server, _first, mut second) = one_engine_busy(&dir, "1");
    let done = loop {
        let message = next_analysis(&mut second);
        assert_ne!(message["status"], "failed", "{message}");
        if message["status"] == "done" {
            break message;
        }
    };
    assert!(done["depth"].as_u64().unwrap() > 0, "{done}");
    // Its job was withdrawn: nothing is left for a worker.
    let nothing = call(
        &server,
        "/api/worker/acquire?kinds=analysis",
        Some(KEY),
        &json!({}),
    );
    assert_eq!(nothing.status, 204, "{:?}", status_of(&nothing));
}
