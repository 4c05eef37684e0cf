//! The solver's transposition table: what is known of each position, keyed
//! by the board alone, with the attacker's hand beside each entry.
//!
//! Keying by the board lets one entry answer for other hands (優越関係,
//! hand superiority): with the board and the side to move the same, an
//! attacker holding at least the pieces of a proven entry also mates, and
//! one holding at most those of a disproven entry also fails. Pieces are
//! only ever moved between the board and the hands, so on one board a
//! bigger attacker's hand means a smaller defender's one: both sides are
//! then better off for the attacker.

use koma_rules::{Hand, Role};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry as MapEntry;

/// A proof or disproof number: how many more leaves must be solved, at
/// least, to prove (or disprove) a position. [`INFINITE`] marks a solved
/// one.
pub type Number = u32;

/// The number of a solved position: a proof number of a disproven one or
/// the disproof number of a proven one.
pub const INFINITE: Number = u32::MAX;

/// The largest number a position still open may carry.
pub const LARGEST: Number = INFINITE - 1;

/// A remaining depth (in plies) or a mate's length. [`UNLIMITED`] as a
/// depth means the search counts no plies; as a disproof's depth, that it
/// holds at any depth.
pub type Depth = u16;

/// No limit (see [`Depth`]).
pub const UNLIMITED: Depth = Depth::MAX;

/// An attacker's hand packed one byte a role, for dominance tests with a
/// few instructions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HandKey(pub(crate) u64);

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

impl HandKey {
    /// Not a hand: a solved [`Known`]'s pieces when they are the very
    /// hand it was found with, whatever that was.
    pub const EXACT: HandKey = HandKey(u64::MAX);

    /// `self`, or `hand` if `self` is [`HandKey::EXACT`].
    pub fn or_exact(self, hand: HandKey) -> HandKey {
        if self == HandKey::EXACT {
            hand
        } else {
            self
        }
    }

    /// The packed form of `hand`.
    pub fn of(hand: &Hand) -> HandKey {
        let mut packed = 0u64;
        for (index, role) in Role::HAND.iter().enumerate() {
            packed |= u64::from(hand.count(*role)) << (8 * index);
        }
        HandKey(packed)
    }

    /// Whether this hand holds at least as many pieces of every role as
    /// `other`. Counts stay below 128, so adding 128 to each byte before
    /// subtracting never borrows from the next byte, and a byte's high bit
    /// survives exactly when its count is not smaller.
    #[inline(always)]
    pub fn covers(self, other: HandKey) -> bool {
        ((self.0 | HIGH_BITS) - other.0) & HIGH_BITS == HIGH_BITS
    }
}

/// What the table knows of one position for one attacker's hand.
#[derive(Clone, Copy, Debug)]
struct Entry {
    hand: HandKey,
    proof: Number,
    disproof: Number,
    /// Proven: the length of the mate found, in plies. Disproven: the depth
    /// up to which no mate exists ([`UNLIMITED`]: none at all). Open: the
    /// remaining depth the numbers were found at.
    depth: Depth,
    /// Nodes searched below this entry, the last time it was stored (at
    /// most `u32::MAX`): what the table keeps when it must forget. Four
    /// bytes make an entry 24 bytes, not 32.
    work: u32,
}

/// The state of a position as the table returns it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Known {
    /// Its proof number (0: proven).
    pub proof: Number,
    /// Its disproof number (0: disproven).
    pub disproof: Number,
    /// For a proof, the mate's length; for a disproof, the depth it holds
    /// to; otherwise the depth the numbers were found at.
    pub depth: Depth,
    /// For a disproof that rests on a repetition of a position above this
    /// one on the search's path, the ply of the highest such position.
    /// Such a disproof holds for this path only, and the table never keeps
    /// it (see `crate::path`). [`NO_LOOP`] for every other value.
    pub loop_ply: u16,
    /// For a proof, the attacker's hand it needs (every hand covering it
    /// mates); for a disproof, the hand it allows (no hand it covers
    /// mates); see `crate::pieces`. [`HandKey::EXACT`]: the hand it was
    /// found with, and open numbers.
    pub pieces: HandKey,
}

/// [`Known::loop_ply`] of a value that holds whatever the path.
pub const NO_LOOP: u16 = u16::MAX;

