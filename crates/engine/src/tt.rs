//! The transposition table: what earlier searches found about a position,
//! found again by its hash.

use crate::score::Value;
use koma_rules::Move;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The bits of an entry's depth byte that hold the depth (no search goes
/// deeper than [`crate::score::MAX_PLY`], 128)...
const DEPTH_BITS: u8 = 0x7f;
/// ...and the one that says it was on a principal variation.
const PV_BIT: u8 = 0x80;

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// One stored search result, unpacked.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The upper half of the position's hash (the lower half chose the slot).
    check: u32,
    best_move: u16,
    value: i16,
    eval: i16,
    /// Bits 0-6: the depth; bit 7: whether the position was on a principal
    /// variation when stored (Stockfish's `ttPv`).
    depth: u8,
    /// Bits 0-1: bound (0 = empty); bits 2-7: the search generation.
    flags: u8,
}

impl Entry {
    /// Everything but the check, in one word.
    fn data(self) -> u64 {
        self.best_move as u64
            | (self.value as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.flags as u64) << 56
    }

    fn from_data(check: u32, data: u64) -> Entry {
        Entry {
            check,
            best_move: data as u16,
            value: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            flags: (data >> 56) as u8,
        }
    }

    /// The depth searched (the depth byte less its mark).
    fn searched_depth(self) -> i32 {
        (self.depth & DEPTH_BITS) as i32
    }
}

/// The check word stored beside an entry's data: the check mixed with the
/// data, so that an entry torn by two threads writing it at once (one's
/// data, the other's check) no longer matches its position and reads as
/// empty. The table takes no lock: threads of one search share it.
fn sealed_check(check: u32, data: u64) -> u32 {
    check ^ data as u32 ^ (data >> 32) as u32
}

/// Two entries: their data and their sealed checks, 24 bytes.
#[derive(Default)]
struct Bucket {
    data: [AtomicU64; 2],
    checks: [AtomicU32; 2],
}

impl Bucket {
    fn load(&self, slot: usize) -> Entry {
        let data = self.data[slot].load(Ordering::Relaxed);
        let sealed = self.checks[slot].load(Ordering::Relaxed);
        Entry::from_data(sealed_check(sealed, data), data)
    }

    fn save(&self, slot: usize, entry: Entry) {
        let data = entry.data();
        self.data[slot].store(data, Ordering::Relaxed);
        self.checks[slot].store(sealed_check(entry.check, data), Ordering::Relaxed);
    }

    fn empty(&self) {
        for slot in 0..2 {
            self.data[slot].store(0, Ordering::Relaxed);
            self.checks[slot].store(0, Ordering::Relaxed);
        }
    }
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best move found (it may be illegal after a hash collision).
    pub best_move: Option<Move>,
    /// The value, relative to the node (see [`crate::score::from_table`]).
    pub value: Value,
    /// The static evaluation.
    pub eval: Value,
    /// The depth searched.
    pub depth: i32,
    /// What the value means.
    pub bound: Bound,
    /// Whether the position was on a principal variation of some search,
    /// as the search that stored it knew (Stockfish's `ttPv`).
    pub pv: bool,
}

