//! The legal moves that give check, found without generating the rest: a
//! search asks for them at every node that looks for a mate in one, and at
//! the horizon, where it tries quiet checks.

use crate::attacks::{attacks, king_attacks, line};
use crate::bitboard::Bitboard;
use crate::movegen::legal_drop_squares;
use crate::moves::{Move, MoveSet};
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::square::Square;

impl<V: ShogiVariant> ShogiPosition<V> {
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
    pub fn generate_checks<F: FnMut(Move) -> bool>(&self, mut listener: F) -> bool {
        let us = self.turn();
        let Some(enemy_king) = self.king(!us) else {
            return false;
        };
        let own_king = match self.king(us) {
            Some(king) if !V::KINGS_ARE_CAPTURED && self.checkers().is_empty() => king,
            // Evasions, Spear, and a kingless attacker (a mate problem) are
            // rare at a search's nodes: the full list, filtered, serves.
            _ => {
                return self.generate(|set| self.checks_among(set, &mut listener));
            }
        };
        let blockers = self.blockers();
        let own = self.by_color(us);
        let discoverers = self.discovered_checkers(enemy_king);

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

        for &role in V::SPEC.board_roles {
            if role == Role::King {
                continue;
            }
            let movement = V::SPEC.movement(role);
            // The squares from which the piece, promoted or not, attacks
            // the king: those a piece of the other colour reaches from the
            // king's square. The square the piece leaves still blocks
            // here, and rightly: if it stood between its target and the
            // king, the piece came along that line, so it would have had
            // the king in check already.
            let direct = attacks(movement, !us, enemy_king, blockers);
            let direct_promoted = role.promoted().map_or(Bitboard::EMPTY, |promoted| {
                attacks(V::SPEC.movement(promoted), !us, enemy_king, blockers)
            });
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
            let checking = attacks(V::SPEC.movement(role), !us, enemy_king, blockers) & empty;
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
    fn checks_among<F: FnMut(Move) -> bool>(&self, set: MoveSet, listener: &mut F) -> bool {
        Self::each_move(set, &mut |m| self.gives_check(m) && listener(m))
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
