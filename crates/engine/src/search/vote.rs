//! Which thread's move a search with helpers plays (Lazy SMP's vote).
//!
//! Every thread searches the same root to depths of its own, and when the
//! main thread stops they do not always agree: a helper a ply deeper may
//! have found a move the main thread has not reached. As Stockfish's and
//! YaneuraOu's `get_best_thread`, each thread votes for its best move with
//! a weight of its value above the lowest thread's (plus a margin, so the
//! lowest still counts) times the depth it completed; the move with the
//! most votes is played, from the thread that weighs most for it. Mates
//! decide alone: the shortest mate found is played, and a thread that sees
//! itself mated never outvotes one that does not. One exception: a mate
//! the main thread found stands, even against a helper's shorter one, as
//! the main thread puts its mates to the mate solver (`mate`) and the
//! helpers do not.

use super::worker::RootMove;
use crate::score::*;

/// One thread's say: its best root move and the depth it completed.
pub(super) struct Ballot {
    /// The thread's best root move; its `value` is the value to vote with
    /// (the last completed iteration's when the move has none of its own).
    pub(super) root_move: RootMove,
    /// The last depth the thread completed.
    pub(super) depth: u32,
}

impl Ballot {
    /// A thread's ballot: its best root move, valued by the last completed
    /// iteration (`depth`, `value`) when the iteration under way gave it
    /// no value of its own. `None` when there is no move.
    pub(super) fn of(root_moves: &[RootMove], depth: u32, value: Value) -> Option<Ballot> {
        let mut root_move = root_moves.first()?.clone();
        if root_move.value == -INFINITE {
            root_move.value = value;
        }
        Some(Ballot { root_move, depth })
    }

    /// What the thread adds to its move's votes, with `lowest` the lowest
    /// value of any thread.
    fn weight(&self, lowest: Value, margin: Value) -> i64 {
        i64::from(self.root_move.value - lowest + margin) * i64::from(self.depth)
    }
}

