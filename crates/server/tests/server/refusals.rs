//! What the API refuses, and how: stale, forged and malformed requests
//! harm nothing; the page carries its security headers; other names for
//! this machine (DNS rebinding) and other sites' pages are turned away,
//! by a running server and by its router alone.

use crate::common::{start, token};
use serde_json::json;

#[test]
fn stale_forged_and_malformed_requests_are_refused_and_harm_nothing() {
    let server = start();
    let state = server.create("shogi");
    let id = state["id"].as_str().unwrap().to_owned();
    let moves = format!("/api/games/{id}/moves");
    server.play(&id, 0, &["7g7f", "3c3d"]);
    let before = server.get(&format!("/api/games/{id}")).json();

    // A stale page: 409 with the state as it is.
    let reply = server.post(&moves, &json!({ "move": "2g2f", "ply": 0 }));
    assert_eq!(reply.status, 409);
    let body = reply.json();
    assert!(
        body["error"].as_str().unwrap().contains("out of date"),
        "{body}"
    );
    assert_eq!(body["state"]["ply"], 2);

    // Illegal, forged and malformed moves: 422 with the state.
    for (m, says) in [
        ("7f7d", "cannot be played"),
        ("3d3e", "cannot be played"),
        ("G*5e", "cannot be played"),
        ("9z9y", "not a move"),
        ("hello", "not a move"),
        ("", "not a move"),
        ("P*5e+", "not a move"),
    ] {
        let reply = server.post(&moves, &json!({ "move": m, "ply": 2 }));
        assert_eq!(reply.status, 422, "{m}");
        let body = reply.json();
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{m}: {body}"
        );
        assert_eq!(body["state"]["ply"], 2, "{m}");
    }
    let long = "7".repeat(10_000);
    let reply = server.post(&moves, &json!({ "move": long, "ply": 2 }));
    assert_eq!(reply.status, 422);
    assert!(reply.body.len() < 8_000, "the long move is not echoed back");

    // Not JSON, the wrong JSON, the wrong type, numbers out of range.
    for (body, status) in [
        ("{\"move\": \"2g2f\", \"ply\": ", 400),
        ("[1, 2, 3]", 400),
        ("{\"move\": 7, \"ply\": 2}", 400),
        ("{\"move\": \"2g2f\"}", 400),
        ("{\"move\": \"2g2f\", \"ply\": -1}", 400),
        ("{\"move\": \"2g2f\", \"ply\": 2.5}", 400),
        ("{\"move\": \"2g2f\", \"ply\": 1e999}", 400),
        (
            "{\"move\": \"2g2f\", \"ply\": 99999999999999999999999}",
            400,
        ),
        (
            "{\"move\": \"2g2f\", \"ply\": 18446744073709551615, \"token\": \"SENTE\"}",
            409,
        ),
        ("\u{0}\u{1}\u{2}", 400),
    ] {
        let body = body.replace("SENTE", &token(&id, "sente").unwrap());
        let reply = server.request("POST", &moves, Some("application/json"), body.as_bytes());
        assert_eq!(reply.status, status, "{body}");
        assert!(reply.json()["error"].is_string(), "{body}");
    }
    let reply = server.request(
        "POST",
        &moves,
        Some("text/plain"),
        b"{\"move\":\"2g2f\",\"ply\":2}",
    );
    assert_eq!(reply.status, 415);
    let reply = server.request(
        "POST",
        &moves,
        Some("application/json"),
        &[0xff, 0xfe, 0x00],
    );
    assert_eq!(reply.status, 400);

    // Oversized bodies.
    let big = format!(
        "{{\"move\": \"2g2f\", \"ply\": 2, \"x\": \"{}\"}}",
        "a".repeat(100_000)
    );
    let reply = server.request("POST", &moves, Some("application/json"), big.as_bytes());
    assert_eq!(reply.status, 413);
    assert!(reply.json()["error"]
        .as_str()
        .unwrap()
        .contains("too large"));

    // Unknown games, paths and methods.
    let reply = server.get("/api/games/0123456789abcdef");
    assert_eq!(reply.status, 404);
    assert!(reply.json()["error"].as_str().unwrap().contains("No game"));
    assert_eq!(server.get("/api/games/not-an-id").status, 404);
    assert_eq!(server.get("/api/games/..%2F..%2Fetc").status, 404);
    assert_eq!(server.get("/api/nothing").status, 404);
    assert_eq!(server.get(&moves).status, 405);
    let reply = server.post(
        "/api/games/0123456789abcdef/moves",
        &json!({"move": "7g7f", "ply": 0}),
    );
    assert_eq!(reply.status, 404);

    // New games that cannot be.
    for (body, says) in [
        (json!({ "variant": "chess" }), "unknown game"),
        (
            json!({ "variant": "shogi", "position": "not a position" }),
            "not a Shogi position",
        ),
        (
            json!({ "variant": "pawns", "position": "rbsgk/4p/5/P4/KGSBR b - 1" }),
            "position",
        ),
        (
            json!({ "variant": "spear", "opponent": { "kind": "computer", "level": 1e300 } }),
            "level",
        ),
        (
            json!({ "variant": "spear", "opponent": { "kind": "robot" } }),
            "opponent",
        ),
        (
            json!({ "variant": "shogi", "opponent": { "kind": "computer", "level": "perfect" } }),
            "Pawns-Only Chess only",
        ),
        (
            json!({ "variant": "pawns", "opponent": { "kind": "computer", "level": "perfectly" } }),
            "level",
        ),
    ] {
        let reply = server.post("/api/games", &body);
        assert_eq!(reply.status, 422, "{body}");
        let error = reply.json()["error"].as_str().unwrap().to_lowercase();
        assert!(error.contains(&says.to_lowercase()), "{body}: {error}");
    }
    assert_eq!(
        server
            .post("/api/games", &json!({ "game": "spear" }))
            .status,
        400
    );

    // After all that, the game is as it was and still plays.
    let after = server.get(&format!("/api/games/{id}")).json();
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["version"], before["version"]);
    server.play(&id, 2, &["2g2f"]);
}

