//! A fake USI/UCI engine for testing `koma match`: it plays legal moves
//! chosen by the position's hash (so games are repeatable) and misbehaves
//! on request. Used in a thread by the match runner's unit tests and as a
//! process (this test program started again) by the integration tests.
//!
//! The behaviour is a comma-separated list:
//! `crash@N`, `illegal@N`, `hang@N`, `flag@N` (answer 1.5 s late),
//! `resign@N`, `nomove@N`, `win@N`: do that on the Nth `go` of a game;
//! `score=CP`: report that score every move; `sleep=MS`: think that long;
//! `garbage`: print nonsense around every answer.

// Each test program uses a part of this module.
#![allow(dead_code)]

use koma_rules::{with_position, Position, Variant};
use std::time::Duration;

/// What the fake engine was told to do.
#[derive(Clone, Debug, Default)]
struct Behaviour {
    faults: Vec<(String, usize)>,
    score: i32,
    sleep: u64,
    garbage: bool,
}

impl Behaviour {
    fn parse(text: &str) -> Behaviour {
        let mut behaviour = Behaviour::default();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if let Some((fault, at)) = word.split_once('@') {
                behaviour
                    .faults
                    .push((fault.to_owned(), at.parse().unwrap_or(1)));
            } else if let Some(score) = word.strip_prefix("score=") {
                behaviour.score = score.parse().unwrap_or(0);
            } else if let Some(sleep) = word.strip_prefix("sleep=") {
                behaviour.sleep = sleep.parse().unwrap_or(0);
            } else if word == "garbage" {
                behaviour.garbage = true;
            }
        }
        behaviour
    }

    fn fault(&self, go: usize) -> Option<&str> {
        self.faults
            .iter()
            .find(|(_, at)| *at == go)
            .map(|(fault, _)| fault.as_str())
    }
}

/// The legal moves after a `position …` command, as text; empty if the
/// command is not understood.
fn legal_moves_of<P: Position>(command: &str) -> (Vec<String>, u64) {
    let Ok(record) = koma_records::usi::read::<P>(command) else {
        return (Vec::new(), 0);
    };
    let position = record.final_position();
    let moves = position
        .legal_moves()
        .iter()
        .map(|&m| P::move_to_text(m))
        .collect();
    (moves, position.hash())
}

fn legal_moves(variant: Variant, command: &str) -> (Vec<String>, u64) {
    with_position!(variant, P => legal_moves_of::<P>(command))
}

/// Answers the lines of `input` through `output` until `quit`, the end of
/// the input, or a `crash`.
pub fn run(behaviour: &str, input: impl IntoIterator<Item = String>, mut output: impl FnMut(&str)) {
    let behaviour = Behaviour::parse(behaviour);
    let mut variant = Variant::Shogi;
    let mut position = String::from("position startpos");
    let mut goes = 0;
    for line in input {
        let line = line.trim().to_owned();
        if behaviour.garbage {
            output("\u{1b}[31mgarbage \u{fffd} bestmove");
        }
        match line.split_whitespace().next().unwrap_or("") {
            "usi" | "uci" => {
                if line == "uci" {
                    variant = Variant::Pawns;
                }
                output("id name Fake");
                output("option name USI_Variant type string default shogi");
                output(&format!("{line}ok"));
            }
            "setoption" => {
                let words: Vec<&str> = line.split_whitespace().collect();
                if let [_, "name", "USI_Variant" | "UCI_Variant", "value", name] = words[..] {
                    variant = name.parse().unwrap_or(variant);
                }
            }
            "isready" => output("readyok"),
            // Faults count the moves of each game.
            "usinewgame" | "ucinewgame" => goes = 0,
            "position" => position = line.clone(),
            "go" => {
                goes += 1;
                if behaviour.sleep > 0 {
                    std::thread::sleep(Duration::from_millis(behaviour.sleep));
                }
                let (moves, hash) = legal_moves(variant, &position);
                let chosen = if moves.is_empty() {
                    "resign".to_owned()
                } else {
                    moves[(hash % moves.len() as u64) as usize].clone()
                };
                output(&format!(
                    "info depth 3 score cp {} nodes 10 pv {chosen}",
                    behaviour.score
                ));
                match behaviour.fault(goes) {
                    Some("crash") => return,
                    Some("hang") => {
                        std::thread::sleep(Duration::from_secs(30));
                        return;
                    }
                    Some("flag") => {
                        std::thread::sleep(Duration::from_millis(1500));
                        output(&format!("bestmove {chosen}"));
                    }
                    Some("illegal") => output("bestmove 9a9a"),
                    Some("resign") => output("bestmove resign"),
                    Some("nomove") => output("bestmove (none)"),
                    Some("win") => output("bestmove win"),
                    _ => output(&format!("bestmove {chosen}")),
                }
            }
            "quit" => return,
            _ => {}
        }
    }
}

/// Runs the fake engine on standard input and output, then exits the
/// process (before the test harness prints anything more).
pub fn run_stdio(behaviour: &str) -> ! {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let lines = stdin.lock().lines().map_while(Result::ok);
    let mut stdout = std::io::stdout().lock();
    // The harness may have begun a line of its own.
    let _ = stdout.write_all(b"\n");
    run(behaviour, lines, |line| {
        let _ = stdout.write_all(line.as_bytes());
        let _ = stdout.write_all(b"\n");
        let _ = stdout.flush();
    });
    std::process::exit(0)
}
