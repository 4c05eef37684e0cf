//! Spear's moves as its seed writes them, `L FF TT` (`docs/rules/spear.md`):
//! the piece's base letter (upper case for the seed's White, which is Gote,
//! lower case for its Black, Sente), the square it stands on (`00` for a
//! drop) and the target. A square `CR` is column `C` = USI file, row `R` =
//! USI rank `a + R − 1`, so `11` is `1a`. Promotion is compulsory in Spear,
//! so a move needs no promotion mark.

use crate::{Color, Move, Position, Role, SpearPosition, Square};
use std::fmt;

/// Why a line is not a legal move in the seed's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedMoveError {
    /// Not of the form `L FF TT` with a piece letter and squares 11..55.
    Syntax,
    /// The letter's case names the side not to move.
    NotYourTurn,
    /// No such piece of the mover's stands on the square.
    NoSuchPiece,
    /// The piece cannot go there (or the drop is not possible).
    Illegal,
}

impl fmt::Display for SeedMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SeedMoveError::Syntax => {
                "not a move of the form L FF TT (piece letter, from square or 00, to square)"
            }
            SeedMoveError::NotYourTurn => "that letter's case is the other side's",
            SeedMoveError::NoSuchPiece => "no such piece of the side to move stands there",
            SeedMoveError::Illegal => "that piece cannot go there",
        })
    }
}

impl std::error::Error for SeedMoveError {}

/// A piece's letter in the seed's notation: upper case for Gote (the seed's
/// White), the base letter whether promoted or not.
pub fn seed_letter(color: Color, role: Role) -> char {
    let letter = role.unpromoted().letter();
    match color {
        Color::Gote => letter,
        Color::Sente => letter.to_ascii_lowercase(),
    }
}

/// Square `CR` of the seed's notation.
pub fn seed_square(square: Square) -> String {
    format!("{}{}", square.file() + 1, square.rank() + 1)
}

/// Reads a square `CR` (each digit 1..5).
fn parse_square(text: &str) -> Option<Square> {
    match text.as_bytes() {
        [column @ b'1'..=b'5', row @ b'1'..=b'5'] => Square::from_coords(column - b'1', row - b'1'),
        _ => None,
    }
}

fn role_of_letter(letter: char) -> Option<Role> {
    match letter.to_ascii_uppercase() {
        'K' => Some(Role::King),
        'G' => Some(Role::Gold),
        'S' => Some(Role::Silver),
        'B' => Some(Role::Bishop),
        'L' => Some(Role::Lance),
        'P' => Some(Role::Pawn),
        _ => None,
    }
}

/// Move `m` of a `mover`'s piece of `role` (the piece on the move's
/// square, or the piece dropped), in the seed's notation: `K 11 12`.
///
/// ```
/// use koma_rules::{seed_move, Color, Move, Role, Square};
///
/// let to = Square::from_coords(2, 2).unwrap();
/// assert_eq!(seed_move(Color::Sente, Role::Bishop, Move::Drop { role: Role::Bishop, to }), "b 00 33");
/// ```
pub fn seed_move(mover: Color, role: Role, m: Move) -> String {
    let letter = seed_letter(mover, role);
    match m {
        Move::Board { from, to, .. } => {
            format!("{letter} {} {}", seed_square(from), seed_square(to))
        }
        Move::Drop { to, .. } => format!("{letter} 00 {}", seed_square(to)),
    }
}

impl SpearPosition {
    /// Move `m`, legal here, in the seed's notation.
    ///
    /// ```
    /// use koma_rules::{Position, SpearPosition};
    ///
    /// let start = SpearPosition::start();
    /// let m = start.parse_move("5d5c").unwrap();
    /// assert_eq!(start.seed_move_text(m), "p 54 53");
    /// ```
    pub fn seed_move_text(&self, m: Move) -> String {
        let role = match m {
            Move::Board { from, .. } => self.piece_at(from).map_or(Role::King, |piece| piece.role),
            Move::Drop { role, .. } => role,
        };
        seed_move(self.turn(), role, m)
    }

