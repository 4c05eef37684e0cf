//! The computer at `koma shogi`: an opponent on one side (`--computer
//! sente|gote`, `--level 1..20`) that replies as soon as it is its turn,
//! and the `hint` command, the engine's advice to the side to move.

use super::board_view::side_name;
use super::history::Undone;
use super::{Console, ConsoleError};
use crate::console_engine::{self, Choice};
use koma_engine::Evaluate;
use koma_records::notation::Notation;
use koma_rules::{Color, ShogiPosition, ShogiVariant, Variant};
use std::io::{self, Write};

/// The computer's side and strength.
#[derive(Clone, Copy, Debug)]
pub struct Opponent {
    /// The side it plays.
    pub color: Color,
    /// 1 (weakest) to 20 (full strength).
    pub level: u8,
}

impl<V: ShogiVariant> Console<V>
where
    ShogiPosition<V>: Evaluate,
{
    /// The impasse rule the computer declares under: shogi's only.
    fn computer_impasse(&self) -> Option<koma_rules::ImpasseRule> {
        (V::VARIANT == Variant::Shogi).then_some(self.impasse)
    }

    /// Plays the computer's moves while it is its turn in the game (not
    /// while looking at an earlier position).
    pub(super) fn computer_turns(&mut self, output: &mut impl Write) -> Result<(), ConsoleError> {
        let Some(opponent) = self.computer else {
            return Ok(());
        };
        loop {
            let game = self.history.game();
            if self.history.is_browsing()
                || game.outcome().is_some()
                || game.position().turn() != opponent.color
            {
                return Ok(());
            }
            let name = side_name(opponent.color, self.style);
            writeln!(
                output,
                "Koma ({name}, level {}) is thinking…",
                opponent.level
            )?;
            output.flush()?;
            let choice = console_engine::choose(
                game.positions(),
                opponent.level,
                self.computer_impasse(),
                console_engine::THINK,
            );
            match choice {
                Some(Choice::Move(m)) => {
                    let before = *game.position();
                    let previous = game.moves().last().copied();
                    let written = Notation::move_text(&before, m, previous);
                    self.history
                        .play(m)
                        .map_err(|e| ConsoleError::Setup(format!("the engine's move: {e}")))?;
                    writeln!(output, "Koma plays {m:?} ({written}).")?;
                }
                Some(Choice::Declare) => {
                    self.history.declare(self.impasse).map_err(|e| {
                        ConsoleError::Setup(format!("the engine's declaration: {e}"))
                    })?;
                    writeln!(output, "Koma declares impasse (入玉宣言).")?;
                }
                // No legal move: the position ends the game.
                None => return Ok(()),
            }
            self.changed(output)?;
            self.show(output)?;
            self.announce_end(output)?;
        }
    }

    /// After an undo against the computer: takes back its moves too, until
    /// the player is to move (or nothing is left to take back).
    pub(super) fn undo_to_player(&mut self, output: &mut impl Write) -> io::Result<()> {
        let Some(opponent) = self.computer else {
            return Ok(());
        };
        while self.history.game().position().turn() == opponent.color {
            match self.history.undo() {
                Some(Undone::Move(m)) => writeln!(output, "Took back {m:?}.")?,
                Some(Undone::Ending(_)) => writeln!(output, "Took back the end of the game.")?,
                None => break,
            }
        }
        Ok(())
    }

    /// `hint`: the engine's move for the side to move in the position shown,
    /// with its line and value.
    pub(super) fn hint(&self, output: &mut impl Write) -> io::Result<()> {
        let game = self.history.game();
        let position = *game.position();
        if game.outcome().is_some() {
            return writeln!(output, "The game is over here: no hint.");
        }
        writeln!(output, "Thinking…")?;
        output.flush()?;
        let Some(advice) = console_engine::hint(game.positions(), console_engine::THINK) else {
            return writeln!(output, "No legal move here.");
        };
        let previous = game.moves().last().copied();
        let line = Notation::line_text(&position, &advice.line, previous);
        writeln!(
            output,
            "Hint for {}: {:?} ({}), {} at depth {}. Line: {line}",
            side_name(position.turn(), self.style),
            advice.line[0],
            Notation::move_text(&position, advice.line[0], previous),
            console_engine::score_text(advice.score),
            advice.depth
        )
    }
}
