//! Damaged games files are refused, never served (issue 53): `koma serve`
//! will not start on an empty file, one without Koma's tables or one that
//! fails SQLite's integrity check; a game whose row was changed on the
//! disk answers 500 naming it while the others are served; `koma check`
//! lists exactly the damaged games; and random bytes written into the
//! games' pages never make the server answer an altered game as intact.

use crate::serve_client::{start_with, Server, TempDir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `koma serve` on `db`: the server, or its exit code and standard error
/// when it refused the file.
fn try_serve(db: &Path) -> Result<Server, (Option<i32>, String)> {
    let log = db.with_extension("log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let Some(address) = line
        .trim()
        .strip_prefix("Koma is serving http://")
        .and_then(|rest| rest.strip_suffix('/'))
    else {
        let status = child.wait().unwrap();
        assert_eq!(line, "", "nothing is served");
        return Err((status.code(), std::fs::read_to_string(&log).unwrap()));
    };
    let mut kept = String::new();
    stdout.read_line(&mut kept).unwrap();
    Ok(Server {
        address: address.to_owned(),
        child,
        kept: kept.trim().to_owned(),
        stdout,
    })
}

/// `koma serve` on `db`, which must refuse it with a sentence that names
/// the file and says `why`.
fn assert_refused(db: &Path, why: &str) {
    let before = std::fs::read(db).unwrap();
    let Err((code, stderr)) = try_serve(db) else {
        panic!("koma serve accepted {}", db.display());
    };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("koma: {}", db.display())),
        "{stderr}"
    );
    assert!(stderr.contains(why), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(std::fs::read(db).unwrap(), before, "the file is left alone");
}

/// Stops `server` as Ctrl-C would, so that everything it wrote is in the
/// file itself rather than in its write-ahead log.
fn stop(mut server: Server) {
    Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    server.child.wait().unwrap();
}

/// A games file at `db` holding games of every kind (a few moves each,
/// the first player named `NAME-<variant>`); their ids.
fn games_file(db: &Path) -> Vec<String> {
    let server = start_with(&["--db", db.to_str().unwrap()]);
    let mut ids = Vec::new();
    for (variant, moves) in [
        ("spear", &["5d5c", "1b1c"][..]),
        ("minishogi", &["5d5c", "1b1c", "5c5b"][..]),
        ("shogi", &["7g7f", "3c3d", "8h2b+"][..]),
        ("pawns", &["e2e4", "d7d5"][..]),
    ] {
        let state = server.create_with(&json!({
            "variant": variant,
            "headers": { "sente": format!("NAME-{variant}"), "gote": "Bob",
                         "event": "a long event name ".repeat(20) }
        }));
        let id = state["id"].as_str().unwrap().to_owned();
        server.play(&id, 0, moves);
        ids.push(id);
    }
    stop(server);
    ids
}

/// `koma check --db db`.
fn check(db: &Path) -> Output {
    crate::common::koma(&["check", "--db", db.to_str().unwrap()], b"")
}

#[test]
fn an_empty_file_is_refused_at_start_and_a_missing_one_made() {
    let dir = TempDir::new("empty");
    let db = dir.db();
    std::fs::write(&db, b"").unwrap();
    assert_refused(&db, "is empty (0 bytes)");
    std::fs::remove_file(&db).unwrap();
    let server = try_serve(&db).expect("a missing file is made");
    assert_eq!(server.kept, format!("Games are kept in {}", db.display()));
}

#[test]
fn a_file_without_komas_tables_is_refused_at_start() {
    let dir = TempDir::new("tables");
    let db = dir.db();
    games_file(&db);
    let pristine = std::fs::read(&db).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("DROP TABLE games")
        .unwrap();
    assert_refused(
        &db,
        "does not hold Koma's tables of schema 9: it has no table games",
    );

    std::fs::write(&db, &pristine).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(
            "ALTER TABLE games RENAME TO old_games;
             CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, board BLOB) STRICT;",
        )
        .unwrap();
    assert_refused(&db, "it has a table old_games that is not Koma's");

    std::fs::write(&db, &pristine).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("ALTER TABLE games DROP COLUMN notes")
        .unwrap();
    assert_refused(&db, "its table games has no column notes");
}

#[test]
fn a_file_that_fails_the_integrity_check_is_refused_at_start() {
    let dir = TempDir::new("integrity");
    let db = dir.db();
    let ids = games_file(&db);
    // A byte of the games' index changed: the table and its index no
    // longer agree.
    let (page, size): (i64, i64) = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT pageno, pgsize FROM dbstat WHERE name = 'sqlite_autoindex_games_1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut bytes = std::fs::read(&db).unwrap();
    let start = ((page - 1) * size) as usize;
    let index = &mut bytes[start..start + size as usize];
    let at = index
        .windows(16)
        .position(|w| w == ids[0].as_bytes())
        .unwrap();
    index[at] = if index[at] == b'0' { b'1' } else { b'0' };
    std::fs::write(&db, &bytes).unwrap();
    assert_refused(&db, "is damaged: SQLite's integrity check says");
    let out = check(&db);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("SQLite's integrity check: "), "{stdout}");
}

