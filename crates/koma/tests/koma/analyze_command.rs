//! `koma analyze`: every shared record is reviewed, its annotated record
//! reads back with the same moves and the review's comments, the review
//! at a node budget is the same on every run, and bad input gets a clear
//! error.

use crate::common::{koma, real_record, real_record_names, scratch, usi_of};
use koma_records::file::load;
use koma_records::AnyRecord;

/// The comments of every move of the record at `path`.
fn move_comments(path: &str) -> Vec<Vec<String>> {
    let comments = |moves: &[koma_records::RecordedMove]| {
        moves.iter().map(|m| m.comments.clone()).collect::<Vec<_>>()
    };
    let record = load(path, None, None).expect("the annotated record reads back");
    koma_rules::each_game!(AnyRecord, record, r => comments(&r.moves))
}

#[test]
fn every_real_record_is_reviewed_and_its_annotated_kif_reads_back_with_the_comments() {
    for name in real_record_names() {
        let record = real_record(&name);
        let out = scratch(&format!("{name}.kifu"));
        let run = koma(&["analyze", &record, "--nodes", "300", "--out", &out], b"");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(stdout.starts_with("ply "), "{name}: {stdout}");
        assert!(stdout.contains("\nSente"), "{name}: {stdout}");
        assert!(stdout.contains("\nGote"), "{name}: {stdout}");
        assert!(run.stderr.is_empty(), "{name}: quiet in a pipe");
        assert_eq!(usi_of(&out), usi_of(&record), "{name}: the same moves");
        let original = move_comments(&record);
        for (index, comments) in move_comments(&out).iter().enumerate() {
            let judged = comments
                .iter()
                .filter(|c| c.starts_with("#評価値=") || c.starts_with("#詰み="))
                .count();
            assert_eq!(judged, 1, "{name}, move {}: {comments:?}", index + 1);
            assert!(
                comments.starts_with(&original[index]),
                "{name}, move {}: the record's own comments come first",
                index + 1
            );
        }
    }
}

#[test]
fn a_review_at_a_node_budget_is_the_same_on_every_run() {
    let record = real_record("jt201409130101.kif");
    let first = koma(&["analyze", &record, "--nodes", "2000"], b"");
    let second = koma(&["analyze", &record, "--nodes", "2000"], b"");
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
    let golden = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/koma/golden/analyze/jt201409130101.nodes-2000.out");
    if std::env::var_os("KOMA_UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &first.stdout).unwrap();
    }
    assert_eq!(
        String::from_utf8_lossy(&first.stdout),
        std::fs::read_to_string(&golden).expect("the golden review")
    );
}

#[test]
fn csa_and_pgn_records_get_their_own_comment_styles() {
    let csa = scratch("reviewed.csa");
    let run = koma(
        &[
            "analyze",
            // No `'**` comments of its own: those in the output are Koma's.
            &real_record("2005_YAMADA_GPS.csa"),
            "--nodes",
            "300",
            "--out",
            &csa,
        ],
        b"",
    );
    assert!(run.status.success());
    let text = std::fs::read_to_string(&csa).unwrap();
    // floodgate's evaluation comment: the value, then the line in CSA.
    assert!(
        text.lines().any(|l| l.starts_with("'** ")
            && l.split(' ').nth(2).is_some_and(
                |m| m.len() == 7 && m[7 - 2..].chars().all(|c| c.is_ascii_uppercase())
            )),
        "{text}"
    );
    let pgn_in = scratch("pawns.pgn");
    std::fs::write(&pgn_in, "1. e4 d5 2. exd5 e6 3. dxe6 *\n").unwrap();
    let pgn_out = scratch("pawns-reviewed.pgn");
    let run = koma(
        &["analyze", &pgn_in, "--nodes", "500", "--out", &pgn_out],
        b"",
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("\nWhite: 3 moves"), "{stdout}");
    assert!(stdout.contains("\nBlack: 2 moves"), "{stdout}");
    let comments = move_comments(&pgn_out);
    assert_eq!(comments.len(), 5);
    for comment in &comments {
        assert!(comment[0].starts_with("[%eval "), "{comment:?}");
    }
}

#[test]
fn bad_input_gets_a_clear_error() {
    let cases: [(&[&str], &str); 4] = [
        (&["analyze", "/nonexistent.kif"], "/nonexistent.kif"),
        (
            &["analyze", "/nonexistent.kif", "--out", "x.usi"],
            "hold no comments",
        ),
        (
            &["analyze", "/nonexistent.kif", "--nodes", "0"],
            "more than 0",
        ),
        (
            &[
                "analyze",
                "/nonexistent.kif",
                "--nodes",
                "5",
                "--movetime",
                "5",
            ],
            "cannot be used with",
        ),
    ];
    for (args, expected) in cases {
        let run = koma(args, b"");
        assert!(!run.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let corrupt = scratch("corrupt.kif");
    std::fs::write(
        &corrupt,
        "手数----指手---------消費時間--\n   1 ７六金(77)\n",
    )
    .unwrap();
    let run = koma(&["analyze", &corrupt], b"");
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).starts_with("koma: "));
}

#[test]
fn a_timed_review_searches_on_several_threads() {
    let record = real_record("jt201409130101.kif");
    let run = koma(
        &["analyze", &record, "--movetime", "20", "--threads", "2"],
        b"",
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && stdout.starts_with("ply ") && stdout.contains("\nGote"),
        "{stdout}"
    );
    // A node budget stays on one thread: --threads asks for --movetime.
    let refused = koma(&["analyze", &record, "--threads", "2"], b"");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--movetime"));
}
