//! Golden transcripts of the console programs: each `tests/koma/golden/PROGRAM/NAME.in`
//! is fed to `koma PROGRAM` (with the arguments in `NAME.args`, one a line, if
//! that file exists); standard output must equal `NAME.out` byte for byte,
//! standard error must stay empty and the exit status be 0.
//! `KOMA_UPDATE_GOLDEN=1 cargo test -p koma --test koma golden` rewrites the `.out` files
//! (review the diff before committing).

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(program: &str, input: &[u8]) -> std::process::Output {
    run_with(program, &[], input)
}

fn run_with(program: &str, args: &[String], input: &[u8]) -> std::process::Output {
    let mut all = vec![program.to_owned()];
    all.extend_from_slice(args);
    crate::common::koma(&all, input)
}

fn check_program(program: &str) {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/koma/golden")
        .join(program);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("golden folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty());
    for input in inputs {
        let expected_path = input.with_extension("out");
        let args: Vec<String> = std::fs::read_to_string(input.with_extension("args"))
            .map(|text| text.lines().map(str::to_owned).collect())
            .unwrap_or_default();
        let output = run_with(program, &args, &std::fs::read(&input).expect("input"));
        if std::env::var_os("KOMA_UPDATE_GOLDEN").is_some() {
            std::fs::write(&expected_path, &output.stdout).expect("golden written");
        }
        let expected = std::fs::read(&expected_path).expect("golden output");
        let name = input
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(
            output.stdout == expected,
            "{program} {name}: output differs\n--- got ---\n{}\n--- expected ---\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&expected)
        );
        assert!(
            output.stderr.is_empty(),
            "{program} {name}: wrote to stderr"
        );
        assert!(
            output.status.success(),
            "{program} {name}: {}",
            output.status
        );
    }
}

#[test]
fn spear_transcripts() {
    check_program("spear");
}

#[test]
fn shogi_transcripts() {
    check_program("shogi");
}

#[test]
fn pawns_transcripts() {
    check_program("pawns");
}

#[test]
fn the_spear_example_of_the_rules_is_a_golden() {
    // The example of Spear's original rules (docs/CONSOLES.md), copied verbatim into example.in/.out.
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/koma/golden/spear");
    let output = run("spear", &std::fs::read(folder.join("example.in")).unwrap());
    assert_eq!(
        output.stdout,
        std::fs::read(folder.join("example.out")).unwrap()
    );
}

#[test]
fn every_program_explains_itself() {
    for program in ["spear", "pawns", "shogi", "perft"] {
        let output = Command::new(env!("CARGO_BIN_EXE_koma"))
            .args([program, "--help"])
            .output()
            .unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.lines().count() >= 3, "{program} --help:\n{text}");
    }
}
