//! `koma selfplay` from the command line: a data directory filled on two
//! threads, filled further on a second run, and bad requests refused.

use std::process::{Command, Output};

fn koma(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .output()
        .expect("koma runs")
}

#[test]
fn selfplay_fills_a_directory_and_resumes() {
    let dir = std::env::temp_dir().join(format!("koma-selfplay-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let run = |positions: &str| {
        let args = ["selfplay", "spear", "--nodes", "200", "--threads", "2"];
        let output = koma(&[&args[..], &["--out", out, "--positions", positions]].concat());
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let first = run("40");
    assert!(first.contains("positions"), "{first}");
    let size = std::fs::metadata(dir.join("positions.bin")).unwrap().len();
    assert!(size >= 40 * 48 && size % 48 == 0, "{size}");
    run("80");
    let grown = std::fs::metadata(dir.join("positions.bin")).unwrap().len();
    assert!(grown >= 80 * 48, "{grown}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_refuses_what_it_cannot_do() {
    let refused = koma(&["selfplay", "pawns", "--out", "/nonexistent/x"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no network"));
    let refused = koma(&["selfplay", "shogi", "--nodes", "0", "--out", "/tmp/x"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--nodes"));
    // The classical evaluation or a network file, not both.
    let refused = koma(&[
        "selfplay",
        "spear",
        "--classical",
        "--eval-file",
        "x.nnue",
        "--out",
        "/tmp/x",
    ]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--classical"));
}