#[test]
fn the_page_and_its_security_headers() {
    let server = start();
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    assert_eq!(server.get("/../Cargo.toml").status, 404);
    // Another name for this machine (DNS rebinding) or another site's page.
    let port = server.address.rsplit_once(':').unwrap().1;
    let rebound = server.request_with(
        "GET",
        "/api/variants",
        &[("Host", &format!("evil.example:{port}"))],
        b"",
    );
    assert_eq!(rebound.status, 421);
    let localhost = server.request_with("GET", "/", &[("Host", &format!("localhost:{port}"))], b"");
    assert_eq!(localhost.status, 200);
    let foreign = server.request_with(
        "POST",
        "/api/games",
        &[
            ("Origin", "http://evil.example"),
            ("Content-Type", "application/json"),
        ],
        br#"{"variant": "spear"}"#,
    );
    assert_eq!(foreign.status, 403);
    let own = server.request_with(
        "POST",
        "/api/games",
        &[
            ("Origin", &format!("http://{}", server.address)),
            ("Content-Type", "application/json"),
        ],
        br#"{"variant": "spear"}"#,
    );
    assert_eq!(own.status, 201);
    assert_eq!(server.get("/missing-file.js").status, 404);
    let variants = server.get("/api/variants").json();
    let names: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["spear", "minishogi", "shogi", "pawns"]);
    assert_eq!(variants[0]["promotion"], "compulsory");
    assert_eq!(variants[3]["colors"], json!(["white", "black"]));
}

/// The router alone, with no listener and no port (`koma_server::router`,
/// as axum's examples/testing drives one): it answers to the names of the
/// port `--port` gives, and only to them.
#[tokio::test]
async fn the_router_alone_answers_to_its_own_names_only() {
    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::{Request, StatusCode};
    use std::net::SocketAddr;
    use tower::ServiceExt;

    let args = koma_server::ServeArgs::from_flags(["--memory", "--port", "8123"]).unwrap();
    let router = koma_server::router(args).await.unwrap();
    let ask = |host: &str| {
        let mut request = Request::get("/api/variants")
            .header("Host", host)
            .body(Body::empty())
            .unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 50_000))));
        router.clone().oneshot(request)
    };
    let own = ask("127.0.0.1:8123").await.unwrap();
    assert_eq!(own.status(), StatusCode::OK);
    let body = axum::body::to_bytes(own.into_body(), 1 << 20)
        .await
        .unwrap();
    let variants: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(variants[0]["name"], "spear");
    assert_eq!(
        ask("localhost:8123").await.unwrap().status(),
        StatusCode::OK
    );
    let other_port = ask("127.0.0.1:8080").await.unwrap();
    assert_eq!(other_port.status(), StatusCode::MISDIRECTED_REQUEST);
}
