//! Zobrist keys, generated at compile time by splitmix64.

use crate::color::Color;
use crate::role::{Piece, Role};
use crate::square::Square;

/// Most pieces of one role a hand can hold (18 pawns in shogi).
pub const MAX_HAND_COUNT: usize = 18;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 81]; Piece::NUM],
    hands: [[[u64; MAX_HAND_COUNT + 1]; 8]; 2],
    turn: u64,
    en_passant: [u64; 81],
}

static KEYS: Keys = {
    let mut state = 0x4b6f_6d61_u64; // "Koma"
    let mut pieces = [[0u64; 81]; Piece::NUM];
    let mut p = 0;
    while p < Piece::NUM {
        let mut s = 0;
        while s < 81 {
            let (next, key) = splitmix(state);
            state = next;
            pieces[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let mut hands = [[[0u64; MAX_HAND_COUNT + 1]; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 8 {
            // A count of zero contributes nothing, so empty hands hash alike.
            let mut n = 1;
            while n <= MAX_HAND_COUNT {
                let (next, key) = splitmix(state);
                state = next;
                hands[c][r][n] = key;
                n += 1;
            }
            r += 1;
        }
        c += 1;
    }
    let (next, turn) = splitmix(state);
    state = next;
    let mut en_passant = [0u64; 81];
    let mut s = 0;
    while s < 81 {
        let (next, key) = splitmix(state);
        state = next;
        en_passant[s] = key;
        s += 1;
    }
    Keys {
        pieces,
        hands,
        turn,
        en_passant,
    }
};

/// Key of `piece` standing on `square`.
#[inline(always)]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS.pieces[piece.index()][square.index() as usize]
}

/// Key of `color` holding `count` pieces of hand role `role`.
#[inline(always)]
pub fn hand_key(color: Color, role: Role, count: u8) -> u64 {
    KEYS.hands[color.index()][role.index()][(count as usize).min(MAX_HAND_COUNT)]
}

/// Key xored in when Gote is to move.
#[inline(always)]
pub fn turn_key() -> u64 {
    KEYS.turn
}

/// Key of an en passant square (Pawns-Only Chess).
#[inline(always)]
pub fn en_passant_key(square: Square) -> u64 {
    KEYS.en_passant[square.index() as usize]
}
