//! `koma solve pawns` and `koma verify-proof` from the command line: the
//! small boards' values, their certificates checked, a damaged certificate
//! and bad input refused with a clear message.

use std::process::{Command, Output};

fn koma(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .output()
        .expect("koma runs")
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_small_boards_are_solved_and_their_proofs_verified() {
    let dir = std::env::temp_dir().join(format!("koma-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (size, value) in [("4", "loss"), ("5", "draw")] {
        let proof = dir.join(format!("{size}.proof"));
        let proof = proof.to_str().unwrap();
        let solved = koma(&["solve", "pawns", "--size", size, "--proof", proof]);
        let (out, err) = text(&solved);
        assert!(solved.status.success(), "{err}");
        assert_eq!(out.lines().last(), Some(value), "{out}");
        let checked = koma(&["verify-proof", proof]);
        let (out, err) = text(&checked);
        assert!(checked.status.success(), "{err}");
        assert!(
            out.contains(&format!("is a {value} for the side to move")),
            "{out}"
        );
        assert_eq!(out.lines().last(), Some("verified"));

        // The last record's move changed: no longer a proof.
        let mut bytes = std::fs::read(proof).unwrap();
        let end = bytes.len() - "end\n".len();
        bytes[end - 1] ^= 1;
        let damaged = dir.join(format!("{size}-damaged.proof"));
        std::fs::write(&damaged, &bytes).unwrap();
        let refused = koma(&["verify-proof", damaged.to_str().unwrap()]);
        let (out, err) = text(&refused);
        assert!(!refused.status.success(), "{out}");
        assert!(err.contains("not a proof"), "{err}");
    }
    // 5×5 after 1.a3, mirrored into 1.e3's proof, which the checker
    // accepts for 1.e3.
    let a3 = dir.join("a3.proof");
    let e3 = dir.join("e3.proof");
    let (a3, e3) = (a3.to_str().unwrap(), e3.to_str().unwrap());
    let solved = koma(&[
        "solve",
        "pawns",
        "--position",
        "5/ppppp/P4/1PPPP/5 b - - 0 1",
        "--proof",
        a3,
    ]);
    let value = text(&solved).0.lines().last().unwrap().to_owned();
    let mirrored = koma(&["solve", "pawns", "--mirror", a3, "--proof", e3]);
    let (out, err) = text(&mirrored);
    assert!(mirrored.status.success(), "{err}");
    assert!(out.starts_with("position: 5/ppppp/4P/PPPP1/5 b"), "{out}");
    assert_eq!(out.lines().last(), Some(value.as_str()), "{out}");
    let checked = koma(&["verify-proof", e3]);
    let (out, err) = text(&checked);
    assert!(checked.status.success(), "{err}");
    assert!(out.contains("5/ppppp/4P/PPPP1/5 b"), "{out}");
    // Not a certificate: refused, and nothing written.
    let junk = dir.join("junk");
    std::fs::write(&junk, b"koma-pawns-proof 1\nsize 9\n").unwrap();
    let out_path = dir.join("junk-mirrored");
    let refused = koma(&[
        "solve",
        "pawns",
        "--mirror",
        junk.to_str().unwrap(),
        "--proof",
        out_path.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    assert!(text(&refused).1.contains("size N"), "{}", text(&refused).1);
    assert!(!out_path.exists() && !dir.join("junk-mirrored.part").exists());
    // A position of its own: White's passed pawn runs home.
    let solved = koma(&["solve", "pawns", "--position", "5/p4/5/4P/5 w - - 0 1"]);
    assert_eq!(text(&solved).0.lines().last(), Some("win"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_compact_table_is_written_from_the_state() {
    let dir = std::env::temp_dir().join(format!("koma-solve-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (state, table) = (dir.join("state"), dir.join("six.table"));
    let (state, table) = (state.to_str().unwrap(), table.to_str().unwrap());
    let args = [
        "solve", "pawns", "--size", "6", "--state", state, "--table", table,
    ];
    let solved = koma(&[&args[..], &["--table-work", "12"]].concat());
    let (out, err) = text(&solved);
    assert!(solved.status.success(), "{err}");
    assert_eq!(out.lines().last(), Some("draw"), "{out}");
    let line = out.lines().find(|l| l.starts_with("table: ")).unwrap();
    assert!(line.contains("positions of at least 2^12 nodes"), "{line}");
    let bytes = std::fs::read(table).unwrap();
    assert!(bytes.starts_with(b"koma-solve-table 1\nsize 6\n"));
    let said = line.replace(',', "");
    assert!(said.ends_with(&format!(" {} bytes", bytes.len())), "{line}");
    // A table needs a state to be made from.
    let refused = koma(&["solve", "pawns", "--size", "5", "--table", table]);
    assert!(!refused.status.success());
    assert!(text(&refused).1.contains("--state"), "{}", text(&refused).1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gets_a_clear_error() {
    for (args, expected) in [
        (&["solve", "chess"][..], "only pawns"),
        (&["solve", "pawns", "--size", "9"], "boards of 4 to 8"),
        (
            &["solve", "pawns", "--position", "5/ppxpp/5/PPPPP/5 w"],
            "'x' is not P, p or a digit",
        ),
        (
            &["solve", "pawns", "--position", "5/ppppp/5/PPPPP w"],
            "the board is 4 wide",
        ),
        (
            &["solve", "pawns", "--position", "3/ppp/PPP w"],
            "boards of 4 to 8",
        ),
        (
            &["verify-proof", "/nonexistent/proof"],
            "/nonexistent/proof",
        ),
        (
            &["solve", "pawns", "--size", "4", "--memory", "0"],
            "above 0",
        ),
        (
            &["solve", "pawns", "--size", "4", "--state", "/proc/koma"],
            "--state /proc/koma",
        ),
    ] {
        let output = koma(args);
        let (_, err) = text(&output);
        assert!(!output.status.success(), "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn each_move_is_valued_and_a_second_run_resumes_from_the_state() {
    let dir = std::env::temp_dir().join(format!("koma-solve-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = dir.to_str().unwrap();
    let args = ["solve", "pawns", "--size", "6", "--moves", "--state", state];
    let first = koma(&args);
    let (out, err) = text(&first);
    assert!(first.status.success(), "{err}");
    let valued: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.split_once(' ').is_some_and(|(name, value)| {
                name.len() == 4 && ["win", "draw", "loss"].contains(&value)
            })
        })
        .collect();
    // Twelve first moves, a mirror image's value equal to its own.
    assert_eq!(valued.len(), 12, "{out}");
    for (left, right) in [("a2a3", "f2f3"), ("b2b4", "e2e4"), ("c2c3", "d2d3")] {
        let value = |name: &str| {
            valued
                .iter()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
                .expect("valued")
        };
        assert_eq!(value(left), value(right), "{out}");
    }
    assert_eq!(out.lines().last(), Some("draw"));
    assert!(out.contains("over all runs"), "{out}");
    // The twelve moves and the position itself.
    let answers = std::fs::read_to_string(dir.join("answers")).unwrap();
    assert_eq!(answers.lines().count(), 13, "{answers}");

    // The second run finds every answer settled and searches nothing.
    let second = koma(&args);
    let (again, err) = text(&second);
    assert!(second.status.success(), "{err}");
    let lines = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("nodes") && !l.starts_with("over all"))
            .map(String::from)
            .collect()
    };
    assert_eq!(lines(&again), lines(&out));
    assert!(again.contains("nodes: 0,"), "{again}");
    std::fs::remove_dir_all(&dir).unwrap();
}
