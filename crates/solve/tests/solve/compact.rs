//! Compact tables: written from a solve's state, they give a fresh solver
//! the state's costliest proofs; a table of another board, or a cut or
//! foreign file, is refused; the shipped 8×8 table loads.

use koma_rules::pawns_board::PawnsBoard;
use koma_solve::{Solver, Value, PAWNS8_TABLE};
use std::path::PathBuf;

/// A 6×6 solve of the start position kept in a fresh directory.
fn solved_state(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-compact-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut solver = Solver::<6>::new();
    solver.keep_state(&dir, &PawnsBoard::start()).unwrap();
    assert_eq!(solver.value(&PawnsBoard::start()), Value::Draw);
    solver.flush_state().unwrap();
    dir
}

#[test]
fn a_table_gives_a_fresh_solver_the_states_costliest_proofs() {
    let state = solved_state("gives");
    let path = state.join("table");
    // Everything the journal holds, then only the costliest part of it.
    let all = Solver::<6>::new().write_table(&state, 0, &path).unwrap();
    let costly = Solver::<6>::new().write_table(&state, 14, &path).unwrap();
    assert!(
        0 < costly.positions && costly.positions < all.positions,
        "{costly:?} of {all:?}"
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len() as u64, costly.bytes);

    let mut cold = Solver::<6>::new();
    assert_eq!(cold.value(&PawnsBoard::start()), Value::Draw);
    let mut warm = Solver::<6>::new();
    assert_eq!(warm.load_table(&bytes), Ok(costly.positions));
    assert_eq!(warm.value(&PawnsBoard::start()), Value::Draw);
    assert!(
        warm.nodes * 3 < cold.nodes,
        "the table saves work: {} nodes with it, {} without",
        warm.nodes,
        cold.nodes
    );
    std::fs::remove_dir_all(&state).unwrap();
}

#[test]
fn a_table_of_another_board_or_a_damaged_one_is_refused() {
    let state = solved_state("refused");
    let path = state.join("table");
    Solver::<6>::new().write_table(&state, 0, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();

    let error = Solver::<7>::new().load_table(&bytes).unwrap_err();
    assert!(error.contains("size 7"), "{error}");
    let error = Solver::<6>::new()
        .load_table(&bytes[..bytes.len() - 5])
        .unwrap_err();
    assert!(error.contains("bytes"), "{error}");
    for foreign in [&b""[..], b"hello\n\n", b"\xff\xfe\n\n"] {
        assert!(Solver::<6>::new().load_table(foreign).is_err());
    }
    std::fs::remove_dir_all(&state).unwrap();
}

#[test]
fn the_shipped_table_holds_the_8x8_start_positions_costliest_proofs() {
    let mut solver = Solver::<8>::with_memory(64 << 20);
    let count = solver.load_table(PAWNS8_TABLE).unwrap();
    assert!(count > 100_000, "{count} positions");
    let header = String::from_utf8_lossy(&PAWNS8_TABLE[..200]);
    assert!(
        header.contains("root 8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1"),
        "{header}"
    );
}
