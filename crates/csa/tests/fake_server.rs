//! The client against a CSA server scripted in the test: what it sends,
//! byte for byte, with a fake USI engine whose answers are fixed (no
//! search, so nothing depends on timing).

use koma_csa::engine::EngineFactory;
use koma_csa::message::{EndReason, GameResult, TurnPreference};
use koma_csa::{play, CsaError, GameRequest, Report, Settings};
use koma_records::{csa, Ending, Record};
use koma_rules::{Position, StandardShogiPosition};
use koma_usi::client::{Connection, Engine, EngineConfig};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the fake engine answers to each `go`, in order, and what it heard.
#[derive(Clone, Default)]
struct Script {
    answers: Arc<Mutex<VecDeque<&'static str>>>,
    heard: Arc<Mutex<Vec<String>>>,
}

impl Script {
    fn new(answers: &[&'static str]) -> Script {
        Script {
            answers: Arc::new(Mutex::new(answers.iter().copied().collect())),
            heard: Arc::default(),
        }
    }

    fn go_lines(&self) -> Vec<String> {
        let heard = self.heard.lock().unwrap();
        heard
            .iter()
            .filter(|l| l.starts_with("go "))
            .cloned()
            .collect()
    }

    /// Engines (one per start) that answer from the script.
    fn factory(&self) -> EngineFactory {
        let script = self.clone();
        Box::new(move || {
            let (to_engine, engine_input) = mpsc::channel::<String>();
            let (engine_output, from_engine) = mpsc::channel::<String>();
            let script = script.clone();
            std::thread::spawn(move || {
                for line in engine_input {
                    script.heard.lock().unwrap().push(line.clone());
                    let answer = match line.split(' ').next().unwrap_or("") {
                        "usi" => "id name Fake\nusiok",
                        "isready" => "readyok",
                        "go" => script
                            .answers
                            .lock()
                            .unwrap()
                            .pop_front()
                            .unwrap_or("bestmove resign"),
                        "quit" => return,
                        _ => "",
                    };
                    for answer in answer.lines() {
                        if engine_output.send(answer.to_owned()).is_err() {
                            return;
                        }
                    }
                }
            });
            let config = EngineConfig::parse(&["cmd=fake".to_owned()]).unwrap();
            let connection = Connection::in_process(to_engine, from_engine);
            Engine::connect(
                connection,
                &config,
                koma_rules::Variant::Shogi,
                "fake",
                None,
            )
        })
    }
}

/// The server's side of one connection.
struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Peer {
    fn accept(listener: &TcpListener) -> Peer {
        let (stream, _) = listener.accept().unwrap();
        // A client that stops talking fails the test instead of hanging it.
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        Peer {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
        }
    }

    /// The next line must be exactly `expected` (and its `\n`).
    fn expect(&mut self, expected: &str) {
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        assert_eq!(line, format!("{expected}\n"));
    }

    /// The client closes the connection without another line.
    fn expect_closed(&mut self) {
        let mut line = String::new();
        assert_eq!(self.reader.read_line(&mut line).unwrap(), 0, "{line:?}");
    }

    fn send(&mut self, text: &str) {
        self.writer
            .write_all(format!("{text}\n").as_bytes())
            .unwrap();
    }
}

fn summary(your_turn: char, position: &str) -> String {
    format!(
        "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n\
         Declaration:Jishogi 1.1\nGame_ID:test+koma-60-5+alice+bob+1\nName+:alice\nName-:bob\n\
         Your_Turn:{your_turn}\nRematch_On_Draw:NO\nTo_Move:+\nMax_Moves:256\nBEGIN Time\n\
         Time_Unit:1sec\nTotal_Time:60\nByoyomi:5\nIncrement:0\nLeast_Time_Per_Move:0\n\
         END Time\nBEGIN Position\n{position}\nEND Position\nEND Game_Summary"
    )
}

/// The CSA position lines of an SFEN, as a server writes them.
fn position_lines(sfen: &str) -> String {
    let position = StandardShogiPosition::from_text(sfen).unwrap();
    let text = csa::write(&Record::new(position));
    text.lines()
        .filter(|line| line.starts_with('P') || *line == "+" || *line == "-")
        .collect::<Vec<_>>()
        .join("\n")
}

fn settings(port: u16, records: &Path, game: Option<GameRequest>, games: usize) -> Settings {
    Settings {
        server: format!("127.0.0.1:{port}"),
        user: "alice".into(),
        password: "secret".into(),
        game,
        games,
        records: Some(records.to_owned()),
        keep_alive: None,
        margin: Duration::from_millis(500),
        reconnect_delay: Duration::from_millis(10),
        comments: true,
        verbose: false,
    }
}

/// Runs the client on a thread against `server`, which gets the listener.
fn run(
    settings_for: impl FnOnce(u16) -> Settings,
    script: &Script,
    server: impl FnOnce(TcpListener) + Send + 'static,
) -> Result<Report, CsaError> {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server: JoinHandle<()> = std::thread::spawn(move || server(listener));
    let result = play(
        &settings_for(port),
        script.factory(),
        &AtomicBool::new(false),
    );
    server.join().expect("the scripted server's checks passed");
    result
}

fn read_record(path: &Path) -> Record<StandardShogiPosition> {
    csa::read(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const START: &str = "PI\n+";

#[test]
fn plays_a_byoyomi_game_as_sente_and_resigns() {
    let records = tempfile::tempdir().unwrap();
    let script = Script::new(&[
        "info depth 3 score cp 30 pv 7g7f 3c3d 2g2f\nbestmove 7g7f",
        "bestmove resign",
    ]);
    let game = GameRequest {
        name: "koma-60-5".into(),
        turn: TurnPreference::Either,
        challenge: false,
    };
    let report = run(
        |port| settings(port, records.path(), Some(game), 1),
        &script,
        |listener| {
            let mut peer = Peer::accept(&listener);
            peer.expect("LOGIN alice secret x1");
            peer.send("LOGIN:alice OK\n##[LOGIN] +OK x1");
            peer.expect("%%GAME koma-60-5 *");
            peer.send(&summary('+', START));
            peer.expect("AGREE");
            peer.send("START:test+koma-60-5+alice+bob+1");
            peer.expect("+7776FU,'* 30 -3334FU +2726FU");
            // The server charges 5 s for a move made at once: delay.
            peer.send("+7776FU,T5");
            // Garbage in the middle of the game is reported and ignored.
            peer.send("+77,T1\nNONSENSE\n\n-3334FU,T2");
            peer.expect("%TORYO");
            peer.send("%TORYO\n#RESIGN\n#LOSE");
            peer.expect("LOGOUT");
            peer.send("LOGOUT:completed");
        },
    )
    .unwrap();
    assert_eq!(report.games.len(), 1);
    let game = &report.games[0];
    assert_eq!(game.result, Some(GameResult::Lose));
    assert_eq!(game.reason, Some(EndReason::Resign));
    assert_eq!(game.moves(), 2);
    let gos = script.go_lines();
    assert_eq!(gos[0], "go btime 60000 wtime 60000 byoyomi 4500");
    // Charged 5 s for an instant move: the margin grew past the byoyomi,
    // so the rest comes out of the main time (55 s left).
    let btime: u64 = gos[1].split(' ').nth(2).unwrap().parse().unwrap();
    assert!(btime < 55_000, "{}", gos[1]);
    assert!(gos[1].ends_with("wtime 58000 byoyomi 0"), "{}", gos[1]);
    let record = read_record(game.record_file.as_ref().unwrap());
    assert_eq!(record.headers.sente.as_deref(), Some("alice"));
    assert_eq!(record.moves.len(), 2);
    assert_eq!(record.moves[0].comments, ["** 30 -3334FU +2726FU"]);
    assert_eq!(record.moves[1].time, Some(Duration::from_secs(2)));
    assert_eq!(record.ending, Some(Ending::Resignation));
}

#[test]
fn declares_only_when_the_27_point_rule_holds() {
    let records = tempfile::tempdir().unwrap();
    let script = Script::new(&["bestmove win", "bestmove win"]);
    // Sente's king and 11 pieces in gote's camp: 28 points with the hand.
    let entered = position_lines("+R+B+S+SKGG+N+N/+L+L5P1/9/9/9/9/9/9/k8 b R4P 1");
    let report = run(
        |port| settings(port, records.path(), None, 2),
        &script,
        move |listener| {
            // Plain CSA mode: the server offers a game and ends the session
            // with it; the client logs in again for the next.
            let mut peer = Peer::accept(&listener);
            peer.expect("LOGIN alice secret");
            peer.send("LOGIN:alice OK");
            peer.send(&summary('+', &entered));
            peer.expect("AGREE");
            peer.send("START:test+koma-60-5+alice+bob+1");
            peer.expect("%KACHI");
            peer.send("%KACHI\n#JISHOGI\n#WIN");
            // No LOGOUT after a plain-mode game: shogi-server has ended
            // the session and would log it as an error.
            peer.expect_closed();
            drop(peer);
            let mut peer = Peer::accept(&listener);
            peer.expect("LOGIN alice secret");
            peer.send("LOGIN:alice OK");
            peer.send(&summary('+', START));
            peer.expect("AGREE");
            peer.send("START:test+koma-60-5+alice+bob+1");
            // A declaration in the start position would lose: resigned.
            peer.expect("%TORYO");
            peer.send("%TORYO\n#RESIGN\n#LOSE");
            peer.expect_closed();
        },
    )
    .unwrap();
    assert_eq!(report.games.len(), 2);
    assert_eq!(report.reconnections, 0);
    assert_eq!(report.games[0].result, Some(GameResult::Win));
    assert_eq!(report.games[0].reason, Some(EndReason::Jishogi));
    let record = read_record(report.games[0].record_file.as_ref().unwrap());
    assert_eq!(record.ending, Some(Ending::ImpasseWin));
    assert_eq!(report.games[1].result, Some(GameResult::Lose));
    // The same Game_ID twice: the second record beside the first.
    let second = report.games[1].record_file.as_ref().unwrap();
    assert!(second.ends_with("test+koma-60-5+alice+bob+1-2.csa"));
    assert_eq!(read_record(second).ending, Some(Ending::Resignation));
}

#[test]
fn a_dropped_connection_or_an_illegal_move_loses_the_game_and_logs_in_again() {
    let records = tempfile::tempdir().unwrap();
    let script = Script::new(&[
        "bestmove 2g2f",
        "info depth 1 score cp 20 pv 3c3d 2g2f\nbestmove 3c3d",
    ]);
    let game = GameRequest {
        name: "koma-60-5".into(),
        turn: TurnPreference::Gote,
        challenge: false,
    };
    let report = run(
        |port| settings(port, records.path(), Some(game), 3),
        &script,
        |listener| {
            let login = |peer: &mut Peer, your_turn| {
                peer.expect("LOGIN alice secret x1");
                peer.send("LOGIN:alice OK");
                peer.expect("%%GAME koma-60-5 -");
                peer.send(&summary(your_turn, START));
                peer.expect("AGREE");
                peer.send("START:test+koma-60-5+alice+bob+1");
            };
            // Game 1: the connection drops after our first move.
            let mut peer = Peer::accept(&listener);
            login(&mut peer, '+');
            peer.expect("+2726FU");
            drop(peer);
            // Game 2: the server sends a move Koma's rules refuse.
            let mut peer = Peer::accept(&listener);
            login(&mut peer, '-');
            peer.send("+1112FU,T1");
            // Game 3 is played to the end, as gote.
            let mut peer = Peer::accept(&listener);
            login(&mut peer, '-');
            peer.send("+7776FU,T1");
            peer.expect("-3334FU,'* -20 +2726FU");
            peer.send("-3334FU,T0\n%TORYO\n#RESIGN\n#WIN");
            peer.expect("LOGOUT");
            peer.send("LOGOUT:completed");
        },
    )
    .unwrap();
    assert_eq!(report.games.len(), 3);
    assert_eq!(report.reconnections, 2);
    assert_eq!(report.games[0].result, None);
    assert!(report.games[0].problem.as_deref().unwrap().contains("lost"));
    assert!(report.games[1]
        .problem
        .as_deref()
        .unwrap()
        .contains("+1112FU"));
    assert_eq!(report.games[2].result, Some(GameResult::Win));
    assert_eq!(report.games[2].moves(), 2);
    // The lost game's record is kept, broken off.
    let record = read_record(report.games[0].record_file.as_ref().unwrap());
    assert_eq!(record.ending, Some(Ending::Abandoned));
}

#[test]
fn a_refused_login_stops_the_client() {
    let records = tempfile::tempdir().unwrap();
    let result = run(
        |port| settings(port, records.path(), None, 1),
        &Script::new(&[]),
        |listener| {
            let mut peer = Peer::accept(&listener);
            peer.expect("LOGIN alice secret");
            peer.send("LOGIN:incorrect");
        },
    );
    let error = result.unwrap_err();
    assert!(matches!(error, CsaError::LoginRefused { .. }), "{error}");
    assert!(error.to_string().contains("LOGIN:incorrect"));
}
