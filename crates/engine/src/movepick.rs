//! Move ordering: the table's move first, then captures by victim and
//! attacker, promotions, killers, quiet moves by history, and last the
//! captures that lose material by static exchange.

use crate::eval::Evaluate;
use crate::history::{History, PieceSquare};
use arrayvec::ArrayVec;
use koma_rules::{Move, MoveList, MAX_MOVES};

const TABLE_MOVE: i32 = 4_000_000;
const CAPTURE: i32 = 2_000_000;
const PROMOTION: i32 = 1_500_000;
const KILLER: i32 = 1_000_000;
/// Captures that lose material by static exchange come after quiet moves.
const LOSING_CAPTURE: i32 = -2_000_000;

/// The legal moves of a node, handed out best-looking first.
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

impl MovePicker {
    /// Orders `moves` of `position` at `ply`, reached by `previous`.
    pub fn new<P: Evaluate>(
        position: &P,
        moves: MoveList,
        table_move: Option<Move>,
        history: &History,
        ply: usize,
        previous: Option<PieceSquare>,
    ) -> MovePicker {
        let killers = history.killers(ply);
        let color = position.turn();
        let scores = moves
            .iter()
            .map(|&m| {
                if Some(m) == table_move {
                    return TABLE_MOVE;
                }
                let captured = position.captured_value(m);
                if captured > 0 {
                    let order =
                        captured * 8 - position.mover_value(m) / 16 + position.promotion_gain(m);
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
                history.score(color, position.mover_kind(m), m, previous)
            })
            .collect();
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Orders only by what a move captures or promotes (quiescence).
    pub fn tactical<P: Evaluate>(position: &P, moves: MoveList) -> MovePicker {
        let scores = moves
            .iter()
            .map(|&m| {
                position.captured_value(m) * 8 - position.mover_value(m) / 16
                    + position.promotion_gain(m)
            })
            .collect();
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

    /// Whether a score given by [`MovePicker::next`] is that of a capture
    /// that loses nothing by static exchange (checked when ordering).
    pub fn is_winning_capture_score(score: i32) -> bool {
        (CAPTURE..TABLE_MOVE).contains(&score)
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let remaining = &self.scores[self.next..];
        let (offset, _) = remaining
            .iter()
            .enumerate()
            .max_by_key(|&(i, &score)| (score, std::cmp::Reverse(i)))?;
        let best = self.next + offset;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }
}
