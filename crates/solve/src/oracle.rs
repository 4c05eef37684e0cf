//! The tests' oracle and positions: plain minimax over every move, and
//! positions from random games or scattered pawns.

use koma_rules::pawns_board::{After, PawnsBoard};
use std::collections::HashMap;

/// Plain minimax over every move, remembering each position's value
/// under its exact key (no bounds, no mirror images, no race rules).
pub fn minimax<const N: usize>(position: &PawnsBoard<N>, known: &mut HashMap<u128, i8>) -> i8 {
    if let Some(&value) = known.get(&position.key()) {
        return value;
    }
    let value = position
        .moves()
        .into_iter()
        .map(|m| match position.play(m) {
            After::Won => 1,
            After::Continues(child) => -minimax(&child, known),
        })
        .max()
        .unwrap_or(0);
    known.insert(position.key(), value);
    value
}

/// A xorshift generator: the same positions on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions after `plies` random moves from the start, the game still
/// going.
pub fn random_positions<const N: usize>(plies: usize, count: usize) -> Vec<PawnsBoard<N>> {
    let mut random = Random(0x9e37_79b9_7f4a_7c15 ^ plies as u64);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut position = PawnsBoard::<N>::start();
        for _ in 0..plies {
            let moves = position.moves();
            if moves.is_empty() {
                break;
            }
            match position.play(moves[(random.next() % moves.len() as u64) as usize]) {
                After::Won => break,
                After::Continues(next) => position = next,
            }
        }
        positions.push(position);
    }
    positions
}

/// Positions with each side's pawns scattered over the ranks they may
/// stand on (at most `N` a side), each square holding a pawn of each side
/// with chance `one_in` (1 in that many), either side to move.
pub fn scattered<const N: usize>(count: usize, one_in: u64, seed: u64) -> Vec<PawnsBoard<N>> {
    let mut random = Random(0x2545_f491_4f6c_dd1d ^ seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut rows = vec![vec!['1'; N]; N];
        for row in rows.iter_mut().take(N - 1).skip(1) {
            for square in row.iter_mut() {
                *square = match random.next() % one_in {
                    0 => 'P',
                    1 => 'p',
                    _ => '1',
                };
            }
        }
        let board: Vec<String> = rows.iter().rev().map(|r| r.iter().collect()).collect();
        let side = if random.next() % 2 == 0 { "w" } else { "b" };
        let fen = format!("{} {side} - - 0 1", board.join("/"));
        if let Ok(position) = PawnsBoard::<N>::from_fen(&fen) {
            positions.push(position);
        }
    }
    positions
}
