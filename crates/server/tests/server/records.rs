//! Records in and out of the API: every real record of `testdata/` is
//! imported and saved back in its format, records come as JSON too, and
//! the formats that do not fit a game are refused.

use crate::common::files::{real_record, real_record_names, usi_of};
use crate::common::{start, usi_list};
use serde_json::{json, Value};

#[test]
fn every_real_record_is_imported_and_saved_back() {
    let server = start();
    let names = real_record_names();
    assert!(names.len() >= 19, "{names:?}");
    for name in &names {
        let path = real_record(name);
        let bytes = std::fs::read(&path).unwrap();
        eprintln!("{name}");
        let state = server.import(name, &bytes);
        let id = state["id"].as_str().unwrap();
        // The USI line agrees with `koma convert`'s.
        let expected = usi_of(&path);
        let usi = server.get(&format!("/api/games/{id}/record?format=usi"));
        assert_eq!(usi.status, 200, "{name}");
        let usi_text = String::from_utf8(usi.body.clone()).unwrap();
        assert_eq!(usi_text.trim_end(), expected, "{name}");
        let listed = usi_list(&state);
        let line_moves: Vec<&str> = expected
            .split_once(" moves ")
            .map_or(vec![], |(_, m)| m.split(' ').collect());
        assert_eq!(listed, line_moves, "{name}");
        // Saved in its own format (KI2 is read only: KIFU) and read back.
        let extension = name.rsplit_once('.').unwrap().1;
        let format = if extension == "ki2" {
            "kifu"
        } else {
            extension
        };
        let saved = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(
            saved.status,
            200,
            "{name}: {}",
            String::from_utf8_lossy(&saved.body)
        );
        let disposition = saved.header("content-disposition").unwrap();
        assert!(
            disposition.starts_with("attachment; filename=\"koma-shogi-")
                && disposition.ends_with(&format!(".{format}\"")),
            "{disposition}"
        );
        let back = server.request(
            "POST",
            &format!("/api/games/import?format={format}"),
            Some("application/octet-stream"),
            &saved.body,
        );
        assert_eq!(
            back.status,
            201,
            "{name} back: {}",
            String::from_utf8_lossy(&back.body)
        );
        let back = back.json();
        assert_eq!(usi_list(&back), listed, "{name} through {format}");
        assert_eq!(back["outcome"], state["outcome"], "{name} through {format}");
        // The record's comments and times come back too.
        assert_eq!(
            back["comments"], state["comments"],
            "{name} through {format}"
        );
        let notes = |state: &Value| -> Vec<(Value, Value)> {
            state["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| (m["comments"].clone(), m["milliseconds"].clone()))
                .collect()
        };
        assert_eq!(notes(&back), notes(&state), "{name} through {format}");
    }
}

#[test]
fn records_in_json_and_formats_that_do_not_fit() {
    let server = start();
    let cases = [
        (
            json!({ "text": "position startpos moves 5d5c 1b1c", "variant": "spear" }),
            "spear",
        ),
        (
            json!({ "text": "position startpos moves 7g7f 3c3d\n" }),
            "shogi",
        ),
        (
            json!({ "text": "[Event \"x\"]\n\n1. e4 d5 2. exd5 *\n", "format": "pgn" }),
            "pawns",
        ),
        (
            json!({ "text": "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c" }),
            "minishogi",
        ),
    ];
    for (body, variant) in cases {
        let reply = server.post("/api/games/import", &body);
        assert_eq!(
            reply.status,
            201,
            "{body}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        assert_eq!(reply.json()["variant"], variant);
    }
    let pawns = server.post(
        "/api/games/import",
        &json!({ "text": "[White \"Ann\"]\n[Black \"Ben\"]\n\n1. e4 d5 2. exd5 1-0\n" }),
    );
    let state = pawns.json();
    assert_eq!(state["headers"]["sente"], "Ann");
    let id = state["id"].as_str().unwrap();
    let pgn = server.get(&format!("/api/games/{id}/record?format=pgn"));
    assert_eq!(pgn.status, 200);
    let text = String::from_utf8(pgn.body).unwrap();
    assert!(text.contains("1. e4 d5 2. exd5"), "{text}");
    for format in ["kif", "kifu", "csa", "ki2", "docx"] {
        let reply = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(reply.status, 422, "{format}");
        assert!(
            reply.json()["error"]
                .as_str()
                .unwrap()
                .contains("pgn or usi"),
            "{format}"
        );
    }
    let spear = server.create("spear");
    let id = spear["id"].as_str().unwrap();
    for (format, status) in [
        ("kif", 200),
        ("kifu", 200),
        ("usi", 200),
        ("csa", 422),
        ("pgn", 422),
    ] {
        let reply = server.get(&format!("/api/games/{id}/record?format={format}"));
        assert_eq!(reply.status, status, "{format}");
    }
    let kif = server.get(&format!("/api/games/{id}/record?format=kif"));
    assert_eq!(
        kif.header("content-type"),
        Some("text/plain; charset=Shift_JIS")
    );

    // Records that cannot be read say where.
    let reply = server.post(
        "/api/games/import",
        &json!({ "text": "position startpos moves 7g7f 7g7f" }),
    );
    assert_eq!(reply.status, 422);
    let error = reply.json()["error"].as_str().unwrap().to_owned();
    assert!(error.contains("7g7f"), "{error}");
    let reply = server.post(
        "/api/games/import",
        &json!({ "text": "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ９九玉(51)\n" }),
    );
    assert_eq!(reply.status, 422);
    let error = reply.json()["error"].as_str().unwrap().to_owned();
    assert!(
        error.contains("line") || error.contains("move 2"),
        "{error}"
    );
    // White space is no record, whatever the format asked.
    for body in [
        json!({ "text": "" }),
        json!({ "text": " \n\u{3000}\n", "format": "kif" }),
        json!({ "text": "\n", "format": "csa" }),
    ] {
        let reply = server.post("/api/games/import", &body);
        assert_eq!(reply.status, 422, "{body}");
        assert_eq!(reply.json()["error"], "The record is empty.", "{body}");
    }
    for body in [
        json!({ "text": "garbage" }),
        json!({ "text": "x", "format": "doc" }),
    ] {
        let reply = server.post("/api/games/import", &body);
        assert_eq!(reply.status, 422, "{body}");
    }
    // Beyond 4 MiB: 413.
    let huge = vec![b' '; 5 << 20];
    let reply = server.request("POST", "/api/games/import", Some("text/plain"), &huge);
    assert_eq!(reply.status, 413);
}