#[test]
fn a_changed_row_answers_500_naming_the_game_and_check_lists_it() {
    let dir = TempDir::new("row");
    let db = dir.db();
    let ids = games_file(&db);
    let out = check(&db);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stdout,
        format!("{}: whole: 4 games, 0 damaged; schema 9\n", db.display())
    );

    // The shogi game's first player, changed on the disk: SQLite's
    // structure is untouched.
    let mut bytes = std::fs::read(&db).unwrap();
    let at = bytes.windows(10).position(|w| w == b"NAME-shogi").unwrap();
    bytes[at..at + 4].copy_from_slice(b"GAME");
    std::fs::write(&db, &bytes).unwrap();

    let server = try_serve(&db).expect("the file itself is whole");
    let damaged = &ids[2];
    let reply = server.get(&format!("/api/games/{damaged}"));
    assert_eq!(reply.status, 500);
    assert_eq!(
        reply.json(),
        json!({ "error": format!(
            "The game {damaged} is damaged in the games file: its contents differ from its \
             checksum."
        ) })
    );
    let moved = server.post(
        &format!("/api/games/{damaged}/moves"),
        &json!({ "move": "3a2b", "ply": 3 }),
    );
    assert_eq!(moved.status, 500, "a damaged game is not written over");
    for (index, id) in ids.iter().enumerate().filter(|(i, _)| *i != 2) {
        let reply = server.get(&format!("/api/games/{id}"));
        assert_eq!(reply.status, 200, "game {index}");
        let state: Value = reply.json();
        assert!(
            state["headers"]["sente"]
                .as_str()
                .unwrap()
                .starts_with("NAME-"),
            "{state}"
        );
    }
    stop(server);

    let before = std::fs::read(&db).unwrap();
    let out = check(&db);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        format!(
            "game {damaged} is damaged: its contents differ from its checksum\n\
             {0}: damaged: 4 games, 1 damaged; schema 9\n",
            db.display()
        )
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!(
            "koma: {} is damaged: 4 games, 1 damaged; schema 9\n",
            db.display()
        )
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "check changes nothing");

    // A path with no file is not made by check.
    std::fs::remove_file(&db).unwrap();
    let out = check(&db);
    assert_eq!(out.status.code(), Some(1));
    assert!(!db.exists());
}

/// Item 9 of issue 53: 1 to 4 random bytes written into the pages of the
/// `games` table, 120 times. Every trial must either refuse the file at
/// start, or answer each game exactly as it was or with an error: never an
/// altered game as if it were intact. `koma check` must agree: a file it
/// calls whole serves every game intact.
#[test]
fn random_damage_is_never_served_as_intact() {
    let dir = TempDir::new("random");
    let pristine_db = dir.path().join("pristine.sqlite3");
    let ids = games_file(&pristine_db);
    let pristine = std::fs::read(&pristine_db).unwrap();
    let (pages, size): (Vec<i64>, usize) = {
        let connection = rusqlite::Connection::open(&pristine_db).unwrap();
        let size: i64 = connection
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        let mut statement = connection
            .prepare("SELECT pageno FROM dbstat WHERE name = 'games'")
            .unwrap();
        let pages = statement
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        (pages, size as usize)
    };
    assert!(!pages.is_empty());
    let server = try_serve(&pristine_db).unwrap();
    let originals: Vec<Value> = ids
        .iter()
        .map(|id| server.get(&format!("/api/games/{id}")).json())
        .collect();
    stop(server);

    let seed = 53;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let db = dir.db();
    let (mut refused, mut errors, mut intact) = (0, 0, 0);
    for trial in 0..120 {
        let mut bytes = pristine.clone();
        let page = pages[rng.random_range(0..pages.len())] as usize;
        let mut changes = Vec::new();
        for _ in 0..rng.random_range(1..=4) {
            let at = (page - 1) * size + rng.random_range(0..size);
            bytes[at] = rng.random();
            changes.push(at);
        }
        let what = format!("seed {seed}, trial {trial}: bytes at {changes:?}");
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        std::fs::write(&db, &bytes).unwrap();
        let mut all_intact = true;
        match try_serve(&db) {
            Err((code, stderr)) => {
                assert_eq!(code, Some(1), "{what}: {stderr}");
                assert!(!stderr.contains("panicked"), "{what}: {stderr}");
                refused += 1;
                all_intact = false;
            }
            Ok(server) => {
                for (id, original) in ids.iter().zip(&originals) {
                    let reply = server.get(&format!("/api/games/{id}"));
                    match reply.status {
                        200 => assert_eq!(
                            &reply.json(),
                            original,
                            "{what}: game {id} was served altered"
                        ),
                        404 | 500 => {
                            assert!(reply.json()["error"].is_string(), "{what}");
                            all_intact = false;
                        }
                        other => panic!("{what}: game {id} answered {other}"),
                    }
                }
                drop(server);
                if all_intact {
                    intact += 1;
                } else {
                    errors += 1;
                }
            }
        }
        let out = check(&db);
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(!report.contains("panicked"), "{what}: {report}");
        if out.status.success() {
            assert!(all_intact, "{what}: koma check called it whole:\n{report}");
        }
        if !all_intact {
            assert!(!out.status.success(), "{what}: {report}");
        }
    }
    eprintln!(
        "120 trials: {refused} refused at start, {errors} served with errors for the \
         damaged games, {intact} served intact (the bytes changed no game)"
    );
}
