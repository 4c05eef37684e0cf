//! Moves as KI2 writes them, without origin squares: `７六歩`, `同　銀`
//! (`同成銀` for a two-character piece), `５八金右`, `５五角打`, told apart
//! as the JSA's rules for written records say (and as lishogi writes
//! them): first by how the piece moves (`上`, `寄`, `引`), then by where it
//! stands (`右`, `左`), both where neither alone is enough, and `直` for a
//! gold or silver going straight forward beside another of its kind.
//! Dragons and horses go `上` too, as the JSA writes them; lishogi writes
//! `行` there, an older usage the KI2 reader still accepts.

use crate::kanji;
use crate::kif::written_move::{ahead, declines_promotion, rightness, rivals};
use koma_rules::{Color, Move, Role, ShogiPosition, ShogiVariant, Square};

/// `m`, played in `position`, as KI2 writes it without a side's mark;
/// `previous_to` is the previous move's destination (a move there is `同`).
///
/// ```
/// use koma_records::ki2;
/// use koma_rules::{Position, StandardShogiPosition};
/// let position = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/3GGG3/4K4 b - 1").unwrap();
/// let text = |usi| ki2::move_text(&position, position.parse_move(usi).unwrap(), None);
/// assert_eq!(text("6h5g"), "５七金左");
/// assert_eq!(text("5h5g"), "５七金直");
/// assert_eq!(text("4h5g"), "５七金右");
/// assert_eq!(text("4h4g"), "４七金直");
/// ```
pub fn move_text<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    previous_to: Option<Square>,
) -> String {
    let to = m.to();
    let mut text = String::new();
    if let (Move::Board { from, .. }, true) = (m, previous_to == Some(to)) {
        text.push('同');
        // The space pads a one-character piece to a square's width: KI2
        // files and printed records write `同　銀` but `同成銀`.
        let role = position.piece_at(from).map(|p| p.role);
        if role.is_none_or(|role| kanji::piece_name(V::VARIANT, role).chars().count() == 1) {
            text.push('　');
        }
    } else {
        text.push(kanji::file_digit(to.file()));
        text.push(kanji::NUMERALS[to.rank() as usize]);
    }
    match m {
        Move::Drop { role, to } => {
            text.push_str(kanji::piece_name(V::VARIANT, role));
            // `打` only where a piece on the board could go there too.
            if !rivals(position, role, None, to).is_empty() {
                text.push('打');
            }
        }
        Move::Board { from, to, promote } => {
            let Some(piece) = position.piece_at(from) else {
                return text;
            };
            text.push_str(kanji::piece_name(V::VARIANT, piece.role));
            let others = rivals(position, piece.role, Some(from), to);
            if !others.is_empty() {
                text.push_str(&words(piece.role, position.turn(), from, to, &others));
            }
            if promote {
                text.push('成');
            } else if declines_promotion(position, m) {
                text.push_str("不成");
            }
        }
    }
    text
}

/// The words that tell the piece on `from` from `others`, which could also
/// go to `to`.
fn words(role: Role, mover: Color, from: Square, to: Square, others: &[Square]) -> String {
    let forward = ahead(mover, from, to);
    let gold_like = matches!(
        role,
        Role::Gold
            | Role::Silver
            | Role::Tokin
            | Role::PromotedLance
            | Role::PromotedKnight
            | Role::PromotedSilver
    );
    if gold_like
        && forward > 0
        && from.file() == to.file()
        && others.iter().any(|o| o.rank() == from.rank())
    {
        return "直".into();
    }
    let vertical = match forward.signum() {
        1 => "上",
        0 => "寄",
        _ => "引",
    };
    // The movement alone tells it when no other moves the same way.
    if others
        .iter()
        .all(|&o| ahead(mover, o, to).signum() != forward.signum())
    {
        return vertical.into();
    }
    let mine = rightness(mover, from);
    let theirs = || others.iter().map(|&o| rightness(mover, o));
    let rightmost = theirs().all(|r| r < mine);
    let leftmost = theirs().all(|r| r > mine);
    let between = others.len() == 2 && theirs().any(|r| r < mine) && theirs().any(|r| r > mine);
    if rightmost || leftmost || between {
        return side(rightmost, leftmost).into();
    }
    // Another stands on the same file as this piece: the side narrows the
    // choice to the pieces on that file, the movement picks among them.
    let side = side(theirs().all(|r| r <= mine), theirs().all(|r| r >= mine));
    format!("{side}{vertical}")
}

/// `右` or `左`, or `中` for the middle one of three. Kept as lishogi has
/// it, though no piece of these games reaches it: of three pieces that
/// reach one square the middle one moves straight, and `直` or the
/// movement tells it first.
fn side(right: bool, left: bool) -> &'static str {
    match (right, left) {
        (true, false) => "右",
        (false, true) => "左",
        _ => "中",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kif::written_move::resolve;
    use koma_rules::{Minishogi, Position, Shogi, Spear};

    /// Plays `plies` pseudo-random moves from the start of `V` (a fixed
    /// linear congruential sequence, the same on every run) and reads each
    /// written move back with the KI2 reader: it must name the move played.
    fn read_back<V: ShogiVariant>(games: u64, plies: usize)
    where
        ShogiPosition<V>: Position,
    {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..games {
            let mut position = ShogiPosition::<V>::start();
            let mut previous_to = None;
            for _ in 0..plies {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                // `不成` by the rule, as the legal moves have it.
                let promoting = match m {
                    Move::Board {
                        from,
                        to,
                        promote: false,
                    } => Some(Move::Board {
                        from,
                        to,
                        promote: true,
                    }),
                    _ => None,
                };
                assert_eq!(
                    declines_promotion(&position, m),
                    promoting.is_some_and(|p| moves.contains(&p)),
                    "{m:?} in {}",
                    position.to_text()
                );
                let text = move_text(&position, m, previous_to);
                let spec = super::super::parse_move::<V>(&text)
                    .unwrap_or_else(|| panic!("{text} does not read back"));
                let to = spec.to.or(previous_to).expect("a square");
                assert_eq!(
                    resolve(&position, &spec, to),
                    Ok(m),
                    "{text} in {}",
                    position.to_text()
                );
                position.play_unchecked(m);
                previous_to = Some(m.to());
            }
        }
    }

    #[test]
    fn written_moves_read_back_as_the_moves_played() {
        read_back::<Shogi>(60, 200);
        read_back::<Minishogi>(100, 80);
        read_back::<Spear>(100, 60);
    }

    #[test]
    fn gote_sees_right_and_left_from_its_side() {
        use koma_rules::StandardShogiPosition;
        // Gote's golds on 6c and 4c; its right is towards file 9.
        let position = StandardShogiPosition::from_text("4k4/9/3g1g3/9/9/9/9/9/4K4 w - 1").unwrap();
        let text = |usi| move_text(&position, position.parse_move(usi).unwrap(), None);
        assert_eq!(text("6c5d"), "５四金右");
        assert_eq!(text("4c5d"), "５四金左");
        assert_eq!(text("6c5c"), "５三金右");
    }

    #[test]
    fn drops_say_so_only_when_a_piece_could_go_there() {
        use koma_rules::StandardShogiPosition;
        let position = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/4G4/4K4 b G 1").unwrap();
        let text = |usi| move_text(&position, position.parse_move(usi).unwrap(), None);
        assert_eq!(text("G*5g"), "５七金打");
        assert_eq!(text("G*1a"), "１一金");
        assert_eq!(text("5h5g"), "５七金");
    }
}
