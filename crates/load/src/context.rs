//! What every slot of a run shares (where, what, the counts and the stop),
//! and the seeded random numbers that pick their moves.

use super::args::Target;
use super::stats::Counters;
use koma_rules::Variant;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::watch;

/// What every game shares: where to play, what, and the counts.
pub struct Context {
    /// The server.
    pub target: Target,
    /// The game played.
    pub variant: Variant,
    /// A player's minimum time between two of its moves.
    pub gap: Duration,
    /// Seed of the random moves; each slot derives its own.
    pub seed: u64,
    /// Moves to play in all.
    pub max_moves: u64,
    /// Moves, games and errors so far.
    pub counters: Counters,
    /// Becomes `true` when the run stops (time is up or the moves are played).
    pub stop: watch::Sender<bool>,
    /// Moves sent or about to be: no more than `max_moves` are.
    reserved: AtomicU64,
}

impl Context {
    /// A context for a run that has not started.
    pub fn new(target: Target, variant: Variant, gap: Duration, seed: u64, max_moves: u64) -> Self {
        Context {
            target,
            variant,
            gap,
            seed,
            max_moves,
            counters: Counters::default(),
            stop: watch::channel(false).0,
            reserved: AtomicU64::new(0),
        }
    }

    /// Whether another move may be sent (and counts it if so).
    pub fn reserve_move(&self) -> bool {
        self.reserved.fetch_add(1, Ordering::Relaxed) < self.max_moves
    }

    /// Counts a move its mover saw played; the last one stops the run.
    pub fn confirm_move(&self) {
        let moves = self.counters.moves.fetch_add(1, Ordering::Relaxed) + 1;
        if moves >= self.max_moves {
            self.stop.send_replace(true);
        }
    }
}

/// The random moves of one slot: rand's ChaCha8, one stream per slot, so a
/// run's seed gives every slot its own moves, the same on every machine.
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The generator of slot `stream` of a run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        Rng(rng)
    }

    /// One of `items` at random, `None` if there are none.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.choose(&mut self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rng_is_seeded_and_picks_every_item() {
        let draws = |seed, stream| {
            let mut rng = Rng::new(seed, stream);
            let items: Vec<u32> = (0..1000).collect();
            (0..8)
                .map(|_| *rng.pick(&items).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(draws(1, 0), draws(1, 0));
        assert_ne!(draws(1, 0), draws(1, 1));
        assert_ne!(draws(1, 0), draws(2, 0));
        let mut rng = Rng::new(7, 0);
        let items = [0, 1, 2];
        let mut seen = [0; 3];
        for _ in 0..300 {
            seen[*rng.pick(&items).unwrap()] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
        assert!(rng.pick::<u8>(&[]).is_none());
    }
}
