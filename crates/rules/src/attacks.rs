//! How pieces move, as data, and the attack sets computed from it.
//!
//! Tables are built at compile time and stay small (about 30 KB): step
//! patterns per colour and square, the eight rays from every square, and which
//! ray joins two squares. Sliders find their first blocker with one bit scan
//! per ray. Boards smaller than the grid pass their off-board squares as
//! occupied, so rays stop at the edge without special cases.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::square::Square;

/// A way of moving. A game's [`crate::Spec`] maps each role to one of these,
/// which is how Spear's elephant and spear differ from shogi's bishop and lance.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Movement {
    /// One step straight forward.
    Pawn,
    /// Any distance straight forward.
    Lance,
    /// Two forward and one sideways, jumping.
    Knight,
    /// One step forward or diagonally.
    Silver,
    /// One step orthogonally or diagonally forward.
    Gold,
    /// One step in any direction.
    King,
    /// Any distance diagonally.
    Bishop,
    /// Any distance orthogonally.
    Rook,
    /// Bishop plus one orthogonal step.
    Horse,
    /// Rook plus one diagonal step.
    Dragon,
    /// Any distance along the two forward diagonals (Spear's elephant).
    ForwardBishop,
    /// One or two squares in a straight line in any of the eight directions,
    /// not jumping (Spear's promoted silver).
    TwoStep,
}

/// The eight directions as (file, rank) steps; rank −1 is Sente's forward.
/// Opposite directions are paired (`d ^ 1`). The nearest blocker along a
/// direction whose index delta is positive is the lowest set bit, otherwise
/// the highest.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),  // 0: towards rank a (Sente forward), index −1
    (0, 1),   // 1: towards rank i, index +1
    (1, 0),   // 2: towards file 9, index +9
    (-1, 0),  // 3: towards file 1, index −9
    (1, -1),  // 4: index +8
    (-1, 1),  // 5: index −8
    (1, 1),   // 6: index +10
    (-1, -1), // 7: index −10
];

const fn direction_is_positive(direction: usize) -> bool {
    let (file, rank) = DIRECTIONS[direction];
    file as i32 * 9 + rank as i32 > 0
}

const fn opposite_direction(direction: usize) -> usize {
    direction ^ 1
}

const ORTHOGONAL: [usize; 4] = [0, 1, 2, 3];
const DIAGONAL: [usize; 4] = [4, 5, 6, 7];

const fn ray(direction: usize, square: usize) -> u128 {
    let (df, dr) = DIRECTIONS[direction];
    let mut file = (square / 9) as i8 + df;
    let mut rank = (square % 9) as i8 + dr;
    let mut bits = 0u128;
    while file >= 0 && file < 9 && rank >= 0 && rank < 9 {
        bits |= 1u128 << (file as usize * 9 + rank as usize);
        file += df;
        rank += dr;
    }
    bits
}

static RAYS: [[Bitboard; 81]; 8] = {
    let mut table = [[Bitboard::EMPTY; 81]; 8];
    let mut direction = 0;
    while direction < 8 {
        let mut square = 0;
        while square < 81 {
            table[direction][square] = Bitboard(ray(direction, square));
            square += 1;
        }
        direction += 1;
    }
    table
};

