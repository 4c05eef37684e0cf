//! What earlier cutoffs teach about moves: killer moves per ply, a
//! history score per (side, kind of mover, target square), and a
//! continuation history: how good a quiet move has been as the answer to
//! the move just before it (that move's mover and square, this one's); a
//! follow-up history, the same for this side's own move two plies before
//! (kept only while `FOLLOWUP_HISTORY` is on); and a capture history: how
//! often a capture by this kind of mover, on this square, of this kind of
//! piece has cut off.

use crate::eval::{CAPTURED_KINDS, MOVER_KINDS};
use crate::score::{gravity, MAX_PLY};
use koma_rules::{Color, Move};

/// History scores saturate at this magnitude.
const HISTORY_MAX: i32 = 16_384;

/// A move as the continuation history sees it: its kind of mover and its
/// target square, `kind * 81 + square`.
pub type PieceSquare = usize;

/// How many [`PieceSquare`]s there are.
const PIECE_SQUARES: usize = MOVER_KINDS * 81;

/// The [`PieceSquare`] of `m`, whose mover is of kind `kind`.
#[inline]
pub fn piece_square(kind: usize, m: Move) -> PieceSquare {
    kind * 81 + m.to().index() as usize
}

/// The moves before a quiet move that its continuation histories look
/// at: the opponent's move just before it, and this side's own move before
/// that (`None` where there was none, or a null move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Before {
    /// The move one ply before.
    pub one: Option<PieceSquare>,
    /// The move two plies before.
    pub two: Option<PieceSquare>,
}

/// Killer moves and history scores, kept across the searches of one game.
pub struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    quiet: Box<[[[i16; 81]; MOVER_KINDS]; 2]>,
    /// By the previous move's piece-square, then this move's (6 MB: on the
    /// heap, made zeroed).
    continuation: Box<[i16]>,
    /// By the piece-square of this side's move two plies before, then this
    /// move's; empty until a move two plies back is first given (the
    /// switch is off by default, and the table as large as the one above).
    followup: Vec<i16>,
    /// By side, mover kind, target square and captured kind (read and
    /// kept only at a `CAPTURE_HISTORY_WEIGHT` above 0).
    capture: Box<[i16]>,
}

/// The capture history's index of a capture by `color`'s mover of kind
/// `kind` taking a piece of kind `captured`.
#[inline]
fn capture_index(color: Color, kind: usize, m: Move, captured: usize) -> usize {
    ((color.index() * MOVER_KINDS + kind) * 81 + m.to().index() as usize) * CAPTURED_KINDS
        + captured
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            quiet: Box::new([[[0; 81]; MOVER_KINDS]; 2]),
            continuation: vec![0; PIECE_SQUARES * PIECE_SQUARES].into_boxed_slice(),
            followup: Vec::new(),
            capture: vec![0; 2 * PIECE_SQUARES * CAPTURED_KINDS].into_boxed_slice(),
        }
    }
}

/// Moves `entry` by `bonus`, decaying towards zero near the limit.
#[inline]
fn nudge(entry: &mut i16, bonus: i32) {
    *entry = gravity(*entry as i32, bonus, HISTORY_MAX) as i16;
}

