//! Spear drawn and written as its seed does (`koma shogi --variant spear
//! --seed-view`): White (Gote) at the bottom, columns 1–5 from left to
//! right and rows 1–5 from bottom to top, moves as `L FF TT` (`K 11 12`,
//! `b 00 33` for a drop), letters upper case for White and lower case for
//! Black. The position and the records stay in shogi's convention.

use super::board_view::{hand_line, paint, Style};
use koma_records::kanji::piece_char as kanji;
use koma_rules::{
    seed_letter, seed_move, Color, Move, Piece, Position, SeedMoveError, ShogiPosition,
    ShogiVariant, SpearPosition, Square,
};

/// A piece as three terminal columns: kanji with Black's (upside-down at
/// the top) marked `v`, or the seed's letter.
fn cell<V: ShogiVariant>(piece: Option<Piece>, style: Style) -> String {
    match (piece, style.ascii) {
        (None, true) => " - ".to_owned(),
        (None, false) => " ・".to_owned(),
        (Some(piece), true) => format!(" {} ", seed_letter(piece.color, piece.role)),
        (Some(piece), false) => {
            let mark = if piece.color == Color::Sente {
                'v'
            } else {
                ' '
            };
            format!("{mark}{}", kanji(V::VARIANT, piece.role))
        }
    }
}

/// The whole picture: Black's hand, the board with row numbers on the left
/// and column numbers under it, White's hand.
pub fn draw<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    last_move: Option<Move>,
    style: Style,
) -> String {
    let (files, ranks) = (V::SPEC.files, V::SPEC.ranks);
    let rule = format!("  +{}+\n", "-".repeat(3 * files as usize));
    let highlight = last_move.map(Move::to);
    let mut out = hand_line(position, Color::Sente, style);
    out.push('\n');
    out.push_str(&rule);
    for rank in (0..ranks).rev() {
        out.push_str(&format!("{} |", rank + 1));
        for file in 0..files {
            let square = Square::from_coords(file, rank).expect("on the board");
            let piece = position.piece_at(square);
            let text = cell::<V>(piece, style);
            out.push_str(&paint(text, piece, highlight == Some(square), style));
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
    let labels: String = (1..=files).map(|file| format!("  {file}")).collect();
    out.push_str(&format!("  {labels}\n"));
    out.push_str(&hand_line(position, Color::Gote, style));
    out.push('\n');
    out
}

/// The move that led to `after` in the seed's notation.
pub fn last_move_text<V: ShogiVariant>(after: &ShogiPosition<V>, m: Move) -> String {
    // The piece now stands on the target (the seed writes its base letter).
    written(after, !after.turn(), m.to(), m)
}

/// `m`, legal in `position`, in the seed's notation.
pub fn move_text<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> String {
    let from = match m {
        Move::Board { from, .. } => from,
        Move::Drop { to, .. } => to,
    };
    written(position, position.turn(), from, m)
}

/// `m` by `mover`, whose piece stands on `square` of `position` (a drop
/// names its piece itself).
fn written<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    mover: Color,
    square: Square,
    m: Move,
) -> String {
    let role = match m {
        Move::Board { .. } => position.piece_at(square).map(|piece| piece.role),
        Move::Drop { role, .. } => Some(role),
    };
    role.map_or_else(|| format!("{m:?}"), |role| seed_move(mover, role, m))
}

/// Whether a line is meant as a move in the seed's notation: three fields,
/// the first a piece letter.
pub fn is_seed_move_line(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    matches!(&fields[..], [letter, _, _]
        if letter.len() == 1 && "KGSBLPkgsblp".contains(*letter))
}

/// Reads `L FF TT` in `position` (a Spear position: the console offers the
/// seed's view only for Spear).
pub fn parse_move<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    text: &str,
) -> Result<Move, SeedMoveError> {
    SpearPosition::from_text(&position.to_text())
        .map_err(|_| SeedMoveError::Syntax)?
        .parse_seed_move(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_drawn_as_the_seed_draws_it() {
        let style = Style {
            ascii: true,
            color: false,
            seed_view: true,
        };
        let picture = draw(&SpearPosition::start(), None, style);
        let rows: Vec<&str> = picture.lines().collect();
        assert_eq!(rows[2], "5 | l  b  s  g  k |");
        assert_eq!(rows[6], "1 | K  G  S  B  L |");
        assert_eq!(rows[8], "    1  2  3  4  5");
        assert!(is_seed_move_line("p 54 53"));
        assert!(!is_seed_move_line("5d5c"));
        assert!(!is_seed_move_line("save game.kif --format"));
    }
}
