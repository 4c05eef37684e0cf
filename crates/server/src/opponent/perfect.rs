//! The board's perfect player of Pawns-Only Chess: the solver's moves
//! (`koma_solve::Perfect`) from the compact table shipped with Koma. It
//! never lets a win go, never loses a draw, and resists longest when lost.
//!
//! From any position of a game begun at the start it answers in about a
//! second. A position set up far from anything the 8×8 solve met (a FEN
//! with many pawns in odd places) could take the solver hours: past its
//! time the player gives up, and the caller plays the engine's move.

use koma_rules::PawnsPosition;
use koma_solve::{Interrupted, SharedPerfect};
use std::time::Duration;

/// The solver's table: room for the shipped table and what the games
/// prove beside it, modest next to the other things a server holds.
const TABLE_BYTES: usize = 256 << 20;

/// How long the player is kept after its last answer: through a game
/// (a person's think between moves), not for the server's whole life.
const KEPT_IDLE: Duration = Duration::from_secs(300);

/// One perfect player shared by every game of the server, made at its
/// first move (loading the table takes a fraction of a second). Games
/// ask in turn: each answer takes about a second. Its table (256 MiB)
/// is let go once no game has asked for [`KEPT_IDLE`], and what the games
/// proved beside it goes back to the system.
pub struct PerfectPicker {
    shared: SharedPerfect,
}

impl Default for PerfectPicker {
    fn default() -> Self {
        PerfectPicker::keeping_idle(KEPT_IDLE)
    }
}

impl PerfectPicker {
    /// The perfect move in `position` as UCI text (`None` if there is no
    /// move, or the game is over), or [`Interrupted`] when `think` ran out
    /// before its value was known.
    pub fn pick(
        &self,
        position: &PawnsPosition,
        think: Duration,
    ) -> Result<Option<String>, Interrupted> {
        // The table is part of the program, checked by its tests: what
        // loading it brought is not looked at.
        let chosen = self
            .shared
            .with(|player, _| player.choose_within(position, think));
        Ok(chosen?.map(|chosen| chosen.uci))
    }

    /// A player let go after `kept_idle` without a question.
    fn keeping_idle(kept_idle: Duration) -> PerfectPicker {
        PerfectPicker {
            shared: SharedPerfect::new(TABLE_BYTES)
                .letting_go_after(kept_idle, crate::opponent::computer_pool::give_memory_back),
        }
    }

    /// Whether the player (and its table) is loaded now.
    #[cfg(test)]
    fn is_loaded(&self) -> bool {
        self.shared.is_loaded()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Position;
    use std::time::Instant;

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

    #[test]
    fn the_table_is_let_go_when_no_game_asks_and_comes_back_when_one_does() {
        let picker = PerfectPicker::keeping_idle(Duration::from_millis(200));
        let start = PawnsPosition::from_text("8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1").unwrap();
        assert_eq!(
            picker.pick(&start, Duration::from_secs(60)),
            Ok(Some("b2b4".into()))
        );
        assert!(picker.is_loaded());
        let deadline = Instant::now() + Duration::from_secs(60);
        while picker.is_loaded() {
            assert!(Instant::now() < deadline, "still held after a minute");
            std::thread::sleep(Duration::from_millis(20));
        }
        // Asked again, it loads the table again and answers the same.
        assert_eq!(
            picker.pick(&start, Duration::from_secs(60)),
            Ok(Some("b2b4".into()))
        );
        assert!(picker.is_loaded());
    }
}
