//! Correction history (Stockfish's and YaneuraOu's): how far the static
//! evaluation has fallen from what the search then found, learned by
//! features positions share (both sides' pawns, each side's other pieces,
//! and the two moves before), and added to the evaluation of the next
//! position with the same features. An evaluation that misjudges a kind
//! of position (a castle, a pawn structure) is corrected within the
//! search that keeps misjudging it.
//!
//! Every thread of a search shares one table, each entry an atomic
//! updated without a lock: two threads learn twice as fast, and a lost
//! update costs only one lesson.

use crate::score::{gravity, Value};
use koma_rules::Color;
use std::sync::atomic::{AtomicI16, Ordering};

/// The keys of the features a correction is learned by, from
/// [`crate::Evaluate::correction_keys`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    /// Both sides' pawns on the board.
    pub pawns: u64,
    /// Each side's other pieces on the board (Sente's, then Gote's).
    pub pieces: [u64; 2],
}

/// Entries saturate at this magnitude.
const LIMIT: i32 = 1024;

/// A learned correction's largest step, a quarter of the range.
pub(crate) const MAX_BONUS: i32 = LIMIT / 4;

/// Each keyed table has 2^`KEY_BITS` entries for each side to move.
const KEY_BITS: u32 = 14;

/// The table of the two moves before has 2^`CONTINUATION_BITS` entries.
const CONTINUATION_BITS: u32 = 20;

/// The weights of the tables' entries in a correction, which is their
/// sum over [`SCALE`] (YaneuraOu's): an entry at its limit moves the
/// evaluation by about 95 for the pawns, 97 for either side's pieces, 62
/// for the moves before.
const PAWN_WEIGHT: i64 = 12_153;
const PIECES_WEIGHT: i64 = 12_355;
const CONTINUATION_WEIGHT: i64 = 7_982;
const SCALE: i64 = 131_072;

/// The correction history of one engine, shared by its threads.
pub struct CorrectionHistory {
    /// By the pawns' key and the side to move.
    pawns: Box<[AtomicI16]>,
    /// By one side's pieces' key and the side to move, for each side.
    pieces: [Box<[AtomicI16]>; 2],
    /// By the two moves before and the side to move, hashed.
    continuation: Box<[AtomicI16]>,
}

fn zeroed(entries: usize) -> Box<[AtomicI16]> {
    (0..entries).map(|_| AtomicI16::new(0)).collect()
}

/// The entry of `key` for `side` in a keyed table.
#[inline]
fn keyed(key: u64, side: Color) -> usize {
    (((key >> (64 - KEY_BITS)) as usize) << 1) | side.index()
}

/// The entry of the moves `before` (this side's move two plies back,
/// then the opponent's last, each as the histories' piece-square: its
/// mover's kind and its target square) for `side`.
#[inline]
fn continuation_index(before: (usize, usize), side: Color) -> usize {
    let pair = (((before.0 as u64) << 32) | ((before.1 as u64) << 1) | side.index() as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (pair >> (64 - CONTINUATION_BITS)) as usize
}

/// Moves `entry` by `bonus` with the histories' [`gravity`]. A load and a
/// store, not one atomic step: a lesson another thread writes in between
/// is lost, which costs less than a locked update would.
#[inline]
fn nudge(entry: &AtomicI16, bonus: i32) {
    let moved = gravity(entry.load(Ordering::Relaxed) as i32, bonus, LIMIT);
    entry.store(moved as i16, Ordering::Relaxed);
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let keyed_entries = 2 << KEY_BITS;
        CorrectionHistory {
            pawns: zeroed(keyed_entries),
            pieces: [zeroed(keyed_entries), zeroed(keyed_entries)],
            continuation: zeroed(1 << CONTINUATION_BITS),
        }
    }
}

impl CorrectionHistory {
    /// Forgets everything (a new game).
    pub fn clear(&self) {
        let tables = [
            &self.pawns,
            &self.pieces[0],
            &self.pieces[1],
            &self.continuation,
        ];
        for entry in tables.into_iter().flat_map(|table| table.iter()) {
            entry.store(0, Ordering::Relaxed);
        }
    }

