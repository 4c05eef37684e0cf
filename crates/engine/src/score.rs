//! Search values: centipawns, mate distances, and how they are reported.

/// A search value in centipawns from the side to move's view; values beyond
/// [`MATE_BOUND`] are forced wins or losses.
pub type Value = i32;

/// Larger than any value the search returns.
pub const INFINITE: Value = 32_001;
/// The value of having already won (a win at ply 0).
pub const MATE: Value = 32_000;
/// The highest search depth in plies.
pub const MAX_PLY: usize = 128;
/// Values at or above this are wins found by search; at or below its
/// negation, losses.
pub const MATE_BOUND: Value = MATE - 2 * MAX_PLY as Value - 512;
/// The value of a draw.
pub const DRAW: Value = 0;

/// The value of winning `plies` plies from the root.
pub const fn mate_in(plies: usize) -> Value {
    MATE - plies as Value
}

/// The value of losing `plies` plies from the root.
pub const fn mated_in(plies: usize) -> Value {
    -MATE + plies as Value
}

/// Whether `value` is a forced win or loss.
pub const fn is_mate(value: Value) -> bool {
    value >= MATE_BOUND || value <= -MATE_BOUND
}

/// Converts a value relative to the root into one relative to the node at
/// `ply`, for the transposition table (mate distances are stored from the
/// node, so they stay right wherever the node is met again).
pub fn to_table(value: Value, ply: usize) -> Value {
    if value >= MATE_BOUND {
        value + ply as Value
    } else if value <= -MATE_BOUND {
        value - ply as Value
    } else {
        value
    }
}

/// The inverse of [`to_table`].
pub fn from_table(value: Value, ply: usize) -> Value {
    if value >= MATE_BOUND {
        value - ply as Value
    } else if value <= -MATE_BOUND {
        value + ply as Value
    } else {
        value
    }
}

/// `value` moved by `bonus` with gravity: the step shrinks as `value`
/// nears `limit` on the bonus's side, so a statistic saturates below the
/// limit and turns quickly when the lessons turn (Stockfish's history
/// update). `bonus` is bounded by `limit` first; the result then stays
/// within `-limit..=limit`. The histories and the correction history
/// both learn this way.
#[inline]
pub(crate) fn gravity(value: i32, bonus: i32, limit: i32) -> i32 {
    let bonus = bonus.clamp(-limit, limit);
    value + bonus - value * bonus.abs() / limit
}

/// A value as the protocols report it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// An evaluation in centipawns.
    Centipawns(i32),
    /// A forced result: win (positive) or loss (negative) in this many plies.
    MatePlies(i32),
}

impl Score {
    /// The report of a search value.
    ///
    /// ```
    /// use koma_engine::{mate_in, Score};
    /// assert_eq!(Score::from_value(mate_in(3)), Score::MatePlies(3));
    /// assert_eq!(Score::from_value(-mate_in(4)), Score::MatePlies(-4));
    /// assert_eq!(Score::from_value(57), Score::Centipawns(57));
    /// ```
    pub fn from_value(value: Value) -> Score {
        if value >= MATE_BOUND {
            Score::MatePlies(MATE - value)
        } else if value <= -MATE_BOUND {
            Score::MatePlies(-(MATE + value))
        } else {
            Score::Centipawns(value)
        }
    }

    /// Mate in full moves, as UCI counts (`mate 2` wins with our second move).
    pub fn mate_moves(plies: i32) -> i32 {
        if plies > 0 {
            (plies + 1) / 2
        } else {
            -((-plies + 1) / 2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repeated lessons saturate at the limit and no further; a bonus
    /// beyond the limit counts as the limit; the opposite lesson moves a
    /// saturated value by twice the bonus.
    #[test]
    fn gravity_saturates_and_turns() {
        let mut value = 0;
        for _ in 0..200 {
            value = gravity(value, 300, 1024);
            assert!((0..=1024).contains(&value), "{value}");
        }
        assert!(value >= 1000, "{value}");
        assert_eq!(gravity(0, 5_000, 1024), 1024);
        assert_eq!(gravity(-1024, -5_000, 1024), -1024);
        assert_eq!(gravity(1024, -100, 1024), 1024 - 200);
        assert_eq!(gravity(0, -100, 1024), -100);
    }
}
