//! What each side may play in a mate problem: the attacker only checks,
//! the defender anything legal. In Spear, where kings are captured rather
//! than protected by the rule of check, a "check" is a move after which the
//! defender's king could be taken, and the mate is the taking.

use koma_rules::{
    attacks, between, Bitboard, Color, Move, MoveSet, Role, ShogiPosition, ShogiVariant,
};

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

/// The attacker's pieces that stand alone between one of its pieces and
/// the enemy king on `king`, on a line the piece would attack along were
/// it open: moving one off the line checks by discovery. Every role is
/// looked at, not only shogi's sliders: Spear's promoted lance slides as a
/// rook, and its promoted silver's two-square step is blocked by a piece
/// between. (A piece that steps or jumps has no square between it and what
/// it attacks.)
fn discoverers<V: ShogiVariant>(position: &ShogiPosition<V>, king: koma_rules::Square) -> Bitboard {
    let us = position.turn();
    let occupied = position.occupied();
    let ours = position.by_color(us);
    let mut found = Bitboard::EMPTY;
    for &role in V::SPEC.board_roles {
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
    // Only the squares from which the piece (or, promoted, its new role)
    // would attack the king can check, bar a discovery: the king's own
    // attacks by that role, seen from the other side. The sets shrink to
    // those first (a drop's from some 60 squares to a few); each move left
    // is then tested.
    let reach = |role: Role, open: Bitboard| {
        let mut reach = attacks(V::SPEC.movement(role), !us, king, open);
        if let Some(promoted) = role.promoted() {
            reach |= attacks(V::SPEC.movement(promoted), !us, king, open);
        }
        reach
    };
    position.generate(|set| {
        let set = match set {
            MoveSet::Drop { role, to } => MoveSet::Drop {
                role,
                to: to & attacks(V::SPEC.movement(role), !us, king, blockers),
            },
            MoveSet::Board {
                role,
                from,
                to,
                promote_optional,
                promote_forced,
            } if !discovering.contains(from) => {
                let reach = reach(role, blockers.without(from));
                MoveSet::Board {
                    role,
                    from,
                    to: to & reach,
                    promote_optional: promote_optional & reach,
                    promote_forced: promote_forced & reach,
                }
            }
            may_discover => may_discover,
        };
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

    /// Random games biased toward checks and captures, so that the
    /// positions have pieces in hand, promoted pieces and open lines: at
    /// every position the checks are those found the slow way.
    fn checks_match_trial_in_random_games<V: ShogiVariant>(seed: u64, games: usize) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut positions = 0;
        for _ in 0..games {
            let mut position = ShogiPosition::<V>::start();
            for _ in 0..120 {
                // (In Spear a side may leave its king en prise: then the
                // taking ends the mate, and checks are not asked for.)
                let us = position.turn();
                if position.king(!us).is_some() && !king_attacked(&position, !us) {
                    let mut found = Vec::new();
                    checks(&position, &mut found);
                    assert_eq!(
                        texts(&found),
                        checks_by_trial(&position),
                        "{}",
                        position.to_text()
                    );
                    positions += 1;
                }
                let mut all = Vec::new();
                defences(&position, &mut all);
                if all.is_empty() {
                    break;
                }
                let them = !position.turn();
                let forcing: Vec<_> = all
                    .iter()
                    .filter(|(m, next)| {
                        king_attacked(next, them) || position.piece_at(m.to()).is_some()
                    })
                    .collect();
                let next = if !forcing.is_empty() && rng.random_bool(0.6) {
                    forcing[rng.random_range(0..forcing.len())].1
                } else {
                    all[rng.random_range(0..all.len())].1
                };
                if V::KINGS_ARE_CAPTURED
                    && (next.king(Color::Sente).is_none() || next.king(Color::Gote).is_none())
                {
                    break;
                }
                position = next;
            }
        }
        assert!(positions > 1000, "{positions}");
    }

    #[test]
    fn checks_are_every_move_that_attacks_the_king_in_random_games() {
        checks_match_trial_in_random_games::<koma_rules::Shogi>(1, 40);
        checks_match_trial_in_random_games::<koma_rules::Minishogi>(2, 40);
        // Spear's games end soon, a king taken: more of them.
        checks_match_trial_in_random_games::<koma_rules::Spear>(3, 200);
    }

    #[test]
    fn a_spear_king_next_to_an_enemy_piece_can_be_taken() {
        let position = SpearPosition::from_text("4k/3G1/5/5/K4 b - 1").unwrap();
        let capture = king_capture(&position).expect("the gold takes the king");
        assert_eq!(koma_rules::write_usi_move(capture), "2b1a");
        assert!(king_attacked(&position, Color::Gote));
    }
}
