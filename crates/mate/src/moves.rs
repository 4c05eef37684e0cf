//! What each side may play in a mate problem: the attacker only checks,
//! the defender anything legal. In Spear, where kings are captured rather
//! than protected by the rule of check, a "check" is a move after which the
//! defender's king could be taken, and the mate is the taking.

use koma_rules::{attacks, between, Bitboard, Color, Move, Role, ShogiPosition, ShogiVariant};

/// Whether `color`'s king stands attacked by the other side.
pub fn king_attacked<V: ShogiVariant>(position: &ShogiPosition<V>, color: Color) -> bool {
    if !V::KINGS_ARE_CAPTURED && position.turn() == color {
        return position.checkers().any();
    }
    position
        .king(color)
        .is_some_and(|king| position.is_attacked(king, !color, position.blockers()))
}

/// The side to move's capture of the enemy king, if it has one (Spear).
pub fn king_capture<V: ShogiVariant>(position: &ShogiPosition<V>) -> Option<Move> {
    let us = position.turn();
    let king = position.king(!us)?;
    let mut capture = None;
    position.generate_captures(|set| {
        if let Some(m) = set_move_to(set, king) {
            capture = Some(m);
            return true;
        }
        false
    });
    capture
}

/// The move of `set` onto `to`, if the set holds one (without promotion
/// where it may choose).
fn set_move_to(set: koma_rules::MoveSet, to: koma_rules::Square) -> Option<Move> {
    let mut found = None;
    set.for_each(|m| {
        if m.to() == to && found.is_none() {
            found = Some(m);
        }
    });
    found
}

/// The attacker's pieces that stand alone between one of its sliders and
/// the enemy king on `king`: moving one off the line checks by discovery.
fn discoverers<V: ShogiVariant>(position: &ShogiPosition<V>, king: koma_rules::Square) -> Bitboard {
    let us = position.turn();
    let occupied = position.occupied();
    let ours = position.by_color(us);
    let mut found = Bitboard::EMPTY;
    for &role in V::SPEC.board_roles {
        if !matches!(
            role,
            Role::Lance | Role::Bishop | Role::Rook | Role::Horse | Role::Dragon
        ) {
            continue;
        }
        let movement = V::SPEC.movement(role);
        for slider in position.pieces(us, role) {
            if !attacks(movement, us, slider, V::OFF_BOARD).contains(king) {
                continue;
            }
            let blocking = between(king, slider) & occupied;
            if !blocking.is_empty() && !blocking.has_more_than_one() && (blocking & ours).any() {
                found |= blocking;
            }
        }
    }
    found
}

/// Appends the attacker's (the side to move's) checking moves to `out`,
/// each with the position it leads to.
pub fn checks<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    out: &mut Vec<(Move, ShogiPosition<V>)>,
) {
    let us = position.turn();
    let Some(king) = position.king(!us) else {
        return;
    };
    let discovering = discoverers(position, king);
    let blockers = position.blockers();
    position.generate(|set| {
        set.for_each(|m| {
            // By discovery, or directly from the target square with the
            // origin square emptied.
            let to = m.to();
            let discovered = m.from().is_some_and(|from| discovering.contains(from));
            let after = m
                .from()
                .map_or(blockers, |from| blockers.without(from))
                .with(to);
            let could_check = discovered
                || position.role_after(m).is_some_and(|role| {
                    attacks(V::SPEC.movement(role), us, to, after).contains(king)
                });
            if could_check {
                let mut next = *position;
                next.play_unchecked(m);
                if king_attacked(&next, !us) {
                    out.push((m, next));
                }
            }
        });
        false
    });
}

/// Appends every legal move of the defender (the side to move) to `out`,
/// each with the position it leads to.
pub fn defences<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    out: &mut Vec<(Move, ShogiPosition<V>)>,
) {
    position.generate(|set| {
        set.for_each(|m| {
            let mut next = *position;
            next.play_unchecked(m);
            out.push((m, next));
        });
        false
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Position, SpearPosition, StandardShogiPosition};

    fn texts<V: ShogiVariant>(moves: &[(Move, ShogiPosition<V>)]) -> Vec<String> {
        let mut texts: Vec<String> = moves
            .iter()
            .map(|(m, _)| koma_rules::write_usi_move(*m))
            .collect();
        texts.sort();
        texts
    }

    /// Every legal move after which the enemy king is attacked, found the
    /// slow way.
    fn checks_by_trial<V: ShogiVariant>(position: &ShogiPosition<V>) -> Vec<String> {
        let us = position.turn();
        let mut all = Vec::new();
        defences(position, &mut all);
        all.retain(|(_, next)| king_attacked(next, !us));
        texts(&all)
    }

    #[test]
    fn checks_are_every_move_that_attacks_the_king() {
        for sfen in [
            // Direct checks, drops and a discovered check by the lance.
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            "3k5/9/3N5/9/3L5/9/9/9/4K4 b BGSNLP 1",
            // The tsume of testdata/records/tsumeshogi.csa, no attacker king.
            "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        ] {
            let position = StandardShogiPosition::from_text(sfen).unwrap();
            let mut found = Vec::new();
            checks(&position, &mut found);
            assert_eq!(texts(&found), checks_by_trial(&position), "{sfen}");
            assert!(!found.is_empty(), "{sfen}");
        }
    }

    #[test]
    fn a_spear_king_next_to_an_enemy_piece_can_be_taken() {
        let position = SpearPosition::from_text("4k/3G1/5/5/K4 b - 1").unwrap();
        let capture = king_capture(&position).expect("the gold takes the king");
        assert_eq!(koma_rules::write_usi_move(capture), "2b1a");
        assert!(king_attacked(&position, Color::Gote));
    }
}
