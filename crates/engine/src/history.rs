//! What earlier cutoffs teach about quiet moves: killer moves per ply and a
//! history score per (side, kind of mover, target square).

use crate::eval::MOVER_KINDS;
use crate::score::MAX_PLY;
use koma_rules::{Color, Move};

/// History scores saturate at this magnitude.
const HISTORY_MAX: i32 = 16_384;

/// Killer moves and history scores, kept across the searches of one game.
pub struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    quiet: Box<[[[i16; 81]; MOVER_KINDS]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            quiet: Box::new([[[0; 81]; MOVER_KINDS]; 2]),
        }
    }
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

    /// The history score of a quiet move.
    #[inline]
    pub fn score(&self, color: Color, kind: usize, m: Move) -> i32 {
        self.quiet[color.index()][kind][m.to().index() as usize] as i32
    }

    /// Rewards (positive `bonus`) or punishes a quiet move; scores decay
    /// towards zero as they approach the limit, so recent lessons count.
    #[inline]
    pub fn update(&mut self, color: Color, kind: usize, m: Move, bonus: i32) {
        let entry = &mut self.quiet[color.index()][kind][m.to().index() as usize];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let value = *entry as i32;
        *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
    }
}
