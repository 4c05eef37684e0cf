//! One game's engine behind the protocol: the position the GUI set up and
//! searches running on their own thread, so `stop` is answered at once.

use super::output::{bestmove_line, info_line, Output};
use crate::Dialect;
use koma_engine::{
    Clock, Engine, EngineOptions, Evaluate, Limits, Network, NetworkForAnotherGame, SearchControl,
};
use koma_mate::{MateAnswer, MateLimits, MateReport, MateSearch, Solver};
use koma_rules::{Color, Move, Position, Variant};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What the protocol loop needs from the engine of whichever game is set.
pub trait Session: Send {
    /// Forgets the previous game's learning.
    fn new_game(&mut self);
    /// Sets the position: `setup` (SFEN/FEN; `None` for the start) then
    /// `moves`. On an error the previous position stays.
    fn set_position(
        &mut self,
        setup: Option<&str>,
        moves: &[String],
    ) -> Result<(), PositionRefused>;
    /// The side to move in the current position.
    fn turn(&self) -> Color;
    /// The current position in the game's notation (SFEN or FEN).
    fn position_text(&self) -> String;
    /// The moves of `texts` (USI or UCI) that are legal in the current
    /// position, for `go searchmoves`; the others are left out.
    fn legal_moves_among(&self, texts: &[String]) -> Vec<Move>;
    /// Starts a search; the thread prints `info` lines and `bestmove`.
    fn start(&mut self, limits: Limits, control: SearchControl, output: Output) -> JoinHandle<()>;
    /// Starts a mate solve of the current position (USI `go mate`): the
    /// thread prints `checkmate …` when it ends, at `limits` or when
    /// `control` is stopped at the latest.
    fn start_mate(
        &mut self,
        limits: MateLimits,
        control: SearchControl,
        output: Output,
    ) -> JoinHandle<()>;
    /// Resizes the hash table.
    fn set_hash(&mut self, megabytes: usize);
    /// Changes the engine options.
    fn set_options(&mut self, options: EngineOptions);
    /// Evaluates with `network` (`None`: the classical evaluation); one
    /// of another game is refused.
    fn set_network(&mut self, network: Option<Arc<Network>>) -> Result<(), NetworkForAnotherGame>;
}

