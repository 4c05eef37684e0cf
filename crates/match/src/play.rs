//! One game between two engines: the moves asked for and checked, the
//! clocks kept, and the game ended by the rules, by an engine, by its
//! clock, or by adjudication.

use super::adjudication::{self, Rules, ScoreHistory, Verdict};
use super::clock::{Clocks, Limits, OwnLimits};
use super::openings::Opening;
use crate::error::EngineError;
use koma_rules::{Color, EndReason, Game, Move, Position, Variant};
use koma_usi::client::{position_command, BestMove, Engine, EngineConfig, Failure, TrafficLog};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The game.
    pub variant: Variant,
    /// How long the engines may think.
    pub limits: Limits,
    /// How far past its time an engine may answer before it loses on time.
    pub margin: Duration,
    /// How long to wait for an engine that has no time limit (depth or
    /// nodes only) before it counts as hung.
    pub hang_timeout: Duration,
    /// Adjudication.
    pub rules: Rules,
}

/// One of the two engines of a match, as a worker holds it: started when
/// first needed, restarted after it crashed, hung or played an illegal move.
pub struct Player {
    /// How to start it.
    pub config: EngineConfig,
    /// Its name in records and results.
    pub name: String,
    /// Which of the two (`engine1`, `engine2`), for messages and the log.
    pub label: String,
    /// Its own depth and nodes per move and its own clock (`nodes=`,
    /// `depth=`, `tc=`), if any.
    pub limits: OwnLimits,
    /// Where the traffic goes, if anywhere.
    pub log: Option<TrafficLog>,
    /// The running engine, if any.
    pub engine: Option<Engine>,
}

