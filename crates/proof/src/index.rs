//! A strategy's records, found by position: an open-addressing table of
//! record numbers over the certificate's own bytes. A certificate of
//! hundreds of millions of positions then needs 4 to 8 bytes a position
//! beside its 19 on disk, where a map of owned keys needed about 60.

use crate::RECORD;

/// The key of a record: White's pawns, Black's, the en passant file.
pub(crate) type Key = (u64, u64, u8);

/// The records of one strategy, indexed by key.
pub(crate) struct Index<'a> {
    records: &'a [u8],
    /// Record number + 1 in each slot; 0 for an empty slot.
    slots: Vec<u32>,
}

/// The key of the record at `bytes`.
pub(crate) fn record_key(bytes: &[u8]) -> Key {
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    (word(0), word(8), bytes[16])
}

fn hash((white, black, en_passant): Key) -> u64 {
    let mut h = white.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ black.rotate_left(31).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ u64::from(en_passant);
    h ^= h >> 29;
    h = h.wrapping_mul(0x1656_67b1_9e37_79f9);
    h ^ (h >> 32)
}

impl<'a> Index<'a> {
    /// Indexes `records` (a whole number of records); a key listed twice,
    /// or more records than the index can number, is an error (`Err` with
    /// the reason).
    pub(crate) fn new(records: &'a [u8]) -> Result<Index<'a>, String> {
        let count = records.len() / RECORD;
        if count >= u32::MAX as usize {
            return Err(format!(
                "{count} records are more than one strategy may hold"
            ));
        }
        let size = (count * 2).next_power_of_two().max(2);
        let mut index = Index {
            records,
            slots: vec![0; size],
        };
        for number in 0..count {
            let key = record_key(&records[number * RECORD..]);
            let mut slot = index.home(key);
            loop {
                match index.slots[slot] {
                    0 => break,
                    other if index.key_at(other) == key => {
                        return Err("a position is listed twice".to_string())
                    }
                    _ => slot = (slot + 1) & (size - 1),
                }
            }
            index.slots[slot] = number as u32 + 1;
        }
        Ok(index)
    }

    fn home(&self, key: Key) -> usize {
        hash(key) as usize & (self.slots.len() - 1)
    }

    fn key_at(&self, slot_value: u32) -> Key {
        record_key(self.record(slot_value as usize - 1))
    }

    fn record(&self, number: usize) -> &'a [u8] {
        &self.records[number * RECORD..(number + 1) * RECORD]
    }

    /// Whether `key` has a record.
    pub(crate) fn contains(&self, key: Key) -> bool {
        let mut slot = self.home(key);
        loop {
            match self.slots[slot] {
                0 => return false,
                other if self.key_at(other) == key => return true,
                _ => slot = (slot + 1) & (self.slots.len() - 1),
            }
        }
    }

    /// The number of records.
    pub(crate) fn len(&self) -> usize {
        self.records.len() / RECORD
    }

    /// Each record: its key and its move's from and to squares.
    pub(crate) fn records(&self) -> impl Iterator<Item = (Key, u8, u8)> + 'a {
        self.records
            .chunks_exact(RECORD)
            .map(|record| (record_key(record), record[17], record[18]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(white: u64, black: u64, en_passant: u8) -> Vec<u8> {
        let mut bytes = white.to_le_bytes().to_vec();
        bytes.extend_from_slice(&black.to_le_bytes());
        bytes.extend_from_slice(&[en_passant, 8, 16]);
        bytes
    }

    #[test]
    fn every_record_is_found_and_nothing_else() {
        let mut bytes = Vec::new();
        for i in 0..1000u64 {
            bytes.extend(record(i << 8, (i * 7) << 16, (i % 3) as u8));
        }
        let index = Index::new(&bytes).unwrap();
        assert_eq!(index.len(), 1000);
        for i in 0..1000u64 {
            assert!(index.contains((i << 8, (i * 7) << 16, (i % 3) as u8)));
            assert!(!index.contains((i << 8, (i * 7) << 16, 3)));
        }
        assert_eq!(index.records().count(), 1000);
    }

    #[test]
    fn a_position_listed_twice_is_refused() {
        let mut bytes = record(1 << 8, 1 << 48, 255);
        bytes.extend(record(2 << 8, 1 << 48, 255));
        bytes.extend(record(1 << 8, 1 << 48, 255));
        let error = Index::new(&bytes).err().expect("refused");
        assert!(error.contains("twice"), "{error}");
    }
}