/// A fixed-size table of two-entry buckets, replaced by depth and age,
/// shared by the threads of a search (see [`sealed_check`]).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: (0..count).map(|_| Bucket::default()).collect(),
            generation: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.iter().for_each(Bucket::empty);
        self.generation = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    #[inline(always)]
    fn bucket(&self, hash: u64) -> &Bucket {
        &self.buckets[((hash as u32 as u64 * self.buckets.len() as u64) >> 32) as usize]
    }

    /// Asks the processor to bring the bucket of `hash` into its cache,
    /// so that a probe soon after (at the child of a move just played,
    /// once the network has followed the move) finds it there rather than
    /// waiting on memory: the table is far larger than the caches.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(hash);
            // SAFETY: a prefetch is a hint that reads nothing and never
            // faults, whatever the address; this one is a live bucket.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// What is known about the position with `hash`.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Hit> {
        let check = (hash >> 32) as u32;
        let bucket = self.bucket(hash);
        let entry = (0..2)
            .map(|slot| bucket.load(slot))
            .find(|e| e.flags & 3 != 0 && e.check == check)?;
        let bound = match entry.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            best_move: Move::from_u16(entry.best_move).filter(|_| entry.best_move != 0),
            value: entry.value as Value,
            eval: entry.eval as Value,
            depth: entry.searched_depth(),
            bound,
            pv: entry.depth & PV_BIT != 0,
        })
    }

    /// Stores a result, keeping the previous best move if none is given;
    /// `pv`: whether the position is or was on a principal variation.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        hash: u64,
        best_move: Option<Move>,
        value: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let check = (hash >> 32) as u32;
        let generation = self.generation;
        let bucket = self.bucket(hash);
        let entries = [bucket.load(0), bucket.load(1)];
        // Same position first; otherwise the shallowest or oldest entry.
        let slot = match entries
            .iter()
            .position(|e| e.check == check && e.flags & 3 != 0)
        {
            Some(slot) => slot,
            None => {
                let worth = |e: &Entry| {
                    if e.flags & 3 == 0 {
                        return i32::MIN;
                    }
                    let age = (generation.wrapping_sub(e.flags >> 2) & 0x3f) as i32;
                    e.searched_depth() - 8 * age
                };
                if worth(&entries[0]) <= worth(&entries[1]) {
                    0
                } else {
                    1
                }
            }
        };
        let entry = entries[slot];
        let same = entry.check == check && entry.flags & 3 != 0;
        // A shallower result for the same position keeps the deeper exact one.
        if same && bound != Bound::Exact && depth + 2 < entry.searched_depth() {
            return;
        }
        let code = match best_move {
            Some(m) => m.to_u16(),
            None if same => entry.best_move,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        bucket.save(
            slot,
            Entry {
                check,
                best_move: code,
                value: value.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
                eval: eval.clamp(i16::MIN as Value, i16::MAX as Value) as i16,
                depth: depth.clamp(0, DEPTH_BITS as i32) as u8 | if pv { PV_BIT } else { 0 },
                flags: bound_bits | generation << 2,
            },
        );
    }

    /// How full the table is, in permille, from a sample (as UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| [b.load(0), b.load(1)])
            .filter(|e| e.flags & 3 != 0 && e.flags >> 2 == self.generation)
            .count();
        (used * 1000 / (sample * 2)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Square;

    #[test]
    fn stores_and_finds_a_result() {
        let mut table = TranspositionTable::new(1);
        let m = Move::Board {
            from: Square::new(60).unwrap(),
            to: Square::new(59).unwrap(),
            promote: false,
        };
        table.store(
            0xdead_beef_1234_5678,
            Some(m),
            -42,
            17,
            7,
            Bound::Lower,
            false,
        );
        let hit = table.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!(hit.best_move, Some(m));
        assert_eq!((hit.value, hit.eval, hit.depth), (-42, 17, 7));
        assert_eq!(hit.bound, Bound::Lower);
        assert!(!hit.pv);
        // The principal-variation mark beside the deepest depth kept.
        table.store(
            0xdead_beef_1234_5678,
            Some(m),
            5,
            17,
            127,
            Bound::Exact,
            true,
        );
        let hit = table.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!((hit.value, hit.depth, hit.pv), (5, 127, true));
        table.store(0x0bad_beef_1234_5678, None, 5, 17, 300, Bound::Upper, false);
        let hit = table.probe(0x0bad_beef_1234_5678).unwrap();
        assert_eq!((hit.depth, hit.pv), (127, false));
        assert!(table.probe(0x1111_beef_1234_5678).is_none());
        table.clear();
        assert!(table.probe(0xdead_beef_1234_5678).is_none());
    }

    /// Threads writing the same few buckets at once: whatever a probe
    /// finds is an entry some thread wrote whole for that very position,
    /// never one thread's check over another's data.
    #[test]
    fn entries_torn_by_threads_read_as_missing() {
        let table = TranspositionTable::new(1);
        // Hashes that share their bucket (same lower half), each with
        // values of its own, so a torn entry would show.
        let hash = |i: u64| (i << 32) | 7;
        let value = |i: u64| (i * 97 % 20_000) as Value;
        std::thread::scope(|scope| {
            for thread in 0..2u64 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..3_000_000u64 {
                        let i = 1 + (round * 7 + thread * 3) % 64;
                        table.store(
                            hash(i),
                            None,
                            value(i),
                            -value(i),
                            (i % 50) as i32,
                            Bound::Exact,
                            i % 2 == 0,
                        );
                        let j = 1 + (round * 5 + thread) % 64;
                        if let Some(hit) = table.probe(hash(j)) {
                            assert_eq!((hit.value, hit.eval), (value(j), -value(j)));
                            assert_eq!(hit.depth, (j % 50) as i32);
                            assert_eq!(hit.pv, j % 2 == 0);
                        }
                    }
                });
            }
        });
    }
}
