//! A position's value: win, draw or loss for the side to move.

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
    #[cfg(test)]
    pub(crate) fn from_score(score: i8) -> Value {
        match score {
            s if s < 0 => Value::Loss,
            0 => Value::Draw,
            _ => Value::Win,
        }
    }

    /// The value for the other side.
    pub fn for_the_other_side(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
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