/// The index of the ballot whose move is played; 0 (the main thread's)
/// when it is the only one. Ballots of threads that completed no depth
/// take no part. `margin` keeps the lowest-valued thread's vote above
/// zero.
///
/// Ties go to the earlier ballot, except that between two threads of one
/// move the one whose line is longer than two plies is preferred (its
/// ponder move and what it shows are worth more), as in Stockfish.
pub(super) fn winner(ballots: &[Ballot], margin: Value) -> usize {
    let voting = || ballots.iter().filter(|ballot| ballot.depth > 0);
    let Some(lowest) = voting().map(|ballot| ballot.root_move.value).min() else {
        return 0;
    };
    let votes = |ballot: &Ballot| -> i64 {
        voting()
            .filter(|other| other.root_move.m == ballot.root_move.m)
            .map(|other| other.weight(lowest, margin))
            .sum()
    };
    let long_line_weight = |ballot: &Ballot| {
        if ballot.root_move.pv.len() > 2 {
            ballot.weight(lowest, margin)
        } else {
            0
        }
    };
    let mut best = 0;
    for (index, ballot) in ballots.iter().enumerate().skip(1) {
        if ballot.depth == 0 {
            continue;
        }
        let chosen = &ballots[best];
        let (value, chosen_value) = (ballot.root_move.value, chosen.root_move.value);
        let better = if chosen.depth == 0 {
            true
        } else if is_mate(chosen_value) && (chosen_value < 0 || best > 0) {
            // The shortest mate, or the longest defence against one.
            value > chosen_value
        } else if is_mate(chosen_value) {
            // The main thread's own mate: the mate solver has proven it,
            // or had the chance to, where a helper's is only its claim.
            false
        } else if is_mate(value) {
            value > 0
        } else {
            let (mine, theirs) = (votes(ballot), votes(chosen));
            mine > theirs || mine == theirs && long_line_weight(ballot) > long_line_weight(chosen)
        };
        if better {
            best = index;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Move, Role, Square};

    fn ballot(to: u8, value: Value, depth: u32, pv_length: usize) -> Ballot {
        let m = Move::Drop {
            role: Role::Pawn,
            to: Square::new_unchecked(to),
        };
        Ballot {
            root_move: RootMove {
                m,
                value,
                previous_value: value,
                effort: 0,
                pv: vec![m; pv_length],
            },
            depth,
        }
    }

    #[test]
    fn a_move_the_unfinished_iteration_left_unvalued_keeps_the_last_value() {
        let mut root_moves = vec![
            ballot(1, -INFINITE, 0, 1).root_move,
            ballot(2, -INFINITE, 0, 1).root_move,
        ];
        let unvalued = Ballot::of(&root_moves, 7, 35).unwrap();
        assert_eq!(
            (
                unvalued.root_move.m,
                unvalued.root_move.value,
                unvalued.depth
            ),
            (root_moves[0].m, 35, 7)
        );
        // A move the iteration under way found better keeps its own value.
        root_moves[0].value = 60;
        assert_eq!(Ballot::of(&root_moves, 7, 35).unwrap().root_move.value, 60);
        assert!(Ballot::of(&[], 0, 0).is_none());
    }

    #[test]
    fn the_main_thread_alone_is_played() {
        assert_eq!(winner(&[ballot(1, 50, 10, 5)], 10), 0);
    }

    #[test]
    fn a_deeper_helper_with_a_better_value_outvotes_the_main_thread() {
        // Main: (0 + 10) * 10 = 100; helper: (40 + 10) * 11 = 550.
        assert_eq!(winner(&[ballot(1, 10, 10, 5), ballot(2, 50, 11, 5)], 10), 1);
        // A helper that sees less, shallower, does not.
        assert_eq!(winner(&[ballot(1, 50, 10, 5), ballot(2, 10, 9, 5)], 10), 0);
    }

    #[test]
    fn threads_agreeing_on_a_move_outvote_a_better_valued_one() {
        // Move 1: (0 + 10) * 10 twice = 200; move 2: (15 + 10) * 7 = 175.
        let ballots = [
            ballot(1, 20, 10, 5),
            ballot(2, 35, 7, 5),
            ballot(1, 20, 10, 5),
        ];
        assert_eq!(winner(&ballots, 10), 0);
        // With no margin, only move 2 has votes.
        assert_eq!(winner(&ballots, 0), 1);
    }

    #[test]
    fn of_one_move_the_thread_with_a_longer_line_is_chosen() {
        let ballots = [ballot(1, 20, 10, 2), ballot(1, 20, 10, 6)];
        assert_eq!(winner(&ballots, 10), 1);
    }

    #[test]
    fn mates_decide_alone() {
        let winner_of = |ballots: &[Ballot]| winner(ballots, 10);
        // A helper's mate beats any vote; between helpers, a shorter mate
        // beats a longer.
        let main = ballot(1, 300, 20, 5);
        assert_eq!(winner_of(&[main, ballot(2, mate_in(9), 5, 9)]), 1);
        let main = ballot(1, 300, 20, 5);
        let (long, short) = (ballot(2, mate_in(9), 5, 9), ballot(3, mate_in(5), 5, 5));
        assert_eq!(winner_of(&[main, long, short]), 2);
        let main = ballot(1, 300, 20, 5);
        let (short, long) = (ballot(2, mate_in(5), 5, 5), ballot(3, mate_in(9), 5, 9));
        assert_eq!(winner_of(&[main, short, long]), 1);
        // The main thread's mate stands, shorter or not: the solver checks
        // its mates, not the helpers'.
        assert_eq!(
            winner_of(&[ballot(1, mate_in(7), 12, 7), ballot(2, mate_in(9), 14, 9)]),
            0
        );
        assert_eq!(
            winner_of(&[ballot(1, mate_in(9), 12, 9), ballot(2, mate_in(5), 9, 5)]),
            0
        );
        // A helper that sees itself mated never outvotes the main thread,
        // however deep; facing mate, the main thread takes any way out,
        // and the longest.
        assert_eq!(
            winner_of(&[ballot(1, -300, 10, 5), ballot(2, mated_in(8), 20, 8)]),
            0
        );
        assert_eq!(
            winner_of(&[ballot(1, mated_in(8), 10, 8), ballot(2, -900, 9, 5)]),
            1
        );
        assert_eq!(
            winner_of(&[
                ballot(1, mated_in(8), 10, 8),
                ballot(2, mated_in(10), 9, 10)
            ]),
            1
        );
    }

    #[test]
    fn a_thread_that_completed_no_depth_has_no_say() {
        assert_eq!(winner(&[ballot(1, 10, 10, 5), ballot(2, 900, 0, 1)], 10), 0);
        // Nor is the lowest value taken from it.
        assert_eq!(
            winner(
                &[
                    ballot(1, 10, 10, 5),
                    ballot(2, 30, 10, 5),
                    ballot(3, -900, 0, 1)
                ],
                0
            ),
            1
        );
    }
}
