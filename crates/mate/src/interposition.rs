//! Useless interpositions (無駄合): a defender's drop between the king and
//! a distant checker that the checker simply takes, after which the mate
//! goes on as if the piece had never been dropped. Problems do not count
//! such a drop or its capture, so a search bounded by depth lets the drop
//! stand for the position after the capture (without the piece in the
//! attacker's hand) at the node's own depth.
//!
//! Whether a drop is useless is itself a search. Rather than run it for
//! every drop as soon as a node is expanded, the drop's child stands for
//! the capture first; only when that is disproven does the child become
//! the drop itself, a real answer searched one ply deeper.

use koma_rules::{between, Color, Move, Position, Role, ShogiPosition, ShogiVariant};

/// What a drop that might be a useless interposition still has to try.
pub struct Interposition<V: ShogiVariant> {
    /// The position after the drop itself: the child once no capture is
    /// left to stand for it.
    pub dropped: ShogiPosition<V>,
    /// A second way to take the piece (a lance may take with or without
    /// promotion), tried if the first is disproven.
    pub other_capture: Option<Move>,
}

/// For a defender's drop `m` in `position` (leading to `dropped`) between
/// the king and a single distant checker: the checker's captures of the
/// piece worth trying, in order. Next to the king, only captures the king
/// cannot take back. A bishop or rook takes promoted when it
/// may (the promoted piece moves as the unpromoted one and more); a lance
/// tries both.
pub fn captures<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    dropped: &ShogiPosition<V>,
) -> [Option<Move>; 2] {
    let Move::Drop { to, .. } = m else {
        return [None, None];
    };
    let checkers = position.checkers();
    let (Some(checker), Some(king)) = (checkers.first(), position.king(position.turn())) else {
        return [None, None];
    };
    if checkers.has_more_than_one() || !between(king, checker).contains(to) {
        return [None, None];
    }
    // Next to the king, an interposition is useless only if the king
    // cannot take the capturing piece back: otherwise the capture costs
    // the attacker its checker, and the drop is a real defence.
    let next_to_king = king.file().abs_diff(to.file()) <= 1 && king.rank().abs_diff(to.rank()) <= 1;
    let take = |promote| {
        let capture = Move::Board {
            from: checker,
            to,
            promote,
        };
        let legal = dropped.is_legal(capture);
        let kept = !next_to_king || {
            let mut captured = *dropped;
            captured.play_unchecked(capture);
            captured.is_attacked(to, !position.turn(), captured.blockers())
        };
        (legal && kept).then_some(capture)
    };
    match dropped.piece_at(checker).map(|p| p.role) {
        Some(Role::Lance) => {
            let [plain, promoted] = [take(false), take(true)];
            if plain.is_some() {
                [plain, promoted]
            } else {
                [promoted, None]
            }
        }
        Some(Role::Bishop | Role::Rook) => [take(true).or_else(|| take(false)), None],
        _ => [take(false), None],
    }
}

/// The position after `capture` of the piece dropped by `m`, with that
/// piece gone from `attacker`'s hand: as if it had never been dropped.
pub fn without_the_piece<V: ShogiVariant>(
    dropped: &ShogiPosition<V>,
    m: Move,
    capture: Move,
    attacker: Color,
) -> ShogiPosition<V> {
    let mut captured = *dropped;
    captured.play_unchecked(capture);
    if let Move::Drop { role, .. } = m {
        let held = captured.hand(attacker).count(role);
        captured.set_hand_count(attacker, role, held.saturating_sub(1));
        captured.refresh();
    }
    captured
}
