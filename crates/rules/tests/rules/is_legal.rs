//! `is_legal` answers for one move what the generator answers for all:
//! on positions reached by random play, every move of a piece of the side
//! to move to any square (promoting or not) and every drop of any role
//! onto any square is legal exactly when the legal moves list it. (The
//! search asks it of its table's move, which a collision can make any
//! move at all.)

use koma_rules::{Move, Position, Role, ShogiPosition, ShogiVariant, Square};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every board move from a square of the side to move's pieces and every
/// drop, legal or not, and a move from each square of the opponent's.
fn candidates<V: ShogiVariant>(position: &ShogiPosition<V>) -> Vec<Move> {
    let squares = || (0..81).filter_map(Square::new);
    let mut moves = Vec::new();
    for from in squares() {
        let ours = position
            .piece_at(from)
            .is_some_and(|piece| piece.color == position.turn());
        let targets: Vec<Square> = if ours {
            squares().collect()
        } else {
            // Not the side to move's piece (or none): one move each way.
            squares()
                .filter(|to| to.index() % 13 == from.index() % 13)
                .collect()
        };
        for to in targets {
            for promote in [false, true] {
                moves.push(Move::Board { from, to, promote });
            }
        }
    }
    for role in (0..8).map(Role::from_index) {
        for to in squares() {
            moves.push(Move::Drop { role, to });
        }
    }
    moves
}

fn is_legal_agrees<V: ShogiVariant>(seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = ShogiPosition::<V>::start();
    for _ in 0..plies {
        let legal = position.legal_moves();
        for m in candidates(&position) {
            assert_eq!(
                position.is_legal(m),
                legal.contains(&m),
                "{m:?} in {}",
                position.to_text()
            );
        }
        if legal.is_empty() {
            break;
        }
        position.play_unchecked(legal[rng.random_range(0..legal.len())]);
    }
}

/// Positions the random games seldom reach: a pawn drop that would mate,
/// double check, a pinned piece, a side without its king.
#[test]
fn is_legal_in_the_rules_corners() {
    use koma_rules::Shogi;
    let cases: [(&str, &[&str], &[&str]); 4] = [
        // The pawn drop on 1b mates: not legal; the gold drop there is.
        (
            "7nk/9/7G1/9/9/9/9/9/4K4 b PG 1",
            &["G*1b", "P*2d"],
            &["P*1b"],
        ),
        // Double check from the rook and the bishop: only the king moves.
        (
            "4k4/9/9/9/4r4/9/9/3b5/4K4 b RG 1",
            &["5i6h", "5i4h"],
            &["G*5h", "R*5f", "5i5h"],
        ),
        // The gold on 5h is pinned by the rook on 5a: along the file only.
        (
            "4r3k/9/9/9/9/9/9/4G4/4K4 b - 1",
            &["5h5g"],
            &["5h4h", "5h6g"],
        ),
        // A mate problem's attacker has no king: no check to mind.
        ("4k4/9/9/9/9/9/9/9/9 b G 1", &["G*5b"], &[]),
    ];
    for (text, legal, illegal) in cases {
        let position = ShogiPosition::<Shogi>::from_text(text).expect("the test positions parse");
        for (moves, expected) in [(legal, true), (illegal, false)] {
            for usi in moves {
                let m = koma_rules::parse_usi_move(usi).expect("the test moves are USI");
                assert_eq!(position.is_legal(m), expected, "{usi} in {text}");
                assert_eq!(
                    position.legal_moves().contains(&m),
                    expected,
                    "{usi} listed"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn spear_is_legal(seed in any::<u64>()) {
        is_legal_agrees::<koma_rules::Spear>(seed, 60);
    }

    #[test]
    fn minishogi_is_legal(seed in any::<u64>()) {
        is_legal_agrees::<koma_rules::Minishogi>(seed, 60);
    }

    #[test]
    fn shogi_is_legal(seed in any::<u64>()) {
        is_legal_agrees::<koma_rules::Shogi>(seed, 100);
    }
}
