//! One training position as 48 bytes: the format of a data file.
//!
//! A data file is a plain sequence of records, with nothing between them,
//! so that the trainer can read the n-th at `48 * n`. All numbers are
//! little-endian.
//!
//! | bytes | what |
//! |---|---|
//! | 0..42 | the position, packed as below |
//! | 42..44 | the search's value, centipawns from the side to move's view (`i16`) |
//! | 44 | the game's result for the side to move: 1 win, 0 draw, -1 loss (`i8`) |
//! | 45 | reserved, 0 |
//! | 46..48 | the ply: moves played before this position in its game (`u16`; the position's move number is one more) |
//!
//! The position is a bit stream, least significant bit of byte 0 first:
//! - each square of the board in index order (9a, 9b … 1i on the 9×9
//!   board, the same order on 5×5): `0` if empty, else `1`, then the
//!   piece's colour (0 Sente, 1 Gote), then its role in 4 bits (0 pawn, 1
//!   lance, 2 knight, 3 silver, 4 gold, 5 bishop, 6 rook, 7 king, 8 to 13
//!   the promoted pawn, lance, knight, silver, bishop and rook);
//! - each hand, Sente's then Gote's: pawns in 5 bits, then lances,
//!   knights, silvers, golds, bishops, rooks and kings in 3 bits each;
//! - the side to move in 1 bit (0 Sente);
//! - zeros to the end of byte 42.
//!
//! A full 9×9 board (40 pieces) takes 334 bits, within the 336.

use koma_engine::Value;
use koma_rules::{Color, Piece, Position, Role, ShogiPosition, ShogiVariant};
use std::fmt;

/// Bytes of a record.
pub const RECORD_BYTES: usize = 48;
/// Bytes of the packed position.
const POSITION_BYTES: usize = 42;

/// A training position: the position, the search's value and the game's
/// result, both from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample<V: ShogiVariant> {
    /// The position.
    pub position: ShogiPosition<V>,
    /// The search's value in centipawns.
    pub value: i16,
    /// 1 win, 0 draw, -1 loss.
    pub result: i8,
    /// Moves played before it in its game.
    pub ply: u16,
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

/// Writes bits into a byte array, least significant first.
struct BitWriter {
    bytes: [u8; POSITION_BYTES],
    at: usize,
}

impl BitWriter {
    fn put(&mut self, value: u32, bits: usize) {
        for i in 0..bits {
            if value >> i & 1 == 1 {
                self.bytes[self.at / 8] |= 1 << (self.at % 8);
            }
            self.at += 1;
        }
    }
}

/// Reads what [`BitWriter`] wrote.
struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl BitReader<'_> {
    fn take(&mut self, bits: usize) -> Result<u32, RecordError> {
        let mut value = 0;
        for i in 0..bits {
            let byte = self
                .bytes
                .get(self.at / 8)
                .ok_or_else(|| RecordError("the position runs past its 42 bytes".into()))?;
            value |= u32::from(byte >> (self.at % 8) & 1) << i;
            self.at += 1;
        }
        Ok(value)
    }
}

/// The bits of a hand count of `role`.
fn count_bits(role: Role) -> usize {
    if role == Role::Pawn {
        5
    } else {
        3
    }
}

