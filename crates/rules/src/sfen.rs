//! SFEN, the shogi family's position notation: `board turn hands [move]`.
//! A [`ShogiPosition`]'s start (its game's SFEN) and its `Debug` text are
//! SFEN too, and so are defined here.

use crate::color::Color;
use crate::position_error::PositionError;
use crate::role::{Piece, Role};
use crate::setup::SetupError;
use crate::sfen_error::{SfenError, SfenSyntaxError};
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::square::Square;
use std::fmt;

/// Parses an SFEN (with or without a leading `sfen` keyword and the move
/// number) into a validated position of game `V`: its syntax first, then
/// the checks of [`ShogiPosition::checked`].
pub fn parse_sfen<V: ShogiVariant>(text: &str) -> Result<ShogiPosition<V>, SfenError> {
    let position = parse_sfen_unchecked::<V>(text)?;
    Ok(position.checked().map_err(|e| e.error())?)
}

/// Reads an SFEN's syntax only, as shakmaty's `Fen` does: the position it
/// describes, which may be one no game reaches (no king for the side not
/// to move, too many pieces). [`ShogiPosition::checked`] then says whether
/// it is legal, and its [`PositionError`] lets a caller that means it (a
/// mate-problem editor, say) take the position anyway.
///
/// ```
/// use koma_rules::{parse_sfen_unchecked, Shogi, SetupProblem};
///
/// // A mate problem being set up: the defender's king is not placed yet.
/// let editing = parse_sfen_unchecked::<Shogi>("9/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
/// let refused = editing.clone().checked().unwrap_err();
/// assert!(matches!(refused.error().problem, SetupProblem::MissingKing(_)));
/// let accepted = refused.ignore_missing_king().unwrap();
/// assert_eq!(accepted, editing);
/// ```
pub fn parse_sfen_unchecked<V: ShogiVariant>(
    text: &str,
) -> Result<ShogiPosition<V>, SfenSyntaxError> {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    if fields.first() == Some(&"sfen") {
        fields.remove(0);
    }
    if !(3..=4).contains(&fields.len()) {
        return Err(SfenSyntaxError::FieldCount(fields.len()));
    }
    let mut position = ShogiPosition::<V>::empty();
    parse_board(&mut position, fields[0])?;
    let turn = match fields[1] {
        "b" => Color::Sente,
        "w" => Color::Gote,
        other => return Err(SfenSyntaxError::Turn(other.to_owned())),
    };
    position.set_turn(turn);
    parse_hands(&mut position, fields[2])?;
    if let Some(&number) = fields.get(3) {
        match number.parse::<u32>() {
            Ok(n) if n >= 1 => position.set_move_number(n),
            _ => return Err(SfenSyntaxError::MoveNumber(number.to_owned())),
        }
    }
    position.refresh();
    Ok(position)
}

fn parse_board<V: ShogiVariant>(
    position: &mut ShogiPosition<V>,
    board: &str,
) -> Result<(), SfenSyntaxError> {
    let spec = V::SPEC;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != spec.ranks as usize {
        return Err(SfenSyntaxError::RankCount {
            expected: spec.ranks,
            found: ranks.len(),
        });
    }
    for (rank_index, rank_text) in ranks.iter().enumerate() {
        let rank_letter = (b'a' + rank_index as u8) as char;
        let width_error = |found| SfenSyntaxError::RankWidth {
            rank: rank_letter,
            expected: spec.files,
            found,
        };
        let mut column = 0usize;
        let mut chars = rank_text.chars();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                if digit == 0 {
                    return Err(SfenSyntaxError::UnexpectedCharacter {
                        rank: rank_letter,
                        found: c,
                    });
                }
                column += digit as usize;
                continue;
            }
            let (promoted, letter) = if c == '+' {
                match chars.next() {
                    Some(next) => (true, next),
                    None => return Err(SfenSyntaxError::PieceNotInGame("+".into())),
                }
            } else {
                (false, c)
            };
            let Some(base) = Role::from_letter(letter) else {
                return Err(SfenSyntaxError::UnexpectedCharacter {
                    rank: rank_letter,
                    found: letter,
                });
            };
            let text = if promoted {
                format!("+{letter}")
            } else {
                letter.to_string()
            };
            let role = if promoted {
                base.promoted()
                    .ok_or_else(|| SfenSyntaxError::PieceNotInGame(text.clone()))?
            } else {
                base
            };
            if !spec.board_roles.contains(&role) {
                return Err(SfenSyntaxError::PieceNotInGame(text));
            }
            if column >= spec.files as usize {
                return Err(width_error(column + 1));
            }
            let color = if letter.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            let file = spec.files - 1 - column as u8;
            let square = Square::from_coords(file, rank_index as u8).expect("inside the board");
            position.put(square, Piece::new(color, role));
            column += 1;
        }
        if column != spec.files as usize {
            return Err(width_error(column));
        }
    }
    Ok(())
}

