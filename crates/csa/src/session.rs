//! One game, from `START` to the result: the position kept in step with
//! the server's moves, the engine asked for ours within the clock, and
//! `%TORYO`/`%KACHI` sent when right.

use crate::clock::{Clocks, DelayEstimate};
use crate::connection::ServerConnection;
use crate::engine::EngineSlot;
use crate::message::{ClientCommand, EndReason, GameResult, MoveLine, ServerMessage, Special};
use crate::record;
use crate::summary::GameSummary;
use crate::{CsaError, Settings};
use koma_records::csa::move_code;
use koma_records::{Record, RecordedMove};
use koma_rules::{
    write_usi_move, Color, Declaration, ImpasseRule, Move, Position, StandardShogiPosition,
};
use koma_usi::client::{BestMove, Failure, Thought};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often waiting looks at Ctrl-C and the keep-alive.
pub(crate) const POLL: Duration = Duration::from_millis(100);

/// How a game went.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game as offered.
    pub summary: GameSummary,
    /// The result for us, if the game got that far.
    pub result: Option<GameResult>,
    /// Why it ended, as the server said.
    pub reason: Option<EndReason>,
    /// The record, with the ending.
    pub record: Record<StandardShogiPosition>,
    /// Where the record was saved.
    pub record_file: Option<PathBuf>,
    /// What went wrong, if the game did not end normally.
    pub problem: Option<String>,
}

impl GameReport {
    /// The number of moves played.
    pub fn moves(&self) -> usize {
        self.record.moves.len()
    }

    /// One line for stderr: who, the result, the moves.
    pub fn line(&self, number: usize) -> String {
        let summary = &self.summary;
        let side = summary.your_turn.select("sente", "gote");
        let outcome = match (self.result, self.reason) {
            (Some(result), Some(reason)) => format!("{} (#{})", result.word(), reason.word()),
            (Some(result), None) => result.word().to_owned(),
            (None, _) => format!(
                "lost: {}",
                self.problem
                    .as_deref()
                    .unwrap_or("no result from the server")
            ),
        };
        let mut line = format!(
            "game {number} {}: {} (+) vs {} (-), Koma {side}: {outcome}, {} moves",
            summary.game_id,
            summary.sente,
            summary.gote,
            self.moves()
        );
        if let Some(path) = &self.record_file {
            line.push_str(&format!(", record {}", path.display()));
        }
        line
    }
}

/// What a game needs from the client around it.
pub(crate) struct Table<'a> {
    pub connection: &'a mut ServerConnection,
    pub engine: &'a mut EngineSlot,
    pub settings: &'a Settings,
    pub stop: &'a AtomicBool,
}

/// Our move sent, waiting for the server to play it back.
struct Sent {
    code: String,
    /// Our measure of the move's time: from reading the previous move to
    /// sending this one.
    local: Duration,
    comment: Option<String>,
}

/// The game being played.
struct Game {
    summary: GameSummary,
    us: Color,
    position: StandardShogiPosition,
    usi_moves: Vec<String>,
    record: Record<StandardShogiPosition>,
    clocks: Clocks,
    delay: DelayEstimate,
    /// When the side to move's time started, as we saw it.
    turn_started: Instant,
    sent: Option<Sent>,
    /// We sent `%TORYO` or `%KACHI`: nothing more to send.
    finished_sending: bool,
    special: Option<Special>,
    reason: Option<EndReason>,
    result: Option<GameResult>,
}

/// Plays the game of `summary` after `START`; returns its report and, if
/// it did not end with a result, why.
pub(crate) fn play(table: &mut Table, summary: GameSummary) -> (GameReport, Option<CsaError>) {
    let mut game = Game::new(summary, &table.settings.server);
    let error = game.run(table).err();
    if let Some(error) = &error {
        game.record.ending = Some(koma_records::Ending::Abandoned);
        if matches!(error, CsaError::Engine(_)) {
            table.engine.discard();
        }
    } else {
        table.engine.game_over(match game.result {
            Some(GameResult::Win) => "win",
            Some(GameResult::Lose) => "lose",
            _ => "draw",
        });
    }
    let report = GameReport {
        result: game.result,
        reason: game.reason,
        record: game.record,
        record_file: None,
        problem: error.as_ref().map(ToString::to_string),
        summary: game.summary,
    };
    (report, error)
}

