//! Race rules: bounds on a position's value that follow from a pawn that
//! nothing can stop, each a small theorem proven below, so the search may
//! cut on them without guessing. Tests check every bound against plain
//! minimax.
//!
//! Squares are in the side to move's view (bit `8 * rank + file`): we
//! move toward rank `N - 1`, they toward rank 0.

use koma_rules::pawns_board::{squares, BoardMove, PawnsBoard};

/// The first file of an 8-wide board.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The eighth file of an 8-wide board.
const FILE_H: u64 = FILE_A << 7;

/// Every square above a square of `bits`, on its file.
fn above(bits: u64) -> u64 {
    let mut fill = bits << 8;
    fill |= fill << 8;
    fill |= fill << 16;
    fill | fill << 32
}

/// Every square below a square of `bits`, on its file.
fn below(bits: u64) -> u64 {
    let mut fill = bits >> 8;
    fill |= fill >> 8;
    fill |= fill >> 16;
    fill | fill >> 32
}

/// The squares beside those of `bits`, on the files to either side.
fn beside(bits: u64) -> u64 {
    ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H)
}

/// Our moves that a pawn on `rank` needs to reach the last rank, at the
/// least: one a rank, a double step saving one from the first.
fn our_distance<const N: usize>(rank: u8) -> u8 {
    N as u8 - 1 - rank - u8::from(rank == 1)
}

/// Their moves that a pawn on `rank` needs to reach rank 0, at the least.
fn their_distance<const N: usize>(rank: u8) -> u8 {
    rank - u8::from(rank == N as u8 - 2)
}

/// Our runners: pawns that can never be stopped or taken while every
/// other pawn of ours stands still, whatever they do. A runner
/// - is our front pawn on its file,
/// - has no pawn of theirs above it on its file or the files beside,
/// - and has no pawn of ours above it on the files beside.
///
/// Their pawns only reach a file beside it by taking a pawn of ours
/// there, so they land no higher than the runner stands, and a pawn
/// attacks only downward, where the runner never goes. Nothing stands in
/// its way: none of theirs is above it on its file, and a capture onto its
/// file above it would need a pawn of ours there. A double step from the
/// first rank passes no attacked square, for that square's attackers would
/// stand above it beside it.
fn runners(us: u64, them: u64) -> u64 {
    let mut runners = 0;
    for square in squares(us) {
        let bit = 1u64 << square;
        let ahead = above(bit);
        let ahead_beside = beside(ahead);
        if (ahead & us) | ((ahead | ahead_beside) & them) | (ahead_beside & us) == 0 {
            runners |= bit;
        }
    }
    runners
}

/// Our pawns that keep a move to the end while their pawns stand still:
/// no pawn of either side above one on its file, and none of theirs above
/// it on the files beside, so it can never take and leave its file (its
/// owner might do that to run out of moves on purpose: a stalemate draws).
/// Nothing comes to stand in its way: theirs enter a file only by taking a
/// pawn of ours on it, and ours only by taking one of theirs.
fn free_pawns(us: u64, them: u64) -> u64 {
    us & !below(us | them | beside(them))
}

/// A position's races: its runners, found once for the move order and
/// for the bounds.
pub(crate) struct Race<'a, const N: usize> {
    position: &'a PawnsBoard<N>,
    /// The side to move's runners.
    runners: u64,
}

impl<'a, const N: usize> Race<'a, N> {
    pub fn of(position: &'a PawnsBoard<N>) -> Self {
        let (us, them) = position.sides();
        Race {
            position,
            runners: runners(us, them),
        }
    }

    /// Puts a runner's moves first, keeping the generator's order
    /// otherwise (captures, then the steps furthest forward): the order of
    /// the search, of the certificate's moves and of the perfect player.
    pub fn runners_first(&self, moves: &mut [BoardMove]) {
        moves.sort_by_key(|m| (self.runners >> m.from) & 1 == 0);
    }

    /// Whether the side to move wins the race: it has a runner that needs
    /// `n` moves, they need at least `n` moves to reach our first rank with
    /// any pawn, and they cannot run out of moves before our runner arrives
    /// (`n` is 1, or they have a free pawn that keeps a move while we only
    /// move the runner). See [`Race::bounds`]; `koma-proof` checks the same
    /// rule with its own code where a certificate stops at such a position.
    pub fn won(&self) -> bool {
        self.won_in().is_some()
    }

