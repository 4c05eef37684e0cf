//! A move as KIF and KI2 write it (destination, piece, promotion and
//! where it comes from: a square, a drop, or for KI2 words such as `右` or
//! `上`) and the one legal move it names in a position. The KIF reader
//! ([`super::read`]) and the KI2 reader ([`crate::ki2`]) both read moves
//! into a [`MoveSpec`] and play what [`resolve`] finds.

use crate::kanji;
use koma_rules::{Color, Move, Position, PromotionRule, Role, ShogiPosition, ShogiVariant, Square};

/// Where a written move comes from.
pub(crate) enum Origin {
    Square(Square),
    Drop,
    /// KI2: no origin, perhaps words such as `右` or `上` to tell which.
    Relative(String),
}

/// A move as written, before it is checked in its position.
pub(crate) struct MoveSpec {
    /// `None` for `同` (the previous move's destination).
    pub to: Option<Square>,
    pub role: Role,
    /// `Some(true)` for `成`, `Some(false)` for `不成`.
    pub promote: Option<bool>,
    pub origin: Origin,
}

/// The legal move `spec` writes in `position`, or why there is none.
pub(crate) fn resolve<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    spec: &MoveSpec,
    to: Square,
) -> Result<Move, String> {
    let name = |role| kanji::piece_name(V::VARIANT, role);
    let m = match &spec.origin {
        Origin::Drop => {
            if spec.promote.is_some() {
                return Err("a drop cannot promote".into());
            }
            Move::Drop {
                role: spec.role,
                to,
            }
        }
        Origin::Square(from) => {
            match position.piece_at(*from) {
                Some(piece) if piece.color == position.turn() && piece.role == spec.role => {}
                Some(piece) if piece.color == position.turn() => {
                    return Err(format!(
                        "the piece on {} is {}, not {}",
                        from,
                        name(piece.role),
                        name(spec.role)
                    ))
                }
                _ => {
                    return Err(format!(
                        "no {} of the side to move on {}",
                        name(spec.role),
                        from
                    ))
                }
            }
            let m = Move::Board {
                from: *from,
                to,
                promote: spec.promote == Some(true),
            };
            let promoting = Move::Board {
                from: *from,
                to,
                promote: true,
            };
            // Where promotion happens on arrival, records need not say 成.
            if V::SPEC.promotion == PromotionRule::OnArrival
                && spec.promote.is_none()
                && !position.is_legal(m)
                && position.is_legal(promoting)
            {
                promoting
            } else {
                m
            }
        }
        Origin::Relative(words) => relative(position, spec, to, words)?,
    };
    match position.why_illegal(m) {
        None => Ok(m),
        Some(reason) => Err(reason.to_string()),
    }
}

/// The one legal move a KI2 move (without origin, perhaps with words such
/// as `右` or `上`) can be, or why none or several are.
fn relative<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    spec: &MoveSpec,
    to: Square,
    words: &str,
) -> Result<Move, String> {
    let turn = position.turn();
    let legal = position.legal_moves();
    let mut board: Vec<(Square, bool)> = legal
        .iter()
        .filter_map(|m| match *m {
            Move::Board {
                from,
                to: target,
                promote,
            } if target == to && position.piece_at(from).map(|p| p.role) == Some(spec.role) => {
                Some((from, promote))
            }
            _ => None,
        })
        .collect();
    let wanted = spec.promote.unwrap_or(false);
    let with_flag: Vec<(Square, bool)> = board.iter().copied().filter(|c| c.1 == wanted).collect();
    board = if with_flag.is_empty()
        && spec.promote.is_none()
        && V::SPEC.promotion == PromotionRule::OnArrival
    {
        board
    } else {
        with_flag
    };
    let drop = Move::Drop {
        role: spec.role,
        to,
    };
    if board.is_empty() {
        return if legal.contains(&drop) && spec.promote.is_none() {
            Ok(drop)
        } else {
            Err(format!(
                "no {} can move to {}",
                kanji::piece_name(V::VARIANT, spec.role),
                to
            ))
        };
    }
    let ahead = |from: Square| ahead(turn, from, to);
    let rightness = |from: Square| rightness(turn, from);
    let mut candidates: Vec<Square> = board.iter().map(|c| c.0).collect();
    for word in ["上", "行", "入", "引", "寄", "直"] {
        if words.contains(word) {
            candidates.retain(|&from| match word {
                "上" | "行" | "入" => ahead(from) > 0,
                "引" => ahead(from) < 0,
                "寄" => ahead(from) == 0,
                _ => ahead(from) > 0 && from.file() == to.file(),
            });
        }
    }
    for (word, sign) in [("右", 1), ("左", -1)] {
        if words.contains(word) {
            if let Some(best) = candidates.iter().map(|&from| sign * rightness(from)).max() {
                candidates.retain(|&from| sign * rightness(from) == best);
            }
        }
    }
    match candidates.as_slice() {
        [from] => Ok(Move::Board {
            from: *from,
            to,
            promote: board.iter().any(|c| c.0 == *from && c.1),
        }),
        [] => Err(format!("no piece fits {words:?}")),
        _ => Err(format!(
            "{} pieces can move there; the record does not say which",
            candidates.len()
        )),
    }
}

