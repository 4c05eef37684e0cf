//! The exact search: alpha-beta over loss, draw and win, with a table of
//! bounds under exact keys.

use arrayvec::ArrayVec;
use koma_rules::pawns_board::{After, BoardMove, PawnsBoard, MAX_BOARD_MOVES};
use rustc_hash::FxHashMap;
use std::fmt;

/// A position's value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Value {
    /// The other side wins against any defence.
    Loss = -1,
    /// Neither side can force a win.
    Draw = 0,
    /// The side to move wins against any defence.
    Win = 1,
}

impl Value {
    fn from_score(score: i8) -> Value {
        match score {
            s if s < 0 => Value::Loss,
            0 => Value::Draw,
            _ => Value::Win,
        }
    }

    /// The word for it: `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the table knows of a position: its value lies in
/// `lower..=upper` (scores -1, 0, 1).
#[derive(Clone, Copy)]
struct Bounds {
    lower: i8,
    upper: i8,
}

/// The solver: its table grows with the positions it has searched and is
/// kept from one question to the next.
pub struct Solver<const N: usize> {
    table: FxHashMap<u128, Bounds>,
    /// Positions searched (table hits included).
    pub nodes: u64,
    /// Whether a position and its mirror image share an entry.
    mirroring: bool,
    /// Told the nodes and table size every [`PROGRESS_NODES`] nodes.
    progress: Option<Box<dyn FnMut(u64, usize)>>,
}

/// How often the progress hook is called, in nodes.
const PROGRESS_NODES: u64 = 1 << 20;

impl<const N: usize> Default for Solver<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Solver<N> {
    /// A solver with an empty table, mirror images merged.
    pub fn new() -> Self {
        Solver {
            table: FxHashMap::default(),
            nodes: 0,
            mirroring: true,
            progress: None,
        }
    }

    /// Calls `progress` with the nodes searched and the table's size every
    /// million nodes or so.
    pub fn on_progress(&mut self, progress: impl FnMut(u64, usize) + 'static) {
        self.progress = Some(Box::new(progress));
    }

    /// A solver that keeps a position and its mirror image apart: slower,
    /// the check that merging them is sound.
    pub fn without_mirroring() -> Self {
        Solver {
            mirroring: false,
            ..Self::new()
        }
    }

    /// Positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The value of `position` for the side to move.
    pub fn value(&mut self, position: &PawnsBoard<N>) -> Value {
        Value::from_score(self.search(position, -1, 1))
    }

    fn key(&self, position: &PawnsBoard<N>) -> u128 {
        if self.mirroring {
            position.canonical_key()
        } else {
            position.key()
        }
    }

    /// Fail-soft alpha-beta: the value if it lies strictly between `alpha`
    /// and `beta`, otherwise a bound on the far side of the window.
    fn search(&mut self, position: &PawnsBoard<N>, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if self.nodes % PROGRESS_NODES == 0 {
            let size = self.table.len();
            if let Some(progress) = &mut self.progress {
                progress(self.nodes, size);
            }
        }
        let key = self.key(position);
        if let Some(known) = self.table.get(&key) {
            if known.lower == known.upper || known.lower >= beta {
                return known.lower;
            }
            if known.upper <= alpha {
                return known.upper;
            }
            alpha = alpha.max(known.lower);
            beta = beta.min(known.upper);
        }
        let mut children: ArrayVec<PawnsBoard<N>, MAX_BOARD_MOVES> = ArrayVec::new();
        for m in position.moves() {
            match position.play(m) {
                After::Won => {
                    self.store(key, 1, 1);
                    return 1;
                }
                After::Continues(child) => children.push(child),
            }
        }
        if children.is_empty() {
            // Stalemate.
            self.store(key, 0, 0);
            return 0;
        }
        let start_alpha = alpha;
        let mut best = -1;
        for child in children {
            best = best.max(-self.search(&child, -beta, -alpha));
            if best >= beta {
                break;
            }
            alpha = alpha.max(best);
        }
        let (lower, upper) = if best <= start_alpha {
            (-1, best)
        } else if best >= beta {
            (best, 1)
        } else {
            (best, best)
        };
        self.store(key, lower, upper);
        best
    }

    /// Narrows what the table knows of `key` to `lower..=upper`.
    fn store(&mut self, key: u128, lower: i8, upper: i8) {
        let bounds = self.table.entry(key).or_insert(Bounds {
            lower: -1,
            upper: 1,
        });
        bounds.lower = bounds.lower.max(lower);
        bounds.upper = bounds.upper.min(upper);
    }

    /// A move of `position` that secures at least `value` for the side to
    /// move, if it has one: a winning move first, then the first that
    /// leaves the other side no better than the complement.
    pub fn securing_move(&mut self, position: &PawnsBoard<N>, value: Value) -> Option<BoardMove> {
        let moves = position.moves();
        if let Some(&m) = moves.iter().find(|&&m| position.play(m) == After::Won) {
            return Some(m);
        }
        let target = value as i8;
        moves.into_iter().find(|&m| match position.play(m) {
            After::Won => true,
            // The other side scores at most -target.
            After::Continues(child) => self.search(&child, -target, -target + 1) <= -target,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Plain minimax over every move, remembering each position's value
    /// under its exact key (no bounds, no mirror images): the oracle.
    fn minimax<const N: usize>(position: &PawnsBoard<N>, known: &mut HashMap<u128, i8>) -> i8 {
        if let Some(&value) = known.get(&position.key()) {
            return value;
        }
        let value = position
            .moves()
            .into_iter()
            .map(|m| match position.play(m) {
                After::Won => 1,
                After::Continues(child) => -minimax(&child, known),
            })
            .max()
            .unwrap_or(0);
        known.insert(position.key(), value);
        value
    }

    /// Positions after `plies` random moves from the start, the game
    /// still going.
    fn random_positions<const N: usize>(plies: usize, count: usize) -> Vec<PawnsBoard<N>> {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut position = PawnsBoard::<N>::start();
            for _ in 0..plies {
                let moves = position.moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                match position.play(moves[(seed % moves.len() as u64) as usize]) {
                    After::Won => break,
                    After::Continues(next) => position = next,
                }
            }
            positions.push(position);
        }
        positions
    }

    #[test]
    fn the_search_agrees_with_plain_minimax_with_and_without_mirroring() {
        let mut seen = [0; 3];
        let mut known = HashMap::new();
        let mut check = |position: &PawnsBoard<5>, seen: &mut [usize; 3]| {
            let expected = Value::from_score(minimax(position, &mut known));
            seen[(expected as i8 + 1) as usize] += 1;
            assert_eq!(
                Solver::new().value(position),
                expected,
                "{}",
                position.to_fen()
            );
            let plain = Solver::without_mirroring().value(position);
            assert_eq!(plain, expected, "{}", position.to_fen());
        };
        for plies in [0, 2, 4, 6] {
            for position in random_positions::<5>(plies, 40) {
                check(&position, &mut seen);
            }
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "losses, draws and wins: {seen:?}"
        );
        let four = PawnsBoard::<4>::start();
        let expected = minimax(&four, &mut HashMap::new());
        assert_eq!(Solver::new().value(&four), Value::from_score(expected));
    }
}
