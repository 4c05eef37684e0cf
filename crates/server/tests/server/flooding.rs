//! A client that floods the server slows only itself: over HTTP it is
//! refused `429` past its burst and served again after a pause, over its
//! WebSocket told "Too many messages" while the socket stays open. The
//! requests go through the server's port, on one kept-alive connection,
//! as a real client's would: the limit is by peer.

use crate::common::{receive, send, start_with, token, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A new game from `request`; its `201` answer.
fn create(server: &Server, request: Value) -> Value {
    server.create_with(&request)
}

fn id_of(state: &Value) -> String {
    state["id"].as_str().unwrap().to_owned()
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
    // The default limit, which the other tests raise.
    let server = start_with(&["--memory", "--requests-per-second", "20"]);
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
