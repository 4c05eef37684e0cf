//! The legal moves that give check, found without generating the rest: a
//! search asks for them at every node that looks for a mate in one, and at
//! the horizon, where it tries quiet checks.

use crate::attacks::{attacks, king_attacks, line, Movement};
use crate::bitboard::Bitboard;
use crate::movegen::legal_drop_squares;
use crate::moves::{Move, MoveSet};
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::square::Square;

/// What telling whether a move gives check needs, found once for a
/// position (Stockfish's `CheckInfo`): a search asks it of most moves it
/// looks at, and each then costs a piece look-up and two square tests.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// The opponent's king; `None` if it has none (or where kings are
    /// captured, which tells threats by playing the move).
    king: Option<Square>,
    /// For each role, the squares from which a piece of the side to move
    /// standing as that role attacks the king.
    direct: [Bitboard; Role::NUM],
    /// The side to move's pieces that alone stand between one of its
    /// sliders and the king: moving one off that line gives check.
    discoverers: Bitboard,
}

impl CheckSquares {
    /// Whether a piece moving from `from` to `to` opens a line from one of
    /// the side to move's sliders to `king` (this struct's king).
    #[inline(always)]
    pub(crate) fn uncovers_check(&self, king: Square, from: Square, to: Square) -> bool {
        self.discoverers.contains(from) && !line(king, from).contains(to)
    }
}

impl<V: ShogiVariant> ShogiPosition<V> {
    /// The squares and pieces from which the side to move checks the
    /// opponent's king, for [`Self::gives_check_with`].
    pub fn check_squares(&self) -> CheckSquares {
        let mut squares = CheckSquares {
            king: None,
            direct: [Bitboard::EMPTY; Role::NUM],
            discoverers: Bitboard::EMPTY,
        };
        if V::KINGS_ARE_CAPTURED {
            return squares;
        }
        let us = self.turn();
        let Some(king) = self.king(!us) else {
            return squares;
        };
        squares.king = Some(king);
        let blockers = self.blockers();
        // A piece attacks the king from exactly the squares that a piece of
        // the other colour on the king's square attacks (every pattern is
        // symmetric). The square a moving piece leaves still blocks here,
        // and rightly: had it stood between its target and the king, the
        // piece came along that line and would have had the king in check
        // already. Written out a movement at a time, so that the game's
        // movements fold away and each has its own code.
        macro_rules! each_movement {
            ($($movement:ident)*) => {$(
                let roles = V::MOVEMENT_ROLES[Movement::$movement as usize];
                if roles != 0 {
                    let attacked = attacks(Movement::$movement, !us, king, blockers);
                    for role in 0..Role::NUM {
                        if roles & (1 << role) != 0 {
                            squares.direct[role] = attacked;
                        }
                    }
                }
            )*};
        }
        each_movement!(Pawn Lance Knight Silver Gold King Bishop Rook Horse Dragon ForwardBishop TwoStep);
        squares.discoverers = self.discovered_checkers(king);
        squares
    }

    /// Whether `m`, legal here, gives check, told from `squares` (this
    /// position's [`Self::check_squares`]): where the piece stands after
    /// it, or the line it leaves. In Spear, whether it threatens the king.
    #[inline]
    pub fn gives_check_with(&self, squares: &CheckSquares, m: Move) -> bool {
        if V::KINGS_ARE_CAPTURED {
            // Spear keeps no checkers up to date, so playing the move on a
            // copy and tracing attacks on the king is the cheaper way there.
            let us = self.turn();
            let mut child = *self;
            child.play_unchecked(m);
            return child
                .king(!us)
                .is_some_and(|king| child.is_attacked(king, us, child.blockers()));
        }
        let Some(king) = squares.king else {
            return false;
        };
        let Some(standing) = self.role_after(m) else {
            return false;
        };
        if squares.direct[standing.index()].contains(m.to()) {
            return true;
        }
        // Nothing of ours attacked the king before the move (it would be
        // in check on our turn): only a line the moved piece opened can.
        match m {
            Move::Board { from, to, .. } => squares.uncovers_check(king, from, to),
            Move::Drop { .. } => false,
        }
    }

    /// Calls `listener` with each legal move that gives check until it
    /// returns `true`; returns whether it did. The moves, and their order,
    /// are those of [`Self::generate`] for which [`Self::gives_check`]
    /// holds. In Spear, the moves that threaten the king.
    ///
    /// ```
    /// use koma_rules::{Position, StandardShogiPosition};
    /// let position = StandardShogiPosition::from_text("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    /// let mut checks = Vec::new();
    /// position.generate_checks(|m| {
    ///     checks.push(StandardShogiPosition::move_to_text(m));
    ///     false
    /// });
    /// assert_eq!(checks, ["5c5b", "5c5b+", "G*4a", "G*4b", "G*5b", "G*6a", "G*6b"]);
    /// ```
    pub fn generate_checks<F: FnMut(Move) -> bool>(&self, listener: F) -> bool {
        self.generate_checks_with(&self.check_squares(), listener)
    }