impl Game {
    fn new(summary: GameSummary, server: &str) -> Game {
        let mut position = summary.start;
        let mut usi_moves = Vec::new();
        for recorded in &summary.moves {
            usi_moves.push(write_usi_move(recorded.m));
            position.play_unchecked(recorded.m);
        }
        Game {
            us: summary.your_turn,
            usi_moves,
            record: record::new_record(&summary, server),
            clocks: Clocks::new(summary.time),
            delay: DelayEstimate::default(),
            turn_started: Instant::now(),
            sent: None,
            finished_sending: false,
            special: None,
            reason: None,
            result: None,
            position,
            summary,
        }
    }

    fn run(&mut self, table: &mut Table) -> Result<(), CsaError> {
        table.engine.get()?.new_game().map_err(engine_failure)?;
        self.turn_started = Instant::now();
        while self.result.is_none() {
            if self.our_turn() {
                // A result that came while we were busy ends the game
                // before a move is sent into it.
                self.drain(table)?;
                if self.result.is_some() {
                    break;
                }
                let command = self.our_move(table)?;
                self.drain(table)?;
                if self.result.is_some() {
                    break;
                }
                table.connection.send(&command)?;
                if let ClientCommand::Move { code, comment } = command {
                    self.sent = Some(Sent {
                        code,
                        local: self.turn_started.elapsed(),
                        comment,
                    });
                } else {
                    self.finished_sending = true;
                }
                continue;
            }
            if table.stop.load(Ordering::Relaxed) {
                let _ = table.connection.send(&ClientCommand::Logout);
                return Err(CsaError::Interrupted);
            }
            if let Some(every) = table.settings.keep_alive {
                if table.connection.idle() >= every {
                    table.connection.send(&ClientCommand::KeepAlive)?;
                }
            }
            if let Some(line) = table.connection.receive(POLL)? {
                self.on_line(&line)?;
            }
        }
        self.record.ending = record::ending(
            self.reason,
            self.special,
            self.result,
            self.us,
            self.position.turn(),
        );
        Ok(())
    }

    fn our_turn(&self) -> bool {
        self.position.turn() == self.us && self.sent.is_none() && !self.finished_sending
    }

    /// Handles the lines already received, without waiting.
    fn drain(&mut self, table: &mut Table) -> Result<(), CsaError> {
        while self.result.is_none() {
            match table.connection.receive(Duration::ZERO)? {
                Some(line) => self.on_line(&line)?,
                None => break,
            }
        }
        Ok(())
    }

    fn on_line(&mut self, line: &str) -> Result<(), CsaError> {
        let message = match ServerMessage::parse(line) {
            Ok(message) => message,
            Err(malformed) => {
                eprintln!("koma csa: ignored: {malformed}");
                return Ok(());
            }
        };
        match message {
            ServerMessage::Move(line) => self.on_move(line)?,
            ServerMessage::Special(special) => self.special = Some(special),
            ServerMessage::Reason(reason) => self.reason = Some(reason),
            ServerMessage::Result(result) => self.result = Some(result),
            ServerMessage::KeepAlive => {}
            ServerMessage::Notice(text) => eprintln!("koma csa: server: {text}"),
            other => eprintln!("koma csa: ignored during the game: {line:?} ({other:?})"),
        }
        Ok(())
    }

    fn on_move(&mut self, line: MoveLine) -> Result<(), CsaError> {
        let received = Instant::now();
        let mover = self.position.turn();
        let m = find_move(&self.position, &line.code).map_err(|reason| {
            CsaError::IllegalServerMove {
                code: line.code.clone(),
                reason,
            }
        })?;
        let units = line.time.unwrap_or(0);
        let charged = self.summary.time.duration(units);
        self.clocks.charge(mover, units);
        let mut recorded = RecordedMove::new(m);
        recorded.time = Some(charged);
        if mover == self.us {
            match self.sent.take() {
                Some(sent) if sent.code == line.code => {
                    self.delay.observe(sent.local, charged);
                    recorded
                        .comments
                        .extend(sent.comment.map(|c| format!("*{c}")));
                }
                Some(sent) => eprintln!(
                    "koma csa: the server played {} for us where we sent {}",
                    line.code, sent.code
                ),
                None => eprintln!(
                    "koma csa: the server played {} for us before we sent a move",
                    line.code
                ),
            }
        }
        self.usi_moves.push(write_usi_move(m));
        self.position.play_unchecked(m);
        self.record.moves.push(recorded);
        self.turn_started = received;
        Ok(())
    }

