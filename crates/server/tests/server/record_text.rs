//! The text of records (issue 53): names and comments with control
//! characters, bidi overrides, line breaks and emoji are kept escaped,
//! every download writes them clean and reads back the same, and the
//! download without a format always works.

use crate::common::{start, Reply, Server};
use serde_json::{json, Value};

/// The comment of the issue: NUL, an ESC colour code, a right-to-left
/// override and a carriage return.
const NASTY: &str = "a\0b \u{1b}[31mred\u{1b}[0m \u{202e}txet\rnext";

/// What the server keeps of it.
const NASTY_KEPT: &str = "a<U+0000>b <U+001B>[31mred<U+001B>[0m <U+202E>txet\nnext";

/// Fails naming the first raw control or bidi character of a download
/// (a CR only as part of a CRLF line end).
fn assert_clean(body: &[u8], what: &str) {
    let text = koma_text(body);
    let bare = text.replace("\r\n", "\n");
    let hidden = bare.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    });
    assert_eq!(hidden, None, "{what} holds a raw {hidden:?}:\n{text}");
}

/// A download's text: UTF-8, or Shift_JIS as `.kif` files are.
fn koma_text(body: &[u8]) -> String {
    koma_records::decode(body).expect("UTF-8 or Shift_JIS text")
}

fn download(server: &Server, id: &str, format: Option<&str>) -> Reply {
    let query = format.map_or(String::new(), |f| format!("?format={f}"));
    server.get(&format!("/api/games/{id}/record{query}"))
}

/// The file name a download offers.
fn filename(reply: &Reply) -> String {
    let disposition = reply.header("content-disposition").unwrap_or_default();
    let start = disposition.find("filename=\"").expect("a file name") + 10;
    disposition[start..].trim_end_matches('"').to_owned()
}

/// Opens a downloaded file as a new game; its state.
fn reimport(server: &Server, name: &str, body: &[u8]) -> Value {
    server.import(name, body)
}

/// Comments as one text, line by line: a comment's lines read back as
/// comments of their own.
fn lines(comments: &Value) -> Value {
    match comments.as_array() {
        None => Value::Null,
        Some(list) => {
            let texts: Vec<&str> = list.iter().map(|c| c.as_str().unwrap()).collect();
            json!(texts.join("\n"))
        }
    }
}

/// A game's names and comments, to compare games.
fn text_of(state: &Value) -> Value {
    json!({
        "sente": state["headers"]["sente"],
        "gote": state["headers"]["gote"],
        "comments": lines(&state["comments"]),
        "first": lines(&state["moves"][0]["comments"]),
        "second": lines(&state["moves"][1]["comments"]),
    })
}