impl History {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Forgets the killers, which belong to one search's plies.
    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// The two killer moves at `ply`.
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Remembers a quiet move that caused a cutoff at `ply`.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != Some(m) {
            slot[1] = slot[0];
            slot[0] = Some(m);
        }
    }

    /// The history score of a quiet move played after the moves `before`.
    #[inline]
    pub fn score(&self, color: Color, kind: usize, m: Move, before: Before) -> i32 {
        let own = self.quiet[color.index()][kind][m.to().index() as usize] as i32;
        let this = piece_square(kind, m);
        let one = before.one.map_or(0, |previous| {
            self.continuation[previous * PIECE_SQUARES + this] as i32
        });
        let two = before.two.map_or(0, |earlier| {
            self.followup
                .get(earlier * PIECE_SQUARES + this)
                .map_or(0, |&score| score as i32)
        });
        own + one + two
    }

    /// Rewards (positive `bonus`) or punishes a quiet move; scores decay
    /// towards zero as they approach the limit, so recent lessons count.
    #[inline]
    pub fn update(&mut self, color: Color, kind: usize, m: Move, bonus: i32, before: Before) {
        nudge(
            &mut self.quiet[color.index()][kind][m.to().index() as usize],
            bonus,
        );
        let this = piece_square(kind, m);
        if let Some(previous) = before.one {
            nudge(
                &mut self.continuation[previous * PIECE_SQUARES + this],
                bonus,
            );
        }
        if let Some(earlier) = before.two {
            if self.followup.is_empty() {
                self.followup = vec![0; PIECE_SQUARES * PIECE_SQUARES];
            }
            nudge(&mut self.followup[earlier * PIECE_SQUARES + this], bonus);
        }
    }

    /// The capture history's score of `m`, a capture by `color`'s mover of
    /// kind `kind` of a piece of kind `captured`.
    #[inline]
    pub fn capture_score(&self, color: Color, kind: usize, m: Move, captured: usize) -> i32 {
        self.capture[capture_index(color, kind, m, captured)] as i32
    }

    /// Rewards (positive `bonus`) or punishes a capture, as [`History::update`]
    /// does a quiet move.
    #[inline]
    pub fn update_capture(
        &mut self,
        color: Color,
        kind: usize,
        m: Move,
        captured: usize,
        bonus: i32,
    ) {
        nudge(
            &mut self.capture[capture_index(color, kind, m, captured)],
            bonus,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Square;

    fn capture_to(square: u8) -> Move {
        Move::Board {
            from: Square::new(0).unwrap(),
            to: Square::new(square).unwrap(),
            promote: false,
        }
    }

    /// A reward raises one capture's score and no other's (another
    /// victim, square, mover or side); a punishment lowers it, and the
    /// score stays within the limit however often it is rewarded.
    #[test]
    fn capture_history_keeps_each_capture_apart() {
        let mut history = History::default();
        let m = capture_to(40);
        history.update_capture(Color::Sente, 3, m, 5, 1_000);
        assert_eq!(history.capture_score(Color::Sente, 3, m, 5), 1_000);
        assert_eq!(history.capture_score(Color::Sente, 3, m, 6), 0);
        assert_eq!(history.capture_score(Color::Sente, 3, capture_to(41), 5), 0);
        assert_eq!(history.capture_score(Color::Sente, 4, m, 5), 0);
        assert_eq!(history.capture_score(Color::Gote, 3, m, 5), 0);
        history.update_capture(Color::Sente, 3, m, 5, -3_000);
        assert!(history.capture_score(Color::Sente, 3, m, 5) < 0);
        for _ in 0..1_000 {
            history.update_capture(Color::Gote, MOVER_KINDS - 1, capture_to(80), 14, 2_000);
        }
        let top = history.capture_score(Color::Gote, MOVER_KINDS - 1, capture_to(80), 14);
        assert!((15_000..=HISTORY_MAX).contains(&top), "{top}");
        history.clear();
        assert_eq!(history.capture_score(Color::Sente, 3, m, 5), 0);
    }

    fn quiet_to(square: u8) -> Move {
        Move::Board {
            from: Square::new(1).unwrap(),
            to: Square::new(square).unwrap(),
            promote: false,
        }
    }

    /// The follow-up history counts only after the same move two plies
    /// back; without one, scores are the side's and the continuation's.
    #[test]
    fn followup_history_counts_after_its_own_earlier_move() {
        let mut history = History::default();
        let m = quiet_to(40);
        let earlier = piece_square(2, quiet_to(30));
        let other = piece_square(2, quiet_to(31));
        let one_only = Before {
            one: Some(other),
            two: None,
        };
        history.update(Color::Sente, 3, m, 800, one_only);
        let side_and_continuation = history.score(Color::Sente, 3, m, one_only);
        assert_eq!(side_and_continuation, 1_600);
        assert!(
            history.followup.is_empty(),
            "no table until a move two back is given"
        );
        let both = Before {
            one: Some(other),
            two: Some(earlier),
        };
        history.update(Color::Sente, 3, m, 800, both);
        let with_followup = history.score(Color::Sente, 3, m, both);
        assert!(
            with_followup > history.score(Color::Sente, 3, m, one_only),
            "{with_followup}"
        );
        let after_another = Before {
            one: Some(other),
            two: Some(other),
        };
        assert_eq!(
            history.score(Color::Sente, 3, m, after_another),
            history.score(Color::Sente, 3, m, one_only)
        );
    }
}
