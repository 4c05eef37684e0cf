//! A solve's state survives its process: a second solver on the same
//! directory finds the first one's work; a directory of another question
//! is refused; a budget of nodes gives up and later goes on; a small table
//! still answers right.

use koma_rules::pawns_board::PawnsBoard;
use koma_solve::{Solver, Value};

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-state-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_resumed_solve_finds_the_work_of_the_first() {
    let dir = fresh_dir("resume");
    let root = PawnsBoard::<6>::start();
    let mut first = Solver::<6>::new();
    assert!(first.keep_state(&dir, &root).unwrap().is_empty());
    assert_eq!(first.value(&root), Value::Draw);
    first
        .record_answer(&root, Value::Draw)
        .expect("the answer is written");
    first.flush_state().unwrap();
    let first_nodes = first.nodes;
    drop(first);

    let mut second = Solver::<6>::new();
    let answers = second.keep_state(&dir, &root).unwrap();
    assert_eq!(answers, vec![(root.to_fen(), Value::Draw)]);
    assert_eq!(second.value(&root), Value::Draw);
    assert!(
        second.nodes * 20 < first_nodes,
        "resumed: {} nodes, first: {first_nodes}",
        second.nodes
    );
    assert_eq!(second.total_nodes(), first_nodes + second.nodes);

    // A journal cut in the middle of a record (a kill) is read up to it.
    let journal = dir.join("journal");
    let length = std::fs::metadata(&journal).unwrap().len();
    assert!(length >= 32 && length % 16 == 0, "{length} bytes");
    drop(second);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&journal)
        .unwrap();
    file.set_len(length - 7).unwrap();
    let mut third = Solver::<6>::new();
    third.keep_state(&dir, &root).unwrap();
    assert_eq!(third.value(&root), Value::Draw);

    // Another question's directory is refused, and left as it was.
    let other = PawnsBoard::<6>::from_fen("6/pppppp/6/P5/1PPPPP/6 b - - 0 1").unwrap();
    let error = Solver::<6>::new()
        .keep_state(&dir, &other)
        .expect_err("refused");
    assert!(error.to_string().contains("another solve"), "{error}");
    assert!(std::fs::read_to_string(dir.join("about"))
        .unwrap()
        .contains(&root.to_fen()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_question_over_its_budget_gives_up_and_goes_on_later() {
    let root = PawnsBoard::<7>::start();
    let mut solver = Solver::<7>::with_memory(1 << 28);
    assert_eq!(solver.wins_within(&root, 1_000), None);
    assert_eq!(solver.loses_within(&root, 1_000), None);
    let mut budget = 1_000;
    let wins = loop {
        if let Some(answer) = solver.wins_within(&root, budget) {
            break answer;
        }
        budget *= 4;
    };
    assert!(!wins, "7×7 is a draw");
    assert_eq!(solver.value(&root), Value::Draw);
}

#[test]
fn a_table_too_small_for_the_solve_still_answers_right() {
    let root = PawnsBoard::<6>::start();
    // 4,096 positions, against some 200,000 the solve proves.
    let mut small = Solver::<6>::with_memory(1 << 16);
    assert_eq!(small.value(&root), Value::Draw);
    let mut ample = Solver::<6>::new();
    assert_eq!(ample.value(&root), Value::Draw);
    assert!(small.nodes > ample.nodes, "{} {}", small.nodes, ample.nodes);
    for plies in [
        "6/1ppppp/p5/1P4/P1PPPP/6 w - - 0 1",
        "6/pp1ppp/2p3/6/PPPPPP/6 w - - 0 1",
    ] {
        let position = PawnsBoard::<6>::from_fen(plies).unwrap();
        assert_eq!(small.value(&position), ample.value(&position), "{plies}");
    }
}
