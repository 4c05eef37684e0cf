//! `koma load` against the real `koma serve`: a short run plays moves
//! without an error and reports ordered latencies; the move cap stops a
//! run; and an address that is not this machine's is refused before any
//! connection.

mod common;
#[path = "common/serve_client.rs"]
#[allow(dead_code)]
mod serve_client;

use common::koma;
use serde_json::Value;
use std::time::{Duration, Instant};

/// `koma load ARGS --json` against `server`: its report.
fn load(server: &serve_client::Server, args: &[&str]) -> Value {
    let url = format!("http://{}/", server.address);
    let mut all = vec!["load", "--url", url.as_str(), "--json"];
    all.extend_from_slice(args);
    let out = koma(&all, b"");
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn a_short_load_plays_without_errors() {
    let server = serve_client::start();
    let report = load(&server, &["--games", "4", "--duration", "3"]);
    assert!(report["moves"].as_u64().unwrap() > 0, "{report}");
    assert!(report["movesPerSecond"].as_f64().unwrap() > 0.0, "{report}");
    assert!(report["gamesPerSecond"].as_f64().is_some(), "{report}");
    assert_eq!(report["errors"]["total"], 0, "{report}");
    assert_eq!(report["concurrentGames"], 4);
    assert_eq!(report["stoppedBy"], "duration");
    let seconds = report["durationSeconds"].as_f64().unwrap();
    assert!((2.9..4.0).contains(&seconds), "{report}");
    for side in ["mover", "opponent"] {
        let latency = &report["latencyMs"][side];
        assert!(latency["count"].as_u64().unwrap() > 0, "{side}: {report}");
        let figures: Vec<f64> = ["median", "p90", "p99", "max"]
            .iter()
            .map(|key| {
                latency[key]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{side} {key}"))
            })
            .collect();
        assert!(figures[0] > 0.0, "{side}: {report}");
        assert!(
            figures.windows(2).all(|pair| pair[0] <= pair[1]),
            "{side}: {report}"
        );
    }
}

#[test]
fn the_move_cap_stops_the_run() {
    let server = serve_client::start();
    let start = Instant::now();
    let report = load(
        &server,
        &["--games", "3", "--duration", "60", "--max-moves", "40"],
    );
    assert!(start.elapsed() < Duration::from_secs(30), "{report}");
    assert_eq!(report["moves"], 40, "{report}");
    assert_eq!(report["stoppedBy"], "moves", "{report}");
    assert_eq!(report["errors"]["total"], 0, "{report}");
}

#[test]
fn other_machines_are_refused_without_connecting() {
    // 192.0.2.1 is TEST-NET-1, which nothing answers: trying to connect
    // would take the tool's 10 s timeout, so a quick refusal shows that no
    // connection was tried.
    for url in [
        "http://192.0.2.1:80/",
        "http://example.com:8080/",
        "http://[2001:db8::1]:80/",
    ] {
        let start = Instant::now();
        let out = koma(&["load", "--url", url, "--duration", "1"], b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {stderr}");
        assert!(stderr.contains("not a loopback address"), "{url}: {stderr}");
        assert!(out.stdout.is_empty(), "{url}");
        assert!(start.elapsed() < Duration::from_secs(5), "{url}");
    }
}

#[test]
fn a_port_without_a_server_is_one_sentence() {
    // Bind, learn the port and close: nothing listens there now.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/");
    let out = koma(&["load", "--url", url.as_str(), "--duration", "1"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("failed"), "{stderr}");
    assert!(out.stdout.is_empty());
}
