//! The board's perfect player of Pawns-Only Chess: the solver's moves
//! (`koma_solve::Perfect`) from the compact table shipped with Koma. It
//! never lets a win go, never loses a draw, and resists longest when lost.
//!
//! From any position of a game begun at the start it answers in about a
//! second. A position set up far from anything the 8×8 solve met (a FEN
//! with many pawns in odd places) could take the solver hours: past its
//! time the player gives up, and the caller plays the engine's move.

use koma_rules::pawns_board::PawnsBoard;
use koma_rules::{PawnsPosition, Position};
use koma_solve::{Interrupted, Perfect, Solver, PAWNS8_TABLE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// The solver's table: room for the shipped table and what the games
/// prove beside it, modest next to the other things a server holds.
const TABLE_BYTES: usize = 256 << 20;

/// Nodes each search for a win's length may spend (as `koma uci`'s
/// `Perfect`).
const LENGTH_BUDGET: u64 = 4 << 20;

/// One perfect player shared by every game of the server, made at its
/// first move (loading the table takes a fraction of a second). Games
/// ask in turn: each answer takes about a second.
#[derive(Default)]
pub struct PerfectPicker {
    player: Mutex<Option<Perfect<8>>>,
}

impl PerfectPicker {
    /// The perfect move in `position` as UCI text (`None` if there is no
    /// move), or [`Interrupted`] when `think` ran out before its value was
    /// known (or, which the rules never make, the position does not fit
    /// the solver's board).
    pub fn pick(
        &self,
        position: &PawnsPosition,
        think: Duration,
    ) -> Result<Option<String>, Interrupted> {
        let board = PawnsBoard::<8>::from_fen(&position.to_text()).map_err(|_| Interrupted)?;
        let mut guard = self.player.lock().unwrap_or_else(|p| p.into_inner());
        let player = guard.get_or_insert_with(|| {
            let mut solver = Solver::with_memory(TABLE_BYTES);
            // The table is part of the program, checked by its tests.
            let _ = solver.load_table(PAWNS8_TABLE);
            Perfect::new(solver, LENGTH_BUDGET)
        });
        let stop = Arc::new(AtomicBool::new(false));
        player.stop_with(stop.clone());
        // Sets the flag when `think` has passed, unless the answer came
        // first (dropping `done` wakes the watcher at once).
        let (done, finished) = mpsc::channel::<()>();
        let watcher = std::thread::spawn(move || {
            if finished.recv_timeout(think) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let chosen = player.choose(&board);
        drop(done);
        let _ = watcher.join();
        Ok(chosen?.map(|chosen| board.move_name(chosen.best)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_plays_the_proven_win_and_gives_up_past_its_time() {
        let picker = PerfectPicker::default();
        let start = PawnsPosition::from_text("8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1").unwrap();
        assert_eq!(
            picker.pick(&start, Duration::from_secs(60)),
            Ok(Some("b2b4".into()))
        );
        // Every White pawn on the third rank: no solve met it, and it
        // would take the solver hours.
        let odd = PawnsPosition::from_text("8/pppppppp/8/8/8/PPPPPPPP/8/8 w - - 0 1").unwrap();
        assert_eq!(
            picker.pick(&odd, Duration::from_millis(200)),
            Err(Interrupted)
        );
        // A position with no move: stalemate.
        let stuck = PawnsPosition::from_text("8/8/8/8/8/p7/P7/8 w - - 0 1").unwrap();
        assert_eq!(picker.pick(&stuck, Duration::from_secs(1)), Ok(None));
    }
}
