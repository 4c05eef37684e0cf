//! Playing levels for people: a weaker level searches less deep and fewer
//! nodes, and picks among the best few moves with a randomness that grows
//! as the level falls, preferring moves that are not much worse.

use crate::limits::Limits;
use crate::score::{Value, INFINITE};

/// The strongest level: no weakening.
pub const MAX_SKILL: u8 = 20;
/// The weakest level.
pub const MIN_SKILL: u8 = 1;

/// A playing level from [`MIN_SKILL`] to [`MAX_SKILL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
}

impl Skill {
    /// The level `level`, clamped to the valid range.
    pub fn new(level: u8) -> Skill {
        Skill {
            level: level.clamp(MIN_SKILL, MAX_SKILL),
        }
    }

    /// Whether this level plays below full strength.
    pub fn is_limited(self) -> bool {
        self.level < MAX_SKILL
    }

    /// How many lines the search must rank for [`Skill::pick`].
    pub fn multipv(self) -> u32 {
        if self.is_limited() {
            4
        } else {
            1
        }
    }

    /// The deepest search at this level: the level itself.
    ///
    /// Each level searches one ply deeper and 1.5 times the nodes of the
    /// one below, so that every level raises the cap that binds: depth at
    /// the low levels and on small boards, nodes above. (A depth that
    /// rose only every second level made the levels between play like
    /// the one below them wherever depth bound: minishogi's level 2 lost
    /// to level 1; docs/LEVELS.md.)
    pub fn max_depth(self) -> u32 {
        self.level as u32
    }

    /// The most nodes a search may use at this level: 500 at level 1,
    /// 1.5 times more each level, so that level 19 (740,000) still fits in
    /// the second a move that the board and the terminal give the
    /// computer; a cap beyond what that second searches would make the
    /// levels above it play alike, and below level 20.
    pub fn max_nodes(self) -> u64 {
        (500.0 * 1.5f64.powi(self.level as i32 - 1)) as u64
    }

    /// Narrows `limits` to what this level may search.
    ///
    /// ```
    /// use koma_engine::{Limits, Skill};
    /// let mut limits = Limits::depth(30);
    /// Skill::new(1).restrict(&mut limits);
    /// assert_eq!(limits.depth, Some(1));
    /// ```
    pub fn restrict(self, limits: &mut Limits) {
        if !self.is_limited() {
            return;
        }
        limits.depth = Some(
            limits
                .depth
                .map_or(self.max_depth(), |d| d.min(self.max_depth())),
        );
        limits.nodes = Some(
            limits
                .nodes
                .map_or(self.max_nodes(), |n| n.min(self.max_nodes())),
        );
    }

    /// Chooses one of the lines whose values are `values` (best first):
    /// each gets a random push, larger for weaker levels, and worse lines
    /// need larger pushes to win. Returns the chosen index.
    pub fn pick(self, values: &[Value], random: &mut u64) -> usize {
        let values: Vec<Value> = values
            .iter()
            .copied()
            .take_while(|&v| v > -INFINITE)
            .collect();
        if values.len() < 2 || !self.is_limited() {
            return 0;
        }
        let top = values[0];
        let spread = (top - values[values.len() - 1]).min(100);
        let weakness = 120 - 2 * self.level as Value;
        let mut best = (0, Value::MIN);
        for (index, &value) in values.iter().enumerate() {
            let noise = (next_random(random) % weakness as u64) as Value;
            let push = (weakness * (top - value) + spread * noise) / 128;
            if value + push > best.1 {
                best = (index, value + push);
            }
        }
        best.0
    }
}

fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_always_takes_the_best_line() {
        let mut random = 7;
        for _ in 0..100 {
            assert_eq!(Skill::new(20).pick(&[10, 5, 0, -5], &mut random), 0);
        }
    }

    #[test]
    fn weak_levels_sometimes_play_worse_moves_but_rarely_blunders() {
        let mut random = 12345;
        let picks: Vec<usize> = (0..1000)
            .map(|_| Skill::new(1).pick(&[50, 40, 30, -900], &mut random))
            .collect();
        assert!(picks.iter().any(|&i| i != 0));
        assert!(picks.iter().filter(|&&i| i == 3).count() < 50);
    }

    #[test]
    fn every_level_raises_both_caps() {
        for level in MIN_SKILL..MAX_SKILL - 1 {
            let (lower, upper) = (Skill::new(level), Skill::new(level + 1));
            assert!(lower.max_depth() < upper.max_depth(), "depth at {level}");
            assert!(lower.max_nodes() < upper.max_nodes(), "nodes at {level}");
        }
        assert_eq!(Skill::new(1).max_depth(), 1);
        assert_eq!(Skill::new(1).max_nodes(), 500);
    }
}
