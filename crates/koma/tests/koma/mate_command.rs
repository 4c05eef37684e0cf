//! `koma mate` as a person or a script runs it: the solution in Japanese
//! and USI, the verdict on the last line, and a clear error for bad input.

use std::process::Command;

fn record_path(name: &str) -> String {
    format!(
        "{}/../../testdata/records/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn mate(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_koma"))
        .arg("mate")
        .args(args)
        .output()
        .expect("koma runs");
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_tsume_record_is_solved_in_japanese_and_usi() {
    let (ok, out, _) = mate(&[&record_path("everyday_20211107.kif")]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("▲１三角打　△１一玉(22)　▲２三桂打")
            && lines[0].ends_with("まで11手詰"),
        "{out}"
    );
    assert_eq!(
        lines[1],
        "usi: B*1c 2b1a N*2c 1a1b B*2a 1b1c 2c1a+ 1c2b 3c1c+ 2b1c 2a1b+"
    );
    assert!(lines[2].starts_with("mate in 11 (shortest), "), "{out}");
    assert_eq!(lines.last(), Some(&"mate 11"));
}

#[test]
fn a_mate_ending_on_a_blockable_check_is_played_out_to_checkmate() {
    // Mate in 5 as problems count it: the dragon's last check down the
    // file could be blocked by gote's bishop, which the dragon takes.
    let (ok, out, _) = mate(&["9/2R3Slk/9/9/6+R2/9/9/9/K8 b BPbl 1"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].ends_with("△１二角打　▲同　龍(13)　まで5手詰"),
        "{out}"
    );
    assert_eq!(lines[1], "usi: 3e1e L*1c B*2a 1b1a 1e1c B*1b 1c1b");
    assert!(
        lines[2].starts_with(
            "mate in 5 (shortest; the line shows 2 plies more, to checkmate on the board: "
        ),
        "{out}"
    );
    assert_eq!(lines.last(), Some(&"mate 5"));
}

#[test]
fn an_sfen_without_mate_says_nomate() {
    let (ok, out, _) = mate(&["sfen 7nk/7l1/9/7N1/9/9/9/9/9 b P 1"]);
    assert!(ok);
    assert!(out.starts_with("不詰"), "{out}");
    assert_eq!(out.lines().last(), Some("nomate"));
}

#[test]
fn bad_input_is_refused_with_a_sentence() {
    let (ok, out, err) = mate(&["9/9/9 b - 1"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(
        err.starts_with("koma: not a record file nor an SFEN"),
        "{err}"
    );
    let (ok, _, err) = mate(&["8/8/8/8/8/8/PPPPPPPP/8 w - - 0 1", "--variant", "pawns"]);
    assert!(!ok);
    assert!(err.contains("no mates"), "{err}");
    let (ok, _, err) = mate(&[&record_path("tsumeshogi.csa"), "--time=0"]);
    assert!(!ok);
    assert!(err.contains("--time"), "{err}");
}

#[test]
fn a_position_without_the_defenders_king_is_refused() {
    // Gote, not to move, has no king: nothing to mate (not `nomate`).
    for sfen in [
        "9/9/9/9/9/9/9/9/4K4 b 2G 1",
        "9/9/9/9/9/9/9/9/9 b 2G 1",
        "5/5/5/5/4K b G 1",
    ] {
        let (ok, out, err) = mate(&[sfen]);
        assert!(!ok, "{sfen}: {out}");
        assert!(out.is_empty(), "{sfen}: {out}");
        assert!(
            err.starts_with("koma: not a mate problem: the defender has no king to mate: "),
            "{sfen}: {err}"
        );
    }
    // The attacker may be without one, as in most tsume.
    let (ok, out, _) = mate(&["4k4/9/4P4/9/9/9/9/9/9 b G 1"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("mate 1"));
}

#[test]
fn a_missing_file_is_named_as_missing() {
    let (ok, _, err) = mate(&["no-such-problem.kif"]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "koma: no-such-problem.kif: no such file (nor is it an SFEN)"
    );
    let folder = env!("CARGO_MANIFEST_DIR");
    let (ok, _, err) = mate(&[folder]);
    assert!(!ok);
    assert!(err.contains("a folder, not a record file"), "{err}");
}

#[test]
fn a_table_of_no_size_or_beyond_the_machine_is_refused_with_the_range() {
    let problem = record_path("tsumeshogi.csa");
    for size in ["0", "99999999999999999999999", "1000000000", "-5", "lots"] {
        let (ok, out, err) = mate(&[&problem, &format!("--hash={size}")]);
        assert!(!ok, "--hash {size}: {out}");
        assert!(
            err.contains("give a table of 1 to ") && err.contains(" MiB"),
            "--hash {size}: {err}"
        );
    }
    let (ok, out, _) = mate(&[&problem, "--hash", "1"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("mate 3"));
}

#[test]
fn a_suite_is_checked_and_compared_with_another_usi_solver() {
    let dir = std::env::temp_dir().join(format!("koma-mate-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A suite file in `dir`, by its path.
    let write_suite = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let suite = write_suite(
        "suite.txt",
        "# two problems\n\
         9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1\tmate 3\n\
         7nk/7l1/9/7N1/9/9/9/9/9 b P 1\tnomate\t12\n",
    );
    // Koma against itself over USI: both get both right.
    let against = format!("cmd={} arg=usi name=other", env!("CARGO_BIN_EXE_koma"));
    let (ok, out, err) = mate(&["--suite", &suite, "--time", "30", "--against", &against]);
    assert!(ok, "{out}{err}");
    assert!(out.contains(": 2 problems (1 mates, 1 without)"), "{out}");
    assert!(
        out.contains("\nkoma: 2 right, 0 wrong, 0 unsolved (0.0 %);"),
        "{out}"
    );
    assert!(
        out.contains("\nother: 2 right, 0 wrong, 0 unsolved (0.0 %);"),
        "{out}"
    );
    assert!(
        out.contains("time on the problems both solved, koma / other: "),
        "{out}"
    );

    // A wrong expectation is reported, and the exit says so.
    let wrong = write_suite(
        "wrong.txt",
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1\tmate 5\n",
    );
    let (ok, out, err) = mate(&["--suite", &wrong]);
    assert!(!ok);
    assert!(
        out.contains("wrong: line 1: mate in 3, expected Mate(5)"),
        "{out}"
    );
    assert!(
        err.contains("koma got 1 wrong and left 0 unsolved"),
        "{err}"
    );

    // Read as an oracle's lengths, the 5 is only a bound: the mate in 3 is
    // right; a label shorter than the proven shortest mate is not.
    let (ok, out, err) = mate(&["--suite", &wrong, "--oracle"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("lengths at most the labels'"), "{out}");
    assert!(
        out.contains("\nkoma: 1 right, 0 wrong, 0 unsolved"),
        "{out}"
    );
    let too_short = write_suite(
        "too-short.txt",
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1\tmate 1\n",
    );
    let (ok, out, _) = mate(&["--suite", &too_short, "--oracle"]);
    assert!(!ok);
    assert!(
        out.contains("wrong: line 1: mate in 3 proven the shortest, but the label's line has 1"),
        "{out}"
    );

    // A malformed suite is refused with its line.
    let bad = write_suite("bad.txt", "9/9 b - 1\tmate three\n");
    let (ok, _, err) = mate(&["--suite", &bad]);
    assert!(!ok);
    assert!(
        err.contains("line 1: \"three\" is not a mate's length"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
