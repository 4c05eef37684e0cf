//! Mate lines a GUI can replay: every line the solver gives is legal from
//! the start and ends in checkmate on the board, even where the mate as
//! problems count it ends on a distant check that the defender could still
//! block with a useless interposition (無駄合); the length stays the
//! convention's. The positions of `data/interpositions.txt` are such
//! mates (see `data/README.md` for how they were found).

use koma_mate::suite::{parse_suite, Expected};
use koma_mate::{is_mate_line, line_to_checkmate, MateAnswer, MateLimits, Solver};
use koma_rules::{Move, Position, ShogiPosition, ShogiVariant, StandardShogiPosition};
use std::time::Duration;

/// Whether `line` is legal from `root`, move by move, and leaves the side
/// to move checked without a legal move.
pub fn ends_in_checkmate<V: ShogiVariant>(root: &ShogiPosition<V>, line: &[Move]) -> bool {
    let mut position = *root;
    for &m in line {
        match position.play(m) {
            Ok(next) => position = next,
            Err(_) => return false,
        }
    }
    position.is_check() && !position.has_legal_move()
}

#[test]
fn mates_ending_on_a_blockable_check_are_played_out_to_checkmate() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/mate/data/interpositions.txt"
    );
    let problems = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(problems.len() >= 5, "{} problems", problems.len());
    let mut solver = Solver::new(64);
    let limits = MateLimits {
        time: Some(Duration::from_secs(60)),
        ..MateLimits::default()
    };
    // How many lines go on past a blockable check (Koma may read another
    // line of the same length than the one that had the problem).
    let mut played_out = 0;
    for problem in &problems {
        let position = StandardShogiPosition::from_text(&problem.sfen).unwrap();
        solver.clear();
        let report = solver.solve(&position, &limits, None, None);
        let MateAnswer::Mate(line) = &report.answer else {
            panic!("line {}: {:?}", problem.line, report.answer);
        };
        let moves: Vec<String> = line
            .iter()
            .map(|&m| StandardShogiPosition::move_to_text(m))
            .collect();
        assert_eq!(
            Expected::Mate(report.length),
            problem.expected,
            "line {}: {moves:?}",
            problem.line
        );
        assert!(report.shortest, "line {}", problem.line);
        assert!(
            ends_in_checkmate(&position, line),
            "line {}: {moves:?}",
            problem.line
        );
        if line.len() >= usize::from(report.length) + 2 {
            played_out += 1;
        }
        assert!(is_mate_line(&position, line), "line {}", problem.line);
    }
    // Most still end on a check the defender could block: their lines are
    // longer than the mate by an interposition and its capture at least.
    assert!(
        played_out * 2 >= problems.len(),
        "{played_out} of {} lines played out past the count",
        problems.len()
    );
}

#[test]
fn a_line_is_carried_on_only_as_far_as_checkmate() {
    // The rook's drop on 1e mates as problems count it; the silver gote
    // holds can be dropped on 1b, 1c or 1d and is taken for nothing. The
    // fewest plies on: the drop next to the king, taken.
    let root = StandardShogiPosition::from_text("7lk/7p1/7G1/9/9/9/9/9/9 b Rs 1").unwrap();
    let far = root.parse_move("R*1e").unwrap();
    let line = line_to_checkmate(&root, &[far]).unwrap();
    let shown: Vec<String> = line
        .iter()
        .map(|&m| StandardShogiPosition::move_to_text(m))
        .collect();
    assert_eq!(shown, ["R*1e", "S*1b", "1e1b+"]);
    assert!(ends_in_checkmate(&root, &line));
    // A mate on the board already stays as it is.
    let near = root.parse_move("R*1b").unwrap();
    assert_eq!(line_to_checkmate(&root, &[near]), Some(vec![near]));
    // Not a mate (the king takes the unguarded rook): nothing to carry on.
    let open = StandardShogiPosition::from_text("7lk/7p1/9/9/9/9/9/9/9 b Rs 1").unwrap();
    let drop = open.parse_move("R*1b").unwrap();
    assert_eq!(line_to_checkmate(&open, &[drop]), None);
}
