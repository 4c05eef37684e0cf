//! A game: start position, moves, undo, and how it ended.

use crate::color::Color;
use crate::declaration::{Declaration, ImpasseRule, Shortfall};
use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::position::{IllegalMove, MoveError, Position};
use std::fmt;

/// A move that a game cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game has already ended.
    Finished(Outcome),
    /// The text is not a move in the game's notation.
    Syntax(String),
    /// The move is not legal in the current position.
    Illegal(IllegalMove),
    /// An impasse declaration that the rule does not allow now.
    InvalidDeclaration(Shortfall),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Finished(outcome) => write!(f, "the game is over ({})", outcome.reason),
            GameError::Syntax(message) => f.write_str(message),
            GameError::Illegal(illegal) => illegal.reason.fmt(f),
            GameError::InvalidDeclaration(shortfall) => {
                write!(f, "no impasse declaration: {shortfall}")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A game in progress or finished: every position it went through, the moves
/// between them, and its result.
///
/// Repetition (sennichite) applies to the games with check, shogi and
/// minishogi: the fourth occurrence of a position (same board, hands and
/// side to move) ends the game. A player who gave check with every move
/// since the position first occurred loses. Otherwise shogi's game is a
/// draw, and minishogi's is lost by sente, the first player (the rule of
/// 5五将棋 tournaments, and Fairy-Stockfish's).
///
/// ```
/// use koma_rules::{EndReason, Game, Position, StandardShogiPosition};
/// let mut game = Game::new(StandardShogiPosition::start());
/// for _ in 0..3 {
///     for m in ["5i4h", "5a4b", "4h5i", "4b5a"] {
///         game.play_text(m).unwrap();
///     }
/// }
/// assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::Repetition));
/// ```
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    positions: Vec<P>,
    moves: Vec<Move>,
    /// An ending that the positions do not show (resignation, time, ...).
    declared: Option<Outcome>,
}

impl<P: Position> Game<P> {
    /// A new game from `start`.
    pub fn new(start: P) -> Game<P> {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            declared: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// Every position, the start first and the current last.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.declared
            .or_else(|| self.position().outcome())
            .or_else(|| self.repetition())
    }

