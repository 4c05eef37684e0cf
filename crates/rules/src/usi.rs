//! USI move notation (`7g7f`, `8h2b+`, `P*5e`) and the [`Position`]
//! implementation of the shogi family.

use crate::color::Color;
use crate::declaration::{Declaration, ImpasseRule};
use crate::moves::{Move, MoveList};
use crate::outcome::Outcome;
use crate::position::{IllegalReason, Position};
use crate::role::Role;
use crate::sfen::{parse_sfen, write_sfen};
use crate::sfen_error::SfenError;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::spec::PromotionRule;
use crate::square::Square;
use crate::variant::Variant;
use std::fmt;

/// A text that is not a USI move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiMoveError(pub String);

impl fmt::Display for UsiMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a USI move: expected a board move like 7g7f or 8h2b+ (the + promotes) or a drop like P*5e",
            self.0
        )
    }
}

impl std::error::Error for UsiMoveError {}

/// Parses a USI move, context-free.
///
/// ```
/// use koma_rules::{parse_usi_move, Move, Role};
/// let drop = parse_usi_move("P*5e").unwrap();
/// assert_eq!(drop, Move::Drop { role: Role::Pawn, to: "5e".parse().unwrap() });
/// assert!(parse_usi_move("+P*5e").is_err());
/// ```
pub fn parse_usi_move(text: &str) -> Result<Move, UsiMoveError> {
    let error = || UsiMoveError(text.to_owned());
    let bytes = text.as_bytes();
    match bytes {
        [letter, b'*', to @ ..] if to.len() == 2 => {
            let role = Role::from_letter(*letter as char)
                .filter(|_| letter.is_ascii_uppercase())
                .ok_or_else(error)?;
            let to = text[2..].parse::<Square>().map_err(|_| error())?;
            Ok(Move::Drop { role, to })
        }
        _ if (bytes.len() == 4 || bytes.len() == 5) && text.is_ascii() => {
            let promote = match bytes.get(4) {
                None => false,
                Some(b'+') => true,
                Some(_) => return Err(error()),
            };
            let from = text[0..2].parse::<Square>().map_err(|_| error())?;
            let to = text[2..4].parse::<Square>().map_err(|_| error())?;
            Ok(Move::Board { from, to, promote })
        }
        _ => Err(error()),
    }
}

/// Writes a move in USI notation.
pub fn write_usi_move(m: Move) -> String {
    format!("{m:?}")
}

impl<V: ShogiVariant> ShogiPosition<V> {
    /// Why `m` is illegal, found by checking each rule in turn.
    fn diagnose(&self, m: Move) -> IllegalReason {
        let us = self.turn();
        if V::outcome(self).is_some() {
            return IllegalReason::GameOver;
        }
        match m {
            Move::Board { from, to, promote } => {
                if !V::BOARD.contains(from) || !V::BOARD.contains(to) {
                    return IllegalReason::OffBoard;
                }
                let Some(piece) = self.piece_at(from) else {
                    return IllegalReason::NoPiece;
                };
                if piece.color != us {
                    return IllegalReason::NotYourPiece;
                }
                if from == to {
                    return IllegalReason::NullMove;
                }
                if self.by_color(us).contains(to) {
                    return IllegalReason::OwnPiece;
                }
                if !self.attacks_from(piece.role, us, from).contains(to) {
                    return IllegalReason::CannotReach;
                }
                let target = crate::Bitboard::from_square(to);
                if let crate::MoveSet::Board {
                    promote_optional,
                    promote_forced,
                    ..
                } = self.promotion_split(piece.role, from, target)
                {
                    if promote && (promote_optional | promote_forced).is_empty() {
                        return IllegalReason::CannotPromote;
                    }
                    if !promote && promote_forced.any() {
                        return IllegalReason::MustPromote;
                    }
                }
                IllegalReason::LeavesKingInCheck
            }
            Move::Drop { role, to } => {
                if !V::BOARD.contains(to) {
                    return IllegalReason::OffBoard;
                }
                if !V::SPEC.hand_roles.contains(&role) {
                    return IllegalReason::NotDroppable;
                }
                if self.hand(us).count(role) == 0 {
                    return IllegalReason::NotInHand;
                }
                if self.occupied().contains(to) {
                    return IllegalReason::SquareOccupied;
                }
                if V::SPEC.promotion == PromotionRule::Optional {
                    let immobile = V::SPEC.movement(role).immobile_ranks();
                    if V::SPEC.far_ranks(us, immobile).contains(to) {
                        return IllegalReason::DeadDrop;
                    }
                    if role == Role::Pawn
                        && self
                            .pieces(us, Role::Pawn)
                            .iter()
                            .any(|pawn| pawn.file() == to.file())
                    {
                        return IllegalReason::TwoPawns;
                    }
                }
                if self.checkers().any() {
                    IllegalReason::LeavesKingInCheck
                } else {
                    IllegalReason::PawnDropMate
                }
            }
        }
    }
}

impl<V: ShogiVariant> Position for ShogiPosition<V> {
    const VARIANT: Variant = V::VARIANT;
    type SetupError = SfenError;
    type MoveSyntaxError = UsiMoveError;

    fn start() -> Self {
        ShogiPosition::start()
    }

    fn impasse_declaration(&self, rule: ImpasseRule) -> Declaration {
        ShogiPosition::impasse_declaration(self, rule)
    }

    fn from_text(text: &str) -> Result<Self, SfenError> {
        parse_sfen(text)
    }

    fn to_text(&self) -> String {
        write_sfen(self)
    }

    fn validate(&self) -> Result<(), crate::SetupError> {
        ShogiPosition::validate(self)
    }

    fn turn(&self) -> Color {
        ShogiPosition::turn(self)
    }

    fn hash(&self) -> u64 {
        ShogiPosition::hash(self)
    }

    fn is_check(&self) -> bool {
        V::is_check(self)
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        self.generate(|set| {
            set.for_each(|m| moves.push(m));
            false
        });
    }

    fn count_legal_moves(&self) -> u64 {
        ShogiPosition::count_legal_moves(self)
    }

    fn play_unchecked(&mut self, m: Move) {
        ShogiPosition::play_unchecked(self, m)
    }

    fn outcome(&self) -> Option<Outcome> {
        V::outcome(self)
    }

    fn parse_move_syntax(text: &str) -> Result<Move, UsiMoveError> {
        parse_usi_move(text)
    }

    fn move_to_text(m: Move) -> String {
        write_usi_move(m)
    }

    fn why_illegal(&self, m: Move) -> Option<IllegalReason> {
        if V::is_legal(self, m) {
            None
        } else {
            Some(self.diagnose(m))
        }
    }

    fn is_legal(&self, m: Move) -> bool {
        V::is_legal(self, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_moves_round_trip() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "9i1a"] {
            assert_eq!(write_usi_move(parse_usi_move(text).unwrap()), text);
        }
        for bad in [
            "", "7g", "7g7f=", "7g7f++", "p*5e", "+P*5e", "X*5e", "P*5", "7g7j", "0a1a", "７g7f",
        ] {
            assert!(parse_usi_move(bad).is_err(), "{bad}");
        }
    }
}