    /// Reads a move in the seed's notation (fields separated by spaces or
    /// tabs) as the legal move it stands for.
    ///
    /// ```
    /// use koma_rules::{Position, SeedMoveError, SpearPosition};
    ///
    /// let start = SpearPosition::start();
    /// assert_eq!(start.parse_seed_move("p 54 53").ok(), start.parse_move("5d5c").ok());
    /// assert_eq!(start.parse_seed_move("P 12 13"), Err(SeedMoveError::NotYourTurn));
    /// assert_eq!(start.parse_seed_move("p 54 52"), Err(SeedMoveError::Illegal));
    /// assert_eq!(start.parse_seed_move("p 5453"), Err(SeedMoveError::Syntax));
    /// ```
    pub fn parse_seed_move(&self, text: &str) -> Result<Move, SeedMoveError> {
        let fields: Vec<&str> = text
            .split([' ', '\t'])
            .filter(|field| !field.is_empty())
            .collect();
        let [letter, from, to] = fields[..] else {
            return Err(SeedMoveError::Syntax);
        };
        let mut letters = letter.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(SeedMoveError::Syntax);
        };
        let role = role_of_letter(letter).ok_or(SeedMoveError::Syntax)?;
        let color = if letter.is_ascii_uppercase() {
            Color::Gote
        } else {
            Color::Sente
        };
        let from = match from {
            "00" => None,
            square => Some(parse_square(square).ok_or(SeedMoveError::Syntax)?),
        };
        let to = parse_square(to).ok_or(SeedMoveError::Syntax)?;
        if color != self.turn() {
            return Err(SeedMoveError::NotYourTurn);
        }
        let Some(from) = from else {
            let m = Move::Drop { role, to };
            return if self.is_legal(m) {
                Ok(m)
            } else {
                Err(SeedMoveError::Illegal)
            };
        };
        match self.piece_at(from) {
            Some(piece) if piece.color == color && piece.role.unpromoted() == role => {}
            _ => return Err(SeedMoveError::NoSuchPiece),
        }
        // Promotion is compulsory and automatic: at most one form is legal.
        [false, true]
            .into_iter()
            .map(|promote| Move::Board { from, to, promote })
            .find(|&m| self.is_legal(m))
            .ok_or(SeedMoveError::Illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_example_reads_and_writes_back() {
        // The example game of docs/CONSOLES.md, without its illegal line.
        let lines = [
            "p 54 53", "P 12 13", "b 25 34", "B 41 52", "b 34 12", "K 11 12", "l 15 13",
        ];
        let mut position = SpearPosition::start();
        for line in lines {
            let m = position.parse_seed_move(line).unwrap();
            assert_eq!(position.seed_move_text(m), line);
            position.play_unchecked(m);
        }
        // "White has no pawn on 13", as the rules say; Black is not to move.
        assert_eq!(
            position.parse_seed_move("P 13 14"),
            Err(SeedMoveError::NoSuchPiece)
        );
        assert_eq!(
            position.parse_seed_move("k 55 54"),
            Err(SeedMoveError::NotYourTurn)
        );
    }

    #[test]
    fn promotions_drops_and_mistakes() {
        let mut position = SpearPosition::start();
        // Black's pawn promotes on 52 and takes White's elephant on 41;
        // White's promotes on 14.
        let mut promoted = Vec::new();
        for line in ["p 54 53", "P 12 13", "p 53 52", "P 13 14", "p 52 41"] {
            let m = position.parse_seed_move(line).unwrap();
            promoted.push(matches!(m, Move::Board { promote: true, .. }));
            position.play_unchecked(m);
        }
        assert_eq!(promoted, [false, false, true, true, false]);
        assert_eq!(
            position.parse_seed_move("K 33 34"),
            Err(SeedMoveError::NoSuchPiece)
        );
        assert_eq!(
            position.parse_seed_move("S 31 41"),
            Err(SeedMoveError::Illegal),
            "a silver does not move sideways"
        );
        assert_eq!(
            position.parse_seed_move("B 00 33"),
            Err(SeedMoveError::Illegal),
            "White holds no elephant"
        );
        let on = position.parse_seed_move("P 14 15").unwrap();
        assert_eq!(
            on,
            Move::Board {
                from: Square::from_coords(0, 3).unwrap(),
                to: Square::from_coords(0, 4).unwrap(),
                promote: false
            },
            "the promoted pawn goes on, by its base letter"
        );
        position.play_unchecked(on);
        let drop = position.parse_seed_move("b\t00  33").unwrap();
        assert_eq!(
            drop,
            Move::Drop {
                role: Role::Bishop,
                to: Square::from_coords(2, 2).unwrap()
            }
        );
        assert_eq!(position.seed_move_text(drop), "b 00 33");
        for bad in [
            "",
            "X 11 12",
            "K 11",
            "K 11 12 13",
            "K 61 12",
            "KK 11 12",
            "K 1 12",
        ] {
            assert_eq!(
                position.parse_seed_move(bad),
                Err(SeedMoveError::Syntax),
                "{bad}"
            );
        }
    }
}
