//! The game as a record one can step through: the moves known (played or
//! loaded), a cursor, and the game up to the cursor.

use koma_records::{Ending, Record, RecordedMove};
use koma_rules::{Game, GameError, ImpasseRule, Move, Outcome, Position};

/// A record and the point of it on the board.
pub struct History<P: Position> {
    record: Record<P>,
    cursor: usize,
    game: Game<P>,
}

impl<P: Position> History<P> {
    /// A history of `record`, checked move by move, shown at move `cursor`.
    pub fn new(record: Record<P>, cursor: usize) -> Result<Self, String> {
        record.to_game().map_err(|e| e.to_string())?;
        let mut history = History {
            game: Game::new(record.start.clone()),
            record,
            cursor: 0,
        };
        history.goto(cursor);
        Ok(history)
    }

    /// The game as far as the cursor.
    pub fn game(&self) -> &Game<P> {
        &self.game
    }

    /// The record: every known move, the headers and the ending.
    pub fn record(&self) -> &Record<P> {
        &self.record
    }

    /// Number of moves on the board.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Number of moves known.
    pub fn len(&self) -> usize {
        self.record.moves.len()
    }

    /// Whether moves after the cursor are known.
    pub fn is_browsing(&self) -> bool {
        self.cursor < self.len()
    }

    /// The recorded move that led to the position shown, if any.
    pub fn current(&self) -> Option<&RecordedMove> {
        self.cursor.checked_sub(1).map(|i| &self.record.moves[i])
    }

    /// Shows the position after `n` moves (clamped to the known moves).
    pub fn goto(&mut self, n: usize) {
        let n = n.min(self.len());
        if self.game.declared().is_some() {
            // Takes back only the declared ending.
            self.game.undo();
        }
        while self.cursor > n {
            self.game.undo();
            self.cursor -= 1;
        }
        while self.cursor < n {
            let m = self.record.moves[self.cursor].m;
            self.game.play(m).expect("the record was checked");
            self.cursor += 1;
        }
        if self.cursor == self.len() && self.game.outcome().is_none() {
            let turn = self.game.position().turn();
            if let Some(outcome) = self.record.ending.and_then(|e| e.outcome(P::VARIANT, turn)) {
                self.game.declare(outcome).expect("the game is not over");
            }
        }
    }

    /// Plays `m` at the cursor; the later moves must have been dropped
    /// first (see [`History::truncate`]).
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        debug_assert!(!self.is_browsing());
        self.game.play(m)?;
        self.record.moves.push(RecordedMove::new(m));
        self.record.ending = None;
        self.cursor += 1;
        let ply = self.cursor;
        self.record.variations.retain(|v| v.ply <= ply);
        self.sync_ending();
        Ok(())
    }

    /// Drops the moves after the cursor (and variations that branch off
    /// them) and the recorded ending.
    pub fn truncate(&mut self) {
        self.record.moves.truncate(self.cursor);
        self.record.ending = None;
        let next = self.cursor + 1;
        self.record.variations.retain(|v| v.ply <= next);
        self.goto(self.cursor);
    }

    /// Takes back the last move, or the ending (a resignation) if there is
    /// one; what was taken back, `None` if nothing.
    pub fn undo(&mut self) -> Option<Undone> {
        if let Some(outcome) = self.game.declared() {
            self.record.ending = None;
            self.goto(self.cursor);
            return Some(Undone::Ending(outcome));
        }
        let last = self.record.moves.pop()?;
        self.record.ending = None;
        let next = self.record.moves.len() + 1;
        self.record.variations.retain(|v| v.ply <= next);
        self.game.undo();
        self.cursor = self.record.moves.len();
        Some(Undone::Move(last.m))
    }

    /// The side to move resigns at the end of the line.
    pub fn resign(&mut self) -> Result<(), GameError> {
        let side = self.game.position().turn();
        self.game.resign(side)?;
        self.record.ending = Some(Ending::Resignation);
        Ok(())
    }

    /// The side to move declares impasse under `rule`; a valid declaration
    /// ends the game and the record says so (入玉勝ち, or 持将棋 drawn).
    pub fn declare(&mut self, rule: ImpasseRule) -> Result<Outcome, GameError> {
        let side = self.game.position().turn();
        let outcome = self.game.declare_impasse(rule)?;
        self.record.ending = Some(Ending::from_outcome(outcome, side));
        Ok(outcome)
    }

    /// Starts again from `record`'s start with no moves, keeping nothing.
    pub fn restart(&mut self) {
        let start = self.record.start.clone();
        self.record = Record::new(start);
        self.goto(0);
    }

    /// The record's ending follows a game that ended on the board.
    fn sync_ending(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            let turn = self.game.position().turn();
            self.record.ending = Some(Ending::from_outcome(outcome, turn));
        }
    }
}

/// What `undo` took back.
pub enum Undone {
    /// A move.
    Move(Move),
    /// A resignation or another ending the board does not show.
    Ending(Outcome),
}
