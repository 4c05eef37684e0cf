//! What a command does when the reader of its standard output goes away,
//! as in `koma perft shogi 5 --divide | head -3`.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe fails with EPIPE, and
//! `println!` turns that into a panic with a backtrace. Filters on Unix die
//! of the signal instead, quietly, and a shell reports 141. The commands
//! whose standard output is their whole product get that behaviour back.
//! Those that write to an engine they started (`koma match`, `koma mate
//! --against`, `koma csa`) or to sockets (`koma serve`, `worker`, `load`,
//! `check` on PostgreSQL) keep SIGPIPE ignored: a peer that dies must come
//! back to them as an error they can report, not kill them. The consoles
//! and `koma usi` already end cleanly (status 0) when their output closes.

/// Lets the process die of SIGPIPE, as other filters do, when its standard
/// output is a pipe whose reader has gone.
///
/// Call it only in a process that writes to no pipe or socket but its own
/// standard output and error: any write to a closed one would kill it.
pub fn die_quietly_when_the_reader_leaves() {
    #[cfg(unix)]
    // SAFETY: `signal` with SIG_DFL installs no handler (no code runs at
    // the signal), and this runs before the command starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
