//! Damaged games files (issue 53): refused at opening, or the damaged game
//! refused alone, never served; and `koma check`'s report of them.

use super::*;
use crate::store::sqlite_check::{self, Damaged, Progress};
use crate::store::sqlite_schema::{MIGRATE_1_TO_2, MIGRATE_2_TO_3, MIGRATE_3_TO_4};

/// A Spear game with id `id` whose first player is called `name`.
fn game(id: u64, name: &str) -> StoredGame {
    let mut game = StoredGame::spear_for_tests(id);
    game.moves = vec!["5d5c".into()];
    game.headers.sente = Some(name.into());
    game.version = 1;
    game
}

/// A games file at `path` holding `games`, closed (so that all of it is in
/// the file itself, none in the write-ahead log).
fn file_with(path: &Path, games: &[StoredGame]) {
    let store = SqliteStore::open(path).unwrap();
    for game in games {
        store.insert(game.clone()).unwrap();
    }
}

/// Where `needle` is in `haystack`, the first time.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Replaces the first `from` in the file at `path` by `to` (same length).
fn overwrite(path: &Path, from: &[u8], to: &[u8]) {
    let mut bytes = std::fs::read(path).unwrap();
    let at = find(&bytes, from).expect("the bytes are in the file");
    bytes[at..at + to.len()].copy_from_slice(to);
    std::fs::write(path, bytes).unwrap();
}

fn refused(path: &Path) -> String {
    match SqliteStore::open(path) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(message) => message,
    }
}

#[test]
fn an_empty_file_is_refused_and_a_missing_one_made_whole() {
    let temp = Temp::new("empty");
    let path = temp.file();
    std::fs::write(&path, b"").unwrap();
    let message = refused(&path);
    assert!(
        message.starts_with(&format!("{} is empty (0 bytes)", path.display())),
        "{message}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"", "the file is left alone");
    std::fs::remove_file(&path).unwrap();
    file_with(&path, &[game(1, "Alice")]);
    assert!(std::fs::metadata(&path).unwrap().len() > 0);
    let mut names: Vec<String> = std::fs::read_dir(temp.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["games.sqlite3"], "no half-made file is left");
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.get(game(1, "").id).unwrap(), game(1, "Alice"));
}

#[test]
fn a_file_whose_games_table_was_dropped_is_refused() {
    let temp = Temp::new("dropped");
    let path = temp.file();
    file_with(&path, &[game(1, "Alice")]);
    Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE games")
        .unwrap();
    let message = refused(&path);
    assert!(
        message.starts_with(&path.display().to_string()),
        "{message}"
    );
    assert!(
        message.contains("does not hold Koma's tables of schema 9: it has no table games"),
        "{message}"
    );
}

#[test]
fn tables_or_columns_that_are_not_komas_are_refused() {
    let cases: [(&str, &str); 5] = [
        (
            "ALTER TABLE games DROP COLUMN review",
            "its table games has no column review",
        ),
        (
            "ALTER TABLE games ADD COLUMN colour TEXT",
            "its table games has a column colour that is not Koma's",
        ),
        (
            "ALTER TABLE games RENAME COLUMN moves TO plies",
            "its table games has no column moves",
        ),
        (
            "CREATE TABLE notes (text TEXT)",
            "it has a table notes that is not Koma's",
        ),
        (
            "CREATE TRIGGER stamp AFTER UPDATE ON games BEGIN SELECT 1; END",
            "it has a trigger stamp that is not Koma's",
        ),
    ];
    for (change, said) in cases {
        let temp = Temp::new("layout");
        let path = temp.file();
        file_with(&path, &[game(1, "Alice")]);
        Connection::open(&path)
            .unwrap()
            .execute_batch(change)
            .unwrap();
        let message = refused(&path);
        assert!(message.contains(said), "{change}: {message}");
    }
    // A games table of another shape under Koma's name and version.
    let temp = Temp::new("foreign");
    let path = temp.file();
    let other = Connection::open(&path).unwrap();
    other
        .pragma_update(None, "application_id", APPLICATION_ID)
        .unwrap();
    other
        .execute_batch(
            "CREATE TABLE koma_schema (version INTEGER NOT NULL) STRICT;
             INSERT INTO koma_schema VALUES (5);
             CREATE TABLE games (id INTEGER PRIMARY KEY, board BLOB) STRICT;",
        )
        .unwrap();
    drop(other);
    let message = refused(&path);
    assert!(
        message
            .contains("the column games.id is INTEGER PRIMARY KEY, not TEXT PRIMARY KEY NOT NULL"),
        "{message}"
    );
    // An index someone added changes no data: it is let be.
    let temp = Temp::new("index");
    let path = temp.file();
    file_with(&path, &[game(1, "Alice")]);
    Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE INDEX by_variant ON games (variant)")
        .unwrap();
    assert!(SqliteStore::open(&path).is_ok());
}

