//! Move ordering: the table's move first, then captures by victim and
//! attacker, promotions, killers, quiet moves by history, and last the
//! captures that lose material by static exchange.

use crate::eval::Evaluate;
use crate::history::{Before, History};
use crate::params::capture_history_weight;
use arrayvec::ArrayVec;
use koma_rules::{Move, MoveList, MAX_MOVES};

const TABLE_MOVE: i32 = 4_000_000;
const CAPTURE: i32 = 2_000_000;
const PROMOTION: i32 = 1_500_000;
const KILLER: i32 = 1_000_000;
/// Captures that lose material by static exchange come after quiet moves.
const LOSING_CAPTURE: i32 = -2_000_000;
/// Picks made by a pass over the remaining moves before the rest is
/// sorted once: most nodes that cut off do so within the first few moves,
/// and a node that gets this far usually goes through many more, where
/// one pass per pick over a hundred shogi moves would cost more than a sort.
const PICKED_BEFORE_SORT: usize = 3;

/// The ordering scores of a node's moves, one for each move of its list.
pub type ScoreList = ArrayVec<i32, MAX_MOVES>;

/// The legal moves of a node, handed out best-looking first.
///
/// The picker orders the node's own lists in place rather than owning
/// them: a list holds room for [`MAX_MOVES`] moves, and moving two such
/// lists into a picker at every node cost the search a few per cent in
/// copies.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut ScoreList,
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Orders `moves` of `position` at `ply`, reached by the moves `before`,
    /// writing their scores to `scores`.
    pub fn new<P: Evaluate>(
        position: &P,
        moves: &'a mut MoveList,
        scores: &'a mut ScoreList,
        table_move: Option<Move>,
        history: &History,
        ply: usize,
        before: Before,
    ) -> MovePicker<'a> {
        let killers = history.killers(ply);
        let color = position.turn();
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if Some(m) == table_move {
                return TABLE_MOVE;
            }
            let captured = position.captured_value(m);
            if captured > 0 {
                let weight = capture_history_weight();
                let learned = if weight > 0 {
                    let kind = position.mover_kind(m);
                    history.capture_score(color, kind, m, position.captured_kind(m)) * weight / 16
                } else {
                    0
                };
                let order = captured * 8 - position.mover_value(m) / 16
                    + position.promotion_gain(m)
                    + learned;
                return if position.see_ge(m, 0) {
                    CAPTURE + order
                } else {
                    LOSING_CAPTURE + order
                };
            }
            let gain = position.promotion_gain(m);
            if gain > 0 {
                return PROMOTION + gain;
            }
            if killers[0] == Some(m) {
                return KILLER + 1;
            }
            if killers[1] == Some(m) {
                return KILLER;
            }
            history.score(color, position.mover_kind(m), m, before)
        }));
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Orders only by what a move captures or promotes (quiescence).
    pub fn tactical<P: Evaluate>(
        position: &P,
        moves: &'a mut MoveList,
        scores: &'a mut ScoreList,
    ) -> MovePicker<'a> {
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            position.captured_value(m) * 8 - position.mover_value(m) / 16
                + position.promotion_gain(m)
        }));
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Whether a score given by [`MovePicker::next`] is a killer's.
    pub fn is_killer_score(score: i32) -> bool {
        (KILLER..PROMOTION).contains(&score)
    }

    /// Whether a score given by [`MovePicker::next`] is a quiet move's
    /// history score (not the table move's, a killer's or a promotion's).
    pub fn is_history_score(score: i32) -> bool {
        (LOSING_CAPTURE / 2..KILLER).contains(&score)
    }

    /// Whether a score given by [`MovePicker::next`] is that of a capture
    /// that loses nothing by static exchange (checked when ordering).
    pub fn is_winning_capture_score(score: i32) -> bool {
        (CAPTURE..TABLE_MOVE).contains(&score)
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= PICKED_BEFORE_SORT {
            if self.next == PICKED_BEFORE_SORT {
                self.sort_remaining();
            }
            let picked = (*self.moves.get(self.next)?, self.scores[self.next]);
            self.next += 1;
            return Some(picked);
        }
        // The first of the best scores, in two passes that the compiler
        // turns into vector instructions: the best score, then its first
        // place. (One pass keeping the place beside the best score runs
        // a scalar loop; comparing (score, place) pairs cost twice that.)
        let remaining = &self.scores[self.next..];
        if remaining.is_empty() {
            return None;
        }
        let best_score = remaining.iter().copied().fold(i32::MIN, i32::max);
        let offset = remaining.iter().position(|&score| score == best_score)?;
        let best = self.next + offset;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }

    /// Sorts the moves not yet picked, best score first; equal scores keep
    /// their order.
    fn sort_remaining(&mut self) {
        let start = self.next;
        // One integer a move, ascending in the order wanted: the score
        // turned so that a higher one is smaller, above the move's place,
        // which breaks ties in order. Sorting those needs no buffer and
        // moves little (the lists are long in shogi).
        let mut keys: ArrayVec<u64, MAX_MOVES> = ArrayVec::new();
        for (place, &score) in self.scores[start..].iter().enumerate() {
            let descending = !((score as u32) ^ 0x8000_0000);
            keys.push((u64::from(descending) << 32) | place as u64);
        }
        keys.sort_unstable();
        let mut moves: ArrayVec<Move, MAX_MOVES> = ArrayVec::new();
        moves
            .try_extend_from_slice(&self.moves[start..])
            .expect("a suffix of the list fits");
        for (offset, key) in keys.iter().enumerate() {
            let place = (key & 0xffff_ffff) as usize;
            let score = (!((key >> 32) as u32) ^ 0x8000_0000) as i32;
            self.moves[start + offset] = moves[place];
            self.scores[start + offset] = score;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Square;

    /// The lists of a node whose moves have `scores`, the moves told
    /// apart by their target square.
    fn lists(scores: &[i32]) -> (MoveList, ScoreList) {
        let moves = (0..scores.len())
            .map(|i| Move::Board {
                from: Square::new(0).unwrap(),
                to: Square::new(i as u8).unwrap(),
                promote: false,
            })
            .collect();
        (moves, scores.iter().copied().collect())
    }

    /// A picker over `lists`, as scored.
    fn picker(lists: &mut (MoveList, ScoreList)) -> MovePicker<'_> {
        MovePicker {
            moves: &mut lists.0,
            scores: &mut lists.1,
            next: 0,
        }
    }

    /// Every move comes out once with its own score, best first, both in
    /// the first picks (a pass each) and after the sort.
    #[test]
    fn hands_out_every_move_once_best_first() {
        let scores = [
            5,
            -3,
            KILLER,
            5,
            0,
            TABLE_MOVE,
            0,
            LOSING_CAPTURE,
            5,
            i32::MIN,
            i32::MAX,
            0,
            -3,
            7,
        ];
        let mut lists = lists(&scores);
        let mut picker = picker(&mut lists);
        let mut picked = Vec::new();
        while let Some((m, score)) = picker.next() {
            let place = usize::from(m.to().index());
            assert_eq!(score, scores[place], "a move keeps its score");
            picked.push(place);
        }
        assert!(picker.next().is_none());
        let picked_scores: Vec<i32> = picked.iter().map(|&place| scores[place]).collect();
        let mut best_first = scores.to_vec();
        best_first.sort_by_key(|&score| std::cmp::Reverse(score));
        assert_eq!(picked_scores, best_first);
        picked.sort_unstable();
        assert_eq!(picked, (0..scores.len()).collect::<Vec<_>>());
    }

    /// After the first picks, moves of equal score keep their order.
    #[test]
    fn sorted_ties_keep_their_order() {
        let mut lists = lists(&[9, 8, 7, 1, 3, 1, 3, 1]);
        let mut picker = picker(&mut lists);
        let order: Vec<u8> = std::iter::from_fn(|| picker.next())
            .map(|(m, _)| m.to().index())
            .collect();
        assert_eq!(order, [0, 1, 2, 4, 6, 3, 5, 7]);
    }

    /// In the first picks too, moves of equal score keep their order.
    #[test]
    fn picked_ties_keep_their_order() {
        let mut lists = lists(&[3, 7, 7, 1, 7]);
        let mut picker = picker(&mut lists);
        let order: Vec<u8> = std::iter::from_fn(|| picker.next())
            .map(|(m, _)| m.to().index())
            .collect();
        assert_eq!(order, [1, 2, 4, 0, 3]);
    }

    #[test]
    fn short_and_empty_lists() {
        assert!(picker(&mut lists(&[])).next().is_none());
        let mut lists = lists(&[1, 2]);
        let mut two = picker(&mut lists);
        assert_eq!(two.next().map(|(m, s)| (m.to().index(), s)), Some((1, 2)));
        assert_eq!(two.next().map(|(m, s)| (m.to().index(), s)), Some((0, 1)));
        assert!(two.next().is_none());
    }
}