/// Steps of a one-step pattern as seen by Sente; Gote's are mirrored in rank.
const PAWN_STEPS: &[(i8, i8)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i8, i8)] = &[(1, -2), (-1, -2)];
const SILVER_STEPS: &[(i8, i8)] = &[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const GOLD_STEPS: &[(i8, i8)] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_STEPS: &[(i8, i8)] = &[
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
];

const fn step_table(steps: &[(i8, i8)]) -> [[Bitboard; 81]; 2] {
    let mut table = [[Bitboard::EMPTY; 81]; 2];
    let mut color = 0;
    while color < 2 {
        let sign: i8 = if color == 0 { 1 } else { -1 };
        let mut square = 0;
        while square < 81 {
            let mut bits = 0u128;
            let mut i = 0;
            while i < steps.len() {
                let file = (square / 9) as i8 + steps[i].0;
                let rank = (square % 9) as i8 + steps[i].1 * sign;
                if file >= 0 && file < 9 && rank >= 0 && rank < 9 {
                    bits |= 1u128 << (file as usize * 9 + rank as usize);
                }
                i += 1;
            }
            table[color][square] = Bitboard(bits);
            square += 1;
        }
        color += 1;
    }
    table
}

static PAWN_ATTACKS: [[Bitboard; 81]; 2] = step_table(PAWN_STEPS);
static KNIGHT_ATTACKS: [[Bitboard; 81]; 2] = step_table(KNIGHT_STEPS);
static SILVER_ATTACKS: [[Bitboard; 81]; 2] = step_table(SILVER_STEPS);
static GOLD_ATTACKS: [[Bitboard; 81]; 2] = step_table(GOLD_STEPS);
static KING_ATTACKS: [[Bitboard; 81]; 2] = step_table(KING_STEPS);
static ORTHOGONAL_STEPS: [[Bitboard; 81]; 2] = step_table(&[(0, -1), (0, 1), (1, 0), (-1, 0)]);
static DIAGONAL_STEPS: [[Bitboard; 81]; 2] = step_table(&[(1, -1), (1, 1), (-1, -1), (-1, 1)]);

/// For two squares on one line, the direction from the first to the second
/// plus one; 0 when they share no line.
static ALIGNMENT: [[u8; 81]; 81] = {
    let mut table = [[0u8; 81]; 81];
    let mut from = 0;
    while from < 81 {
        let mut direction = 0;
        while direction < 8 {
            let bits = ray(direction, from);
            let mut to = 0;
            while to < 81 {
                if bits & (1u128 << to) != 0 {
                    table[from][to] = direction as u8 + 1;
                }
                to += 1;
            }
            direction += 1;
        }
        from += 1;
    }
    table
};

/// Squares reached by sliding from `square` in `direction` until the first
/// occupied square, which is included.
#[inline(always)]
fn slide(direction: usize, square: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[direction][square.index() as usize];
    let blockers = ray & occupied;
    let nearest = if direction_is_positive(direction) {
        blockers.first()
    } else {
        blockers.last()
    };
    match nearest {
        Some(blocker) => ray ^ RAYS[direction][blocker.index() as usize],
        None => ray,
    }
}

#[inline(always)]
fn slide_all(directions: [usize; 4], square: Square, occupied: Bitboard) -> Bitboard {
    slide(directions[0], square, occupied)
        | slide(directions[1], square, occupied)
        | slide(directions[2], square, occupied)
        | slide(directions[3], square, occupied)
}

/// Bishop slides from `square` with `occupied` blocking.
#[inline(always)]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    slide_all(DIAGONAL, square, occupied)
}

/// Rook slides from `square` with `occupied` blocking.
#[inline(always)]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    slide_all(ORTHOGONAL, square, occupied)
}

/// Lance slides forward for `color`.
#[inline(always)]
pub fn lance_attacks(color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    slide(color.select(0, 1), square, occupied)
}

/// King steps from `square`.
#[inline(always)]
pub fn king_attacks(square: Square) -> Bitboard {
    KING_ATTACKS[0][square.index() as usize]
}

/// Squares attacked by a piece moving as `movement` for `color` from
/// `square`, with `occupied` blocking sliders. The result is on the 9×9 grid:
/// callers on smaller boards pass off-board squares as occupied and mask.
#[inline(always)]
pub fn attacks(movement: Movement, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    let c = color.index();
    let s = square.index() as usize;
    match movement {
        Movement::Pawn => PAWN_ATTACKS[c][s],
        Movement::Lance => lance_attacks(color, square, occupied),
        Movement::Knight => KNIGHT_ATTACKS[c][s],
        Movement::Silver => SILVER_ATTACKS[c][s],
        Movement::Gold => GOLD_ATTACKS[c][s],
        Movement::King => KING_ATTACKS[c][s],
        Movement::Bishop => bishop_attacks(square, occupied),
        Movement::Rook => rook_attacks(square, occupied),
        Movement::Horse => bishop_attacks(square, occupied) | ORTHOGONAL_STEPS[c][s],
        Movement::Dragon => rook_attacks(square, occupied) | DIAGONAL_STEPS[c][s],
        Movement::ForwardBishop => {
            let (left, right) = color.select((4, 7), (5, 6));
            slide(left, square, occupied) | slide(right, square, occupied)
        }
        Movement::TwoStep => two_step_attacks(square, occupied),
    }
}

/// The same as [`attacks`], given the rook and bishop slides from `square`
/// with the same `occupied` (`rook`, `bishop`), so that a caller looking at
/// every kind of piece slides from the square once rather than once a kind.
#[inline(always)]
pub fn attacks_given_slides(
    movement: Movement,
    color: Color,
    square: Square,
    occupied: Bitboard,
    rook: Bitboard,
    bishop: Bitboard,
) -> Bitboard {
    let c = color.index();
    let s = square.index() as usize;
    match movement {
        // The four directions' rays are disjoint: the rook's slides in one
        // of them are the lance's.
        Movement::Lance => rook & RAYS[color.select(0, 1)][s],
        Movement::Bishop => bishop,
        Movement::Rook => rook,
        Movement::Horse => bishop | ORTHOGONAL_STEPS[c][s],
        Movement::Dragon => rook | DIAGONAL_STEPS[c][s],
        _ => attacks(movement, color, square, occupied),
    }
}

/// One or two squares along each of the eight directions, stopping at the
/// first occupied square.
fn two_step_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    for &(df, dr) in &DIRECTIONS {
        if let Some(first) = square.offset(df, dr) {
            result.insert(first);
            if !occupied.contains(first) {
                if let Some(second) = first.offset(df, dr) {
                    result.insert(second);
                }
            }
        }
    }
    result
}

