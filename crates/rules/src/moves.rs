//! Moves, lists of moves, and sets of moves sharing an origin.

use crate::bitboard::Bitboard;
use crate::role::Role;
use crate::square::Square;
use arrayvec::ArrayVec;
use std::fmt;

/// A move in any Koma game. Pawns-Only Chess uses only `Board` moves without
/// promotion (an en passant capture is a board move to the passed square).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece moves on the board, promoting or not.
    Board {
        /// Where it stands.
        from: Square,
        /// Where it goes (capturing what stands there).
        to: Square,
        /// Whether it promotes.
        promote: bool,
    },
    /// A piece is put from the hand onto an empty square.
    Drop {
        /// The unpromoted role dropped.
        role: Role,
        /// Where.
        to: Square,
    },
}

impl Move {
    /// The target square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        match self {
            Move::Board { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square of a board move.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Board { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Board { promote: true, .. })
    }

    /// Whether it is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// A 16-bit code, unique per move, for compact tables: bits 0-6 the
    /// target, bits 7-13 the origin (81 + role index for a drop), bit 14 the
    /// promotion.
    pub const fn to_u16(self) -> u16 {
        match self {
            Move::Board { from, to, promote } => {
                to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14
            }
            Move::Drop { role, to } => to.index() as u16 | (81 + role.index() as u16) << 7,
        }
    }

    /// Decodes [`Move::to_u16`]; `None` for codes it never produces.
    pub const fn from_u16(code: u16) -> Option<Move> {
        let Some(to) = Square::new((code & 0x7f) as u8) else {
            return None;
        };
        let origin = ((code >> 7) & 0x7f) as u8;
        let promote = code >> 14 & 1 == 1;
        if code >> 15 != 0 {
            return None;
        }
        if origin < 81 {
            Some(Move::Board {
                from: Square::new_unchecked(origin),
                to,
                promote,
            })
        } else if origin < 81 + 8 && !promote {
            Some(Move::Drop {
                role: Role::from_index((origin - 81) as usize),
                to,
            })
        } else {
            None
        }
    }
}

impl fmt::Debug for Move {
    /// USI text, whatever the game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Board { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { role, to } => write!(f, "{}*{to}", role.letter()),
        }
    }
}

/// Upper bound on legal moves in any Koma position (shogi's record is 593).
pub const MAX_MOVES: usize = 600;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Moves that share a piece and origin (or a dropped role), as sets of target
/// squares: the unit the generators hand out, so counting needs no list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// Board moves of one piece.
    Board {
        /// The moving piece's role.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Every target.
        to: Bitboard,
        /// Targets where it may promote or not (two moves each).
        promote_optional: Bitboard,
        /// Targets where it must promote.
        promote_forced: Bitboard,
    },
    /// Drops of one role.
    Drop {
        /// The role dropped.
        role: Role,
        /// Every target.
        to: Bitboard,
    },
}

impl MoveSet {
    /// How many moves the set stands for.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match self {
            MoveSet::Board {
                to,
                promote_optional,
                ..
            } => (to.count() + promote_optional.count()) as usize,
            MoveSet::Drop { to, .. } => to.count() as usize,
        }
    }

    /// Whether the set stands for no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        match self {
            MoveSet::Board { to, .. } | MoveSet::Drop { to, .. } => to.is_empty(),
        }
    }

    /// Calls `f` with each move of the set.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        match *self {
            MoveSet::Board {
                from,
                to,
                promote_optional,
                promote_forced,
                ..
            } => {
                // Most sets promote nothing: their moves need no test of
                // each target.
                if (promote_forced | promote_optional).is_empty() {
                    for target in to {
                        f(Move::Board {
                            from,
                            to: target,
                            promote: false,
                        });
                    }
                    return;
                }
                for target in to {
                    if promote_forced.contains(target) {
                        f(Move::Board {
                            from,
                            to: target,
                            promote: true,
                        });
                    } else {
                        f(Move::Board {
                            from,
                            to: target,
                            promote: false,
                        });
                        if promote_optional.contains(target) {
                            f(Move::Board {
                                from,
                                to: target,
                                promote: true,
                            });
                        }
                    }
                }
            }
            MoveSet::Drop { role, to } => {
                for target in to {
                    f(Move::Drop { role, to: target });
                }
            }
        }
    }

    /// Whether `m` is one of the set's moves.
    pub fn contains(&self, m: Move) -> bool {
        match (*self, m) {
            (
                MoveSet::Board {
                    from,
                    to,
                    promote_optional,
                    promote_forced,
                    ..
                },
                Move::Board {
                    from: f,
                    to: t,
                    promote,
                },
            ) => {
                from == f
                    && to.contains(t)
                    && if promote {
                        (promote_optional | promote_forced).contains(t)
                    } else {
                        !promote_forced.contains(t)
                    }
            }
            (MoveSet::Drop { role, to }, Move::Drop { role: r, to: t }) => {
                role == r && to.contains(t)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u16_codes_round_trip() {
        for from in Square::all() {
            for to in [Square::new_unchecked(0), Square::new_unchecked(80), from] {
                for promote in [false, true] {
                    let m = Move::Board { from, to, promote };
                    assert_eq!(Move::from_u16(m.to_u16()), Some(m));
                }
            }
        }
        for role in Role::HAND {
            let m = Move::Drop {
                role,
                to: Square::new_unchecked(40),
            };
            assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        }
        assert_eq!(Move::from_u16(0xffff), None);
    }
}
