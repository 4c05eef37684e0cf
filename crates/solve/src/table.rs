//! The table of proven bounds: a fixed block of memory, 16 bytes a
//! position, in buckets of four that share a cache line. Keys are exact,
//! so no collision can decide a value; when a bucket is full the position
//! that took the least work to prove gives way (it is only searched
//! again, never wrongly answered).

/// Positions to a bucket.
const WAYS: usize = 4;
/// Words to a position.
const WORDS: usize = 2;

/// A position's key packed with what is known of it, as the table and the
/// journal keep it.
///
/// - Word 0: the side to move's pawns and the en passant file (bits 0 to
///   55 of the exact key's low half: rank 0 holds the file, ranks 1 to 6
///   the pawns), then the lower and upper bounds (2 bits each, the score
///   plus one) at bit 56.
/// - Word 1: the other side's pawns (ranks 1 to 6, shifted down a rank),
///   then at bit 48 the log2 of the nodes its proof took.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Entry(pub [u64; WORDS]);

/// The bits of a packed key in word 0.
const KEY_MASK_0: u64 = (1 << 56) - 1;
/// The bits of a packed key in word 1.
const KEY_MASK_1: u64 = (1 << 48) - 1;

impl Entry {
    /// Packs `key` (an exact key of a board of up to 8 ranks) with the
    /// bounds `lower..=upper` and the work (nodes) that proved them.
    pub fn new(key: u128, lower: i8, upper: i8, work: u64) -> Entry {
        let bounds = ((lower + 1) as u64) | ((upper + 1) as u64) << 2;
        let log_work = 63 - (work | 1).leading_zeros() as u64;
        Entry([
            (key as u64 & KEY_MASK_0) | bounds << 56,
            (key >> 72) as u64 & KEY_MASK_1 | log_work << 48,
        ])
    }

    /// The key fields, for comparison (and sorting).
    pub fn key_words(&self) -> (u64, u64) {
        (self.0[0] & KEY_MASK_0, self.0[1] & KEY_MASK_1)
    }

    /// The bounds (`lower`, `upper`).
    pub fn bounds(&self) -> (i8, i8) {
        let bits = self.0[0] >> 56;
        ((bits & 3) as i8 - 1, ((bits >> 2) & 3) as i8 - 1)
    }

    /// The log2 of the nodes that proved it.
    pub fn log_work(&self) -> u64 {
        (self.0[1] >> 48) & 63
    }

    /// The same position with both entries' bounds (each proven, so both
    /// hold) and the larger work. `other` must have the same key.
    pub fn merged_with(self, other: Entry) -> Entry {
        let (lower, upper) = self.bounds();
        let (other_lower, other_upper) = other.bounds();
        let work = self.log_work().max(other.log_work());
        let merged = Entry::new(0, lower.max(other_lower), upper.min(other_upper), 1 << work);
        Entry([
            self.0[0] & KEY_MASK_0 | merged.0[0],
            self.0[1] & KEY_MASK_1 | merged.0[1],
        ])
    }

    /// Whether the slot holds no position (a real one has pawns of the
    /// other side, so word 1 is never zero).
    fn is_empty(&self) -> bool {
        self.0[1] == 0
    }
}

/// The packed key fields of an exact key, for lookups.
fn key_words(key: u128) -> (u64, u64) {
    (key as u64 & KEY_MASK_0, (key >> 72) as u64 & KEY_MASK_1)
}

/// Proven bounds of positions under exact keys, in a fixed amount of
/// memory.
pub(crate) struct Table {
    /// The buckets' words, `WAYS * WORDS` to a bucket (zeroed memory
    /// costs nothing until it is written).
    words: Vec<u64>,
    buckets: usize,
    /// Positions held.
    len: usize,
}

impl Table {
    /// A table in about `bytes` of memory (a bucket at least).
    pub fn new(bytes: usize) -> Table {
        let buckets = (bytes / (8 * WAYS * WORDS)).max(1);
        let words = vec![0; buckets * WAYS * WORDS];
        ask_for_huge_pages(&words);
        Table {
            words,
            buckets,
            len: 0,
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Positions it can hold.
    pub fn capacity(&self) -> usize {
        self.buckets * WAYS
    }

    /// The first word of `key`'s bucket.
    fn bucket(&self, key: (u64, u64)) -> usize {
        let mixed = (key.0 ^ key.1.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mixed = mixed ^ (mixed >> 32);
        let index = ((mixed as u128 * self.buckets as u128) >> 64) as usize;
        index * WAYS * WORDS
    }

    /// Starts loading `key`'s bucket into the cache, so that a
    /// [`Table::get`] soon after finds it there: a node looks up all its
    /// children, and their buckets are far apart in a table of many GiB.
    pub fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            let at = self.bucket(key_words(key));
            let pointer = self.words[at..].as_ptr() as *const i8;
            // SAFETY: a prefetch only hints the cache; the pointer is
            // inside the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch(pointer, std::arch::x86_64::_MM_HINT_T0);
            }
        }
    }

