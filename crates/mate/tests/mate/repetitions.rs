//! Disproofs through repetitions hold for their path only (the graph
//! history interaction; see `crates/mate/src/path.rs`), and the search
//! still answers positions whose king walks round and round.

use koma_mate::{MateAnswer, MateLimits, Solver};
use koma_rules::{Position, StandardShogiPosition};

fn answer(sfen: &str, nodes: u64) -> MateAnswer {
    let position = StandardShogiPosition::from_text(sfen).unwrap();
    let limits = MateLimits {
        nodes: Some(nodes),
        ..MateLimits::default()
    };
    Solver::new(256)
        .solve(&position, &limits, None, None)
        .answer
}

/// 新桃花源, a problem of 1,205 plies: a mate. When disproofs through
/// repetitions were kept in the table, the solver called it no mate after
/// 188,825 nodes; now it must not, however long it is given short of the
/// proof.
#[test]
fn a_mate_whose_king_walks_back_and_forth_is_never_called_no_mate() {
    let shintougen =
        "p2+N3g1/P2R3+pP/g3+BnpP1/lPP1+p3p/+LnnS2+LS+p/G+P1l+Bp+P1+p/3pp1P1g/9/4kSR1s b - 1";
    let found = answer(shintougen, 600_000);
    assert!(
        !matches!(found, MateAnswer::NoMate),
        "新桃花源 called no mate"
    );
}

/// A lone king with every other piece in its hand but a few: the checks
/// chase it round, and without repetitions kept in the table only the
/// weak proof numbers keep the root's from overflowing (summed, they
/// passed 10^19 and the search stopped with no answer after 330,000
/// nodes).
#[test]
fn a_chased_king_with_no_mate_is_disproven() {
    let lone_king = "9/6kPp/5p3/4+P4/9/9/9/9/9 b RSNr2b4g3s3n4l14p 1";
    assert_eq!(answer(lone_king, 3_000_000), MateAnswer::NoMate);
}