    /// The moves of ours the race takes when [`Race::won`]: we win on our
    /// `n`th move at the latest (ply `2n - 1`).
    pub fn won_in(&self) -> Option<u8> {
        let (_, them) = self.position.sides();
        let (their_us, their_them) = self.position.sides_turned_over();
        let rank = |square: u8| square / 8;
        let their_fastest = squares(them)
            .map(|s| their_distance::<N>(rank(s)))
            .min()
            .unwrap_or(u8::MAX);
        squares(self.runners)
            .map(|s| our_distance::<N>(rank(s)))
            .min()
            .filter(|&ours| {
                ours <= their_fastest && (ours == 1 || free_pawns(their_us, their_them) != 0)
            })
    }

    /// Bounds (`lower`, `upper`, scores -1 to 1) on the value of the
    /// position for the side to move, from races that nothing can change.
    ///
    /// - **A win:** we have a runner that needs `n` moves, they need at
    ///   least `n` moves to reach our first rank with any pawn, and they
    ///   cannot run out of moves before our runner arrives (`n` is 1, or
    ///   they have a free pawn that keeps a move while we only move the
    ///   runner). We move the runner `n` times; they never take it, never
    ///   arrive first and never win by taking our last pawn, for the runner
    ///   is one.
    /// - **Not a win:** they have a runner that needs `n` moves and we need
    ///   more than `n` to reach their first rank with any pawn. They move
    ///   only the runner; we cannot take it nor arrive first. If we also
    ///   keep a move to the end (a free pawn of ours), it is a **loss**.
    pub fn bounds(&self) -> (i8, i8) {
        if self.won() {
            return (1, 1);
        }
        let (us, them) = self.position.sides();
        let (their_us, their_them) = self.position.sides_turned_over();
        let rank = |square: u8| square / 8;
        // A pawn that has just made a double step may be taken en passant
        // by one of ours beside it: it is no runner.
        let just_stepped = self
            .position
            .en_passant_file()
            .map_or(0, |file| FILE_A << file);
        if let Some(theirs) = squares(runners(their_us, their_them) & !just_stepped)
            .map(|s| our_distance::<N>(rank(s)))
            .min()
        {
            let our_fastest = squares(us)
                .map(|s| our_distance::<N>(rank(s)))
                .min()
                .unwrap_or(u8::MAX);
            if our_fastest > theirs {
                return if free_pawns(us, them) != 0 {
                    (-1, -1)
                } else {
                    (-1, 0)
                };
            }
        }
        (-1, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{minimax, random_positions, scattered};
    use std::collections::HashMap;

    /// Checks the bounds of each of `positions` against minimax (whose
    /// values `known` keeps) and counts the wins, losses and non-wins they
    /// decide.
    fn check_bounds<const N: usize>(
        positions: Vec<PawnsBoard<N>>,
        known: &mut HashMap<u128, i8>,
        decided: &mut [usize; 3],
    ) {
        for position in positions {
            let (lower, upper) = Race::of(&position).bounds();
            let value = minimax(&position, known);
            assert!(
                lower <= value && value <= upper,
                "{}: value {value}, bounds {lower}..={upper}",
                position.to_fen()
            );
            match (lower, upper) {
                (1, 1) => decided[0] += 1,
                (-1, -1) => decided[1] += 1,
                (-1, 0) => decided[2] += 1,
                _ => {}
            }
        }
    }

    #[test]
    fn every_race_bound_holds_against_plain_minimax() {
        let mut decided = [0; 3];
        let (mut five, mut six) = (HashMap::new(), HashMap::new());
        check_bounds::<5>(scattered(20_000, 5, 5), &mut five, &mut decided);
        check_bounds::<6>(scattered(4_000, 5, 6), &mut six, &mut decided);
        for plies in [2, 4, 6, 8, 10] {
            check_bounds::<5>(random_positions(plies, 300), &mut five, &mut decided);
            check_bounds::<6>(random_positions(plies + 6, 100), &mut six, &mut decided);
        }
        check_bounds::<7>(scattered(800, 9, 7), &mut HashMap::new(), &mut decided);
        check_bounds::<8>(scattered(200, 16, 8), &mut HashMap::new(), &mut decided);
        // Where a free pawn that could take had counted as one: White
        // takes on e5 and, blocked, runs out of moves.
        let blocked = PawnsBoard::<7>::from_fen("7/4p2/2p1pp1/3P3/3p3/7/7 w - - 0 1");
        check_bounds(
            vec![blocked.expect("a position")],
            &mut HashMap::new(),
            &mut decided,
        );
        assert!(
            decided.iter().all(|&n| n > 50),
            "wins, losses and non-wins decided: {decided:?}"
        );
    }
}