    fn slot(&self, at: usize) -> Entry {
        Entry([self.words[at], self.words[at + 1]])
    }

    /// What is known of `key`: (`lower`, `upper`), if anything.
    pub fn get(&self, key: u128) -> Option<(i8, i8)> {
        let wanted = key_words(key);
        let start = self.bucket(wanted);
        (0..WAYS)
            .map(|way| self.slot(start + way * WORDS))
            .find(|entry| !entry.is_empty() && entry.key_words() == wanted)
            .map(|entry| entry.bounds())
    }

    /// Adds what `entry` says to what is known of its position (bounds
    /// narrowed, the larger work kept). A new position takes an empty
    /// slot of its bucket, or else the slot proven with the least work if
    /// that is no more than its own.
    pub fn store(&mut self, entry: Entry) {
        let wanted = entry.key_words();
        let start = self.bucket(wanted);
        let mut weakest: Option<(usize, u64)> = None;
        for way in 0..WAYS {
            let at = start + way * WORDS;
            let held = self.slot(at);
            if held.is_empty() {
                self.put(at, entry);
                self.len += 1;
                return;
            }
            if held.key_words() == wanted {
                self.put(at, held.merged_with(entry));
                return;
            }
            if weakest.is_none_or(|(_, work)| held.log_work() < work) {
                weakest = Some((at, held.log_work()));
            }
        }
        if let Some((at, work)) = weakest {
            if work <= entry.log_work() {
                self.put(at, entry);
            }
        }
    }

    fn put(&mut self, at: usize, entry: Entry) {
        self.words[at] = entry.0[0];
        self.words[at + 1] = entry.0[1];
    }
}

/// Tables of this many bytes or more ask for huge pages.
const HUGE_PAGES_FROM: usize = 4 << 30;

/// Asks Linux to back a large table with huge pages: a lookup anywhere in
/// many GiB then misses the TLB far less often (on the 8×8 solve with 16
/// GiB, about 3.5 M nodes/s instead of 2.4 M). Only large tables ask: a
/// huge page is committed whole at its first write, so a small solve
/// scattering a few thousand entries over a large table would commit all
/// of it.
fn ask_for_huge_pages(words: &[u64]) {
    const PAGE: usize = 4096;
    #[cfg(target_os = "linux")]
    if words.len() * 8 >= HUGE_PAGES_FROM {
        // madvise wants a start on a page boundary; the allocator's block
        // starts a little past one.
        let start = words.as_ptr() as usize;
        let aligned = start.next_multiple_of(PAGE);
        let end = (start + words.len() * 8) / PAGE * PAGE;
        // SAFETY: madvise only advises the kernel about a range inside the
        // vector's allocation, which this process owns; MADV_HUGEPAGE
        // changes no contents.
        unsafe {
            libc::madvise(
                aligned as *mut libc::c_void,
                end - aligned,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::pawns_board::PawnsBoard;

    #[test]
    fn entries_keep_their_key_bounds_and_work() {
        let position =
            PawnsBoard::<8>::from_fen("8/pp1ppppp/8/8/1PpP4/8/P1P1PPPP/8 b - d3 0 1").unwrap();
        let key = position.key();
        for (lower, upper) in [(-1, 1), (0, 1), (-1, 0), (1, 1), (-1, -1), (0, 0)] {
            let entry = Entry::new(key, lower, upper, 5000);
            assert_eq!(entry.bounds(), (lower, upper));
            assert_eq!(entry.log_work(), 12);
            assert_eq!(entry.key_words(), key_words(key));
        }
        // The pawns and the en passant file all count.
        let other = PawnsBoard::<8>::from_fen("8/pp1ppppp/8/8/1PpP4/8/P1P1PPPP/8 b - - 0 1")
            .unwrap()
            .key();
        assert_ne!(key_words(key), key_words(other));
    }

    #[test]
    fn a_full_bucket_drops_the_cheapest_position_and_never_misanswers() {
        // One bucket: every position shares it.
        let mut table = Table::new(64);
        let keys: Vec<u128> = (1..=6u128).map(|i| i << 72 | i << 8).collect();
        for (i, &key) in keys.iter().enumerate() {
            table.store(Entry::new(key, 0, 1, 10 << i));
        }
        assert_eq!(table.len(), 4);
        // The two cheapest gave way.
        assert_eq!(table.get(keys[0]), None);
        assert_eq!(table.get(keys[1]), None);
        for &key in &keys[2..] {
            assert_eq!(table.get(key), Some((0, 1)));
        }
        // Bounds narrow; a cheap newcomer does not push out dearer ones.
        table.store(Entry::new(keys[5], -1, 0, 1));
        assert_eq!(table.get(keys[5]), Some((0, 0)));
        table.store(Entry::new(keys[0], 1, 1, 1));
        assert_eq!(table.get(keys[0]), None);
    }
}