const fn ray_union(directions: &[usize]) -> [Bitboard; 81] {
    let mut table = [Bitboard::EMPTY; 81];
    let mut square = 0;
    while square < 81 {
        let mut bits = 0u128;
        let mut i = 0;
        while i < directions.len() {
            bits |= ray(directions[i], square);
            i += 1;
        }
        table[square] = Bitboard(bits);
        square += 1;
    }
    table
}

static DIAGONAL_RAYS: [Bitboard; 81] = ray_union(&DIAGONAL);
static ORTHOGONAL_RAYS: [Bitboard; 81] = ray_union(&ORTHOGONAL);
static FORWARD_DIAGONAL_RAYS: [[Bitboard; 81]; 2] = [ray_union(&[4, 7]), ray_union(&[5, 6])];

/// Squares a slider of this movement reaches from `square` on an empty grid:
/// the candidates for pinning or checking from afar. Empty for pieces that
/// do not slide (the two-step piece only exists in Spear, which has no pins).
#[inline(always)]
pub fn pseudo_slides(movement: Movement, color: Color, square: Square) -> Bitboard {
    let s = square.index() as usize;
    match movement {
        Movement::Lance => RAYS[color.select(0, 1)][s],
        Movement::Bishop | Movement::Horse => DIAGONAL_RAYS[s],
        Movement::Rook | Movement::Dragon => ORTHOGONAL_RAYS[s],
        Movement::ForwardBishop => FORWARD_DIAGONAL_RAYS[color.index()][s],
        _ => Bitboard::EMPTY,
    }
}

/// The squares strictly between two squares on one line; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    match ALIGNMENT[a.index() as usize][b.index() as usize] {
        0 => Bitboard::EMPTY,
        d => {
            let direction = d as usize - 1;
            RAYS[direction][a.index() as usize]
                ^ RAYS[direction][b.index() as usize]
                ^ Bitboard::from_square(b)
        }
    }
}

/// The whole line through two aligned squares (edge to edge); empty if the
/// squares share no line.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    match ALIGNMENT[a.index() as usize][b.index() as usize] {
        0 => Bitboard::EMPTY,
        d => {
            let direction = d as usize - 1;
            RAYS[direction][a.index() as usize]
                | RAYS[opposite_direction(direction)][a.index() as usize]
                | Bitboard::from_square(a)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn rook_stops_at_blockers() {
        let occupied = Bitboard::from_square(sq("5c")).with(sq("2e"));
        let expected = bitboard! {
            ". . . . . . . . ."
            ". . . . . . . . ."
            ". . . . X . . . ."
            ". . . . X . . . ."
            "X X X X . X X X ."
            ". . . . X . . . ."
            ". . . . X . . . ."
            ". . . . X . . . ."
            ". . . . X . . . ."
        };
        assert_eq!(rook_attacks(sq("5e"), occupied), expected);
    }

    #[test]
    fn forward_bishop_goes_only_forward() {
        let sente = attacks(
            Movement::ForwardBishop,
            Color::Sente,
            sq("3c"),
            Bitboard::EMPTY,
        );
        assert_eq!(sente, Bitboard::from_iter(["4b", "5a", "2b", "1a"].map(sq)));
        let gote = attacks(
            Movement::ForwardBishop,
            Color::Gote,
            sq("3c"),
            Bitboard::EMPTY,
        );
        assert!(gote.contains(sq("4d")) && gote.contains(sq("1e")) && !gote.contains(sq("4b")));
    }

    #[test]
    fn two_step_does_not_jump() {
        let occupied = Bitboard::from_square(sq("3b"));
        let reach = attacks(Movement::TwoStep, Color::Sente, sq("3c"), occupied);
        assert!(reach.contains(sq("3b")));
        assert!(!reach.contains(sq("3a")));
        assert!(reach.contains(sq("3e")) && reach.contains(sq("1a")) && reach.contains(sq("5e")));
        assert_eq!(reach.count(), 15);
    }

    #[test]
    fn directions_pair_with_their_opposites() {
        for direction in 0..8 {
            let (file, rank) = DIRECTIONS[direction];
            assert_eq!(DIRECTIONS[opposite_direction(direction)], (-file, -rank));
        }
    }

    #[test]
    fn line_through_a_diagonal_pin() {
        let expected = Bitboard::from_iter(["5a", "4b", "3c", "2d", "1e"].map(sq));
        let five_by_five = Bitboard::from_drawing(&["XXXXX"; 5]);
        assert_eq!(line(sq("3c"), sq("2d")) & five_by_five, expected);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(sq("1a"), sq("4d")),
            Bitboard::from_iter(["2b", "3c"].map(sq))
        );
        assert_eq!(between(sq("1a"), sq("2c")), Bitboard::EMPTY);
        assert_eq!(between(sq("5e"), sq("5d")), Bitboard::EMPTY);
        assert_eq!(line(sq("5e"), sq("5a")).count(), 9);
        assert!(line(sq("5e"), sq("6c")).is_empty());
    }
}