    /// [`Self::generate_checks`], with this position's
    /// [`Self::check_squares`] found already.
    pub(crate) fn generate_checks_with<F: FnMut(Move) -> bool>(
        &self,
        squares: &CheckSquares,
        mut listener: F,
    ) -> bool {
        let us = self.turn();
        let Some(enemy_king) = self.king(!us) else {
            return false;
        };
        let own_king = match self.king(us) {
            Some(king) if !V::KINGS_ARE_CAPTURED && self.checkers().is_empty() => king,
            // Evasions, Spear, and a kingless attacker (a mate problem) are
            // rare at a search's nodes: the full list, filtered, serves.
            _ => {
                return self.generate(|set| self.checks_among(squares, set, &mut listener));
            }
        };
        let own = self.by_color(us);
        let discoverers = squares.discoverers;

        // A king gives check only by uncovering a line, on leaving it.
        if discoverers.contains(own_king) {
            let off_line = !line(enemy_king, own_king);
            let safe = self.safe_king_steps(
                own_king,
                king_attacks(own_king) & V::BOARD & !own & off_line,
            );
            if safe.any() && Self::each_move(Self::king_moves(own_king, safe), &mut listener) {
                return true;
            }
        }

        let blockers = self.blockers();
        for &role in V::SPEC.board_roles {
            if role == Role::King {
                continue;
            }
            let movement = V::SPEC.movement(role);
            // Where the piece, promoted or not, attacks the king.
            let direct = squares.direct[role.index()];
            let direct_promoted = role
                .promoted()
                .map_or(Bitboard::EMPTY, |promoted| squares.direct[promoted.index()]);
            for from in self.pieces(us, role) {
                let uncovered = if discoverers.contains(from) {
                    !line(enemy_king, from)
                } else {
                    Bitboard::EMPTY
                };
                let mut to = attacks(movement, us, from, blockers)
                    & !own
                    & V::BOARD
                    & (direct | direct_promoted | uncovered);
                if self.pinned().contains(from) {
                    to &= line(own_king, from);
                }
                if to.is_empty() {
                    continue;
                }
                let moves = self.promotion_split(role, from, to);
                if Self::each_move(moves, &mut |m| {
                    let promotes = matches!(m, Move::Board { promote: true, .. });
                    let checking = uncovered | if promotes { direct_promoted } else { direct };
                    checking.contains(m.to()) && listener(m)
                }) {
                    return true;
                }
            }
        }

        let empty = !self.occupied() & V::BOARD;
        let hand = self.hand(us);
        for &role in V::SPEC.hand_roles {
            if hand.count(role) == 0 {
                continue;
            }
            // A dropped piece moves nothing out of a line: it checks
            // exactly where it attacks the king.
            let checking = squares.direct[role.index()] & empty;
            for to in legal_drop_squares(self, role, checking) {
                if listener(Move::Drop { role, to }) {
                    return true;
                }
            }
        }
        false
    }

    /// Passes each move of `set` to `listener` until it returns `true`;
    /// returns whether it did.
    fn each_move<F: FnMut(Move) -> bool>(set: MoveSet, listener: &mut F) -> bool {
        let mut stopped = false;
        set.for_each(|m| {
            if !stopped {
                stopped = listener(m);
            }
        });
        stopped
    }

    /// Passes the moves of `set` that give check to `listener` until it
    /// returns `true`; returns whether it did. For the rare positions that
    /// take the full list; the others know their checking squares.
    fn checks_among<F: FnMut(Move) -> bool>(
        &self,
        squares: &CheckSquares,
        set: MoveSet,
        listener: &mut F,
    ) -> bool {
        Self::each_move(set, &mut |m| {
            self.gives_check_with(squares, m) && listener(m)
        })
    }

    /// The side to move's pieces that alone stand between one of its
    /// sliders and `enemy_king`: moving one off the line gives check.
    fn discovered_checkers(&self, enemy_king: Square) -> Bitboard {
        let us = self.turn();
        let (_, snipers) = self.near_attackers_and_snipers(enemy_king, us, self.blockers());
        let (_, lone_blockers) = self.lone_blockers(enemy_king, snipers);
        lone_blockers & self.by_color(us)
    }
}