impl Known {
    /// A proven position, mated in `length` plies.
    pub const fn proven(length: Depth) -> Known {
        Known::open(0, INFINITE, length)
    }

    /// A disproven position: no mate within `depth` plies.
    pub const fn disproven(depth: Depth) -> Known {
        Known::open(INFINITE, 0, depth)
    }

    /// A position with these numbers, found at `depth`.
    pub const fn open(proof: Number, disproof: Number, depth: Depth) -> Known {
        Known {
            proof,
            disproof,
            depth,
            loop_ply: NO_LOOP,
            pieces: HandKey::EXACT,
        }
    }

    /// The same, with `pieces` (see [`Known::pieces`]).
    pub const fn with_pieces(self, pieces: HandKey) -> Known {
        Known { pieces, ..self }
    }

    /// Whether it is a disproof that holds for the current path only.
    pub const fn is_path_disproof(self) -> bool {
        self.disproof == 0 && self.loop_ply != NO_LOOP
    }

    /// Whether it is proven.
    pub const fn is_proven(self) -> bool {
        self.proof == 0
    }

    /// Whether it is disproven.
    pub const fn is_disproven(self) -> bool {
        self.disproof == 0
    }
}

/// The table: every position seen, by board key and attacker's hand.
///
/// Its size is reckoned from what it allocates (the map's buckets, each
/// cluster's vector and the allocator's share of it), so that a table of
/// N MiB takes about N MiB of the process's memory: reckoned at a flat 64
/// bytes an entry, a 4 GiB table once grew the process to 9.3 GB.
pub struct Table {
    clusters: FxHashMap<u64, Vec<Entry>>,
    entries: usize,
    /// The entries the clusters' vectors have room for, used or not.
    room: usize,
    /// The clusters the map's buckets hold when full, the most its
    /// `capacity()` has been: removing clusters leaves tombstones that
    /// lower `capacity()`, but the buckets stay allocated.
    full_capacity: usize,
    /// The bytes the table may take.
    budget: usize,
}

/// A cluster's place in the map: its key, its vector's header and the
/// map's control byte.
const BUCKET_BYTES: usize = std::mem::size_of::<(u64, Vec<Entry>)>() + 1;

/// What the allocator keeps beside each block it hands out (glibc's
/// malloc: a 16-byte header, and blocks rounded to 16 bytes).
const BLOCK_OVERHEAD: usize = 16;

/// The bytes of a map that holds `capacity` clusters: hashbrown keeps an
/// eighth of its buckets free.
const fn map_bytes(capacity: usize) -> usize {
    (capacity * 8).div_ceil(7) * BUCKET_BYTES
}

impl Table {
    /// A table that takes about `megabytes` MiB before it forgets the
    /// entries that cost least to find again.
    pub fn new(megabytes: usize) -> Table {
        Table {
            clusters: FxHashMap::default(),
            entries: 0,
            room: 0,
            full_capacity: 0,
            budget: megabytes.max(1) << 20,
        }
    }

    /// The bytes it takes now, as reckoned (see [`Table`]).
    pub fn bytes(&self) -> usize {
        map_bytes(self.full_capacity)
            + self.room * std::mem::size_of::<Entry>()
            + self.clusters.len() * BLOCK_OVERHEAD
    }

    /// Whether a new cluster would make the map grow past the budget. A
    /// map with no free bucket left rehashes on its next new key: in place
    /// while it is at most half full, else into twice the buckets, the old
    /// ones freed only once the new are filled, so both must fit.
    fn growth_would_overflow(&self) -> bool {
        let clusters = self.clusters.len();
        clusters == self.clusters.capacity()
            && clusters + 1 > self.full_capacity / 2
            && self.bytes() + map_bytes(2 * self.full_capacity + 2) > self.budget
    }

    /// Forgets everything (the map keeps its buckets).
    pub fn clear(&mut self) {
        self.clusters.clear();
        self.entries = 0;
        self.room = 0;
    }

