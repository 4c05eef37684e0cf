//! The perfect player of the 8×8 game as Koma's programs use it: over the
//! table shipped with Koma ([`PAWNS8_TABLE`]), choosing in the game's own
//! position ([`koma_rules::PawnsPosition`]) and naming its move in UCI, by
//! a stop flag or within a time. The board's computer opponent (`koma
//! serve`) and UCI's `Perfect` option (`koma uci`) are both this.

use crate::compact::PAWNS8_TABLE;
use crate::perfect::{Interrupted, Perfect};
use crate::search::Solver;
use crate::value::Value;
use koma_rules::pawns_board::PawnsBoard;
use koma_rules::PawnsPosition;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Nodes each search for a win's length may spend: about a second in the
/// 8×8 game's costliest positions.
pub const LENGTH_BUDGET: u64 = 4 << 20;

/// A move the perfect player chose in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameMove {
    /// The move in UCI (`e2e4`).
    pub uci: String,
    /// The position's value for the side to move.
    pub value: Value,
    /// The plies to the end with this move, when the length search found
    /// them (see [`crate::PerfectMove::plies`]).
    pub plies: Option<u32>,
}

impl Perfect<8> {
    /// The player over a table of `memory` bytes holding the table shipped
    /// with Koma; with it, the count of the positions the table brought,
    /// or why it could not be read (the player then proves everything
    /// itself, which takes far longer).
    pub fn shipped(memory: usize) -> (Perfect<8>, Result<usize, String>) {
        let mut solver = Solver::with_memory(memory);
        let loaded = solver.load_table(PAWNS8_TABLE);
        (Perfect::new(solver, LENGTH_BUDGET), loaded)
    }

    /// The perfect move in `position`: `None` when the game is over or the
    /// side to move has no move; [`Interrupted`] when the stop flag (see
    /// [`Perfect::stop_with`]) was set before its value was known.
    ///
    /// ```
    /// use koma_rules::PawnsPosition;
    /// use koma_solve::{Perfect, Solver, Value};
    ///
    /// let mut player = Perfect::new(Solver::new(), 100_000);
    /// // White's pawn runs: nothing can catch it.
    /// let position = PawnsPosition::from_fen("8/p7/8/8/8/8/7P/8 w - - 0 1").unwrap();
    /// let chosen = player.choose_in(&position).unwrap().unwrap();
    /// assert_eq!((chosen.uci.as_str(), chosen.value), ("h2h4", Value::Win));
    /// ```
    pub fn choose_in(&mut self, position: &PawnsPosition) -> Result<Option<GameMove>, Interrupted> {
        // A finished game is the only position the board cannot hold.
        let Ok(board) = PawnsBoard::<8>::try_from(position) else {
            return Ok(None);
        };
        Ok(self.choose(&board)?.map(|chosen| GameMove {
            uci: board.move_name(chosen.best),
            value: chosen.value,
            plies: chosen.plies,
        }))
    }

    /// As [`Perfect::choose_in`], giving up once `think` has passed.
    pub fn choose_within(
        &mut self,
        position: &PawnsPosition,
        think: Duration,
    ) -> Result<Option<GameMove>, Interrupted> {
        let stop = Arc::new(AtomicBool::new(false));
        self.stop_with(stop.clone());
        // Sets the flag when `think` has passed, unless the answer came
        // first (dropping `done` wakes the watcher at once).
        let (done, finished) = mpsc::channel::<()>();
        let watcher = std::thread::spawn(move || {
            if finished.recv_timeout(think) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let chosen = self.choose_in(position);
        drop(done);
        let _ = watcher.join();
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_has_no_move_and_a_race_is_won_in_time() {
        let mut player = Perfect::new(Solver::new(), 100_000);
        let won = PawnsPosition::from_fen("P7/8/8/8/8/8/p7/8 b - - 0 1").unwrap();
        assert!(won.outcome().is_some());
        assert_eq!(player.choose_in(&won), Ok(None));
        let race = PawnsPosition::from_fen("8/p7/8/8/8/8/7P/8 w - - 0 1").unwrap();
        let chosen = player
            .choose_within(&race, Duration::from_secs(60))
            .unwrap()
            .unwrap();
        assert_eq!(chosen.value, Value::Win);
        assert!(chosen.plies.is_some());
    }
}
