//! What every slot of a run shares (where, what, the counts and the stop),
//! and the seeded random numbers that pick their moves.

use super::args::Target;
use super::stats::Counters;
use koma_rules::Variant;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::net::{IpAddr, Ipv4Addr};
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

    /// The address slot `slot` plays from: its own in 127.1.0.0/16 when
    /// the server is on IPv4, as each player of a real crowd has its own,
    /// so that the server's limits per client (20 requests a second, 256
    /// connections) meet one game rather than the whole load. IPv6's
    /// loopback is one address: there every slot shares it (`None`).
    pub fn address_of(&self, slot: u64) -> Option<IpAddr> {
        if !self.target.address.ip().to_canonical().is_ipv4() {
            return None;
        }
        // 127.1.0.1, 127.1.0.2, …: a thousand slots fit below 127.1.4.0.
        let first = u32::from(Ipv4Addr::new(127, 1, 0, 1));
        let slot = u32::try_from(slot % 65_000).unwrap_or(0);
        Some(IpAddr::V4(Ipv4Addr::from(first + slot)))
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
    fn each_slot_plays_from_its_own_address_on_ipv4() {
        let context = |url| {
            let target = crate::args::parse_target(url).unwrap();
            Context::new(target, Variant::Spear, Duration::ZERO, 1, 1)
        };
        let v4 = context("http://127.0.0.1:9/");
        assert_eq!(v4.address_of(0), Some("127.1.0.1".parse().unwrap()));
        assert_eq!(v4.address_of(999), Some("127.1.3.232".parse().unwrap()));
        assert_ne!(v4.address_of(1), v4.address_of(2));
        assert_eq!(context("http://[::1]:9/").address_of(0), None);
        assert!(context("http://[::ffff:127.0.0.1]:9/")
            .address_of(0)
            .is_some());
    }

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