    /// How many entries it holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
    }

    /// What is known of the position `board` with the attacker holding
    /// `hand`, searched with `depth` plies left: a proof no longer than
    /// `depth` from any hand it covers, a disproof holding to `depth` from
    /// any hand covering it, or the open numbers stored for this very hand
    /// and depth.
    pub fn get(&self, board: u64, hand: HandKey, depth: Depth) -> Option<Known> {
        let cluster = self.clusters.get(&board)?;
        let mut found: Option<Known> = None;
        for entry in cluster {
            if entry.proof == 0 {
                if hand.covers(entry.hand)
                    && entry.depth <= depth
                    && found.is_none_or(|k| !k.is_proven() || entry.depth < k.depth)
                {
                    found = Some(Known::proven(entry.depth).with_pieces(entry.hand));
                }
            } else if entry.disproof == 0 {
                if entry.hand.covers(hand)
                    && entry.depth >= depth
                    && found.is_none_or(|k| !k.is_proven() && !k.is_disproven())
                {
                    found = Some(Known::disproven(entry.depth).with_pieces(entry.hand));
                }
            } else if entry.hand == hand && entry.depth == depth && found.is_none() {
                found = Some(Known::open(entry.proof, entry.disproof, entry.depth));
            }
        }
        found
    }

    /// Stores what is known of `board` with `hand` (for a proof or
    /// disproof, its pieces), found with `work` nodes. A proof or disproof
    /// replaces the open entries of its hand that it settles.
    pub fn put(&mut self, board: u64, hand: HandKey, known: Known, work: u64) {
        if self.growth_would_overflow() && !self.clusters.contains_key(&board) {
            while self.growth_would_overflow() && self.forget() {}
        }
        let (cluster, room_before) = match self.clusters.entry(board) {
            MapEntry::Occupied(cluster) => {
                let cluster = cluster.into_mut();
                let room = cluster.capacity();
                (cluster, room)
            }
            // Most positions keep one entry: room for one, not the four a
            // vector's first push makes.
            MapEntry::Vacant(place) => (place.insert(Vec::with_capacity(1)), 0),
        };
        let before = cluster.len();
        if known.is_proven() {
            // Open entries of hands it covers, and proofs no shorter from
            // hands that cover its own, say nothing more.
            cluster.retain(|e| {
                let settled = if e.proof == 0 {
                    e.hand.covers(hand) && e.depth >= known.depth
                } else {
                    e.disproof != 0 && e.hand.covers(hand) && e.depth >= known.depth
                };
                !settled
            });
        } else if known.is_disproven() {
            cluster.retain(|e| {
                let settled = if e.disproof == 0 {
                    hand.covers(e.hand) && e.depth <= known.depth
                } else {
                    e.proof != 0 && hand.covers(e.hand) && e.depth <= known.depth
                };
                !settled
            });
        }
        let entry = Entry {
            hand,
            proof: known.proof,
            disproof: known.disproof,
            depth: known.depth,
            work: u32::try_from(work).unwrap_or(u32::MAX),
        };
        match cluster
            .iter_mut()
            .find(|e| e.hand == hand && e.depth == known.depth && e.proof != 0 && e.disproof != 0)
        {
            Some(open) if !known.is_proven() && !known.is_disproven() => *open = entry,
            _ => cluster.push(entry),
        }
        self.entries = self.entries + cluster.len() - before;
        self.room = self.room + cluster.capacity() - room_before;
        self.full_capacity = self.full_capacity.max(self.clusters.capacity());
        while self.bytes() > self.budget && self.forget() {}
    }

    /// Makes room: drops the open entries that took least work to find,
    /// about half of them, and if that is not enough, the cheapest solved
    /// ones too. Whether anything was dropped.
    fn forget(&mut self) -> bool {
        let mut works: Vec<u32> = self
            .clusters
            .values()
            .flatten()
            .filter(|e| e.proof != 0 && e.disproof != 0)
            .map(|e| e.work)
            .collect();
        let open_only = works.len() * 4 >= self.entries;
        if !open_only {
            works = self.clusters.values().flatten().map(|e| e.work).collect();
        }
        if works.is_empty() {
            return false;
        }
        let middle = works.len() / 2;
        let (_, &mut threshold, _) = works.select_nth_unstable(middle);
        let (mut entries, mut room) = (0, 0);
        self.clusters.retain(|_, cluster| {
            cluster.retain(|e| {
                let solved = e.proof == 0 || e.disproof == 0;
                (open_only && solved) || e.work > threshold
            });
            // The room freed goes back to the allocator, to be used again.
            cluster.shrink_to_fit();
            entries += cluster.len();
            room += cluster.capacity();
            !cluster.is_empty()
        });
        let dropped = entries < self.entries;
        self.entries = entries;
        self.room = room;
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(pawns: u64, golds: u64) -> HandKey {
        // Two of the packed bytes: what is compared is the packing.
        HandKey(pawns | golds << 40)
    }

    #[test]
    fn covering_compares_every_role() {
        assert!(hand(2, 1).covers(hand(1, 1)));
        assert!(hand(1, 1).covers(hand(1, 1)));
        assert!(!hand(1, 1).covers(hand(2, 1)));
        assert!(!hand(3, 0).covers(hand(1, 1)));
        assert!(hand(18, 4).covers(hand(0, 0)));
        assert!(!hand(0, 0).covers(hand(18, 0)));
    }

    #[test]
    fn a_proof_answers_for_bigger_hands_and_longer_depths_only() {
        let mut table = Table::new(1);
        table.put(7, hand(1, 0), Known::proven(5), 10);
        // The proof comes back with the pieces it needs.
        let proof = Known::proven(5).with_pieces(hand(1, 0));
        assert_eq!(table.get(7, hand(2, 0), 9), Some(proof));
        assert_eq!(table.get(7, hand(1, 0), 5), Some(proof));
        assert_eq!(table.get(7, hand(1, 0), 3), None);
        assert_eq!(table.get(7, hand(0, 0), 9), None);
        assert_eq!(table.get(8, hand(1, 0), 9), None);
    }

    #[test]
    fn a_disproof_answers_for_smaller_hands_and_shorter_depths_only() {
        let mut table = Table::new(1);
        table.put(7, hand(1, 1), Known::disproven(6), 10);
        let disproof = Known::disproven(6).with_pieces(hand(1, 1));
        assert_eq!(table.get(7, hand(1, 0), 4), Some(disproof));
        assert_eq!(table.get(7, hand(1, 1), 6), Some(disproof));
        assert_eq!(table.get(7, hand(1, 1), 8), None);
        assert_eq!(table.get(7, hand(2, 1), 4), None);
    }

    #[test]
    fn open_numbers_are_for_their_own_hand_and_depth() {
        let mut table = Table::new(1);
        let open = Known::open(3, 4, 9);
        table.put(7, hand(1, 0), open, 10);
        assert_eq!(table.get(7, hand(1, 0), 9), Some(open));
        assert_eq!(table.get(7, hand(1, 0), 7), None);
        assert_eq!(table.get(7, hand(2, 0), 9), None);
        let again = Known::open(5, 2, 9);
        table.put(7, hand(1, 0), again, 20);
        assert_eq!(table.get(7, hand(1, 0), 9), Some(again));
        assert_eq!(table.len(), 1);
        table.put(7, hand(1, 0), Known::proven(3), 30);
        assert_eq!(
            table.get(7, hand(1, 0), 9),
            Some(Known::proven(3).with_pieces(hand(1, 0)))
        );
        assert_eq!(table.len(), 1, "the proof settles the open entry");
    }

    #[test]
    fn a_full_table_forgets_the_cheapest_open_entries() {
        let mut table = Table::new(1);
        let open = Known::open(1, 1, 1);
        table.put(0, hand(0, 0), Known::proven(1), 0);
        let mut most = 0;
        let mut forgot_at = None;
        for board in 1..200_000u64 {
            let before = table.len();
            table.put(board, hand(0, 0), open, board);
            most = most.max(table.bytes());
            if table.len() <= before {
                forgot_at = Some(board);
                break;
            }
        }
        let board = forgot_at.expect("a 1 MiB table forgets before 200,000 clusters");
        assert!(most <= 1 << 20, "{most} bytes reckoned in a 1 MiB table");
        assert!(board > 5_000, "forgot after only {board} clusters");
        assert!(table.len() <= board as usize / 2 + 2);
        assert!(table.get(0, hand(0, 0), 1).is_some_and(Known::is_proven));
        assert!(table.get(board, hand(0, 0), 1).is_some());
        assert!(table.get(1, hand(0, 0), 1).is_none());
    }

    #[test]
    fn an_entry_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }
}
