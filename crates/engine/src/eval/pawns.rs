//! Evaluation of Pawns-Only Chess: material, passed pawns and the race to
//! the last rank. When one side's passed pawn provably arrives first, the
//! result is known exactly and the search stops there.

use super::Evaluate;
use crate::score::Value;
use koma_rules::{Bitboard, Color, Move, MoveList, PawnsPosition};

/// Grid ranks of the 8×8 board: White (Sente) walks towards rank 0.
const LAST_RANK: [u8; 2] = [0, 7];
const START_RANK: [u8; 2] = [6, 1];

const PAWN: Value = 100;
/// Bonus for a passed pawn by the moves it still needs.
const PASSED_BY_MOVES: [Value; 7] = [0, 320, 210, 130, 80, 50, 35];
const ADVANCE_PER_RANK: Value = 6;
const DOUBLED: Value = 15;
const ISOLATED: Value = 10;
const TEMPO: Value = 10;

/// One side's pawns as the race sees them.
struct Side {
    /// Moves the fastest passed pawn needs, if there is one.
    fastest_passer: Option<u8>,
    /// A lower bound on the moves any pawn needs to reach the last rank.
    fastest_any: u8,
    /// Moves the side can surely make by pushing its pawns straight on.
    free_moves: u32,
    /// Evaluation terms other than the race.
    score: Value,
}

/// Moves a pawn on `rank` needs to reach the last rank with a free path.
fn moves_needed(color: Color, rank: u8) -> u8 {
    let distance = rank.abs_diff(LAST_RANK[color.index()]);
    if rank == START_RANK[color.index()] {
        distance - 1
    } else {
        distance
    }
}

/// Masks of squares ahead of a square for each colour, on the 9×9 grid:
/// `[color][square]`.
struct Spans {
    /// Ahead on the same file.
    file: [[Bitboard; 81]; 2],
    /// Ahead on the same and the neighbouring files.
    front: [[Bitboard; 81]; 2],
    /// The neighbouring files, whole.
    neighbours: [Bitboard; 81],
}

const fn spans() -> Spans {
    let mut spans = Spans {
        file: [[Bitboard::EMPTY; 81]; 2],
        front: [[Bitboard::EMPTY; 81]; 2],
        neighbours: [Bitboard::EMPTY; 81],
    };
    let mut square = 0;
    while square < 81 {
        let (file, rank) = (square / 9, square % 9);
        let mut other = 0;
        while other < 81 {
            let (other_file, other_rank) = (other / 9, other % 9);
            let bit = 1u128 << other;
            let near = other_file + 1 >= file && other_file <= file + 1;
            let ahead = [other_rank < rank, other_rank > rank];
            let mut color = 0;
            while color < 2 {
                if ahead[color] && other_file == file {
                    spans.file[color][square].0 |= bit;
                }
                if ahead[color] && near {
                    spans.front[color][square].0 |= bit;
                }
                color += 1;
            }
            if near && other_file != file {
                spans.neighbours[square].0 |= bit;
            }
            other += 1;
        }
        square += 1;
    }
    spans
}

static SPANS: Spans = spans();

fn side(position: &PawnsPosition, color: Color) -> Side {
    let ours = position.pawns(color);
    let theirs = position.pawns(!color);
    let occupied = ours | theirs;
    let c = color.index();
    let mut side = Side {
        fastest_passer: None,
        fastest_any: u8::MAX,
        free_moves: 0,
        score: 0,
    };
    for pawn in ours {
        let index = pawn.index() as usize;
        let needed = moves_needed(color, pawn.rank());
        side.fastest_any = side.fastest_any.min(needed);
        side.score += PAWN + ADVANCE_PER_RANK * (6 - needed.min(6)) as Value;
        let frontmost = (SPANS.file[c][index] & ours).is_empty();
        if !frontmost {
            side.score -= DOUBLED;
        }
        if (SPANS.neighbours[index] & ours).is_empty() {
            side.score -= ISOLATED;
        }
        if frontmost && (SPANS.front[c][index] & theirs).is_empty() {
            side.score += PASSED_BY_MOVES[needed.min(6) as usize];
            side.fastest_passer = Some(side.fastest_passer.map_or(needed, |m| m.min(needed)));
        }
        // Straight pushes this pawn can make before it meets any pawn.
        let forward = color.forward();
        let mut square = pawn;
        while let Some(next) = square.offset(0, forward) {
            if next.rank() > 7 || occupied.contains(next) {
                break;
            }
            side.free_moves += 1;
            square = next;
        }
    }
    side
}

