//! The search's path, and the disproofs that hold for one path only.
//!
//! A position met again on the current path is no mate along it: in shogi
//! a perpetual check loses for the side giving it. A node disproven that
//! way, through a repetition of a position *above* it, is disproven for
//! the path that led to it, not for the position: reached by another path
//! the repetition may not be one, and the mate may be there (the graph
//! history interaction, Kishimoto and Müller 2004). Such a disproof is
//! kept here under a key of the whole path, never in the table; once the
//! search is back at the repeated position, going round to it again cannot
//! help the attacker from any path, and the disproof is the position's.
//! (Kept in the table, these made 新桃花源, a 1,205-ply problem whose king
//! walks back and forth, read as no mate.)

use crate::table::{Depth, Known};
use rustc_hash::FxHashMap;

/// How many path disproofs are kept before they are forgotten all at once:
/// they only save searching again, and a few megabytes hold this many.
const MOST_KEPT: usize = 1 << 18;

/// The key of the path that goes on from `path` to the position whose
/// hash is `position`: the same positions in the same order give the same
/// key.
pub fn extended(path: u64, position: u64) -> u64 {
    (path.rotate_left(23) ^ position).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The positions on the current path and the path disproofs found so far.
#[derive(Default)]
pub struct Path {
    /// Each position on the path (by its full hash) with its ply.
    plies: FxHashMap<u64, u16>,
    /// Disproofs that hold for one path, by the path's key.
    disproofs: FxHashMap<u64, Known>,
}

impl Path {
    /// Puts the position with full hash `position` on the path at `ply`.
    pub fn enter(&mut self, position: u64, ply: u16) {
        self.plies.insert(position, ply);
    }

    /// Takes the position off the path.
    pub fn leave(&mut self, position: u64) {
        self.plies.remove(&position);
    }

    /// The ply at which the position is on the path, if it is.
    pub fn ply_of(&self, position: u64) -> Option<u16> {
        self.plies.get(&position).copied()
    }

    /// Keeps `known`, a disproof for the path with key `path` only.
    pub fn keep(&mut self, path: u64, known: Known) {
        debug_assert!(known.is_path_disproof());
        if self.disproofs.len() >= MOST_KEPT {
            self.disproofs.clear();
        }
        self.disproofs.insert(path, known);
    }

    /// The disproof kept for the path with key `path`, if it holds to
    /// `depth`.
    pub fn disproof(&self, path: u64, depth: Depth) -> Option<Known> {
        if self.disproofs.is_empty() {
            return None;
        }
        self.disproofs
            .get(&path)
            .copied()
            .filter(|known| known.depth >= depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{NO_LOOP, UNLIMITED};

    #[test]
    fn a_path_key_depends_on_the_order() {
        let ab = extended(extended(0, 1), 2);
        let ba = extended(extended(0, 2), 1);
        assert_ne!(ab, ba);
        assert_eq!(ab, extended(extended(0, 1), 2));
    }

    #[test]
    fn a_path_disproof_answers_for_its_path_and_depths_it_covers() {
        let mut path = Path::default();
        let known = Known {
            loop_ply: 3,
            ..Known::disproven(9)
        };
        path.keep(77, known);
        assert_eq!(path.disproof(77, 9), Some(known));
        assert_eq!(path.disproof(77, 11), None);
        assert_eq!(path.disproof(78, 1), None);
        assert_ne!(known.loop_ply, NO_LOOP);
        assert!(Known::disproven(UNLIMITED).loop_ply == NO_LOOP);
    }

    #[test]
    fn positions_come_and_go_with_their_plies() {
        let mut path = Path::default();
        path.enter(5, 0);
        path.enter(6, 1);
        assert_eq!(path.ply_of(6), Some(1));
        path.leave(6);
        assert_eq!(path.ply_of(6), None);
        assert_eq!(path.ply_of(5), Some(0));
    }
}
