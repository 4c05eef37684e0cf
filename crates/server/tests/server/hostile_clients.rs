//! `koma serve` against hostile and unlucky clients (issue 53): slow and
//! silent connections time out, one address cannot hold every connection
//! or skip the rate limit by reconnecting, WebSocket protocol errors end
//! in a Close frame with the right code, and bad JSON is named as such.
//! Each test runs its own server in this process, on a free port.

use crate::common::raw::*;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_that_trickle_in_are_cut_off() {
    let server = server(&["--header-timeout", "1"]).await;
    let mut stream = connect(&server).await;
    let started = Instant::now();
    stream.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    // A header line every 300 ms, as slowloris sends them: never the end.
    let mut closed = false;
    for i in 0..20 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if stream
            .write_all(format!("X-Slow-{i}: 1\r\n").as_bytes())
            .await
            .is_err()
        {
            closed = true;
            break;
        }
        if closed_within(&mut stream, Duration::from_millis(1)).await {
            closed = true;
            break;
        }
    }
    assert!(closed, "the connection was still open after 6 s");
    assert!(started.elapsed() < Duration::from_secs(4));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_idle_keep_alive_connections_are_closed() {
    let server = server(&["--header-timeout", "1"]).await;
    // Says nothing at all.
    let mut silent = connect(&server).await;
    // Asks once, then keeps the connection without a word.
    let mut idle = connect(&server).await;
    idle.write_all(&request(&server, "GET", "/api/variants", &[], b""))
        .await
        .unwrap();
    let answer = read_answer(&mut idle, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(answer.status, 200);
    assert!(closed_within(&mut silent, Duration::from_secs(5)).await);
    assert!(closed_within(&mut idle, Duration::from_secs(5)).await);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_never_completes_is_answered_408() {
    let server = server(&["--body-timeout", "1"]).await;
    let mut stream = connect(&server).await;
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"variant\"",
        host(&server)
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = read_answer(&mut stream, Duration::from_secs(5))
        .await
        .expect("an answer within 5 s");
    assert_eq!(answer.status, 408, "{answer:?}");
    assert!(
        answer.body.contains("did not arrive within 1 s"),
        "{answer:?}"
    );
    assert!(answer
        .headers
        .to_ascii_lowercase()
        .contains("connection: close"));
    assert!(closed_within(&mut stream, Duration::from_secs(2)).await);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_where_nothing_moves_is_closed() {
    // A WebSocket whose client never reads nor writes: pings are written
    // into its buffers until they fill, then nothing moves.
    let server = server(&["--idle-timeout", "1", "--ping-interval", "3600"]).await;
    let id = new_game(&server, "spear").await;
    let mut stream = websocket(&server, &id).await;
    assert!(closed_within(&mut stream, Duration::from_secs(5)).await);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_stops_answering_pings_is_closed_1001() {
    let server = server(&["--ping-interval", "1"]).await;
    let id = new_game(&server, "spear").await;
    let mut stream = websocket(&server, &id).await;
    let state = read_frame(&mut stream, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(state.opcode, 1, "the state comes first");
    let ping = read_frame(&mut stream, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(ping.opcode, 9, "then a ping: {ping:?}");
    // Not answered: closed with 1001 about a second later.
    assert_eq!(
        close_code(&mut stream, Duration::from_secs(5)).await,
        Some(1001)
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_answers_pings_stays_open() {
    // A ping after 2 s of silence, and a close if it is unanswered 2 s
    // later: 6 s of answered pings outlast that several times, and a test
    // thread starved for a second by the engines of the tests beside it
    // (one process) is still heard. (The deadline once ran from the last
    // word, so a check that fell a few milliseconds late closed a client
    // that had answered every ping at once.)
    let server = server(&["--ping-interval", "2"]).await;
    let id = new_game(&server, "spear").await;
    let mut stream = websocket(&server, &id).await;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(6) {
        let frame = read_frame(&mut stream, Duration::from_secs(5))
            .await
            .expect("open");
        assert_ne!(frame.opcode, 8, "closed though it answered: {frame:?}");
        if frame.opcode == 9 {
            stream
                .write_all(&frame_bytes(0x8a, &frame.payload))
                .await
                .unwrap();
        }
    }
    server.stop().await.unwrap();
}

fn frame_bytes(first: u8, payload: &[u8]) -> Vec<u8> {
    frame(first, payload, true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_every_connection() {
    let server = server(&["--max-client-connections", "5"]).await;
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(connect(&server).await);
    }
    // The sixth from the same address is told why, and closed.
    let mut sixth = connect(&server).await;
    let answer = read_answer(&mut sixth, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(answer.status, 503, "{answer:?}");
    assert!(answer.body.contains("at most 5"), "{answer:?}");
    // Another address is still served.
    let other = ask(&server, "127.0.0.2", "GET", "/api/variants", &[], b"").await;
    assert_eq!(other.status, 200);
    // One closes, and the first address may connect again.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let again = ask(&server, "127.0.0.1", "GET", "/api/variants", &[], b"").await;
    assert_eq!(again.status, 200);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_wide_cap_holds_below_the_file_limit() {
    let server = server(&["--max-connections", "4"]).await;
    let mut held = Vec::new();
    for source in ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"] {
        held.push(connect_from(&server, source).await);
    }
    let mut fifth = connect_from(&server, "127.0.0.5").await;
    let answer = read_answer(&mut fifth, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(answer.status, 503, "{answer:?}");
    assert!(answer.body.contains("The server is full"), "{answer:?}");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_connection_per_request_does_not_skip_the_rate_limit() {
    let server = server(&["--requests-per-second", "5"]).await;
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses.push(
            ask(&server, "127.0.0.1", "GET", "/api/variants", &[], b"")
                .await
                .status,
        );
    }
    let refused = statuses.iter().filter(|&&s| s == 429).count();
    // A burst of 15, then 5 a second: most of 40 quick requests are refused.
    assert!(refused >= 15, "{statuses:?}");
    assert!(statuses[..15].iter().all(|&s| s == 200), "{statuses:?}");
    // Another client is not slowed by the first.
    let other = ask(&server, "127.0.0.2", "GET", "/api/variants", &[], b"").await;
    assert_eq!(other.status, 200);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
    for trusted in [false, true] {
        let mut flags = vec!["--requests-per-second", "1"];
        if trusted {
            flags.push("--trust-proxy");
        }
        let server = server(&flags).await;
        let mut refused = 0;
        for i in 0..12 {
            let forwarded = format!("X-Forwarded-For: 198.51.100.{i}");
            let answer = ask(
                &server,
                "127.0.0.1",
                "GET",
                "/api/variants",
                &[&forwarded],
                b"",
            )
            .await;
            refused += usize::from(answer.status == 429);
        }
        if trusted {
            assert_eq!(refused, 0, "each forwarded address has its own bucket");
        } else {
            assert!(refused >= 8, "the header is ignored: {refused} refused");
        }
        server.stop().await.unwrap();
    }
}

/// Sends `bytes` on a fresh WebSocket to a new game: the Close code the
/// server answers with.
async fn close_code_for(bytes: &[u8]) -> Option<u16> {
    let server = server(&[]).await;
    let id = new_game(&server, "spear").await;
    let mut stream = websocket(&server, &id).await;
    let state = read_frame(&mut stream, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(state.opcode, 1);
    // A large frame may be cut off by the close: its write may fail.
    let _ = stream.write_all(bytes).await;
    let code = close_code(&mut stream, Duration::from_secs(5)).await;
    server.stop().await.unwrap();
    code
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_protocol_errors_end_in_a_close_frame_with_their_code() {
    // A message over 1 MiB: 1009.
    let big = vec![b'x'; (1 << 20) + 10];
    assert_eq!(close_code_for(&frame(0x81, &big, true)).await, Some(1009));
    // Text that is not UTF-8: 1007.
    assert_eq!(
        close_code_for(&frame(0x81, b"\xff\xfe", true)).await,
        Some(1007)
    );
    // An unmasked client frame: 1002.
    assert_eq!(close_code_for(&frame(0x81, b"{}", false)).await, Some(1002));
    // A reserved opcode: 1002.
    assert_eq!(close_code_for(&frame(0x83, b"", true)).await, Some(1002));
    // A control frame over 125 bytes: 1002.
    assert_eq!(
        close_code_for(&frame(0x89, &[0u8; 200], true)).await,
        Some(1002)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_must_be_utf8_even_in_ignored_fields() {
    let server = server(&[]).await;
    let cases: [(&[u8], &str); 2] = [
        // Bytes that are not UTF-8, in a field nobody reads.
        (
            b"{\"variant\":\"shogi\",\"junk\":\"\xff\xfe\"}",
            "not UTF-8",
        ),
        // A field of the wrong type is named.
        (b"{\"variant\": 5}", "\\\"variant\\\""),
    ];
    for (body, said) in cases {
        let answer = ask(
            &server,
            "127.0.0.1",
            "POST",
            "/api/games",
            &["Content-Type: application/json"],
            body,
        )
        .await;
        assert_eq!(answer.status, 400, "{answer:?}");
        assert!(answer.body.contains(said), "{said}: {answer:?}");
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_message_is_answered_by_naming_its_field() {
    let server = server(&[]).await;
    let id = new_game(&server, "spear").await;
    let mut stream = websocket(&server, &id).await;
    read_frame(&mut stream, Duration::from_secs(5))
        .await
        .unwrap();
    for message in [
        r#"{"type": "analyse", "ply": -1}"#,
        r#"{"type": "analyse", "ply": "2"}"#,
        r#"{"type": "move", "ply": 0}"#,
    ] {
        stream
            .write_all(&frame(0x81, message.as_bytes(), true))
            .await
            .unwrap();
        let reply = read_frame(&mut stream, Duration::from_secs(5))
            .await
            .unwrap();
        let reply: serde_json::Value = serde_json::from_slice(&reply.payload).unwrap();
        assert_eq!(reply["type"], "error", "{message}: {reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(!error.contains("unknown variant"), "{message}: {error}");
        if message.contains("analyse") {
            assert!(error.contains("\"ply\""), "{message}: {error}");
            assert!(error.contains("whole number from 0"), "{message}: {error}");
        } else {
            assert!(error.contains("move"), "{message}: {error}");
        }
    }
    server.stop().await.unwrap();
}