impl<V: ShogiVariant> Sample<V> {
    /// The 48 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut bits = BitWriter {
            bytes: [0; POSITION_BYTES],
            at: 0,
        };
        for square in V::BOARD {
            match self.position.piece_at(square) {
                None => bits.put(0, 1),
                Some(piece) => {
                    bits.put(1, 1);
                    bits.put(piece.color.index() as u32, 1);
                    bits.put(piece.role.index() as u32, 4);
                }
            }
        }
        for color in [Color::Sente, Color::Gote] {
            for role in Role::HAND {
                let count = u32::from(self.position.hand(color).count(role));
                bits.put(count, count_bits(role));
            }
        }
        bits.put(self.position.turn().index() as u32, 1);
        let mut record = [0; RECORD_BYTES];
        record[..POSITION_BYTES].copy_from_slice(&bits.bytes);
        record[42..44].copy_from_slice(&self.value.to_le_bytes());
        record[44] = self.result as u8;
        record[46..48].copy_from_slice(&self.ply.to_le_bytes());
        record
    }

    /// Reads a record: an error, never a panic, for bytes that are not a
    /// legal position of this game.
    pub fn from_bytes(record: &[u8]) -> Result<Sample<V>, RecordError> {
        if record.len() != RECORD_BYTES {
            return Err(RecordError(format!(
                "a record is {RECORD_BYTES} bytes, not {}",
                record.len()
            )));
        }
        let mut bits = BitReader {
            bytes: &record[..POSITION_BYTES],
            at: 0,
        };
        let mut position = ShogiPosition::<V>::empty();
        for square in V::BOARD {
            if bits.take(1)? == 1 {
                let color = if bits.take(1)? == 0 {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let role = bits.take(4)? as usize;
                let role = *Role::ALL
                    .get(role)
                    .ok_or_else(|| RecordError(format!("no role {role}")))?;
                position.put(square, Piece::new(color, role));
            }
        }
        for color in [Color::Sente, Color::Gote] {
            for role in Role::HAND {
                let count = bits.take(count_bits(role))? as u8;
                position.set_hand_count(color, role, count);
            }
        }
        position.set_turn(if bits.take(1)? == 0 {
            Color::Sente
        } else {
            Color::Gote
        });
        let ply = u16::from_le_bytes([record[46], record[47]]);
        position.set_move_number(u32::from(ply) + 1);
        // The rules' own reading checks what a position may hold (kings,
        // pieces where they can move, counts).
        let position = ShogiPosition::<V>::from_text(&position.to_text())
            .map_err(|e| RecordError(format!("not a position of {}: {e}", V::VARIANT)))?;
        let result = record[44] as i8;
        if !(-1..=1).contains(&result) {
            return Err(RecordError(format!("result {result}: not 1, 0 or -1")));
        }
        Ok(Sample {
            position,
            value: i16::from_le_bytes([record[42], record[43]]),
            result,
            ply,
        })
    }
}

/// A search value as a record keeps it: centipawns, clamped to `i16`.
pub fn clamp_value(value: Value) -> i16 {
    value.clamp(i16::MIN as Value + 1, i16::MAX as Value) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Game, Minishogi, Shogi, Spear};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn round_trips<V: ShogiVariant>() {
        let mut random = ChaCha8Rng::seed_from_u64(7);
        let mut seen = 0;
        for _ in 0..50 {
            let mut game = Game::new(ShogiPosition::<V>::start());
            for ply in 0..200u16 {
                let position = *game.position();
                let sample = Sample {
                    position,
                    value: random.random_range(-3000..3000),
                    result: random.random_range(-1..=1),
                    ply,
                };
                let back = Sample::<V>::from_bytes(&sample.to_bytes()).unwrap();
                assert_eq!(back.position.to_text(), position.to_text());
                assert_eq!(back.position.hash(), position.hash());
                assert_eq!(
                    (back.value, back.result, back.ply),
                    (sample.value, sample.result, ply)
                );
                seen += 1;
                let moves = position.legal_moves();
                if moves.is_empty() || game.outcome().is_some() {
                    break;
                }
                game.play(moves[random.random_range(0..moves.len())])
                    .unwrap();
            }
        }
        assert!(seen > 1000);
    }

    #[test]
    fn positions_of_random_games_come_back_whole() {
        round_trips::<Shogi>();
        round_trips::<Minishogi>();
        round_trips::<Spear>();
    }

    #[test]
    fn damaged_records_are_refused_not_panicked_on() {
        let start = Sample {
            position: ShogiPosition::<Shogi>::start(),
            value: 0,
            result: 0,
            ply: 0,
        }
        .to_bytes();
        assert!(Sample::<Shogi>::from_bytes(&start[..47]).is_err());
        let mut refused = 0;
        let mut random = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..2000 {
            let mut bytes = start;
            bytes[random.random_range(0..42)] ^= 1 << random.random_range(0..8);
            // Either a legal position or an error; never a panic.
            refused += usize::from(Sample::<Shogi>::from_bytes(&bytes).is_err());
        }
        assert!(refused > 100, "{refused}");
        let mut bytes = start;
        bytes[44] = 7;
        assert!(Sample::<Shogi>::from_bytes(&bytes).is_err());
    }
}
