//! Mate lines a GUI can replay. Problems do not count a useless
//! interposition (無駄合: a drop between the king and a distant checker
//! that is taken for nothing), so the shortest mate as problems count it
//! may end on a long-range check that the defender could still block by a
//! drop: mated by the convention, not yet on the board. A GUI replaying
//! the line (USI `checkmate …`, the board's Find mate) would see no
//! checkmate at its end. [`line_to_checkmate`] carries such a line on with
//! an interposition and its capture, as few of them as it takes, until the
//! defender has no legal move; the length reported stays the convention's.

use crate::mate_line::{is_mate_line, MAX_INTERPOSITIONS};
use koma_rules::{between, Move, Position, ShogiPosition, ShogiVariant, Square};

/// `line`, a mate from `root` as [`is_mate_line`] accepts it, carried on
/// to checkmate on the board: where the defender could still drop a piece
/// between the king and a distant checker (each such drop a useless
/// interposition), the line goes on with one of those drops and the
/// checker's capture of it, again if need be, until the defender is
/// checked with no legal move. The fewest plies that do it, and the line
/// unchanged if it ends in checkmate already (or, in Spear, by taking the
/// king). `None` if `line` is not a mate.
///
/// ```
/// use koma_mate::line_to_checkmate;
/// use koma_rules::{Position, StandardShogiPosition};
///
/// // The rook's drop on 1e mates as problems count it: the silver gote
/// // holds, dropped on 1b, 1c or 1d, is taken for nothing (the gold
/// // guards 1b).
/// let root = StandardShogiPosition::from_text("7lk/7p1/7G1/9/9/9/9/9/9 b Rs 1").unwrap();
/// let check = root.parse_move("R*1e").unwrap();
/// let line = line_to_checkmate(&root, &[check]).unwrap();
/// let shown: Vec<String> = line.iter().map(|&m| StandardShogiPosition::move_to_text(m)).collect();
/// assert_eq!(shown, ["R*1e", "S*1b", "1e1b+"]);
/// let mut end = root;
/// for &m in &line {
///     end.play_unchecked(m);
/// }
/// assert!(end.is_check() && !end.has_legal_move());
/// /// ```
pub fn line_to_checkmate<V: ShogiVariant>(
    root: &ShogiPosition<V>,
    line: &[Move],
) -> Option<Vec<Move>> {
    if !is_mate_line(root, line) {
        return None;
    }
    if V::KINGS_ARE_CAPTURED {
        return Some(line.to_vec());
    }
    let mut end = *root;
    for &m in line {
        end.play_unchecked(m);
    }
    // The fewest interpositions first: one is almost always enough (a drop
    // next to the king, taken by a protected checker).
    (0..=MAX_INTERPOSITIONS).find_map(|pairs| {
        let mut tail = Vec::new();
        reaches_checkmate(&end, pairs, &mut tail).then(|| [line, &tail].concat())
    })
}

/// Whether the defender to move in `position` is checkmated on the board
/// after at most `pairs` interpositions, each taken by the checker; if so
/// `tail` gets the moves (drop, capture, drop, capture, …).
fn reaches_checkmate<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    pairs: u32,
    tail: &mut Vec<Move>,
) -> bool {
    if !position.is_check() {
        return false;
    }
    if !position.has_legal_move() {
        return true;
    }
    let checkers = position.checkers();
    let (Some(checker), Some(king)) = (checkers.first(), position.king(position.turn())) else {
        return false;
    };
    if pairs == 0 || checkers.has_more_than_one() {
        return false;
    }
    let mut drops: Vec<Move> = position
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_drop() && between(king, checker).contains(m.to()))
        .collect();
    // Next to the king first: there a capture leaves no square to drop on.
    drops.sort_by_key(|m| distance(king, m.to()));
    for drop in drops {
        let mut dropped = *position;
        dropped.play_unchecked(drop);
        // Promoted first where the checker may choose: a bishop or rook
        // promoted moves as before and more.
        for promote in [true, false] {
            let capture = Move::Board {
                from: checker,
                to: drop.to(),
                promote,
            };
            let Ok(captured) = dropped.play(capture) else {
                continue;
            };
            tail.extend([drop, capture]);
            if reaches_checkmate(&captured, pairs - 1, tail) {
                return true;
            }
            tail.truncate(tail.len() - 2);
        }
    }
    false
}

/// Squares between `a` and `b` along a line, counting `b`.
fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}