impl Evaluate for PawnsPosition {
    const TYPICAL_PLIES_LEFT: u32 = 40;
    const NULL_MOVE: bool = false;
    /// Pawns give no check: danger is told by playing the move.
    type DangerSquares = ();

    fn danger_squares(&self) {}

    fn evaluate(&self) -> Value {
        let us = self.turn();
        let (ours, theirs) = (side(self, us), side(self, !us));
        let mut value = ours.score - theirs.score + TEMPO;
        // The race between passed pawns: we move first.
        match (ours.fastest_passer, theirs.fastest_passer) {
            (Some(a), Some(b)) if a <= b => value += 150,
            (Some(_), Some(_)) => value -= 150,
            _ => {}
        }
        value
    }

    fn known_result(&self) -> Option<i32> {
        let us = self.turn();
        let them = !us;
        let theirs = self.pawns(them);
        let last_rank = LAST_RANK[them.index()];
        if self.pawns(us).is_empty() || theirs.iter().any(|p| p.rank() == last_rank) {
            return Some(0);
        }
        let (ours, other) = (side(self, us), side(self, them));
        // Our passed pawn needs `d` moves; it cannot be taken or blocked.
        // We win at ply 2d-1 if no enemy pawn can arrive sooner and the
        // enemy always has a move (a stalemate would draw).
        if let Some(d) = ours.fastest_passer {
            if other.fastest_any >= d && other.free_moves + 1 >= d as u32 {
                return Some(2 * d as i32 - 1);
            }
        }
        // Their passed pawn arrives at ply 2d unless we arrive first or run
        // out of moves.
        if let Some(d) = other.fastest_passer {
            if ours.fastest_any > d && ours.free_moves >= d as u32 {
                return Some(-2 * d as i32);
            }
        }
        None
    }

    fn captured_value(&self, m: Move) -> Value {
        match m {
            Move::Board { to, .. }
                if self.pawns(!self.turn()).contains(to) || self.en_passant() == Some(to) =>
            {
                PAWN
            }
            _ => 0,
        }
    }

    fn mover_value(&self, _: Move) -> Value {
        PAWN
    }

    fn promotion_gain(&self, m: Move) -> Value {
        // Reaching the last rank wins; moving next to it threatens to.
        let rank = m.to().rank();
        let us = self.turn().index();
        if rank == LAST_RANK[us] {
            10 * PAWN
        } else {
            0
        }
    }

    fn mover_kind(&self, _: Move) -> usize {
        0
    }

    fn in_danger(&self) -> bool {
        false
    }

    fn tactical_moves_into(&self, moves: &mut MoveList) {
        let last_rank = LAST_RANK[self.turn().index()];
        self.for_each_move(|m| {
            if m.to().rank() == last_rank || self.captured_value(m) != 0 {
                moves.push(m);
            }
        });
    }

    fn null_move(&self) -> Option<Self> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(text: &str) -> PawnsPosition {
        PawnsPosition::from_fen(text).unwrap()
    }

    #[test]
    fn start_is_level() {
        assert_eq!(PawnsPosition::start().evaluate(), TEMPO);
        assert_eq!(PawnsPosition::start().known_result(), None);
    }

    #[test]
    fn an_unstoppable_passed_pawn_is_a_known_win() {
        // White's a-pawn needs 4 moves; Black's h-pawn needs 5.
        let position = fen("8/7p/8/8/P7/8/8/8 w - - 0 1");
        assert_eq!(position.known_result(), Some(7));
        // Black to move: Black's pawn arrives in 5 and White's in 4, first.
        let position = fen("8/7p/8/8/P7/8/8/8 b - - 0 1");
        assert_eq!(position.known_result(), Some(-8));
    }

    #[test]
    fn a_possible_stalemate_is_not_a_known_win() {
        // Black's only pawn is blocked: after any White move Black has no
        // move, which draws.
        let position = fen("8/8/7p/7P/P7/8/8/8 w - - 0 1");
        assert_eq!(position.known_result(), None);
    }

    #[test]
    fn lost_positions_are_known() {
        assert_eq!(fen("P7/8/8/8/8/8/7p/8 b - - 0 1").known_result(), Some(0));
        assert_eq!(fen("8/8/8/8/8/8/P7/8 b - - 0 1").known_result(), Some(0));
    }
}