    /// An ending declared rather than shown by the position (resignation, time).
    pub fn declared(&self) -> Option<Outcome> {
        self.declared
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Finished(outcome));
        }
        let next = self.position().play(m).map_err(GameError::Illegal)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Parses a move in the game's notation and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Finished(outcome));
        }
        let m = self
            .position()
            .parse_move(text)
            .map_err(|error| match error {
                MoveError::Syntax(syntax) => GameError::Syntax(syntax.to_string()),
                MoveError::Illegal(illegal) => GameError::Illegal(illegal),
            })?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move (and any declared ending); returns it.
    pub fn undo(&mut self) -> Option<Move> {
        if self.declared.take().is_some() {
            return None;
        }
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// Ends the game with `color` resigning.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        self.declare(Outcome::win(!color, EndReason::Resignation))
    }

    /// Ends the game for a reason the positions do not show (time, an
    /// impasse declaration, a recorded result).
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(existing) = self.outcome() {
            return Err(GameError::Finished(existing));
        }
        self.declared = Some(outcome);
        Ok(())
    }

    /// What an impasse declaration by the side to move would give now
    /// under `rule` (see [`Declaration`]).
    pub fn impasse_declaration(&self, rule: ImpasseRule) -> Declaration {
        self.position().impasse_declaration(rule)
    }

    /// The side to move declares impasse under `rule`: a valid declaration
    /// ends the game (won by the declarer, or drawn under the 24-point rule
    /// with 24 to 30 points); an invalid one changes nothing and says why.
    ///
    /// ```
    /// use koma_rules::{EndReason, Game, GameError, ImpasseRule, Outcome, Color, Position,
    ///     Shortfall, StandardShogiPosition};
    ///
    /// let mut game = Game::new(StandardShogiPosition::start());
    /// assert_eq!(
    ///     game.declare_impasse(ImpasseRule::TwentySeven),
    ///     Err(GameError::InvalidDeclaration(Shortfall::KingOutsideCamp))
    /// );
    /// assert_eq!(game.outcome(), None);
    ///
    /// let entered = "+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b R5P 1";
    /// let mut game = Game::new(StandardShogiPosition::from_text(entered).unwrap());
    /// let won = Outcome::win(Color::Sente, EndReason::Impasse);
    /// assert_eq!(game.declare_impasse(ImpasseRule::TwentySeven), Ok(won));
    /// assert_eq!(game.outcome(), Some(won));
    /// ```
    pub fn declare_impasse(&mut self, rule: ImpasseRule) -> Result<Outcome, GameError> {
        if let Some(existing) = self.outcome() {
            return Err(GameError::Finished(existing));
        }
        let outcome = match self.impasse_declaration(rule) {
            Declaration::Win => Outcome::win(self.position().turn(), EndReason::Impasse),
            Declaration::Draw => Outcome::draw(EndReason::Impasse),
            Declaration::Invalid(shortfall) => {
                return Err(GameError::InvalidDeclaration(shortfall))
            }
        };
        self.declared = Some(outcome);
        Ok(outcome)
    }

    /// Sennichite, judged at the current position.
    fn repetition(&self) -> Option<Outcome> {
        if !matches!(
            P::VARIANT,
            crate::Variant::Shogi | crate::Variant::Minishogi
        ) {
            return None;
        }
        let current = self.position();
        let hash = current.hash();
        let mut occurrences = 0;
        let mut first = self.positions.len() - 1;
        // Only positions with the same side to move can be equal: step by two plies.
        for index in (0..self.positions.len()).rev().step_by(2) {
            let earlier = &self.positions[index];
            if earlier.hash() == hash && earlier == current {
                occurrences += 1;
                first = index;
            }
        }
        if occurrences < 4 {
            return None;
        }
        // Moves played since the first occurrence: position `i + 1` follows move `i`.
        let checked_throughout = |mover: Color| {
            (first..self.moves.len())
                .filter(|&i| self.positions[i].turn() == mover)
                .all(|i| self.positions[i + 1].is_check())
        };
        for color in Color::ALL {
            if checked_throughout(color) {
                return Some(Outcome::win(!color, EndReason::PerpetualCheck));
            }
        }
        if P::VARIANT == crate::Variant::Minishogi {
            return Some(Outcome::win(Color::Gote, EndReason::Repetition));
        }
        Some(Outcome::draw(EndReason::Repetition))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MinishogiPosition, PawnsPosition, SpearPosition, StandardShogiPosition};

    #[test]
    fn undo_returns_to_the_previous_position() {
        let mut game = Game::new(StandardShogiPosition::start());
        game.play_text("7g7f").unwrap();
        game.play_text("3c3d").unwrap();
        assert_eq!(
            game.undo().map(StandardShogiPosition::move_to_text),
            Some("3c3d".into())
        );
        assert_eq!(
            game.undo().map(StandardShogiPosition::move_to_text),
            Some("7g7f".into())
        );
        assert_eq!(game.undo(), None);
        assert_eq!(game.position(), &StandardShogiPosition::start());
    }

    #[test]
    fn perpetual_check_loses() {
        // Sente's rook checks along file 5 and file 4 in turn while Gote's
        // king steps between 5a and 4a: every Sente move is a check.
        let start = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/9/K4R3 b - 1").unwrap();
        let mut game = Game::new(start);
        let cycle = ["4i5i", "5a4a", "5i4i", "4a5a"];
        // The start position comes back after every cycle: its fourth
        // occurrence ends the game after the third cycle.
        for _ in 0..3 {
            assert_eq!(game.outcome(), None);
            for m in cycle {
                game.play_text(m).unwrap();
            }
        }
        assert_eq!(game.moves().len(), 12);
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Gote, EndReason::PerpetualCheck))
        );
    }

    #[test]
    fn repetition_without_constant_check_draws() {
        let start = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/9/K4R3 b - 1").unwrap();
        let mut game = Game::new(start);
        for _ in 0..3 {
            assert_eq!(game.outcome(), None);
            for m in ["4i3i", "5a6a", "3i4i", "6a5a"] {
                game.play_text(m).unwrap();
            }
        }
        assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    }

    #[test]
    fn minishogi_repetition_loses_for_sente_and_perpetual_check_for_the_checker() {
        let outcome_of_cycles = |start: &str, cycle: [&str; 4]| {
            let mut game = Game::new(MinishogiPosition::from_text(start).unwrap());
            for _ in 0..3 {
                assert_eq!(game.outcome(), None);
                for m in cycle {
                    game.play_text(m).unwrap();
                }
            }
            game.outcome()
        };
        // A rook and a king shuffle without a check: sente loses.
        assert_eq!(
            outcome_of_cycles("4k/5/5/5/K2R1 b - 1", ["2e3e", "1a1b", "3e2e", "1b1a"]),
            Some(Outcome::win(Color::Gote, EndReason::Repetition))
        );
        // Sente's rook checks with every move: sente loses all the same.
        assert_eq!(
            outcome_of_cycles("4k/5/5/5/K2R1 b - 1", ["2e1e", "1a2a", "1e2e", "2a1a"]),
            Some(Outcome::win(Color::Gote, EndReason::PerpetualCheck))
        );
        // Gote's rook checks with every move: gote loses.
        assert_eq!(
            outcome_of_cycles("r3k/5/5/5/K4 b - 1", ["5e4e", "5a4a", "4e5e", "4a5a"]),
            Some(Outcome::win(Color::Sente, EndReason::PerpetualCheck))
        );
    }

    #[test]
    fn resignation_and_finished_games() {
        let mut game = Game::new(SpearPosition::start());
        game.resign(Color::Sente).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Gote, EndReason::Resignation))
        );
        assert!(matches!(
            game.play_text("5d5c"),
            Err(GameError::Finished(_))
        ));
        game.undo();
        assert_eq!(game.outcome(), None);
        game.play_text("5d5c").unwrap();
    }

    #[test]
    fn errors_say_why() {
        let mut game = Game::new(PawnsPosition::start());
        assert!(matches!(game.play_text("e2e5"), Err(GameError::Illegal(_))));
        assert!(matches!(game.play_text("e2"), Err(GameError::Syntax(_))));
        assert_eq!(game.moves().len(), 0);
    }
}
