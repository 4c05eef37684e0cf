//! The one rule beyond play that the checker trusts: a race that nothing
//! can change. A certificate may stop at a position its side wins so; the
//! checker finds the race itself, with the plain grid, and the tests below
//! check the rule against a full search of small boards.
//!
//! **The rule.** The side to move ("we") wins when
//! 1. we have a *runner*: a pawn with every square ahead of it, on its own
//!    file and on the files beside, empty;
//! 2. it needs `n` moves to reach the last rank (a rank a move, the double
//!    step saving one from our second rank or below), and every pawn of
//!    theirs needs at least `n` of their moves to reach their last rank,
//!    counted the same way;
//! 3. no pawn of either side stands on a last rank (such a game is over);
//! 4. `n` is 1, or they have a *free pawn*: one with every square ahead of
//!    it on its file empty and no pawn of ours ahead of it on the files
//!    beside.
//!
//! **Why.** We move the runner and nothing else, `n` times.
//! - *It is never stopped.* A pawn of theirs enters a file only by taking
//!   a pawn of ours on it, and none of ours stands ahead of the runner on
//!   its file or beside it; so the squares ahead stay empty.
//! - *It is never taken.* That needs a pawn of theirs diagonally ahead of
//!   it; theirs move toward our side and none stands ahead on the files
//!   beside. A double step passes a square whose attackers would stand
//!   there too. So we never lose our last pawn either.
//! - *They do not arrive first.* Each of their moves brings a pawn at most
//!   one rank nearer (two from their second rank, as counted), so they need
//!   `n` moves and we, moving first, arrive on our `n`th.
//! - *They always have a move*, so no stalemate ends it as a draw: with
//!   `n = 1` they need none; otherwise their free pawn keeps its way.
//!   Nothing enters its file ahead of it: theirs only by taking ours there
//!   (there are none), ours not at all, for only the runner moves and it
//!   stays on its file. Having no pawn of ours diagonally ahead, it never
//!   takes and leaves its file, and it cannot arrive within `n - 1` moves.
//! - *We always have a move*: the runner's.

use crate::{Board, Cell};

impl Board {
    /// Whether the side to move wins by the race rule above.
    pub(crate) fn won_by_race(&self) -> bool {
        let n = self.size;
        let last = |cell: Cell| if cell == Cell::White { n - 1 } else { 0 };
        let us = self.mover();
        // Ranks from a side's own first rank: its pawns move up this count.
        let height = |cell: Cell, rank: usize| {
            if cell == Cell::White {
                rank
            } else {
                n - 1 - rank
            }
        };
        let mut runner = None::<usize>;
        let mut their_fastest = usize::MAX;
        let mut they_have_a_free_pawn = false;
        for rank in 0..n {
            for file in 0..n {
                let cell = self.cells[rank][file];
                if cell == Cell::Empty {
                    continue;
                }
                if rank == last(cell) {
                    return false;
                }
                let climbed = height(cell, rank);
                let distance = n - 1 - climbed - usize::from(climbed <= 1);
                let ahead = self.ahead_of(cell, rank);
                let on_file = |f: usize, of: Cell| ahead.clone().any(|r| self.cells[r][f] == of);
                let beside = [file.wrapping_sub(1), file + 1]
                    .into_iter()
                    .filter(|&f| f < n);
                let file_clear = !on_file(file, Cell::White) && !on_file(file, Cell::Black);
                if cell == us {
                    let beside_clear = beside
                        .clone()
                        .all(|f| !on_file(f, Cell::White) && !on_file(f, Cell::Black));
                    if file_clear && beside_clear {
                        runner = Some(runner.map_or(distance, |d| d.min(distance)));
                    }
                } else {
                    their_fastest = their_fastest.min(distance);
                    if file_clear && beside.clone().all(|f| !on_file(f, us)) {
                        they_have_a_free_pawn = true;
                    }
                }
            }
        }
        runner.is_some_and(|n| n <= their_fastest && (n == 1 || they_have_a_free_pawn))
    }

    /// The ranks ahead of a pawn of `owner` on `rank`, nearest first.
    fn ahead_of(&self, owner: Cell, rank: usize) -> impl Iterator<Item = usize> + Clone {
        let n = self.size;
        let up = owner == Cell::White;
        (1..n).map_while(move |step| {
            if up {
                (rank + step < n).then_some(rank + step)
            } else {
                rank.checked_sub(step)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{describe, Board, Cell, Played};
    use std::collections::HashMap;

    /// The value of `board` for the side to move (1 win, 0 draw, -1 loss)
    /// by plain minimax over the checker's own rules.
    fn minimax(board: &Board, known: &mut HashMap<(u64, u64, u8, bool), i8>) -> i8 {
        let (white, black, en_passant) = board.key();
        let key = (white, black, en_passant, board.white_to_move);
        if let Some(&value) = known.get(&key) {
            return value;
        }
        let moves = board.moves();
        let mut best = if moves.is_empty() { 0 } else { -1 };
        for m in moves {
            let value = match board.play(m) {
                Played::Won => 1,
                Played::On(next) => -minimax(&next, known),
            };
            best = best.max(value);
            if best == 1 {
                break;
            }
        }
        known.insert(key, best);
        best
    }

    /// A pseudo-random position of `size` with up to `pawns` pawns a side,
    /// none on a last rank, from `seed`.
    fn scattered(size: usize, pawns: usize, seed: &mut u64) -> Board {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut board = Board {
            size,
            cells: [[Cell::Empty; 8]; 8],
            white_to_move: next() % 2 == 0,
            en_passant: None,
        };
        for cell in [Cell::White, Cell::Black] {
            for _ in 0..1 + next() as usize % pawns {
                let rank = 1 + next() as usize % (size - 2);
                let file = next() as usize % size;
                board.cells[rank][file] = cell;
            }
        }
        board
    }

    #[test]
    fn every_race_the_rule_wins_is_won_by_plain_minimax() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        let mut decided = 0;
        for (size, pawns, count) in [(4, 4, 20_000), (5, 5, 20_000), (6, 4, 4_000)] {
            let mut known = HashMap::new();
            for _ in 0..count {
                let board = scattered(size, pawns, &mut seed);
                if board.won_by_race() {
                    decided += 1;
                    assert_eq!(minimax(&board, &mut known), 1, "{}", describe(&board));
                }
            }
        }
        assert!(decided > 1_000, "only {decided} races won");
    }

    #[test]
    fn a_race_they_can_end_in_stalemate_is_no_win() {
        // White's f-pawn needs three moves, as does Black's c-pawn; but
        // that pawn is blocked, so Black has no move after White's first:
        // a draw. With a free pawn on a5 Black keeps a move, and loses.
        let blocked = Board::from_fen(6, "6/6/2p3/2P3/5P/6 w - - 0 1").unwrap();
        assert!(!blocked.won_by_race());
        assert_eq!(minimax(&blocked, &mut HashMap::new()), 0);
        let free = Board::from_fen(6, "6/p5/2p3/2P3/5P/6 w - - 0 1").unwrap();
        assert!(free.won_by_race());
        assert_eq!(minimax(&free, &mut HashMap::new()), 1);
    }
}
