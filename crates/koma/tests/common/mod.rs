//! Running the `koma` binary from the integration tests.

use std::io::Write;
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