    /// What to add to the static evaluation of a position with `keys`,
    /// `side` to move, reached by the moves `before` (this side's two
    /// plies back and the opponent's last, as the histories' piece-squares;
    /// `None` near the root or after a null move).
    ///
    /// ```
    /// use koma_engine::{CorrectionHistory, CorrectionKeys};
    /// use koma_rules::Color;
    ///
    /// let history = CorrectionHistory::default();
    /// let keys = CorrectionKeys { pawns: 1 << 60, pieces: [2 << 60, 3 << 60] };
    /// assert_eq!(history.correction(&keys, Color::Sente, None), 0);
    /// // The search found more than the evaluation said, again and again.
    /// for _ in 0..50 {
    ///     history.learn(&keys, Color::Sente, None, 200);
    /// }
    /// assert!(history.correction(&keys, Color::Sente, None) > 200);
    /// // The other side to move has learned nothing.
    /// assert_eq!(history.correction(&keys, Color::Gote, None), 0);
    /// ```
    pub fn correction(
        &self,
        keys: &CorrectionKeys,
        side: Color,
        before: Option<(usize, usize)>,
    ) -> Value {
        let read = |table: &[AtomicI16], index: usize| table[index].load(Ordering::Relaxed) as i64;
        let pawns = read(&self.pawns, keyed(keys.pawns, side));
        let pieces = read(&self.pieces[0], keyed(keys.pieces[0], side))
            + read(&self.pieces[1], keyed(keys.pieces[1], side));
        let continuation = before.map_or(0, |before| {
            read(&self.continuation, continuation_index(before, side))
        });
        let sum = PAWN_WEIGHT * pawns + PIECES_WEIGHT * pieces + CONTINUATION_WEIGHT * continuation;
        (sum / SCALE) as Value
    }

    /// Learns that the search found `bonus` more (or less, negative) than
    /// the corrected evaluation of a position with `keys`; `bonus` is
    /// bounded by [`MAX_BONUS`] in magnitude by the caller.
    pub fn learn(
        &self,
        keys: &CorrectionKeys,
        side: Color,
        before: Option<(usize, usize)>,
        bonus: i32,
    ) {
        nudge(&self.pawns[keyed(keys.pawns, side)], bonus);
        let pieces_bonus = bonus * 187 / 128;
        nudge(&self.pieces[0][keyed(keys.pieces[0], side)], pieces_bonus);
        nudge(&self.pieces[1][keyed(keys.pieces[1], side)], pieces_bonus);
        if let Some(before) = before {
            nudge(
                &self.continuation[continuation_index(before, side)],
                bonus * 126 / 128,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: CorrectionKeys = CorrectionKeys {
        pawns: 0x1234_5678_9abc_def0,
        pieces: [0x0fed_cba9_8765_4321, 0x1111_2222_3333_4444],
    };

    /// Lessons in one direction saturate below the limit; the opposite
    /// lessons bring the correction back down, past zero; `clear` forgets.
    #[test]
    fn corrections_saturate_turn_and_clear() {
        let history = CorrectionHistory::default();
        let before = Some((100, 200));
        for _ in 0..1_000 {
            history.learn(&KEYS, Color::Gote, before, MAX_BONUS);
        }
        let high = history.correction(&KEYS, Color::Gote, before);
        // Every entry at the limit: the weights' sum over the scale.
        let ceiling = (LIMIT as i64 * (PAWN_WEIGHT + 2 * PIECES_WEIGHT + CONTINUATION_WEIGHT)
            / SCALE) as Value;
        assert!(
            high > ceiling * 9 / 10 && high <= ceiling,
            "{high} of {ceiling}"
        );
        // Without the moves before, their table's part is missing.
        let without = history.correction(&KEYS, Color::Gote, None);
        assert!(without < high - 50, "{without} against {high}");
        for _ in 0..1_000 {
            history.learn(&KEYS, Color::Gote, before, -MAX_BONUS);
        }
        assert!(history.correction(&KEYS, Color::Gote, before) < -ceiling * 9 / 10);
        history.clear();
        assert_eq!(history.correction(&KEYS, Color::Gote, before), 0);
    }

    /// Other pawns, other pieces or other moves before share nothing
    /// with what one position's keys learned (beyond a hash's chance).
    #[test]
    fn each_feature_has_its_own_entries() {
        let history = CorrectionHistory::default();
        history.learn(&KEYS, Color::Sente, Some((5, 6)), MAX_BONUS);
        let other = CorrectionKeys {
            pawns: !KEYS.pawns,
            pieces: [!KEYS.pieces[0], !KEYS.pieces[1]],
        };
        assert_eq!(history.correction(&other, Color::Sente, Some((6, 5))), 0);
        let pawns_only = CorrectionKeys {
            pawns: KEYS.pawns,
            ..other
        };
        let learned = history.correction(&pawns_only, Color::Sente, None);
        assert_eq!(learned as i64, PAWN_WEIGHT * MAX_BONUS as i64 / SCALE);
    }
}
