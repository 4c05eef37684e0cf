//! Running the `koma` binary from the integration tests.

// Each test file uses a part of this module.
#![allow(dead_code)]

use std::io::Write;

// The real records and a test's folder, as the server's tests have them.
#[path = "../../../../server/tests/server/common/files.rs"]
mod files;
pub use files::{real_record, real_record_names, TempDir};
use std::process::{Command, Output, Stdio};

/// Runs `koma ARGS` with `input` on standard input; its output.
pub fn koma<S: AsRef<std::ffi::OsStr>>(args: &[S], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma runs");
    // Koma may stop (refusing its arguments or input) before reading it all.
    let _ = child.stdin.take().expect("piped").write_all(input.as_ref());
    child.wait_with_output().expect("koma finishes")
}

/// A fresh path `name` in a temporary folder of this test program and
/// test: the tests of every module run at once in this one binary, and two
/// of them may well name the same file (a real record's name, say).
pub fn scratch(name: &str) -> String {
    // libtest names each test's thread after the test.
    let test = std::thread::current()
        .name()
        .unwrap_or("main")
        .replace("::", "-");
    let dir = std::env::temp_dir()
        .join(format!(
            "koma-{}-{}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        ))
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path.to_string_lossy().into_owned()
}

/// The record at `path` as one USI `position … moves …` line.
pub fn usi_of(path: &str) -> String {
    let out = koma(&["convert", path, "-", "--to", "usi"], b"");
    assert!(
        out.status.success(),
        "{path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim_end().to_owned()
}
