//! The command line as scripts meet it: a pipe whose reader has gone, a
//! depth no run could reach, an empty record file.

use crate::common::{koma, scratch};
use std::process::{Command, Output, Stdio};

/// `koma ARGS` writing to a pipe whose reader is closed before it starts,
/// as `koma … | head -1` once `head` has its line.
#[cfg(unix)]
fn into_a_closed_pipe(args: &[&str]) -> Output {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut ends = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into `ends`.
    assert_eq!(
        unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) },
        0
    );
    // SAFETY: each descriptor is new and owned once, here.
    let (reader, writer) =
        unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("koma runs")
}

#[cfg(unix)]
#[test]
fn a_filter_dies_quietly_of_sigpipe_when_its_reader_has_gone() {
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["perft", "spear", "2", "--divide"][..],
        &["bench", "--variant", "spear", "--depth", "1"],
        &["mate", "4k4/9/4P4/9/9/9/9/9/9 b G 1"],
    ] {
        let output = into_a_closed_pipe(args);
        let said = String::from_utf8_lossy(&output.stderr);
        // Rust's own way: EPIPE, and println! panics with a backtrace.
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert_eq!(
            output.status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {said}"
        );
    }
}

#[test]
fn a_perft_deeper_than_any_run_is_refused_not_overflowed() {
    // Depth 99,999 used to recurse until the stack overflowed (SIGABRT).
    let output = koma(&["perft", "shogi", "99999"], b"");
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("99999 is not in 0..=32"), "{said}");
    let output = koma(&["perft", "spear", "32", "--position", "garbage"], b"");
    assert!(String::from_utf8_lossy(&output.stderr).contains("bad position"));
}

#[test]
fn an_empty_record_file_is_refused_and_nothing_is_written() {
    let empty = scratch("empty.kif");
    std::fs::write(&empty, "\n  \n").unwrap();
    let out = scratch("out.csa");
    for args in [
        &["convert", empty.as_str(), out.as_str()][..],
        &["analyze", empty.as_str()],
    ] {
        let output = koma(args, b"");
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {said}");
        assert!(said.contains("the record is empty"), "{args:?}: {said}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert!(!std::path::Path::new(&out).exists());
}
