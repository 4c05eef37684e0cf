//! Fuzzing of every notation parser: arbitrary text and mutations of valid
//! text never panic, and whatever parses writes back to text that parses to
//! the same thing.

use koma_rules::{
    MinishogiPosition, PawnsPosition, Position, SpearPosition, StandardShogiPosition,
};
use proptest::prelude::*;

const SEEDS: [&str; 6] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "lbsgk/4p/5/P4/KGSBL b - 1",
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1",
    "8/8/8/3pP3/8/8/8/8 w - d6 0 1",
];

/// Valid text with a few characters replaced, inserted or removed.
fn mutated() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "0123456789/+-*abcdefghiwKRBGSNLPkrbgsnlp \u{e9}"
        .chars()
        .collect();
    (
        0..SEEDS.len(),
        prop::collection::vec((any::<u16>(), 0..3u8, 0..alphabet.len()), 1..5),
    )
        .prop_map(move |(seed, edits)| {
            let mut chars: Vec<char> = SEEDS[seed].chars().collect();
            for (position, kind, letter) in edits {
                let at = position as usize % (chars.len() + 1);
                match kind {
                    0 if at < chars.len() => chars[at] = alphabet[letter],
                    1 => chars.insert(at, alphabet[letter]),
                    _ if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        })
}

fn check<P: Position>(text: &str) {
    if let Ok(position) = P::from_text(text) {
        let written = position.to_text();
        let reread =
            P::from_text(&written).unwrap_or_else(|e| panic!("{written:?} from {text:?}: {e}"));
        assert_eq!(reread, position);
        // Whatever parses can be played from.
        let _ = position.legal_moves();
        let _ = position.outcome();
    }
}

fn check_all(text: &str) {
    check::<SpearPosition>(text);
    check::<MinishogiPosition>(text);
    check::<StandardShogiPosition>(text);
    check::<PawnsPosition>(text);
}

fn check_move<P: Position>(text: &str) {
    let position = P::start();
    if let Ok(m) = P::parse_move_syntax(text) {
        let _ = position.why_illegal(m);
        assert_eq!(P::parse_move_syntax(&P::move_to_text(m)).ok(), Some(m));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,90}") {
        check_all(&text);
    }

    #[test]
    fn mutated_positions_never_panic(text in mutated()) {
        check_all(&text);
    }

    #[test]
    fn seed_notation_never_panics_and_every_legal_move_reads_back(
        text in "[kgsblpKGSBLPx0-9 \t]{0,12}",
        plies in 0..30usize,
        choices in prop::collection::vec(any::<u16>(), 30),
    ) {
        let mut position = SpearPosition::start();
        for &choice in &choices[..plies] {
            let moves = position.legal_moves();
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            position.play_unchecked(moves[choice as usize % moves.len()]);
        }
        if let Ok(m) = position.parse_seed_move(&text) {
            prop_assert!(position.is_legal(m));
        }
        for &m in position.legal_moves().iter() {
            let written = position.seed_move_text(m);
            prop_assert_eq!(position.parse_seed_move(&written), Ok(m), "{}", written);
        }
    }

    #[test]
    fn arbitrary_moves_never_panic(text in "[a-zA-Z0-9*+@=\u{e9}]{0,6}") {
        check_move::<SpearPosition>(&text);
        check_move::<MinishogiPosition>(&text);
        check_move::<StandardShogiPosition>(&text);
        check_move::<PawnsPosition>(&text);
    }
}

#[test]
fn en_passant_on_the_edge_ranks_is_an_error_not_a_panic() {
    for ep in ["a1", "h8", "e8", "e1", "e4", "e5"] {
        let text = format!("8/8/8/8/8/8/8/8 b - {ep} 0 1");
        assert!(PawnsPosition::from_text(&text).is_err(), "{text}");
        let text = format!("8/8/8/8/8/8/8/8 w - {ep} 0 1");
        assert!(PawnsPosition::from_text(&text).is_err(), "{text}");
    }
}
