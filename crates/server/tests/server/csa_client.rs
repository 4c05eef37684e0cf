//! Koma's own CSA client (`koma csa`, the `koma_csa` crate) plays a whole
//! game on Koma's CSA port, in this process, each side's engine a
//! scripted USI engine (fixed answers: fast and the same every time).

use crate::common::server::Server;
use crate::csa::csa_server;
use koma_csa::engine::EngineFactory;
use koma_csa::message::{EndReason, GameResult, TurnPreference};
use koma_csa::{play, GameRequest, Report, Settings};
use koma_usi::client::{Connection, Engine, EngineConfig};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

/// Engines that answer each `go` with the next of `moves` (then resign).
fn scripted(moves: &'static [&'static str]) -> EngineFactory {
    Box::new(move || {
        let (to_engine, engine_input) = mpsc::channel::<String>();
        let (engine_output, from_engine) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut moves = moves.iter();
            for line in engine_input {
                let answer = match line.split(' ').next().unwrap_or("") {
                    "usi" => "id name Scripted\nusiok".to_owned(),
                    "isready" => "readyok".to_owned(),
                    "go" => format!("bestmove {}", moves.next().unwrap_or(&"resign")),
                    "quit" => return,
                    _ => continue,
                };
                for answer in answer.lines() {
                    if engine_output.send(answer.to_owned()).is_err() {
                        return;
                    }
                }
            }
        });
        let config = EngineConfig::parse(&["cmd=scripted".to_owned()]).unwrap();
        let connection = Connection::in_process(to_engine, from_engine);
        Engine::connect(
            connection,
            &config,
            koma_rules::Variant::Shogi,
            "scripted",
            None,
        )
    })
}

/// `user` plays one game of `koma-60-1` on `server` as `turn`.
fn client(
    server: &Server,
    user: &str,
    turn: TurnPreference,
    moves: &'static [&'static str],
) -> Report {
    let settings = Settings {
        server: server.csa_address.clone().expect("the CSA port is open"),
        user: user.into(),
        password: "secret".into(),
        game: Some(GameRequest {
            name: "koma-60-1".into(),
            turn,
            challenge: false,
        }),
        games: 1,
        records: None,
        keep_alive: None,
        margin: Duration::from_millis(500),
        reconnect_delay: Duration::from_millis(10),
        comments: true,
        verbose: false,
    };
    play(&settings, scripted(moves), &AtomicBool::new(false)).expect("the client plays")
}

#[test]
fn komas_csa_client_plays_a_whole_game_on_komas_csa_port() {
    let server = csa_server(&[]);
    let (alice, bob) = std::thread::scope(|scope| {
        let alice =
            scope.spawn(|| client(&server, "alice", TurnPreference::Sente, &["7g7f", "2g2f"]));
        let bob = scope.spawn(|| client(&server, "bob", TurnPreference::Gote, &["3c3d", "8c8d"]));
        (alice.join().unwrap(), bob.join().unwrap())
    });
    let (alice, bob) = (&alice.games[0], &bob.games[0]);
    assert_eq!(alice.problem, None);
    assert_eq!(bob.problem, None);
    assert_eq!(alice.result, Some(GameResult::Lose));
    assert_eq!(bob.result, Some(GameResult::Win));
    assert_eq!(alice.reason, Some(EndReason::Resign));
    assert_eq!(alice.summary.game_id, bob.summary.game_id);
    assert_eq!((alice.moves(), bob.moves()), (4, 4));

    let id = &alice.summary.game_id;
    let state = server.get(&format!("/api/games/{id}")).json();
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["usi"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["7g7f", "3c3d", "2g2f", "8c8d"]);
    assert_eq!(state["outcome"]["winner"], "gote");
    assert_eq!(state["outcome"]["reason"], "resignation");
}