/// How far a piece of `mover` going from `from` to `to` moves forward, as
/// `mover` sees the board: positive for `上`, negative for `引`, zero for `寄`.
pub(crate) fn ahead(mover: Color, from: Square, to: Square) -> i8 {
    match mover {
        Color::Sente => (from.rank() as i8) - (to.rank() as i8),
        Color::Gote => (to.rank() as i8) - (from.rank() as i8),
    }
}

/// How far to `mover`'s right `square` stands: right is towards file 1 for
/// Sente and towards file 9 for Gote, as each sees the board from its side.
pub(crate) fn rightness(mover: Color, square: Square) -> i8 {
    match mover {
        Color::Sente => -(square.file() as i8),
        Color::Gote => square.file() as i8,
    }
}

/// The other pieces a written move could name: the mover's pieces of the
/// same role, besides `from` (`None` for a drop), that reach `to` by their
/// move on this board, whether or not a pin or check forbids it. Writers
/// name the origin (or add `右`, `打`...) when there are any: a reader
/// cannot tell which piece was pinned without playing it out, and the
/// notations Koma checks itself against (lishogi's) count them the same way.
pub(crate) fn rivals<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    role: Role,
    from: Option<Square>,
    to: Square,
) -> Vec<Square> {
    let mover = position.turn();
    position
        .pieces(mover, role)
        .into_iter()
        .filter(|&square| Some(square) != from)
        .filter(|&square| position.attacks_from(role, mover, square).contains(to))
        .collect()
}

/// Whether `m`, a legal board move that does not promote, could have
/// promoted: KIF and KI2 then write `不成`, Western notations `=`. Told by
/// the rule rather than by trying the promoting move, which would generate
/// the moves again: the server writes every move of a game this way.
pub(crate) fn declines_promotion<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> bool {
    let Move::Board {
        from,
        to,
        promote: false,
    } = m
    else {
        return false;
    };
    let zone = V::SPEC.zone(position.turn());
    // Spear promotes every move that ends in the zone: none declines.
    V::SPEC.promotion == PromotionRule::Optional
        && position
            .piece_at(from)
            .is_some_and(|piece| piece.role.promoted().is_some())
        && (zone.contains(from) || zone.contains(to))
}

/// `７六` or `同` / `同　`: the destination, `None` for the previous one.
pub(crate) fn parse_destination<V: ShogiVariant>(text: &str) -> Option<(Option<Square>, &str)> {
    if let Some(rest) = text.strip_prefix('同') {
        return Some((None, rest.trim_start_matches(['　', ' '])));
    }
    let mut chars = text.chars();
    let file = kanji::parse_file_digit(chars.next()?)?;
    let rank = kanji::parse_rank_numeral(chars.next()?)?;
    Some((Some(board_square::<V>(file, rank)?), chars.as_str()))
}

/// The square at `file` and `rank` (0-based) if it is on `V`'s board.
pub(crate) fn board_square<V: ShogiVariant>(file: u8, rank: u8) -> Option<Square> {
    (file < V::SPEC.files && rank < V::SPEC.ranks)
        .then(|| Square::from_coords(file, rank))
        .flatten()
}