#[test]
fn names_and_comments_are_kept_escaped_and_written_clean_in_every_format() {
    let server = start();

    // Created with such names: kept escaped, one line.
    let created = server.create_with(&json!({
        "variant": "shogi",
        "headers": {
            "sente": "Ann 😀",
            "gote": " Bob\u{202e}boB\r\n Jr ",
            "event": "Cup\u{0}",
            "other": [["備考\u{1b}", "x\ry"]],
        },
    }));
    assert_eq!(created["headers"]["sente"], "Ann 😀");
    assert_eq!(created["headers"]["gote"], "Bob<U+202E>boB Jr");
    assert_eq!(created["headers"]["event"], "Cup<U+0000>");
    assert_eq!(
        created["headers"]["other"],
        json!([["備考<U+001B>", "x y"]])
    );
    let id = created["id"].as_str().unwrap();
    server.play(id, 0, &["7g7f", "3c3d"]);

    // Imported with such a comment: the same.
    let csa = format!(
        "V2.2\nN+Ann 😀\nN-Bob\u{202e}boB\n'before\u{1b}[0m\nPI\n+\n+7776FU\n'{NASTY}\n-3334FU\n%TORYO\n"
    );
    let imported = server.import("game.csa", csa.as_bytes());
    assert_eq!(imported["headers"]["sente"], "Ann 😀");
    assert_eq!(imported["headers"]["gote"], "Bob<U+202E>boB");
    assert_eq!(imported["comments"], json!(["before<U+001B>[0m"]));
    assert_eq!(imported["moves"][0]["comments"], json!([NASTY_KEPT]));

    for game in [&created, &imported] {
        let id = game["id"].as_str().unwrap();
        let state = server.get(&format!("/api/games/{id}")).json();

        // The default download falls back to UTF-8 KIF, and says so.
        let default = download(&server, id, None);
        assert_eq!(default.status, 200, "{}", koma_text(&default.body));
        assert_eq!(filename(&default), format!("koma-shogi-{id}.kifu"));
        assert_eq!(
            default.header("content-type"),
            Some("text/plain; charset=utf-8")
        );
        let text = koma_text(&default.body);
        assert!(text.contains("\n先手：Ann 😀\n"), "{text}");
        assert_clean(&default.body, "the default download");
        assert_eq!(default.body, download(&server, id, Some("kifu")).body);

        // Asked for Shift_JIS by name: refused, saying what and where.
        let kif = download(&server, id, Some("kif"));
        assert_eq!(kif.status, 422);
        let error = kif.json()["error"].as_str().unwrap().to_owned();
        assert!(
            error.contains("😀") && error.contains("sente's name") && error.contains("kifu"),
            "{error}"
        );

        for (format, extension) in [("kifu", "kifu"), ("csa", "csa"), ("usi", "usi")] {
            let reply = download(&server, id, Some(format));
            assert_eq!(reply.status, 200, "{format}");
            assert_clean(&reply.body, format);
            if format == "usi" {
                continue;
            }
            // What was written opens as the same text.
            let again = reimport(&server, &format!("again.{extension}"), &reply.body);
            assert_eq!(text_of(&again), text_of(&state), "{format}");
        }
    }
    let text = koma_text(&download(&server, imported["id"].as_str().unwrap(), None).body);
    assert!(
        text.contains("\n   1 ７六歩(77)\n*a<U+0000>b <U+001B>[31mred<U+001B>[0m <U+202E>txet\n*next\n   2 ３四歩(33)\n"),
        "{text}"
    );
    let csa = download(&server, imported["id"].as_str().unwrap(), Some("csa"));
    let text = koma_text(&csa.body);
    assert!(
        text.contains(
            "\n+7776FU\n'a<U+0000>b <U+001B>[31mred<U+001B>[0m <U+202E>txet\n'next\n-3334FU\n"
        ),
        "{text}"
    );

    // Names Shift_JIS holds: the default download is still the .kif.
    let plain = server.create_with(&json!({ "variant": "shogi", "headers": { "sente": "羽生" } }));
    let reply = download(&server, plain["id"].as_str().unwrap(), None);
    assert_eq!(reply.status, 200);
    assert!(filename(&reply).ends_with(".kif"), "{}", filename(&reply));
    assert_eq!(
        reply.header("content-type"),
        Some("text/plain; charset=Shift_JIS")
    );
}

#[test]
fn the_download_without_a_format_works_in_every_game() {
    let server = start();
    for variant in ["spear", "minishogi", "shogi", "pawns"] {
        let game = server.create_with(&json!({
            "variant": variant,
            "headers": { "sente": "Ann 😀", "gote": "\u{2066}Bob\u{2069}" },
        }));
        let id = game["id"].as_str().unwrap();
        let reply = download(&server, id, None);
        assert_eq!(reply.status, 200, "{variant}: {}", koma_text(&reply.body));
        assert_clean(&reply.body, variant);
        let extension = if variant == "pawns" { "pgn" } else { "kifu" };
        assert_eq!(filename(&reply), format!("koma-{variant}-{id}.{extension}"));
        let again = reimport(&server, &filename(&reply), &reply.body);
        assert_eq!(again["headers"]["sente"], "Ann 😀", "{variant}");
        assert_eq!(again["headers"]["gote"], "<U+2066>Bob<U+2069>", "{variant}");
    }
    // PGN keeps a comment's lines as comments of their own.
    let pgn = "[White \"Ann 😀\"]\n\n1. e4 {a\u{1b}b} d5 *\n";
    let game = server.import("game.pgn", pgn.as_bytes());
    assert_eq!(game["moves"][0]["comments"], json!(["a<U+001B>b"]));
    let reply = download(&server, game["id"].as_str().unwrap(), None);
    assert!(koma_text(&reply.body).contains("1. e4 {a<U+001B>b} 1... d5 *"));
}