/// Why a `position` command is refused; the GUI is told in an
/// `info string`.
#[derive(Debug, thiserror::Error)]
pub enum PositionRefused {
    /// The SFEN (or FEN) is not a position of the game: the rules' error.
    #[error("bad position: {0}")]
    Setup(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A move that cannot be read or played where it stands.
    #[error("move {number} ({}): {source}", super::shorten(text))]
    Move {
        /// 1 for the first move after the position.
        number: usize,
        /// The move as sent.
        text: String,
        /// The rules' reason.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// The session of one game `P`.
struct GameSession<P: Evaluate + MateSearch> {
    engine: Arc<Mutex<Engine<P>>>,
    /// The game's positions, the current one last.
    positions: Vec<P>,
    dialect: Dialect,
}

/// A session for `variant` with a hash table of `hash` MiB.
pub fn new_session(
    variant: Variant,
    hash: usize,
    options: EngineOptions,
    dialect: Dialect,
) -> Box<dyn Session> {
    koma_rules::with_position!(variant, P => {
        let mut engine = Engine::<P>::new(hash);
        engine.options = options;
        Box::new(GameSession {
            engine: Arc::new(Mutex::new(engine)),
            positions: vec![P::start()],
            dialect,
        })
    })
}

impl<P: Evaluate + MateSearch> GameSession<P> {
    fn engine(&self) -> std::sync::MutexGuard<'_, Engine<P>> {
        // A search thread that panicked leaves a usable engine behind.
        self.engine
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl<P: Evaluate + MateSearch> Session for GameSession<P> {
    fn new_game(&mut self) {
        self.engine().clear();
    }

    fn set_position(
        &mut self,
        setup: Option<&str>,
        moves: &[String],
    ) -> Result<(), PositionRefused> {
        let start = match setup {
            None => P::start(),
            Some(text) => P::from_text(text).map_err(|e| PositionRefused::Setup(e.into()))?,
        };
        let mut positions = Vec::with_capacity(moves.len() + 1);
        positions.push(start);
        for (index, text) in moves.iter().enumerate() {
            let current = positions.last().copied().unwrap_or(start);
            let m = current
                .parse_move(text)
                .map_err(|e| PositionRefused::Move {
                    number: index + 1,
                    text: text.clone(),
                    source: e.into(),
                })?;
            let mut next = current;
            next.play_unchecked(m);
            positions.push(next);
        }
        self.positions = positions;
        Ok(())
    }

    fn turn(&self) -> Color {
        self.positions.last().map_or(Color::Sente, |p| p.turn())
    }

    fn position_text(&self) -> String {
        self.positions
            .last()
            .map_or_else(|| P::start().to_text(), |p| p.to_text())
    }

    fn legal_moves_among(&self, texts: &[String]) -> Vec<Move> {
        let Some(current) = self.positions.last() else {
            return Vec::new();
        };
        texts
            .iter()
            .filter_map(|text| current.parse_move(text).ok())
            .collect()
    }

    fn start(&mut self, limits: Limits, control: SearchControl, output: Output) -> JoinHandle<()> {
        let engine = Arc::clone(&self.engine);
        let positions = self.positions.clone();
        let dialect = self.dialect;
        std::thread::spawn(move || {
            let mut engine = engine
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let declaration = match positions.last() {
                Some(root) if dialect == Dialect::Usi => engine.options.winning_declaration(root),
                _ => None,
            };
            // A winning declaration needs no search, unless the GUI waits
            // for `stop` (pondering, infinite) before it wants an answer.
            let waits = limits.infinite || limits.ponder;
            let result = (declaration.is_none() || waits).then(|| {
                engine.search(&positions, &limits, &control, &mut |info| {
                    output.line(&info_line::<P>(info, dialect));
                })
            });
            if let Some(rule) = declaration {
                output.line(&format!(
                    "info string impasse declaration wins under the {rule}-point rule"
                ));
                output.line("bestmove win");
            } else if let Some(result) = result {
                output.line(&bestmove_line::<P>(&result, dialect));
            }
        })
    }

    fn start_mate(
        &mut self,
        limits: MateLimits,
        control: SearchControl,
        output: Output,
    ) -> JoinHandle<()> {
        let position = self.positions.last().copied().unwrap_or_else(P::start);
        std::thread::spawn(move || {
            let mut solver = Solver::new(limits.table_megabytes);
            let report = position.solve_mate(&mut solver, &limits, Some(control.stop_flag()));
            if let Some(report) = &report {
                output.line(&mate_info_line::<P>(report));
            }
            output.line(&checkmate_line::<P>(report.as_ref()));
        })
    }

    fn set_hash(&mut self, megabytes: usize) {
        self.engine().set_hash_size(megabytes);
    }

    fn set_options(&mut self, options: EngineOptions) {
        self.engine().options = options;
    }

    fn set_network(&mut self, network: Option<Arc<Network>>) -> Result<(), NetworkForAnotherGame> {
        self.engine().set_network(network)
    }
}

/// What a solve cost, as GUIs show it before the answer: `info time …
/// nodes … nps …`, with `score mate` and the `pv` for a mate. The score
/// is the mate's length as problems count it (useless interpositions
/// left out); the `pv`, like `checkmate`, plays them out to checkmate on
/// the board, and so may be longer.
fn mate_info_line<P: Position>(report: &MateReport) -> String {
    let mut line = format!(
        "info time {} nodes {} nps {}",
        report.elapsed.as_millis(),
        report.nodes,
        report.nodes_per_second()
    );
    if let MateAnswer::Mate(moves) = &report.answer {
        let moves: Vec<String> = moves.iter().map(|&m| P::move_to_text(m)).collect();
        line += &format!(" score mate {} pv {}", report.length, moves.join(" "));
    }
    line
}

/// USI's answer to `go mate`: `checkmate` and the moves, `checkmate
/// nomate`, `checkmate timeout`, or `checkmate notimplemented` for a game
/// without mates.
fn checkmate_line<P: Position>(report: Option<&MateReport>) -> String {
    match report.map(|r| &r.answer) {
        Some(MateAnswer::Mate(line)) => {
            let moves: Vec<String> = line.iter().map(|&m| P::move_to_text(m)).collect();
            format!("checkmate {}", moves.join(" "))
        }
        Some(MateAnswer::NoMate) => "checkmate nomate".into(),
        Some(MateAnswer::Unknown) => "checkmate timeout".into(),
        None => "checkmate notimplemented".into(),
    }
}

/// The search limits of a `go` command for the side to move.
pub fn limits_of(go: &super::command::GoParams, turn: Color) -> Limits {
    let (time, increment) = match turn {
        Color::Sente => (go.first_time, go.first_increment),
        Color::Gote => (go.second_time, go.second_increment),
    };
    let clock = (time.is_some() || go.byoyomi.is_some()).then(|| Clock {
        remaining: time.unwrap_or_default(),
        increment: increment.unwrap_or_default(),
        byoyomi: go.byoyomi.unwrap_or_default(),
        moves_to_go: go.moves_to_go,
    });
    Limits {
        clock,
        move_time: go.move_time,
        depth: go.depth,
        nodes: go.nodes,
        infinite: go.infinite,
        ponder: go.ponder,
        search_moves: Vec::new(),
    }
}