impl Player {
    /// The running engine, started if needed.
    pub fn engine(&mut self, variant: Variant) -> Result<&mut Engine, EngineError> {
        if self.engine.is_none() {
            let engine = Engine::start(&self.config, variant, &self.label, self.log.clone())?;
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Kills the engine; the next game starts a fresh one.
    pub fn discard(&mut self) {
        self.engine = None;
    }

    /// Ready for a new game, restarting the engine once if it is not.
    fn prepare(&mut self, variant: Variant) -> Result<(), EngineError> {
        if self.new_game(variant).is_ok() {
            return Ok(());
        }
        // Once more with a fresh engine; its failure is the one told.
        self.discard();
        let second = self.new_game(variant);
        if second.is_err() {
            self.discard();
        }
        second
    }

    /// The engine, started if needed, told a new game starts.
    fn new_game(&mut self, variant: Variant) -> Result<(), EngineError> {
        let label = self.label.clone();
        self.engine(variant)?
            .new_game()
            .map_err(|failure| EngineError::NewGame { label, failure })
    }

    /// Sends `quit` and lets the engine go.
    pub fn quit(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

/// Why a game ended, in the match's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended it (mate, king capture, repetition, last rank...).
    Rules(EndReason),
    /// An engine resigned (`bestmove resign`).
    Resignation,
    /// An engine declared a win by impasse, rightly.
    Declaration,
    /// An engine declared a win by impasse without the points for it.
    FalseDeclaration,
    /// An engine played an illegal or malformed move (as written).
    IllegalMove(String),
    /// An engine answered `bestmove (none)` with legal moves on the board.
    NoMove,
    /// An engine's flag fell (or it hung).
    Timeout,
    /// An engine exited or could not be started.
    Crash,
    /// The maximum length was reached: a draw.
    MaxPlies,
    /// Both engines' scores said it was lost: a resignation for the loser.
    AdjudicatedResignation,
    /// Both engines' scores said it was even: a draw.
    AdjudicatedDraw,
}

impl Termination {
    /// A short name for summaries and JSON.
    pub fn key(&self) -> String {
        match self {
            Termination::Rules(reason) => reason.to_string(),
            Termination::Resignation => "resignation".to_owned(),
            Termination::Declaration => "impasse declaration".to_owned(),
            Termination::FalseDeclaration => "false impasse declaration".to_owned(),
            Termination::IllegalMove(_) => "illegal move".to_owned(),
            Termination::NoMove => "no move".to_owned(),
            Termination::Timeout => "time forfeit".to_owned(),
            Termination::Crash => "engine crash".to_owned(),
            Termination::MaxPlies => "maximum length".to_owned(),
            Termination::AdjudicatedResignation => "adjudicated loss".to_owned(),
            Termination::AdjudicatedDraw => "adjudicated draw".to_owned(),
        }
    }

    /// Whether the runner, not the rules or an engine, decided the result.
    pub fn is_adjudication(&self) -> bool {
        matches!(
            self,
            Termination::MaxPlies
                | Termination::AdjudicatedResignation
                | Termination::AdjudicatedDraw
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::IllegalMove(text) => write!(f, "illegal move {text:?}"),
            other => f.write_str(&other.key()),
        }
    }
}

/// A move an engine played, with what it said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// The move.
    pub m: Move,
    /// What it took; `None` for the opening's moves.
    pub elapsed: Option<Duration>,
    /// `+0.35/12`: the engine's score and depth.
    pub comment: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame<P: Position> {
    /// Where it started.
    pub start: P,
    /// Every move, the opening's first.
    pub moves: Vec<PlayedMove>,
    /// Who won, and the position's turn when it ended.
    pub winner: Option<Color>,
    /// The side to move at the end.
    pub final_turn: Color,
    /// The player who lost by a fault of its engine (crash, illegal move),
    /// which may not be the side to move.
    pub faulty: Option<Color>,
    /// Why it ended.
    pub termination: Termination,
    /// What the runner adds to explain the ending.
    pub note: Option<String>,
}

/// Plays one game: `players[0]` is Sente. `None` if `stop` was raised
/// before the game ended.
pub fn play<P: Position>(
    players: [&mut Player; 2],
    opening: &Opening<P>,
    settings: &Settings,
    stop: &AtomicBool,
) -> Option<PlayedGame<P>> {
    let [sente, gote] = players;
    let mut players = [sente, gote];
    let mut game = Game::new(opening.start.clone());
    let mut moves: Vec<PlayedMove> = Vec::new();
    for &m in &opening.moves {
        // Openings were checked when read; a bad one is simply cut short.
        if game.play(m).is_err() {
            break;
        }
        moves.push(PlayedMove {
            m,
            elapsed: None,
            comment: None,
        });
    }
    let finish = |game: &Game<P>, moves: Vec<PlayedMove>, winner, termination, faulty, note| {
        Some(PlayedGame {
            start: opening.start.clone(),
            moves,
            winner,
            final_turn: game.position().turn(),
            faulty,
            termination,
            note,
        })
    };
    for color in Color::ALL {
        let player = &mut players[color.index()];
        if let Err(error) = player.prepare(settings.variant) {
            return finish(
                &game,
                moves,
                Some(!color),
                Termination::Crash,
                Some(color),
                Some(error.to_string()),
            );
        }
    }
    let mut clocks = Clocks::each(players.each_ref().map(|p| p.limits.over(&settings.limits)));
    let mut scores = ScoreHistory::default();
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break (
                outcome.winner,
                Termination::Rules(outcome.reason),
                None,
                None,
            );
        }
        let to_move = game.position().turn();
        match scores.verdict(&settings.rules, game.moves().len(), to_move) {
            Some(Verdict::MaxPlies) => {
                let note = format!("adjudicated a draw after {} plies", game.moves().len());
                break (None, Termination::MaxPlies, None, Some(note));
            }
            Some(Verdict::Draw) => {
                let note = "adjudicated a draw: both engines scored the game even".to_owned();
                break (None, Termination::AdjudicatedDraw, None, Some(note));
            }
            Some(Verdict::Resign(loser)) => {
                let note = "adjudicated: both engines scored the game lost".to_owned();
                break (
                    Some(!loser),
                    Termination::AdjudicatedResignation,
                    None,
                    Some(note),
                );
            }
            None => {}
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let player = &mut players[to_move.index()];
        let name = player.name.clone();
        let Some(engine) = player.engine.as_mut() else {
            let note = format!("{name} is not running");
            break (
                Some(!to_move),
                Termination::Crash,
                Some(to_move),
                Some(note),
            );
        };
        let allowance = clocks.allowance(to_move);
        let patience = allowance.map_or(settings.hang_timeout, |a| a + settings.margin);
        let command = position_command(game.start(), game.moves(), engine.dialect());
        let go = clocks.go_arguments(engine.dialect(), to_move);
        let thought = match engine.think(&command, &go, patience) {
            Ok(thought) => thought,
            Err(Failure::TimedOut) => {
                if !engine.recover() {
                    player.discard();
                }
                let note = match allowance {
                    Some(allowed) => format!(
                        "{name} lost on time: no move within {} ms (+{} ms margin)",
                        allowed.as_millis(),
                        settings.margin.as_millis()
                    ),
                    None => format!("{name} hung: no move in {:.1} s", patience.as_secs_f64()),
                };
                break (Some(!to_move), Termination::Timeout, None, Some(note));
            }
            Err(Failure::Crashed) => {
                player.discard();
                let note = format!("{name} crashed");
                break (
                    Some(!to_move),
                    Termination::Crash,
                    Some(to_move),
                    Some(note),
                );
            }
        };
        if let Err(fell) = clocks.charge(to_move, thought.elapsed, settings.margin) {
            let note = format!(
                "{name} lost on time: {} ms used, {} ms allowed",
                fell.elapsed.as_millis(),
                fell.allowed.as_millis()
            );
            break (Some(!to_move), Termination::Timeout, None, Some(note));
        }
        scores.push(to_move, thought.score);
        let m = match thought.best {
            BestMove::Resign => {
                break (Some(!to_move), Termination::Resignation, None, None);
            }
            BestMove::Win if adjudication::may_declare(game.position()) => {
                let note = format!("{name} declared a win by impasse");
                break (Some(to_move), Termination::Declaration, None, Some(note));
            }
            BestMove::Win => {
                let note = format!("{name} declared a win by impasse without the right to");
                break (
                    Some(!to_move),
                    Termination::FalseDeclaration,
                    Some(to_move),
                    Some(note),
                );
            }
            BestMove::NoMove => {
                player.discard();
                let note = format!("{name} found no move in a position with legal moves");
                break (
                    Some(!to_move),
                    Termination::NoMove,
                    Some(to_move),
                    Some(note),
                );
            }
            BestMove::Move(text) => match game.position().parse_move(&text) {
                Ok(m) => m,
                Err(error) => {
                    player.discard();
                    let shown: String = text.chars().take(20).collect();
                    let note = format!("{name} played an illegal move {shown:?}: {error}");
                    let termination = Termination::IllegalMove(shown);
                    break (Some(!to_move), termination, Some(to_move), Some(note));
                }
            },
        };
        game.play(m).expect("the move was checked");
        let comment = thought.score.map(|score| match thought.depth {
            Some(depth) => format!("{score}/{depth}"),
            None => score.to_string(),
        });
        moves.push(PlayedMove {
            m,
            elapsed: Some(thought.elapsed),
            comment,
        });
    };
    let (winner, termination, faulty, note) = result;
    for color in Color::ALL {
        if let Some(engine) = players[color.index()].engine.as_mut() {
            engine.game_over(match winner {
                None => "draw",
                Some(w) if w == color => "win",
                Some(_) => "lose",
            });
        }
    }
    finish(&game, moves, winner, termination, faulty, note)
}

/// The fake engine of the integration tests, run in a thread here.
#[cfg(test)]
#[path = "../tests/common/fake_engine.rs"]
mod fake_engine;

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{PawnsPosition, SpearPosition};
    use koma_usi::client::Connection;
    use std::sync::mpsc;

    /// A player whose engine is the fake engine in a thread.
    fn fake(behaviour: &str, name: &str, variant: Variant) -> Player {
        let (to_engine, engine_input) = mpsc::channel::<String>();
        let (engine_output, from_engine) = mpsc::channel::<String>();
        let behaviour = behaviour.to_owned();
        std::thread::spawn(move || {
            fake_engine::run(&behaviour, engine_input, move |line| {
                let _ = engine_output.send(line.to_owned());
            })
        });
        let connection = Connection::in_process(to_engine, from_engine);
        let config = EngineConfig {
            // Never started: a discarded fake engine cannot come back.
            program: "/nonexistent/fake-engine".to_owned(),
            ..EngineConfig::default()
        };
        let engine = Engine::connect(connection, &config, variant, name, None).unwrap();
        Player {
            config,
            name: name.to_owned(),
            label: name.to_owned(),
            limits: OwnLimits::default(),
            log: None,
            engine: Some(engine),
        }
    }

    fn settings(variant: Variant, base_ms: u64) -> Settings {
        Settings {
            variant,
            limits: Limits {
                base: Some(Duration::from_millis(base_ms)),
                increment: Duration::from_millis(10),
                ..Limits::default()
            },
            margin: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(5),
            rules: Rules {
                max_plies: 60,
                resign_moves: 0,
                resign_score: 1000,
                draw_moves: 0,
                draw_score: 10,
                draw_after: 0,
            },
        }
    }

    /// Sente's behaviour, Gote's, and the settings: the finished game.
    fn spear_game(sente: &str, gote: &str, settings: &Settings) -> PlayedGame<SpearPosition> {
        let mut first = fake(sente, "First", Variant::Spear);
        let mut second = fake(gote, "Second", Variant::Spear);
        let stop = AtomicBool::new(false);
        let opening = Opening::at(SpearPosition::start());
        play([&mut first, &mut second], &opening, settings, &stop).expect("not stopped")
    }

    #[test]
    fn a_normal_game_follows_the_rules() {
        let game = spear_game("", "garbage", &settings(Variant::Spear, 5000));
        let mut replay = Game::new(game.start);
        for played in &game.moves {
            replay.play(played.m).unwrap();
            assert!(played.elapsed.is_some());
        }
        match &game.termination {
            Termination::Rules(reason) => {
                assert_eq!(replay.outcome().map(|o| o.reason), Some(*reason));
                assert_eq!(replay.outcome().unwrap().winner, game.winner);
            }
            Termination::MaxPlies => {
                assert_eq!(game.moves.len(), 60);
                assert_eq!(game.winner, None);
            }
            other => panic!("unexpected ending {other}"),
        }
    }

    #[test]
    fn a_late_move_loses_on_time() {
        let game = spear_game("", "flag@2", &settings(Variant::Spear, 300));
        assert_eq!(game.termination, Termination::Timeout);
        assert_eq!(game.winner, Some(Color::Sente));
        assert_eq!(game.final_turn, Color::Gote);
        assert_eq!(game.moves.len(), 3);
        assert!(game.note.unwrap().contains("Second lost on time"));
    }

    #[test]
    fn an_illegal_move_loses() {
        let game = spear_game("illegal@2", "", &settings(Variant::Spear, 5000));
        assert_eq!(
            game.termination,
            Termination::IllegalMove("9a9a".to_owned())
        );
        assert_eq!(game.winner, Some(Color::Gote));
        assert_eq!(game.faulty, Some(Color::Sente));
        assert_eq!(game.moves.len(), 2);
    }

    #[test]
    fn a_crash_loses() {
        let game = spear_game("", "crash@3", &settings(Variant::Spear, 5000));
        assert_eq!(game.termination, Termination::Crash);
        assert_eq!(game.winner, Some(Color::Sente));
        assert_eq!(game.moves.len(), 5);
    }

    #[test]
    fn a_hung_engine_loses_on_time() {
        let game = spear_game("hang@1", "", &settings(Variant::Spear, 200));
        assert_eq!(game.termination, Termination::Timeout);
        assert_eq!(game.winner, Some(Color::Gote));
        assert!(game.moves.is_empty());
    }

    #[test]
    fn without_a_clock_a_hung_engine_loses_after_the_hang_timeout() {
        let mut by_depth = settings(Variant::Spear, 0);
        by_depth.limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        by_depth.hang_timeout = Duration::from_millis(300);
        let game = spear_game("", "hang@2", &by_depth);
        assert_eq!(game.termination, Termination::Timeout);
        assert_eq!(game.winner, Some(Color::Sente));
        assert!(game.note.unwrap().contains("Second hung"));
    }

    #[test]
    fn resignation_no_move_and_false_declarations() {
        let game = spear_game("", "resign@1", &settings(Variant::Spear, 5000));
        assert_eq!(game.termination, Termination::Resignation);
        assert_eq!(game.winner, Some(Color::Sente));
        let game = spear_game("nomove@1", "", &settings(Variant::Spear, 5000));
        assert_eq!(game.termination, Termination::NoMove);
        assert_eq!(game.winner, Some(Color::Gote));
        let game = spear_game("win@2", "", &settings(Variant::Spear, 5000));
        assert_eq!(game.termination, Termination::FalseDeclaration);
        assert_eq!(game.winner, Some(Color::Gote));
    }

    #[test]
    fn adjudication_by_scores_and_length() {
        let mut with_resign = settings(Variant::Spear, 5000);
        with_resign.rules.resign_moves = 3;
        let game = spear_game("score=-1500", "score=1200", &with_resign);
        assert_eq!(game.termination, Termination::AdjudicatedResignation);
        assert_eq!(game.winner, Some(Color::Gote));
        assert_eq!(game.final_turn, Color::Sente);
        assert_eq!(game.moves.len(), 6);
        let mut with_draw = settings(Variant::Spear, 5000);
        with_draw.rules.draw_moves = 2;
        with_draw.rules.draw_after = 8;
        let game = spear_game("score=5", "score=-5", &with_draw);
        assert_eq!(game.termination, Termination::AdjudicatedDraw);
        assert_eq!(game.moves.len(), 8);
        let mut short = settings(Variant::Spear, 5000);
        short.rules.max_plies = 4;
        let game = spear_game("", "", &short);
        assert_eq!(game.termination, Termination::MaxPlies);
        assert_eq!(game.moves.len(), 4);
    }

    #[test]
    fn pawns_over_uci() {
        let mut first = fake("", "White", Variant::Pawns);
        let mut second = fake("", "Black", Variant::Pawns);
        let stop = AtomicBool::new(false);
        let opening = Opening::at(PawnsPosition::start());
        let game = play(
            [&mut first, &mut second],
            &opening,
            &settings(Variant::Pawns, 5000),
            &stop,
        )
        .unwrap();
        assert!(
            matches!(game.termination, Termination::Rules(_)),
            "{}",
            game.termination
        );
    }

    #[test]
    fn a_raised_stop_abandons_the_game() {
        let mut first = fake("", "First", Variant::Spear);
        let mut second = fake("", "Second", Variant::Spear);
        let stop = AtomicBool::new(true);
        let opening = Opening::at(SpearPosition::start());
        let settings = settings(Variant::Spear, 5000);
        assert!(play([&mut first, &mut second], &opening, &settings, &stop).is_none());
    }
}
