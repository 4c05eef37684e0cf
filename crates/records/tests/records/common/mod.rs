//! What the record tests share.

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeded random numbers to pick moves: rand's ChaCha8, so that a seed
/// gives the same numbers on every machine and version.
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.0.random_range(0..n)
        }
    }
}
