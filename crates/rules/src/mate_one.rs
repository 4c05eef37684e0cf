//! A mate in one, found by playing only the checks that could mate. A
//! search that asks each new node for one (YaneuraOu's does) asks most of
//! them a ply or two above its horizon, where a node is cheap and playing
//! every check to look for a reply is not.

use crate::attacks::{attacks, between, king_attacks, line};
use crate::bitboard::Bitboard;
use crate::checks::CheckSquares;
use crate::moves::Move;
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::square::Square;

/// The roles that can be dropped on any empty square: holding one, the
/// defender blocks any check from afar.
const DROPPED_ANYWHERE: [Role; 4] = [Role::Gold, Role::Silver, Role::Bishop, Role::Rook];

impl<V: ShogiVariant> ShogiPosition<V> {
    /// The first move, in [`Self::generate_checks`]' order, that
    /// checkmates, if any. A pawn drop that would mate is not a legal move,
    /// so it is never the answer. `None` where kings are captured (Spear),
    /// which has no checkmate.
    ///
    /// A check is played, and the defender's replies looked for, only if
    /// it could mate: if it takes every square the king can now flee to,
    /// and a check from afar by one piece cannot be blocked by a drop.
    ///
    /// ```
    /// use koma_rules::{Position, StandardShogiPosition};
    /// // The cornered king, its knight beside it, a gold two squares below.
    /// let gold = StandardShogiPosition::from_text("7nk/9/7G1/9/9/9/9/9/4K4 b G 1").unwrap();
    /// let mated = gold.play(gold.mate_in_one().unwrap()).unwrap();
    /// assert!(mated.legal_moves().is_empty());
    /// // A pawn dropped there would mate, which the rules forbid.
    /// let pawn = StandardShogiPosition::from_text("7nk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
    /// assert_eq!(pawn.mate_in_one(), None);
    /// ```
    pub fn mate_in_one(&self) -> Option<Move> {
        if V::KINGS_ARE_CAPTURED {
            return None;
        }
        let us = self.turn();
        let king = self.king(!us)?;
        let squares = self.check_squares();
        // The king is no blocker: a check along a line also takes the
        // squares behind it.
        let blockers = self.blockers().without(king);
        let blocks_by_drop = DROPPED_ANYWHERE
            .iter()
            .any(|&role| self.hand(!us).count(role) > 0);
        // Found at the first check, not at a node that has none.
        let mut flights = None;
        let mut mate = None;
        self.generate_checks_with(&squares, |m| {
            // The squares the king can step to now.
            let flights = *flights.get_or_insert_with(|| {
                let steps = king_attacks(king) & V::BOARD & !self.by_color(!us);
                self.king_steps_safe_from(king, steps, us)
            });
            if !self.could_mate(m, king, flights, blockers, blocks_by_drop, &squares) {
                return false;
            }
            let mut child = *self;
            child.play_unchecked(m);
            if child.has_legal_move() {
                false
            } else {
                mate = Some(m);
                true
            }
        });
        mate
    }

    /// Whether the check `m` may leave the king on `king` no reply, as far
    /// as a few square tests tell: `false` only if it surely leaves one.
    /// `flights` are the squares the king can flee to before the move,
    /// `blockers` the occupancy without the king, and `blocks_by_drop`
    /// whether the defender holds a piece it can drop on any empty square.
    fn could_mate(
        &self,
        m: Move,
        king: Square,
        flights: Bitboard,
        blockers: Bitboard,
        blocks_by_drop: bool,
        squares: &CheckSquares,
    ) -> bool {
        let to = m.to();
        let from = m.from();
        let uncovers = from.is_some_and(|from| squares.uncovers_check(king, from, to));
        // A lone check from afar: a drop between blocks it.
        if blocks_by_drop && !uncovers && between(to, king).any() {
            return false;
        }
        let Some(role) = self.role_after(m) else {
            return false;
        };
        let after = match from {
            Some(from) => blockers.without(from).with(to),
            None => blockers.with(to),
        };
        // Next to the king, a piece nothing of ours guards is taken by it.
        // (`attackers_to` leaves out pieces off `after`: the mover is.)
        if king_attacks(king).contains(to)
            && (self.attackers_to(to, after) & self.by_color(self.turn())).is_empty()
        {
            return false;
        }
        // The square the piece stands on is taken: the king can only take
        // it back, which the test above or playing the move tells.
        let taken = attacks(V::SPEC.movement(role), self.turn(), to, after).with(to);
        for flight in flights & !taken {
            // Only a line through the square the piece left can newly
            // reach a flight; the piece itself still counts from there,
            // which can only call a flight taken that is not.
            let opened = from.is_some_and(|from| {
                line(from, flight).any() && self.is_attacked(flight, self.turn(), after)
            });
            if !opened {
                return false;
            }
        }
        true
    }
}
