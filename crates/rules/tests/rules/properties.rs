//! Property tests: on positions reached by random play, the fast generator
//! agrees with the simple reference generator in `reference/` (written
//! separately, from the rules text alone), positions after each move agree,
//! notation round-trips, and the legality check accepts exactly the
//! generated moves.

use crate::reference::{RefPosition, RefVariant};
use koma_rules::{
    Bitboard, MinishogiPosition, Move, PawnsPosition, Position, Role, ShogiPosition, ShogiVariant,
    SpearPosition, StandardShogiPosition,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The fields both implementations write the same way: board, side, hands
/// (shogi family) or board, side, en passant (pawns).
fn comparable_text<P: Position>(position: &P) -> String {
    let text = position.to_text();
    let fields: Vec<&str> = text.split_whitespace().collect();
    if P::VARIANT == koma_rules::Variant::Pawns {
        format!("{} {} {}", fields[0], fields[1], fields[3])
    } else {
        fields[..3].join(" ")
    }
}

fn sorted_moves<P: Position>(position: &P) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|&m| P::move_to_text(m))
        .collect();
    moves.sort();
    moves
}

/// Every move the notation can express from squares of `board`, legal or not.
fn candidate_moves(board: Bitboard, drops: &[Role]) -> Vec<Move> {
    let mut moves = Vec::new();
    for from in board {
        for to in board {
            moves.push(Move::Board {
                from,
                to,
                promote: false,
            });
            moves.push(Move::Board {
                from,
                to,
                promote: true,
            });
        }
    }
    for &role in drops {
        for to in board {
            moves.push(Move::Drop { role, to });
        }
    }
    moves
}

fn play_random_game<P: Position>(
    variant: RefVariant,
    seed: u64,
    plies: usize,
    candidates: &[Move],
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = P::start();
    let mut reference =
        RefPosition::parse(variant, &position.to_text()).expect("reference reads our text");
    for ply in 0..=plies {
        let ours = sorted_moves(&position);
        assert_eq!(
            ours,
            reference.legal_moves(),
            "legal moves differ in {}",
            position.to_text()
        );
        assert_eq!(position.count_legal_moves() as usize, ours.len());
        assert_eq!(comparable_text(&position), reference.to_text());

        // The text round-trips, hash included.
        let reread = P::from_text(&position.to_text()).expect("our text reads back");
        assert_eq!(reread, position);
        assert_eq!(reread.hash(), position.hash());

        // The legality check accepts exactly the generated moves.
        if ply % 3 == 0 {
            let legal = position.legal_moves();
            for &m in candidates {
                let accepted = position.is_legal(m);
                assert_eq!(
                    accepted,
                    legal.contains(&m),
                    "{:?} in {}",
                    m,
                    position.to_text()
                );
                if accepted {
                    let text = P::move_to_text(m);
                    assert_eq!(position.parse_move(&text).ok(), Some(m));
                }
            }
        }

        if ours.is_empty() || ply == plies {
            break;
        }
        let choice = &ours[rng.random_range(0..ours.len())];
        let m = position.parse_move(choice).expect("a listed move parses");
        position = position.play(m).expect("a listed move is legal");
        reference = reference
            .play(choice)
            .expect("the reference agrees the move is legal");
    }
}

fn shogi_candidates<V: ShogiVariant>() -> Vec<Move> {
    candidate_moves(V::BOARD, V::SPEC.hand_roles)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn spear_agrees_with_reference(seed in any::<u64>(), plies in 0usize..150) {
        play_random_game::<SpearPosition>(RefVariant::Spear, seed, plies, &shogi_candidates::<koma_rules::Spear>());
    }

    #[test]
    fn minishogi_agrees_with_reference(seed in any::<u64>(), plies in 0usize..150) {
        play_random_game::<MinishogiPosition>(RefVariant::Minishogi, seed, plies, &shogi_candidates::<koma_rules::Minishogi>());
    }

    #[test]
    fn pawns_agree_with_reference(seed in any::<u64>(), plies in 0usize..80) {
        let candidates = candidate_moves(koma_rules::pawns::BOARD, &[]);
        play_random_game::<PawnsPosition>(RefVariant::Pawns, seed, plies, &candidates);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn shogi_agrees_with_reference(seed in any::<u64>(), plies in 0usize..250) {
        // Board moves only from squares of the side to move would suffice,
        // but every square keeps the check simple; drops of every hand role.
        let candidates = shogi_candidates::<koma_rules::Shogi>();
        play_random_game::<StandardShogiPosition>(RefVariant::Shogi, seed, plies, &candidates);
    }
}

/// The hashes of a board's parts (pawns, each side's other pieces), kept
/// move by move, are those of the same position read from its text.
fn part_hashes_follow_the_game<V: ShogiVariant>(seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = ShogiPosition::<V>::start();
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[rng.random_range(0..moves.len())]);
        let reread =
            ShogiPosition::<V>::from_text(&position.to_text()).expect("our text reads back");
        assert_eq!(
            reread.pawns_hash(),
            position.pawns_hash(),
            "{}",
            position.to_text()
        );
        for color in koma_rules::Color::ALL {
            assert_eq!(
                reread.pieces_hash(color),
                position.pieces_hash(color),
                "{}",
                position.to_text()
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn shogi_part_hashes_follow_the_game(seed in any::<u64>(), plies in 0usize..200) {
        part_hashes_follow_the_game::<koma_rules::Shogi>(seed, plies);
    }

    #[test]
    fn minishogi_part_hashes_follow_the_game(seed in any::<u64>(), plies in 0usize..100) {
        part_hashes_follow_the_game::<koma_rules::Minishogi>(seed, plies);
    }
}

/// The same comparison from the perft files' positions, which random play
/// from the start rarely reaches (double checks, crowded hands).
#[test]
fn perft_positions_agree_with_reference() {
    let positions = [
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
        "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
    ];
    for text in positions {
        let ours = ShogiPosition::<koma_rules::Shogi>::from_text(text).unwrap();
        let reference = RefPosition::parse(RefVariant::Shogi, text).unwrap();
        assert_eq!(sorted_moves(&ours), reference.legal_moves(), "{text}");
        for m in ours.legal_moves() {
            let after = ours.play(m).unwrap();
            let reference_after = reference
                .play(&StandardShogiPosition::move_to_text(m))
                .unwrap();
            assert_eq!(
                sorted_moves(&after),
                reference_after.legal_moves(),
                "after {m:?} in {text}"
            );
        }
    }
}
