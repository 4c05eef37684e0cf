//! Kitao–Kawasaki notation as lishogi writes it: the piece in kanji, the
//! signs of Western notation and squares as two digits, file then rank:
//! `歩-76`, `角x22+`, `銀x` (a recapture on the previous move's square
//! names no square), `歩*55`, `+香-13` for a promoted lance, `金(69)-58`
//! where another piece of the kind could go there too, `=` for a declined
//! promotion.

use crate::kanji;
use crate::kif::written_move::{declines_promotion, rivals};
use koma_rules::{Move, ShogiPosition, ShogiVariant, Square};

/// `m`, played in `position` after a move to `previous_to`, in
/// Kitao–Kawasaki notation.
///
/// ```
/// use koma_records::notation::kitao_kawasaki;
/// use koma_rules::{Position, StandardShogiPosition};
/// let start = StandardShogiPosition::start();
/// let m = start.parse_move("7g7f").unwrap();
/// assert_eq!(kitao_kawasaki::move_text(&start, m, None), "歩-76");
/// ```
pub fn move_text<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    previous_to: Option<Square>,
) -> String {
    let name = |role| kanji::piece_name(V::VARIANT, role).replace('成', "+");
    match m {
        Move::Drop { role, to } => format!("{}*{}", name(role), digits(to)),
        Move::Board { from, to, promote } => {
            let Some(piece) = position.piece_at(from) else {
                return koma_rules::write_usi_move(m);
            };
            let mut text = name(piece.role);
            if !rivals(position, piece.role, Some(from), to).is_empty() {
                text.push_str(&format!("({})", digits(from)));
            }
            text.push(if position.piece_at(to).is_some() {
                'x'
            } else {
                '-'
            });
            if previous_to != Some(to) {
                text.push_str(&digits(to));
            }
            if promote {
                text.push('+');
            } else if declines_promotion(position, m) {
                text.push('=');
            }
            text
        }
    }
}

/// `76`: the file and rank as digits.
fn digits(square: Square) -> String {
    format!("{}{}", square.file() + 1, square.rank() + 1)
}
