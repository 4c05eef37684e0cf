//! `koma usi` and `koma uci` as a GUI drives them: handshake, options,
//! positions, searches with every kind of limit, `stop` and `ponderhit`,
//! and bad input that must never stop the engine.

use koma_rules::{Position, SpearPosition, StandardShogiPosition};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A running engine and the lines it prints.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(protocol: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("koma runs");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Lines until one starting with `prefix` (included); panics after `limit`.
    fn until(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` within {limit:?}; saw {seen:#?}"),
            }
        }
    }

    fn bestmove(&mut self, limit: Duration) -> (String, Vec<String>) {
        let lines = self.until("bestmove", limit);
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const SHORT: Duration = Duration::from_secs(10);

#[test]
fn usi_handshake_and_a_spear_search() {
    let mut engine = Engine::start("usi");
    engine.send("usi");
    let hello = engine.until("usiok", SHORT);
    assert!(hello[0].starts_with("id name Koma"));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name USI_Variant type combo") && l.contains("var spear")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Skill type spin")));
    for option in [
        "option name Threads type spin default 1",
        "option name MateSolver type check default true",
    ] {
        assert!(hello.iter().any(|l| l.starts_with(option)), "{option}");
    }
    engine.send("setoption name USI_Variant value spear");
    engine.send("isready");
    engine.until("readyok", SHORT);
    engine.send("usinewgame");
    engine.send("position startpos moves 5d5c 1b1c");
    engine.send("go depth 5");
    let (best, lines) = engine.bestmove(SHORT);
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(
        info.contains(" score cp ") || info.contains(" score mate "),
        "{info}"
    );
    assert!(info.contains(" pv "), "{info}");
    // The move is legal where the GUI is.
    let check = ["5d5c", "1b1c"]
        .iter()
        .fold(SpearPosition::start(), |p, m| {
            p.play(p.parse_move(m).unwrap()).unwrap()
        });
    assert!(check.parse_move(&best).is_ok(), "{best} is not legal");
    engine.send("quit");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn two_threads_play_by_the_clock_and_stop_at_once() {
    let mut engine = Engine::start("usi");
    engine.send("setoption name Threads value 2");
    engine.send("setoption name MateSolver value false");
    engine.send("isready");
    let ready = engine.until("readyok", SHORT);
    assert!(
        ready.iter().all(|l| !l.contains("unknown option")),
        "{ready:?}"
    );
    engine.send("position startpos moves 7g7f");
    engine.send("go btime 10000 wtime 10000 binc 100 winc 100");
    let (best, lines) = engine.bestmove(SHORT);
    let position = StandardShogiPosition::start();
    let position = position.play(position.parse_move("7g7f").unwrap()).unwrap();
    assert!(position.parse_move(&best).is_ok(), "{best} is not legal");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.send("stop");
    engine.bestmove(SHORT);
    assert!(asked.elapsed() < Duration::from_secs(2));
    engine.send("setoption name Threads value many");
    assert!(engine
        .until("info string", SHORT)
        .iter()
        .any(|l| l.contains("Threads needs a number")));
}

#[test]
fn stop_answers_an_infinite_search_at_once() {
    let mut engine = Engine::start("usi");
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.send("stop");
    let (best, _) = engine.bestmove(SHORT);
    assert!(asked.elapsed() < Duration::from_secs(2));
    assert_ne!(best, "resign");
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut engine = Engine::start("usi");
    engine.send("setoption name USI_Variant value minishogi");
    engine.send("position startpos");
    engine.send("go ponder btime 1000 wtime 1000 byoyomi 200");
    // No answer while pondering, however long.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(engine.lines.try_iter().all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    engine.bestmove(Duration::from_secs(5));
}

#[test]
fn clocks_and_byoyomi_are_respected() {
    let mut engine = Engine::start("usi");
    engine.send("position startpos moves 7g7f");
    // Gote to move with 300 ms and no byoyomi: well within it.
    let asked = Instant::now();
    engine.send("go btime 60000 wtime 300 binc 0 winc 0");
    engine.bestmove(SHORT);
    assert!(asked.elapsed() < Duration::from_millis(1500));
    let asked = Instant::now();
    engine.send("go btime 0 wtime 0 byoyomi 500");
    engine.bestmove(SHORT);
    assert!(asked.elapsed() < Duration::from_millis(2000));
    engine.send("go movetime 200");
    engine.bestmove(SHORT);
    engine.send("go nodes 2000");
    engine.bestmove(SHORT);
}

#[test]
fn a_mated_side_resigns_and_mates_are_reported_in_plies() {
    let mut engine = Engine::start("usi");
    engine.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    engine.send("go depth 3");
    assert_eq!(engine.bestmove(SHORT).0, "resign");
    engine.send("position sfen 7nl/7k1/9/7P1/9/9/9/9/4K4 b 2G 1");
    engine.send("go depth 6");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "G*2c");
    assert!(
        lines.iter().any(|l| l.contains("score mate 3")),
        "{lines:#?}"
    );
}

/// `go searchmoves`: the mate in three is left out, so another of the
/// moves named is played; the illegal one named is ignored.
#[test]
fn searchmoves_limits_the_moves_searched() {
    let mut engine = Engine::start("usi");
    engine.send("position sfen 7nl/7k1/9/7P1/9/9/9/9/4K4 b 2G 1");
    engine.send("go depth 4 searchmoves 5i4h 5i6h 1a1b");
    let best = engine.bestmove(SHORT).0;
    assert!(["5i4h", "5i6h"].contains(&best.as_str()), "{best}");
    engine.send("go depth 6 searchmoves 5i4h G*2c");
    assert_eq!(engine.bestmove(SHORT).0, "G*2c");
}

#[test]
fn a_winning_impasse_declaration_is_bestmove_win_and_is_played_for() {
    let mut engine = Engine::start("usi");
    // Sente's king and ten pieces in Gote's camp, 28 points: declare.
    let declarable = "+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b R5P 1";
    engine.send(&format!("position sfen {declarable}"));
    engine.send("go btime 10000 wtime 10000");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "win", "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("27-point rule")),
        "{lines:#?}"
    );
    // 27 points are one short: no declaration, a move.
    engine.send("position sfen +R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b R4P 1");
    engine.send("go depth 2");
    assert_ne!(engine.bestmove(SHORT).0, "win");
    // Nine pieces in the camp and 28 points: any piece dropped there
    // makes the declaration valid next move, and the search sees it.
    engine.send("position sfen +R+BSSKGG+N+N/L8/9/9/9/9/9/9/k8 b R6P 1");
    engine.send("go depth 3");
    let (best, lines) = engine.bestmove(SHORT);
    assert!(
        best.contains('*') && best.ends_with(['a', 'b', 'c']),
        "{best}"
    );
    assert!(
        lines.iter().any(|l| l.contains("score mate 3")),
        "{lines:#?}"
    );
    // Without the rule, the engine neither declares nor plays for it.
    engine.send("setoption name EnteringKingRule value NoEnteringKing");
    engine.send(&format!("position sfen {declarable}"));
    engine.send("go depth 2");
    let (best, lines) = engine.bestmove(SHORT);
    assert_ne!(best, "win");
    assert!(
        !lines.iter().any(|l| l.contains("score mate")),
        "{lines:#?}"
    );
}

#[test]
fn bad_input_is_reported_and_harmless() {
    let mut engine = Engine::start("usi");
    for line in [
        "xyzzy",
        "position sfen not a position",
        "position startpos moves 7g7f 9a9z",
        "position startpos moves 7g7f 7g7f",
        "setoption name USI_Variant value pawns",
        "setoption name USI_Hash value lots",
        "go depth banana nodes 1000",
        "",
        "\u{1F600}",
    ] {
        engine.send(line);
    }
    let mut lines = engine.until("bestmove", SHORT);
    engine.send("isready");
    lines.extend(engine.until("readyok", SHORT));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string unknown command")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string bad position")));
    assert!(lines.iter().any(|l| l.starts_with("info string move 2")));
    assert!(lines.iter().any(|l| l.contains("does not play pawns")));
    // The position is still the last good one: the start, Sente to move.
    engine.send("go depth 2");
    let (best, _) = engine.bestmove(SHORT);
    let start = StandardShogiPosition::start();
    assert!(start.parse_move(&best).is_ok());
}

#[test]
fn uci_plays_pawns_only_chess() {
    let mut engine = Engine::start("uci");
    engine.send("uci");
    let hello = engine.until("uciok", SHORT);
    assert!(hello
        .iter()
        .any(|l| l.contains("option name UCI_Variant type combo default pawns var pawns")));
    engine.send("setoption name UCI_Variant value pawns");
    engine.send("ucinewgame");
    engine.send("isready");
    engine.until("readyok", SHORT);
    engine.send("position startpos moves e2e4");
    engine.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let (best, _) = engine.bestmove(SHORT);
    assert_eq!(best.len(), 4, "{best}");
    assert!(best.ends_with('5') || best.ends_with('6'), "{best}");
    // Mates count in moves in UCI: Black takes the last pawn at once.
    engine.send("position fen 8/8/2p5/1P6/8/8/8/8 b - - 0 1");
    engine.send("go depth 4");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "c6b5");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:#?}"
    );
    engine.send("position fen P7/8/8/8/8/8/p7/8 b - - 0 1");
    engine.send("go depth 2");
    assert_eq!(engine.bestmove(SHORT).0, "(none)");
}

#[test]
fn go_mate_answers_checkmate_nomate_or_timeout() {
    let mut engine = Engine::start("usi");
    engine.send("usi");
    engine.until("usiok", SHORT);
    // testdata/records/tsumeshogi.csa: mate in three, useless interpositions
    // not counted.
    engine.send("position sfen 9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1");
    engine.send("go mate 60000");
    let answer = engine.until("checkmate", Duration::from_secs(60));
    let moves: Vec<&str> = answer.last().unwrap().split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 3, "{answer:?}");
    assert_eq!(moves[0], "7e7b+");
    let info = &answer[answer.len() - 2];
    assert!(info.starts_with("info time "), "{answer:?}");
    assert!(info.contains(" nodes "), "{info}");
    assert!(
        info.ends_with(&format!("score mate 3 pv {}", moves.join(" "))),
        "{info}"
    );
    let mut position =
        StandardShogiPosition::from_text("9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1")
            .unwrap();
    for m in &moves {
        position = position.play(position.parse_move(m).unwrap()).unwrap();
    }
    assert!(position.is_check() && position.legal_moves().is_empty());

    // The only mating drop would be a pawn's (uchifuzume): no mate.
    engine.send("position sfen 7nk/7l1/9/7N1/9/9/9/9/9 b P 1");
    engine.send("go mate infinite");
    assert_eq!(
        engine.until("checkmate", SHORT).last().unwrap(),
        "checkmate nomate"
    );

    // The counted mate in 5 ends on the dragon's check down the file, which
    // gote could block with its bishop: the line plays the drop and its
    // capture out to checkmate, and the score stays the count, 5.
    let sfen = "9/2R3Slk/9/9/6+R2/9/9/9/K8 b BPbl 1";
    engine.send(&format!("position sfen {sfen}"));
    engine.send("go mate 60000");
    let answer = engine.until("checkmate", Duration::from_secs(60));
    let moves: Vec<&str> = answer.last().unwrap().split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 7, "{answer:?}");
    let info = &answer[answer.len() - 2];
    assert!(
        info.ends_with(&format!("score mate 5 pv {}", moves.join(" "))),
        "{info}"
    );
    let mut position = StandardShogiPosition::from_text(sfen).unwrap();
    for m in &moves {
        position = position.play(position.parse_move(m).unwrap()).unwrap();
    }
    assert!(
        position.is_check() && position.legal_moves().is_empty(),
        "{moves:?}"
    );

    // Without the defender's king the position is refused, and `go mate`
    // says so and answers `nomate` rather than solve the position before.
    engine.send("position sfen 7nk/7l1/9/7N1/9/9/9/9/9 b L 1");
    engine.send("position sfen 9/9/9/9/9/9/9/9/4K4 b 2G 1");
    engine.send("go mate 1000");
    let answer = engine.until("checkmate", SHORT);
    assert_eq!(answer.last().unwrap(), "checkmate nomate", "{answer:?}");
    assert!(
        answer.iter().any(|line| line
            .starts_with("info string no mate search: the position was refused")
            && line.contains("Gote has no king")),
        "{answer:?}"
    );

    // A king in the open: `stop` ends the solve at once.
    engine.send("position sfen 9/9/9/9/4k4/9/9/9/9 b 2B2G2S 1");
    engine.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    let stopped = Instant::now();
    engine.send("stop");
    let answer = engine.until("checkmate", SHORT);
    assert!(stopped.elapsed() < Duration::from_secs(2), "{answer:?}");
    engine.send("isready");
    engine.until("readyok", SHORT);
}

#[test]
fn uci_perfect_plays_the_solvers_moves() {
    let mut engine = Engine::start("uci");
    engine.send("uci");
    let hello = engine.until("uciok", SHORT);
    for option in [
        "option name Perfect type check default false",
        "option name PerfectState type string default <empty>",
    ] {
        assert!(hello.iter().any(|l| l == option), "{hello:#?}");
    }
    engine.send("setoption name Perfect value true");
    // White's b-pawn is two moves from the end, Black's f-pawn four.
    engine.send("position fen 8/8/1P3p2/8/8/8/8/8 w - - 0 1");
    engine.send("go wtime 1000 btime 1000");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "b6b7");
    assert!(
        lines.iter().any(|l| l.contains("score mate 2 ")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l == "info string perfect: win"));
    // Lost: Black's b-pawn needs three moves, White's f-pawn four.
    engine.send("position fen 8/8/8/8/1p3P2/8/8/8 w - - 0 1");
    engine.send("go movetime 100");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "f4f5");
    assert!(
        lines.iter().any(|l| l.contains("score mate -3 ")),
        "{lines:#?}"
    );
    // A state directory that is not one is reported; play goes on.
    engine.send("setoption name PerfectState value /nonexistent/state");
    engine.send("position fen 8/8/1P3p2/8/8/8/8/8 w - - 0 1");
    engine.send("go movetime 100");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "b6b7");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string PerfectState: ")),
        "{lines:#?}"
    );
    // The shipped table answers the start position at once: 1.b4 wins.
    engine.send("setoption name PerfectState value <empty>");
    engine.send("position startpos");
    engine.send("go movetime 100");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best, "b2b4");
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("proven positions from the shipped table")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l == "info string perfect: win"));
    // A position no solve has met (every White pawn on the third rank)
    // would take the solver hours: `stop` still gets a legal move at once.
    engine.send("position fen 8/pppppppp/8/8/8/PPPPPPPP/8/8 w - - 0 1");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let (best, lines) = engine.bestmove(SHORT);
    assert_eq!(best.len(), 4, "{best}");
    assert!(
        lines.iter().any(|l| l.contains("stopped before")),
        "{lines:#?}"
    );
}

/// A network file of `variant` that values every position at +400 for
/// the side to move (only its output bias is not zero).
fn flat_network(variant: koma_rules::Variant) -> Vec<u8> {
    use koma_nnue::{Layout, Network, HIDDEN, QA, QB};
    let inputs = Layout::for_variant(variant).unwrap().inputs();
    Network::from_parts(
        variant,
        vec![0; inputs * HIDDEN],
        [0; HIDDEN],
        [0; 2 * HIDDEN],
        QA * QB,
    )
    .unwrap()
    .to_bytes()
}

#[test]
fn eval_file_and_use_nnue_choose_the_evaluation() {
    let dir = std::env::temp_dir().join(format!("koma-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let minishogi = dir.join("minishogi.nnue");
    let bytes = flat_network(koma_rules::Variant::Minishogi);
    std::fs::write(&minishogi, &bytes).unwrap();
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    let spear = dir.join("spear.nnue");
    std::fs::write(&spear, flat_network(koma_rules::Variant::Spear)).unwrap();

    let mut engine = Engine::start("usi");
    engine.send("usi");
    let hello = engine.until("usiok", SHORT);
    for option in [
        "option name UseNNUE type check default true",
        "option name EvalFile type string default <embedded>",
    ] {
        assert!(hello.iter().any(|l| l == option), "{option}");
    }
    engine.send("setoption name USI_Variant value minishogi");
    engine.send(&format!(
        "setoption name EvalFile value {}",
        minishogi.display()
    ));
    assert!(engine
        .until("info string", SHORT)
        .last()
        .unwrap()
        .ends_with("the minishogi network"));
    // Two bare kings: every leaf of a depth-1 search is the opponent's +400.
    let score = |engine: &mut Engine| {
        engine.send("position sfen 4k/5/5/5/K4 b - 1");
        engine.send("go depth 1");
        let (_, lines) = engine.bestmove(SHORT);
        let info = lines
            .iter()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap()
            .clone();
        info
    };
    assert!(score(&mut engine).contains(" score cp -400 "));
    engine.send("setoption name UseNNUE value false");
    assert!(!score(&mut engine).contains(" score cp -400 "));
    engine.send("setoption name UseNNUE value true");
    assert!(score(&mut engine).contains(" score cp -400 "));

    // A damaged file and a missing one are refused; the network stays.
    engine.send(&format!(
        "setoption name EvalFile value {}",
        damaged.display()
    ));
    let refused = engine.until("info string", SHORT).last().unwrap().clone();
    assert!(
        refused.contains("ends in its first layer") && refused.contains("the network in use stays"),
        "{refused}"
    );
    engine.send("setoption name EvalFile value /no/such/file.nnue");
    assert!(engine
        .until("info string", SHORT)
        .last()
        .unwrap()
        .contains("the network in use stays"));
    assert!(score(&mut engine).contains(" score cp -400 "));
    // Another game's network waits for its game, and the embedded one
    // (the classical evaluation where there is none) comes back.
    engine.send(&format!(
        "setoption name EvalFile value {}",
        spear.display()
    ));
    assert!(engine
        .until("info string", SHORT)
        .last()
        .unwrap()
        .contains("a spear network, used when USI_Variant is spear"));
    assert!(!score(&mut engine).contains(" score cp -400 "));
    engine.send("setoption name USI_Variant value spear");
    engine.send("position sfen 4k/5/5/5/K4 b - 1");
    engine.send("go depth 1");
    let (_, lines) = engine.bestmove(SHORT);
    assert!(lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .unwrap()
        .contains(" score cp -400 "));
    engine.send("setoption name UseNNUE value maybe");
    assert!(engine
        .until("info string", SHORT)
        .iter()
        .any(|l| l.contains("UseNNUE is true or false")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The search's parameters are USI options only in a build for tuning
/// (`--features tune`, see `koma_engine::params`); this build, the one
/// people run, neither lists nor takes them.
#[test]
fn a_normal_build_offers_no_tuning_options() {
    let mut engine = Engine::start("usi");
    engine.send("usi");
    let options = engine.until("usiok", SHORT);
    assert!(options.iter().any(|l| l.starts_with("option name Threads")));
    assert!(
        !options.iter().any(|l| l.contains("RFP_MARGIN")),
        "{options:?}"
    );
    engine.send("setoption name RFP_MARGIN value 100");
    engine.send("isready");
    let ready = engine.until("readyok", SHORT);
    assert!(
        ready
            .iter()
            .any(|l| l == "info string unknown option RFP_MARGIN"),
        "{ready:?}"
    );
    engine.send("quit");
    assert!(engine.child.wait().unwrap().success());
}
