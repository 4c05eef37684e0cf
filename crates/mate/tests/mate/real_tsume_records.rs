//! The tsume records of `testdata/records/` are solved with the length of
//! their main line, and the solution is the records' own where the record
//! gives the only longest defence.

use koma_mate::{MateAnswer, MateLimits, MateReport, Solver};
use koma_records::file::load;
use koma_rules::{write_usi_move, Position, Shogi, ShogiPosition, ShogiVariant};
use std::path::PathBuf;

fn record_path(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The record's start position and its main line as USI moves.
fn problem(name: &str) -> (ShogiPosition<Shogi>, Vec<String>) {
    let record = load(&record_path(name), None, None)
        .unwrap()
        .into_inner::<ShogiPosition<Shogi>>()
        .expect("a shogi record");
    let moves = record.moves.iter().map(|m| write_usi_move(m.m)).collect();
    (record.start, moves)
}

fn report<V: ShogiVariant>(position: &ShogiPosition<V>, limits: &MateLimits) -> MateReport {
    Solver::new(64).solve(position, limits, None, None)
}

fn solve(position: &ShogiPosition<Shogi>) -> (Vec<String>, bool) {
    let report = report(position, &MateLimits::default());
    match report.answer {
        MateAnswer::Mate(line) => (
            line.into_iter().map(write_usi_move).collect(),
            report.shortest,
        ),
        other => panic!("no mate found for {}: {other:?}", position.to_text()),
    }
}

#[test]
fn the_csa_tsume_is_mate_in_three() {
    let (start, main_line) = problem("tsumeshogi.csa");
    assert_eq!(main_line.len(), 3);
    let (line, shortest) = solve(&start);
    assert!(shortest);
    assert_eq!(line.len(), main_line.len(), "{line:?}");
    assert_eq!(line[0], main_line[0]);
}

#[test]
fn the_kif_tsume_is_mate_in_eleven() {
    let (start, main_line) = problem("everyday_20211107.kif");
    assert_eq!(main_line.len(), 11);
    let (line, shortest) = solve(&start);
    assert!(shortest);
    assert_eq!(line, main_line);
}

fn answer(sfen: &str) -> MateAnswer {
    let position = ShogiPosition::<Shogi>::from_text(sfen).unwrap();
    report(&position, &MateLimits::default()).answer
}

#[test]
fn a_pawn_drop_mate_is_no_mate() {
    // P*1b would mate (the knight guards it, the king's own knight and
    // lance block it in) and so is illegal (uchifuzume); nothing else
    // checks.
    assert_eq!(answer("7nk/7l1/9/7N1/9/9/9/9/9 b P 1"), MateAnswer::NoMate);
    // With a lance in hand instead, the drop is legal and mates.
    let MateAnswer::Mate(line) = answer("7nk/7l1/9/7N1/9/9/9/9/9 b L 1") else {
        panic!("L*1b mates");
    };
    assert_eq!(line.len(), 1);
    assert!(line[0].is_drop());
}

#[test]
fn a_king_with_room_is_no_mate() {
    assert_eq!(answer("4k4/9/9/9/9/9/9/9/9 b G 1"), MateAnswer::NoMate);
    assert_eq!(answer("4k4/9/9/9/9/9/9/9/9 b - 1"), MateAnswer::NoMate);
}

#[test]
fn a_spear_mate_ends_with_the_capture() {
    use koma_rules::{Spear, SpearPosition};
    // The gold next to the king takes it at once.
    let position = SpearPosition::from_text("4k/3G1/5/5/K4 b - 1").unwrap();
    let MateAnswer::Mate(line) = report(&position, &MateLimits::default()).answer else {
        panic!("a capture")
    };
    assert_eq!(line.len(), 1);
    assert!(koma_mate::is_mate_line::<Spear>(&position, &line));
}

#[test]
fn a_spent_budget_says_unknown() {
    let (start, _) = problem("everyday_20211107.kif");
    let limits = MateLimits {
        nodes: Some(1),
        ..MateLimits::default()
    };
    assert_eq!(report(&start, &limits).answer, MateAnswer::Unknown);
}