#[test]
fn a_file_that_fails_the_integrity_check_is_refused() {
    let temp = Temp::new("integrity");
    let path = temp.file();
    let games: Vec<StoredGame> = (1..=5).map(|i| game(i * 16, "Alice")).collect();
    file_with(&path, &games);
    // The id of the second game as its index holds it, changed to one
    // that keeps the index in order: the index no longer matches the
    // table, which only the full integrity check sees.
    let (page, size): (i64, i64) = Connection::open(&path)
        .unwrap()
        .query_row(
            "SELECT pageno, pgsize FROM dbstat WHERE name = 'sqlite_autoindex_games_1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let start = ((page - 1) * size) as usize;
    let index = &mut bytes[start..start + size as usize];
    let at = find(index, b"0000000000000020").unwrap();
    index[at + 15] = b'1';
    std::fs::write(&path, &bytes).unwrap();
    let quick: String = Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(quick, "ok", "the quick check misses it");
    let message = refused(&path);
    assert!(
        message.contains("is damaged: SQLite's integrity check says"),
        "{message}"
    );
    assert!(message.contains("koma check --db PATH"), "{message}");
    let report = sqlite_check::check(&path, &mut |_| {}).unwrap();
    assert!(!report.is_whole());
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.contains("integrity check")),
        "{report:?}"
    );
}

#[test]
fn a_changed_row_is_refused_as_damaged_and_the_other_games_served() {
    let temp = Temp::new("row");
    let path = temp.file();
    let (one, two) = (game(1, "Alice"), game(2, "MARKER-two"));
    file_with(&path, &[one.clone(), two.clone()]);
    overwrite(&path, b"MARKER-two", b"NARKER-two");
    let store = SqliteStore::open(&path).unwrap();
    let expected = "The game 0000000000000002 is damaged in the games file: its contents differ \
                    from its checksum.";
    match store.get(two.id) {
        Err(StoreError::Failed(message)) => assert_eq!(message, expected),
        other => panic!("the damaged game was answered {other:?}"),
    }
    // Never written over: a change to it is refused as well.
    match store.update(two.id, &mut |g: &mut StoredGame| {
        g.version += 1;
        Ok(())
    }) {
        Err(StoreError::Failed(message)) => assert_eq!(message, expected),
        other => panic!("the damaged game was changed: {other:?}"),
    }
    assert_eq!(store.get(one.id).unwrap(), one);
    let changed = store
        .update(one.id, &mut |g: &mut StoredGame| {
            g.version += 1;
            Ok(())
        })
        .unwrap();
    assert_eq!(store.get(one.id).unwrap(), changed);
    drop(store);

    let report = sqlite_check::check(&path, &mut |_| {}).unwrap();
    assert_eq!(report.schema, Some(SCHEMA_VERSION));
    assert_eq!(report.problems, Vec::<String>::new());
    assert_eq!(report.games, 2);
    assert_eq!(
        report.damaged,
        [Damaged {
            game: "0000000000000002".into(),
            why: "its contents differ from its checksum".into(),
        }]
    );
}

#[test]
fn a_row_whose_column_changed_type_is_damaged_not_a_failure() {
    let temp = Temp::new("type");
    let path = temp.file();
    file_with(&path, &[game(1, "Alice"), game(2, "Bob")]);
    // Text that is no longer UTF-8: SQLite's structure is intact.
    overwrite(&path, b"Bob", b"B\xffb");
    let store = SqliteStore::open(&path).unwrap();
    match store.get(game(2, "").id) {
        Err(StoreError::Failed(message)) => assert!(
            message.starts_with("The game 0000000000000002 is damaged in the games file: "),
            "{message}"
        ),
        other => panic!("the damaged game was answered {other:?}"),
    }
    assert_eq!(store.get(game(1, "").id).unwrap(), game(1, "Alice"));
}