fn parse_hands<V: ShogiVariant>(
    position: &mut ShogiPosition<V>,
    hands: &str,
) -> Result<(), SfenSyntaxError> {
    if hands == "-" {
        return Ok(());
    }
    let mut count: Option<u32> = None;
    for c in hands.chars() {
        if let Some(digit) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + digit;
            if n > 99 {
                return Err(SfenSyntaxError::Hand(format!(
                    "count too large in {hands:?}"
                )));
            }
            count = Some(n);
            continue;
        }
        let role = Role::from_letter(c)
            .filter(|role| {
                V::SPEC.hand_roles.contains(role) || (*role == Role::King && V::KINGS_ARE_CAPTURED)
            })
            .ok_or_else(|| {
                SfenSyntaxError::Hand(format!(
                    "{c:?} is not a piece that can be held in this game"
                ))
            })?;
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenSyntaxError::Hand(format!("a count of 0 in {hands:?}")));
        }
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let held = position.hand(color).count(role) as u32 + n;
        if held > crate::zobrist::MAX_HAND_COUNT as u32 {
            return Err(SfenSyntaxError::Hand(format!(
                "more than {} pieces of kind {} in a hand",
                crate::zobrist::MAX_HAND_COUNT,
                role.letter()
            )));
        }
        position.set_hand_count(color, role, held as u8);
    }
    if count.is_some() {
        return Err(SfenSyntaxError::Hand(format!(
            "{hands:?} ends with a count and no piece"
        )));
    }
    Ok(())
}

