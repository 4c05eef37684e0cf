//! The problem suite of `tests/mate/data/tsume.txt` (see
//! `tests/mate/data/README.md` for where it comes from): every problem is
//! solved with its known answer, the shortest mate's length or no mate,
//! and every mate line is one the rules confirm and ends in checkmate on
//! the board. A problem tagged `uchifuzume` is solved by a line that steps
//! round an illegal pawn-drop mate.

use koma_mate::suite::{meets_uchifuzume, parse_suite, Expected, SuiteProblem};
use koma_mate::{is_mate_line, MateAnswer, MateLimits, Solver};
use koma_rules::{Position, StandardShogiPosition};
use std::time::Duration;

#[test]
fn every_problem_of_the_suite_is_solved_with_its_known_answer() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mate/data/tsume.txt");
    let problems = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(problems.len() >= 300, "{} problems", problems.len());
    let long = problems
        .iter()
        .filter(|p| matches!(p.expected, Expected::Mate(n) if n >= 29))
        .count();
    let without = problems
        .iter()
        .filter(|p| p.expected == Expected::NoMate)
        .count();
    assert!(without >= 30, "{without} problems without a mate");
    let uchifuzume = problems.iter().filter(|p| p.uchifuzume).count();
    assert!(uchifuzume >= 30, "{uchifuzume} problems round uchifuzume");
    assert!(long >= 8, "{long} mates of 29 plies or more");
    // A solver a core, each with its share of the problems: the suite is
    // the slowest test of the workspace, and one thread left a core idle.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let failures: Vec<String> = std::thread::scope(|scope| {
        // Every `threads`-th problem to each: the suite's hard problems are
        // not all in one place.
        let solving: Vec<_> = (0..threads)
            .map(|first| {
                let share: Vec<_> = problems.iter().skip(first).step_by(threads).collect();
                scope.spawn(move || failures_of(&share))
            })
            .collect();
        solving
            .into_iter()
            .flat_map(|thread| thread.join().expect("a solver thread panicked"))
            .collect()
    });
    assert!(failures.is_empty(), "{failures:#?}");
}

/// What goes wrong in solving `problems` (an empty list if nothing does).
fn failures_of(problems: &[&SuiteProblem]) -> Vec<String> {
    let mut solver = Solver::new(256);
    let limits = MateLimits {
        time: Some(Duration::from_secs(120)),
        ..MateLimits::default()
    };
    let mut failures = Vec::new();
    for &problem in problems {
        let position = StandardShogiPosition::from_text(&problem.sfen).unwrap();
        solver.clear();
        let report = solver.solve(&position, &limits, None, None);
        let answer = match &report.answer {
            MateAnswer::Mate(line) => {
                assert!(is_mate_line(&position, line), "line {}", problem.line);
                // A GUI replaying the line sees the checkmate.
                if !crate::checkmate_lines::ends_in_checkmate(&position, line) {
                    failures.push(format!("line {}: no checkmate at the end", problem.line));
                }
                assert!(report.shortest, "line {}", problem.line);
                if problem.uchifuzume && !meets_uchifuzume(&position, line) {
                    failures.push(format!("line {}: uchifuzume not met", problem.line));
                }
                Expected::Mate(report.length)
            }
            MateAnswer::NoMate => Expected::NoMate,
            MateAnswer::Unknown => {
                failures.push(format!("line {}: unsolved", problem.line));
                continue;
            }
        };
        if answer != problem.expected {
            failures.push(format!(
                "line {}: {answer:?}, expected {:?}",
                problem.line, problem.expected
            ));
        }
    }
    failures
}