    /// Asks the engine and turns its answer into what to send.
    fn our_move(&mut self, table: &mut Table) -> Result<ClientCommand, CsaError> {
        let margin = self.delay.margin(table.settings.margin);
        let (go, patience) = self.clocks.go(self.us, margin);
        let command = self.position_command();
        let engine = table.engine.get()?;
        let thought = match engine.think(&command, &go, patience) {
            Ok(thought) => thought,
            Err(failure) => {
                let recovered = failure == Failure::TimedOut && engine.recover();
                if !recovered {
                    table.engine.discard();
                }
                eprintln!(
                    "koma csa: the engine {} in game {}: resigning",
                    match failure {
                        Failure::Crashed => "crashed",
                        Failure::TimedOut => "gave no move in time",
                    },
                    self.summary.game_id
                );
                return Ok(ClientCommand::Resign);
            }
        };
        Ok(self.answer(thought, table.settings.comments))
    }

    /// `position sfen … moves …` for the engine.
    fn position_command(&self) -> String {
        let mut command = format!("position sfen {}", self.summary.start.to_text());
        if !self.usi_moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&self.usi_moves.join(" "));
        }
        command
    }

    fn answer(&self, thought: Thought, comments: bool) -> ClientCommand {
        let text = match &thought.best {
            BestMove::Resign | BestMove::NoMove => return ClientCommand::Resign,
            BestMove::Win => {
                let rule = ImpasseRule::TwentySeven;
                return match self.position.impasse_declaration(rule) {
                    Declaration::Win => ClientCommand::Declare,
                    verdict => {
                        eprintln!(
                            "koma csa: the engine declared a win by impasse that the 27-point \
                             rule refuses ({verdict:?}): resigning rather than losing by an \
                             illegal %KACHI"
                        );
                        ClientCommand::Resign
                    }
                };
            }
            BestMove::Move(text) => text,
        };
        let m = match self.position.parse_move(text) {
            Ok(m) => m,
            Err(error) => {
                eprintln!(
                    "koma csa: the engine's move {text:?} is not legal here ({error}): resigning"
                );
                return ClientCommand::Resign;
            }
        };
        let comment = (comments && self.summary.allows_comments())
            .then(|| self.comment(m, &thought))
            .flatten();
        ClientCommand::Move {
            code: move_code(&self.position, m),
            comment,
        }
    }

    /// floodgate's `* score pv`: the score from sente's view, then the
    /// expected reply and what follows, in CSA.
    fn comment(&self, m: Move, thought: &Thought) -> Option<String> {
        let score = thought.score?.centipawns();
        let score = self.us.select(score, -score);
        let mut comment = format!("* {score}");
        let mut pv = thought.pv.iter();
        if pv.next().map(String::as_str) == Some(write_usi_move(m).as_str()) {
            let mut position = self.position;
            position.play_unchecked(m);
            for text in pv {
                let Ok(next) = position.parse_move(text) else {
                    break;
                };
                comment.push(' ');
                comment.push_str(&move_code(&position, next));
                position.play_unchecked(next);
            }
        }
        Some(comment)
    }
}

/// The legal move of the side to move that CSA writes as `code`.
fn find_move(position: &StandardShogiPosition, code: &str) -> Result<Move, String> {
    let sign = position.turn().select('+', '-');
    if !code.starts_with(sign) {
        return Err(format!(
            "it is {}'s turn",
            position.turn().select("sente (+)", "gote (-)")
        ));
    }
    position
        .legal_moves()
        .into_iter()
        .find(|&m| move_code(position, m) == code)
        .ok_or_else(|| format!("no legal move in {} reads so", position.to_text()))
}

fn engine_failure(failure: Failure) -> CsaError {
    CsaError::Engine(match failure {
        Failure::Crashed => "it exited".to_owned(),
        Failure::TimedOut => "it did not answer isready".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_moves_are_found_or_refused() {
        let start = StandardShogiPosition::start();
        let m = find_move(&start, "+7776FU").unwrap();
        assert_eq!(write_usi_move(m), "7g7f");
        assert!(find_move(&start, "-3334FU")
            .unwrap_err()
            .contains("sente (+)"));
        assert!(find_move(&start, "+7775FU")
            .unwrap_err()
            .contains("no legal move"));
        assert!(find_move(&start, "+0055KA").is_err());
    }
}