/// Writes the position as SFEN, move number included.
pub fn write_sfen<V: ShogiVariant>(position: &ShogiPosition<V>) -> String {
    let spec = V::SPEC;
    let mut out = String::new();
    for rank in 0..spec.ranks {
        if rank > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for file in (0..spec.files).rev() {
            let square = Square::from_coords(file, rank).expect("inside the board");
            match position.piece_at(square) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&piece.to_sfen());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push(' ');
    out.push(match position.turn() {
        Color::Sente => 'b',
        Color::Gote => 'w',
    });
    out.push(' ');
    let before = out.len();
    for color in Color::ALL {
        for role in Role::HAND_ORDER {
            let n = position.hand(color).count(role);
            if n > 1 {
                out.push_str(&n.to_string());
            }
            if n > 0 {
                let letter = role.letter();
                out.push(if color == Color::Sente {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
    if out.len() == before {
        out.push('-');
    }
    out.push(' ');
    out.push_str(&position.move_number().to_string());
    out
}

impl<V: ShogiVariant> ShogiPosition<V> {
    /// The game's start position.
    pub fn start() -> Self {
        parse_sfen::<V>(V::SPEC.start).expect("start positions are valid")
    }

    /// Whether the position is one the game can reach (see [`SetupError`]):
    /// [`parse_sfen`] refuses those that are not, and a position set up
    /// square by square (with [`ShogiPosition::put`]) should be checked so.
    pub fn validate(&self) -> Result<(), SetupError> {
        crate::setup::check_shogi(self)
    }

    /// The position, if it is one the game can reach; else a
    /// [`PositionError`] that keeps it, with what is wrong, so that a
    /// caller that means it can take it anyway (its `ignore_*` methods).
    pub fn checked(self) -> Result<Self, PositionError<Self>> {
        match self.validate() {
            Ok(()) => Ok(self),
            Err(error) => Err(PositionError::new(self, error)),
        }
    }
}

/// A position shows as its SFEN.
impl<V: ShogiVariant> fmt::Debug for ShogiPosition<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", write_sfen(self))
    }
}

/// The start position.
impl<V: ShogiVariant> Default for ShogiPosition<V> {
    fn default() -> Self {
        Self::start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Minishogi, Shogi, Spear};
    use crate::{SetupProblem, Variant};

    fn setup(variant: Variant, problem: SetupProblem) -> SfenError {
        SfenError::Setup(SetupError { variant, problem })
    }

    #[test]
    fn start_positions_round_trip() {
        for text in [
            Shogi::SPEC.start,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ] {
            assert_eq!(write_sfen(&parse_sfen::<Shogi>(text).unwrap()), text);
        }
        assert_eq!(
            write_sfen(&parse_sfen::<Minishogi>(Minishogi::SPEC.start).unwrap()),
            Minishogi::SPEC.start
        );
        assert_eq!(
            write_sfen(&parse_sfen::<Spear>(Spear::SPEC.start).unwrap()),
            Spear::SPEC.start
        );
    }

    #[test]
    fn hands_are_written_in_standard_order() {
        let text = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        assert_eq!(write_sfen(&parse_sfen::<Shogi>(text).unwrap()), text);
        let reordered = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w 5pGRsgn 1";
        assert_eq!(write_sfen(&parse_sfen::<Shogi>(reordered).unwrap()), text);
    }

    #[test]
    fn spear_accepts_a_king_in_hand() {
        let text = "lbsg1/4p/5/P4/1GSBL w Kk 3";
        assert_eq!(
            parse_sfen::<Spear>(text).unwrap_err(),
            setup(Variant::Spear, SetupProblem::NoKings)
        );
        let text = "lbsg1/4p/5/P4/KGSBL w K 3";
        assert_eq!(write_sfen(&parse_sfen::<Spear>(text).unwrap()), text);
        // The king's capture was the move just played: Sente's turn is over.
        assert_eq!(
            parse_sfen::<Spear>("lbsg1/4p/5/P4/KGSBL b K 3").unwrap_err(),
            setup(Variant::Spear, SetupProblem::MissingKing(Color::Gote))
        );
        assert!(parse_sfen::<Shogi>("9/9/9/9/9/9/9/9/9 b K 1").is_err());
    }

    #[test]
    fn malformed_text_gets_precise_errors() {
        let cases: &[(&str, SfenSyntaxError)] = &[
            ("", SfenSyntaxError::FieldCount(0)),
            (
                "rbsgk/4p/5/P4 b - 1",
                SfenSyntaxError::RankCount {
                    expected: 5,
                    found: 4,
                },
            ),
            (
                "rbsgk/4p/6/P4/KGSBR b - 1",
                SfenSyntaxError::RankWidth {
                    rank: 'c',
                    expected: 5,
                    found: 6,
                },
            ),
            (
                "rbsgk/4p/4/P4/KGSBR b - 1",
                SfenSyntaxError::RankWidth {
                    rank: 'c',
                    expected: 5,
                    found: 4,
                },
            ),
            (
                "rbsgk/4p/5/P4/KGSBX b - 1",
                SfenSyntaxError::UnexpectedCharacter {
                    rank: 'e',
                    found: 'X',
                },
            ),
            (
                "rbsgk/4p/5/P4/KGSBR x - 1",
                SfenSyntaxError::Turn("x".into()),
            ),
            (
                "rbsgk/4p/5/P4/KGSBR b 2 1",
                SfenSyntaxError::Hand("\"2\" ends with a count and no piece".into()),
            ),
            (
                "rbsgk/4p/5/P4/KGSBR b - 0",
                SfenSyntaxError::MoveNumber("0".into()),
            ),
            (
                "rbsgk/4p/5/P4/KGSBN b - 1",
                SfenSyntaxError::PieceNotInGame("N".into()),
            ),
            (
                "rbsgk/4p/5/P4/KGSB+G b - 1",
                SfenSyntaxError::PieceNotInGame("+G".into()),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(
                parse_sfen_unchecked::<Minishogi>(text).unwrap_err(),
                *expected,
                "{text}"
            );
            assert_eq!(
                parse_sfen::<Minishogi>(text).unwrap_err(),
                SfenError::Syntax(expected.clone()),
                "{text}"
            );
        }
    }

    #[test]
    fn impossible_positions_are_told_apart_from_bad_text() {
        let cases: &[(&str, SfenError)] = &[
            (
                "rbsgk/4p/5/P4/KGSBR b P 1",
                setup(
                    Variant::Minishogi,
                    SetupProblem::TooManyPieces {
                        role: Role::Pawn,
                        found: 3,
                        most: 2,
                    },
                ),
            ),
            (
                "rbsgk/4p/5/P4/KGSBK b - 1",
                setup(Variant::Minishogi, SetupProblem::TooManyKings(Color::Sente)),
            ),
            (
                "rbsPk/4p/5/5/KGSBR b - 1",
                setup(
                    Variant::Minishogi,
                    SetupProblem::DeadPiece {
                        square: "2a".parse().unwrap(),
                        role: Role::Pawn,
                    },
                ),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(
                parse_sfen::<Minishogi>(text).unwrap_err(),
                *expected,
                "{text}"
            );
        }
        assert_eq!(
            parse_sfen::<Shogi>("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1").unwrap_err(),
            setup(
                Variant::Shogi,
                SetupProblem::TwoPawnsOnFile(Color::Sente, 4)
            )
        );
        assert!(parse_sfen::<Shogi>("4k4/9/9/9/9/9/9/9/4K3R b - 1").is_ok());
        assert!(parse_sfen::<Shogi>("4k4/9/9/9/9/9/9/9/4K3R w - 1").is_ok());
        assert_eq!(
            parse_sfen::<Shogi>("4k4/9/9/9/9/9/9/9/4R3K b - 1").unwrap_err(),
            setup(Variant::Shogi, SetupProblem::OpponentInCheck(Color::Gote))
        );
    }
}
