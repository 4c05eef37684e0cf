//! `gives_check` tells, without playing a move, what playing it shows: the
//! opponent's king attacked (in check, or in Spear threatened), on every
//! legal move of positions reached by random play; and `generate_checks`
//! lists exactly those moves, in the order `generate` gives them.

use crate::attackers::attackers_by_definition;
use koma_rules::{Move, Position, ShogiPosition, ShogiVariant};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn gives_check_agrees<V: ShogiVariant>(seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = ShogiPosition::<V>::start();
    for _ in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        for &m in &legal {
            let mut child = position;
            child.play_unchecked(m);
            let attacked = child.king(child.turn()).is_some_and(|king| {
                (attackers_by_definition(&child, king) & child.by_color(!child.turn())).any()
            });
            assert_eq!(
                position.gives_check(m),
                attacked,
                "{} after {m:?} in {}",
                if attacked { "attacked" } else { "safe" },
                position.to_text()
            );
            if !V::KINGS_ARE_CAPTURED {
                assert_eq!(child.checkers().any(), attacked, "checkers agree");
            }
        }
        assert_eq!(
            checks_generated(&position),
            checks_filtered(&position),
            "the checks of {}",
            position.to_text()
        );
        position.play_unchecked(legal[rng.random_range(0..legal.len())]);
    }
}

fn checks_generated<V: ShogiVariant>(position: &ShogiPosition<V>) -> Vec<Move> {
    let mut checks = Vec::new();
    position.generate_checks(|m| {
        checks.push(m);
        false
    });
    checks
}

fn checks_filtered<V: ShogiVariant>(position: &ShogiPosition<V>) -> Vec<Move> {
    let mut checks = Vec::new();
    position.generate(|set| {
        set.for_each(|m| {
            if position.gives_check(m) {
                checks.push(m);
            }
        });
        false
    });
    checks
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn spear_gives_check(seed in any::<u64>()) {
        gives_check_agrees::<koma_rules::Spear>(seed, 80);
    }

    #[test]
    fn minishogi_gives_check(seed in any::<u64>()) {
        gives_check_agrees::<koma_rules::Minishogi>(seed, 80);
    }

    #[test]
    fn shogi_gives_check(seed in any::<u64>()) {
        gives_check_agrees::<koma_rules::Shogi>(seed, 120);
    }
}
