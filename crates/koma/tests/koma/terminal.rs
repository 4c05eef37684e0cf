//! `koma shogi` at a real terminal, driven through tmux: colour and prompts
//! when writing to a terminal (none in a pipe, see the golden transcripts).
//! Skipped, with a note, where tmux is not installed.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Session(String);

impl Session {
    fn start(command: &str) -> Option<Session> {
        let name = format!("koma-test-{}", std::process::id());
        let started = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                "100",
                "-y",
                "50",
                command,
            ])
            .env("LANG", "C.UTF-8")
            .status()
            .ok()?;
        started.success().then_some(Session(name))
    }

    fn send(&self, keys: &str) {
        Command::new("tmux")
            .args(["send-keys", "-t", &self.0, keys, "Enter"])
            .status()
            .unwrap();
    }

    /// The screen with escape sequences (`-e`) once it shows `wanted`.
    fn wait_for(&self, wanted: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let output = Command::new("tmux")
                .args(["capture-pane", "-p", "-e", "-t", &self.0])
                .output()
                .unwrap();
            let screen = String::from_utf8_lossy(&output.stdout).into_owned();
            if screen.contains(wanted) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "never saw {wanted:?}; screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .status();
    }
}

#[test]
fn shogi_at_a_terminal_is_coloured_and_interactive() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux not installed: terminal test skipped");
        return;
    }
    let command = format!("{} shogi", env!("CARGO_BIN_EXE_koma"));
    let session = Session::start(&command).expect("tmux session");
    let screen = session.wait_for("▲Sente>");
    assert!(
        screen.contains("|v香v桂v銀v金v玉v金v銀v桂v香| a 一"),
        "{screen}"
    );
    // Typed input is not echoed a second time at a terminal.
    session.send("7g7f");
    let screen = session.wait_for("Last move: 1.");
    assert_eq!(
        screen.matches("7g7f").count(),
        2,
        "the typed move and the last-move line:\n{screen}"
    );
    // The last move's square is shown in reverse video.
    assert!(screen.contains("\x1b[7m 歩"), "{screen}");
    session.send("3c3d");
    session.wait_for("Last move: 2.");
    session.send("8h2b");
    session.wait_for("Promote? [y/n]");
    session.send("y");
    let screen = session.wait_for("Last move: 3.");
    assert!(screen.contains("\x1b[7m 馬"), "{screen}");
    // Once it is no longer the last move, the promoted piece is drawn in red.
    session.send("9c9d");
    let screen = session.wait_for("Last move: 4.");
    assert!(screen.contains("\x1b[31m 馬"), "{screen}");
    session.send("quit");
}