#[test]
fn a_file_of_schema_4_gets_checksums_once_at_opening() {
    let temp = Temp::new("schema-4");
    let path = temp.file();
    let old = Connection::open(&path).unwrap();
    old.pragma_update(None, "application_id", APPLICATION_ID)
        .unwrap();
    old.execute_batch(
        "CREATE TABLE koma_schema (version INTEGER NOT NULL) STRICT;
         INSERT INTO koma_schema (version) VALUES (1);
         CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, variant TEXT NOT NULL,
           start TEXT NOT NULL, moves TEXT NOT NULL, declared_winner TEXT,
           declared_reason TEXT, headers TEXT NOT NULL, opponent TEXT NOT NULL,
           version INTEGER NOT NULL, created_at INTEGER NOT NULL,
           updated_at INTEGER NOT NULL) STRICT;",
    )
    .unwrap();
    for migration in [MIGRATE_1_TO_2, MIGRATE_2_TO_3, MIGRATE_3_TO_4] {
        old.execute_batch(migration).unwrap();
    }
    old.execute_batch(
        "INSERT INTO games VALUES ('00000000000000aa', 'spear', 'lbsgk/4p/5/P4/KGSBL b - 1',
           '5d5c', NULL, NULL, '{}', '{\"kind\":\"human\"}', 2, 7, 8, NULL, 'local', NULL,
           NULL, NULL, NULL, NULL);
         INSERT INTO games VALUES ('00000000000000bb', 'spear', 'lbsgk/4p/5/P4/KGSBL b - 1',
           '', NULL, NULL, '{oops', '{\"kind\":\"human\"}', 0, 7, 8, NULL, 'local', NULL,
           NULL, NULL, NULL, NULL);",
    )
    .unwrap();
    drop(old);
    let report = sqlite_check::check(&path, &mut |_| {}).unwrap();
    assert!(report.is_whole(), "{report:?}");
    assert_eq!(report.schema, Some(4));
    assert!(report.notes[0].contains("keeps no checksums"), "{report:?}");

    let store = SqliteStore::open(&path).unwrap();
    let kept = store.get("00000000000000aa".parse().unwrap()).unwrap();
    assert_eq!(kept.moves, ["5d5c"]);
    // A row that could not be read as a game got no checksum: it stays
    // damaged rather than blessed.
    match store.get("00000000000000bb".parse().unwrap()) {
        Err(StoreError::Failed(message)) => assert!(
            message.contains("is damaged in the games file: its headers cannot be read"),
            "{message}"
        ),
        other => panic!("{other:?}"),
    }
    drop(store);
    // Once: a checksum damaged afterwards is not made again at the next
    // opening.
    Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE games SET checksum = '00' WHERE id = '00000000000000aa'",
            [],
        )
        .unwrap();
    let store = SqliteStore::open(&path).unwrap();
    assert!(store.get("00000000000000aa".parse().unwrap()).is_err());
    drop(store);
    let report = sqlite_check::check(&path, &mut |_| {}).unwrap();
    let damaged: Vec<&str> = report.damaged.iter().map(|d| d.game.as_str()).collect();
    assert_eq!(damaged, ["00000000000000aa", "00000000000000bb"]);
    assert_eq!(
        report.damaged[1].why,
        "its headers cannot be read: key must be a string at line 1 column 2"
    );
}

#[test]
fn the_check_reads_a_whole_file_and_changes_nothing() {
    let temp = Temp::new("check");
    let path = temp.file();
    let games: Vec<StoredGame> = (1..=600).map(|i| game(i, "Alice")).collect();
    file_with(&path, &games);
    let before = std::fs::read(&path).unwrap();
    let mut told = Vec::new();
    let report = sqlite_check::check(&path, &mut |p| told.push(p)).unwrap();
    assert!(report.is_whole(), "{report:?}");
    assert_eq!((report.games, report.schema), (600, Some(SCHEMA_VERSION)));
    assert_eq!(told.first(), Some(&Progress::Integrity));
    assert_eq!(
        told.last(),
        Some(&Progress::Games {
            done: 600,
            total: 600
        })
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
    let names: Vec<String> = std::fs::read_dir(temp.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["games.sqlite3"], "no log was made beside it");

    // What is not a whole games file.
    std::fs::write(&path, b"").unwrap();
    let report = sqlite_check::check(&path, &mut |_| {}).unwrap();
    assert_eq!(
        report.problems,
        ["the file is empty (0 bytes): it is not a games database"]
    );
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        sqlite_check::check(&path, &mut |_| {}),
        Err(sqlite_check::CheckError::Unreadable { .. })
    ));
    std::fs::create_dir(&path).unwrap();
    assert!(matches!(
        sqlite_check::check(&path, &mut |_| {}),
        Err(sqlite_check::CheckError::Folder(_))
    ));
    std::fs::remove_dir(&path).unwrap();
    assert!(!path.exists(), "no file is made");
}
