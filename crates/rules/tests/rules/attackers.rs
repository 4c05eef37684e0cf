//! `attackers_to` lists exactly the pieces whose moves reach a square, on
//! positions reached by random play, also with pieces taken off the board
//! (as static exchange evaluation does); `blockable_attackers_to` lists
//! exactly those of them that a piece between could block.

use koma_rules::{Bitboard, Position, ShogiPosition, ShogiVariant, Square};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The attackers by definition: every piece whose attack set holds `square`.
pub(crate) fn attackers_by_definition<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    square: Square,
) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    for from in position.occupied() {
        let piece = position
            .piece_at(from)
            .expect("occupied squares hold pieces");
        if position
            .attacks_from(piece.role, piece.color, from)
            .contains(square)
        {
            result.insert(from);
        }
    }
    result
}

/// The pieces on `squares` whose movement a piece between could block.
fn blockable_pieces<V: ShogiVariant>(position: &ShogiPosition<V>, squares: Bitboard) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    for square in squares {
        let piece = position.piece_at(square).expect("attackers are pieces");
        if V::SPEC.movement(piece.role).is_blockable() {
            result.insert(square);
        }
    }
    result
}

fn attackers_agree<V: ShogiVariant>(seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = ShogiPosition::<V>::start();
    for _ in 0..plies {
        let squares: Vec<Square> = (position.occupied() | !position.blockers())
            .iter()
            .collect();
        for &square in &squares {
            assert_eq!(
                position.attackers_to(square, position.blockers()),
                attackers_by_definition(&position, square),
                "attackers of {square:?} in {}",
                position.to_text()
            );
        }
        // Taking a piece off the occupancy is the same as taking it off the
        // board: sliders behind it now reach through.
        let pieces: Vec<Square> = position.occupied().iter().collect();
        let removed = pieces[rng.random_range(0..pieces.len())];
        let mut without = position;
        without.take(removed);
        let mut blockers = position.blockers();
        blockers.remove(removed);
        for &square in &squares {
            let expected = attackers_by_definition(&without, square);
            assert_eq!(
                position.attackers_to(square, blockers),
                expected,
                "attackers of {square:?} without {removed:?} in {}",
                position.to_text()
            );
            assert_eq!(
                position.blockable_attackers_to(square, blockers),
                blockable_pieces(&without, expected),
                "blockable attackers of {square:?} without {removed:?} in {}",
                position.to_text()
            );
        }
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        position.play_unchecked(legal[rng.random_range(0..legal.len())]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn spear_attackers(seed in any::<u64>()) {
        attackers_agree::<koma_rules::Spear>(seed, 80);
    }

    #[test]
    fn minishogi_attackers(seed in any::<u64>()) {
        attackers_agree::<koma_rules::Minishogi>(seed, 80);
    }

    #[test]
    fn shogi_attackers(seed in any::<u64>()) {
        attackers_agree::<koma_rules::Shogi>(seed, 120);
    }
}
