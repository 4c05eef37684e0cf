//! `generate_captures` lists exactly the legal moves onto an enemy piece,
//! on positions reached by random play in each shogi-like game.

use koma_rules::{Move, Position, ShogiPosition, ShogiVariant};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn captures_agree<V: ShogiVariant>(seed: u64, plies: usize, fen: Option<&str>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = match fen {
        Some(text) => ShogiPosition::<V>::from_text(text).expect("test positions parse"),
        None => ShogiPosition::<V>::start(),
    };
    for _ in 0..plies {
        let legal = position.legal_moves();
        let mut expected: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| match m {
                Move::Board { to, .. } => position.piece_at(*to).is_some(),
                Move::Drop { .. } => false,
            })
            .collect();
        let mut captures = Vec::new();
        position.generate_captures(|set| {
            set.for_each(|m| captures.push(m));
            false
        });
        expected.sort();
        captures.sort();
        assert_eq!(captures, expected, "in {}", position.to_text());
        if legal.is_empty() {
            break;
        }
        // Prefer captures, so hands fill and positions get sharp.
        let pick = if !captures.is_empty() && rng.random_range(0..3) == 0 {
            captures[rng.random_range(0..captures.len())]
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        position.play_unchecked(pick);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn spear_captures(seed in any::<u64>()) {
        captures_agree::<koma_rules::Spear>(seed, 120, None);
    }

    #[test]
    fn minishogi_captures(seed in any::<u64>()) {
        captures_agree::<koma_rules::Minishogi>(seed, 120, None);
    }

    #[test]
    fn shogi_captures(seed in any::<u64>()) {
        captures_agree::<koma_rules::Shogi>(seed, 200, None);
    }
}

#[test]
fn captures_in_crowded_positions() {
    for (index, fen) in [
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
        "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
    ]
    .iter()
    .enumerate()
    {
        for seed in 0..20 {
            captures_agree::<koma_rules::Shogi>(seed * 7919 + index as u64, 60, Some(fen));
        }
    }
}
