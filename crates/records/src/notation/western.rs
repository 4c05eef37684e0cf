//! Western notation as George Hodges wrote it for English readers (and
//! lishogi's "Western" with letters): `P-7f`, `Px7f`, `B*5e`, `Sx5c+`,
//! `S-4b=` (promotion declined), `+R-2b` for a promoted piece, and the
//! origin square only where another piece of the kind could go there too
//! (`G6i-5h`). Squares are USI's: file digit, rank letter.

use crate::kif::written_move::{declines_promotion, rivals};
use koma_rules::{Move, Role, ShogiPosition, ShogiVariant};

/// `m`, played in `position`, in Hodges's notation.
///
/// ```
/// use koma_records::notation::western;
/// use koma_rules::{Position, StandardShogiPosition};
/// let start = StandardShogiPosition::start();
/// assert_eq!(western::move_text(&start, start.parse_move("7g7f").unwrap()), "P-7f");
/// let golds = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/3G1G3/4K4 b - 1").unwrap();
/// assert_eq!(western::move_text(&golds, golds.parse_move("6h5g").unwrap()), "G6h-5g");
/// ```
pub fn move_text<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> String {
    match m {
        Move::Drop { role, to } => format!("{}*{to}", letters(role)),
        Move::Board { from, to, promote } => {
            let Some(piece) = position.piece_at(from) else {
                return koma_rules::write_usi_move(m);
            };
            let mut text = letters(piece.role);
            if !rivals(position, piece.role, Some(from), to).is_empty() {
                text.push_str(&from.to_string());
            }
            text.push(if position.piece_at(to).is_some() {
                'x'
            } else {
                '-'
            });
            text.push_str(&to.to_string());
            if promote {
                text.push('+');
            } else if declines_promotion(position, m) {
                text.push('=');
            }
            text
        }
    }
}

/// `P`, `+P` for a tokin, `+R` for a dragon.
fn letters(role: Role) -> String {
    let letter = role.letter();
    if role.is_promoted() {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}
