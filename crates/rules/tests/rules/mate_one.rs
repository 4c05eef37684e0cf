//! `mate_in_one` finds what playing every check finds: on each position of
//! games of random play, the first check, in `generate_checks`' order,
//! that leaves the defender in check with no legal move, or none. Its
//! square tests only skip checks; this holds them to never skipping a
//! mate.

use koma_rules::{Move, Position, ShogiPosition, ShogiVariant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The first check that mates, found by playing each.
fn first_mate_by_playing<V: ShogiVariant>(position: &ShogiPosition<V>) -> Option<Move> {
    let mut mate = None;
    position.generate_checks(|m| {
        let mut child = *position;
        child.play_unchecked(m);
        if child.checkers().any() && !child.has_legal_move() {
            mate = Some(m);
        }
        mate.is_some()
    });
    mate
}

/// Plays `games` games of random play of up to `plies` plies and compares
/// at each position; returns how many positions had a mate in one.
fn mates_agree<V: ShogiVariant>(games: u64, plies: usize) -> usize {
    let mut mates = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut position = ShogiPosition::<V>::start();
        for _ in 0..plies {
            let expected = first_mate_by_playing(&position);
            assert_eq!(
                position.mate_in_one(),
                expected,
                "the mate in one of {}",
                position.to_text()
            );
            mates += expected.is_some() as usize;
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            position.play_unchecked(legal[rng.random_range(0..legal.len())]);
        }
    }
    mates
}

#[test]
fn minishogi_mates_in_one_are_all_found() {
    let mates = mates_agree::<koma_rules::Minishogi>(60, 120);
    // The square tests are tried on mates, not only on quiet positions.
    assert!(mates >= 400, "only {mates} positions with a mate in one");
}

#[test]
fn shogi_mates_in_one_are_all_found() {
    let mates = mates_agree::<koma_rules::Shogi>(40, 200);
    assert!(mates >= 100, "only {mates} positions with a mate in one");
}

#[test]
fn spear_has_no_checkmate() {
    assert_eq!(koma_rules::SpearPosition::start().mate_in_one(), None);
}

#[test]
fn a_check_from_afar_mates_unless_a_drop_can_block_it() {
    let parse =
        |text| koma_rules::StandardShogiPosition::from_text(text).expect("test positions parse");
    // The king in the corner behind its own two pawns: a rook dropped on
    // the first rank mates, unless the defender can drop a piece between.
    let bare = parse("8k/7pp/9/9/9/9/9/9/4K4 b R 1");
    let m = bare.mate_in_one().expect("the rook drop mates");
    assert!(bare.play(m).expect("legal").legal_moves().is_empty());
    assert_eq!(parse("8k/7pp/9/9/9/9/9/9/4K4 b Rg 1").mate_in_one(), None);
    // A pawn blocks too, but only on a file without one of its pawns:
    // the square tests leave that to playing the check, which finds the
    // one drop it cannot block, next but one to the king.
    let pawn = parse("8k/7pp/9/9/9/9/9/9/4K4 b Rp 1");
    let m = pawn.mate_in_one().expect("a rook drop mates");
    assert_eq!(koma_rules::StandardShogiPosition::move_to_text(m), "R*3a");
    // A check from afar that also uncovers one cannot be blocked: the
    // bishop leaves the rook's file to check from two squares off, and the
    // gold in hand is no help.
    let double = parse("3gks3/3p5/9/9/4B4/9/9/9/K3R4 b g 1");
    let m = double.mate_in_one().expect("the double check mates");
    assert!(double.play(m).expect("legal").legal_moves().is_empty());
    assert!(koma_rules::StandardShogiPosition::move_to_text(m).starts_with("5e3c"));
}
