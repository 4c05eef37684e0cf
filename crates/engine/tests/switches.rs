//! The search's switches, the tunables that a self-play test has decided
//! or has still to decide (`PROBCUT` and most of the others below are
//! off by default; `PRUNE_AT_REDUCED_DEPTH` and `CORRECTION_HISTORY`, on
//! since their SPRTs, and the checks' two are on): each, switched from
//! its default, changes the tree (it is wired in) and keeps the search
//! sound (it still finds known mates at their distance and plays legal
//! moves). Only the `tune` build can switch them: `cargo test -p
//! koma-engine --features tune --test switches`. One test, as the
//! tunables are the process's own and a second test running beside it
//! would search under another's switch.

use koma_engine::{params, Engine, Limits, Score, SearchControl};
use koma_rules::{Move, Position, StandardShogiPosition};
use std::time::Duration;

/// Three middle games of Koma against FSF (the first three lines of
/// `scripts/tree-size-shogi.txt`; in the third, mates in one come up
/// in the tree), as the games' positions.
const MIDDLE_GAMES: [&str; 3] = [
    "6i7h 8c8d 6g6f 3c3d 7g7f 4a5b 6f6e 5a4a 2h6h 7a6b 8h2b 3a2b B*9h 8d8e 7h7g 8b8d 4i3h 6a5a \
     7i8h",
    "6i7h 8c8d 6g6f 3c3d 7h6g 8d8e 7i7h 8e8f 8g8f 8b8f P*8g 8f8d 3i4h 9c9d 5g5f 9d9e 7g7f 9a9d \
     8h7g 7c7d 6f6e 8d8c 5f5e 4a5b 6g5f 8a7c 4h5g 5a6b 2h6h 4c4d 6e6d 7a7b 6d6c+ 7b6c 9g9f \
     9e9f P*9e P*8h 7g8h",
    "5i6h 5a6b 6i7h 3a4b 7g7f 6c6d 2g2f 1c1d 2f2e 2b1c 1g1f 1c2b 2e2d 2c2d 2h2d 4a3b 6h6i 6b6c \
     2d2b",
];

/// The positions of a game from the start, by its moves.
fn game(moves: &str) -> Vec<StandardShogiPosition> {
    let mut line = vec![StandardShogiPosition::start()];
    for text in moves.split_whitespace() {
        let position = *line.last().unwrap();
        let m = position.parse_move(text).expect("the line is legal");
        line.push(position.play(m).expect("the line is legal"));
    }
    line
}

/// The score and the nodes of a search to `depth`, whose move must be legal.
fn search(line: &[StandardShogiPosition], depth: u32) -> (Score, u64) {
    let mut engine = Engine::<StandardShogiPosition>::new(16);
    let result = engine.search(
        line,
        &Limits::depth(depth),
        &SearchControl::default(),
        &mut |_| {},
    );
    let best = result.best_move.expect("a move");
    assert!(line.last().unwrap().is_legal(best));
    (result.score, result.nodes)
}

fn position(text: &str) -> Vec<StandardShogiPosition> {
    vec![StandardShogiPosition::from_text(text).expect("test positions parse")]
}

#[test]
fn each_switch_changes_the_tree_and_keeps_the_mates() {
    let switches = [
        ("PRUNE_AT_REDUCED_DEPTH", "0"),
        ("PROBCUT", "1"),
        ("LMR_CAPTURES", "1"),
        ("IMPROVING_THROUGH_CHECK", "1"),
        ("PROMOTIONS_QUIET", "1"),
        ("CAPTURE_HISTORY_WEIGHT", "16"),
        ("LMR_HISTORY_DIVISOR", "4096"),
        ("FOLLOWUP_HISTORY", "1"),
        ("LMR_RESEARCH_ADJUST", "1"),
        ("QUIESCENCE_CHECKS", "0"),
        ("CHECK_EXTENSION", "0"),
        ("MATE_ONE", "1"),
        ("TABLE_PV_REDUCTION", "1"),
        ("CORRECTION_HISTORY", "0"),
    ];
    let games: Vec<_> = MIDDLE_GAMES.iter().map(|moves| game(moves)).collect();
    // The nodes to depth 9 summed over the middle games.
    let tree = || -> u64 { games.iter().map(|line| search(line, 9).1).sum() };
    let nodes_off = tree();
    for (name, value) in switches {
        let tunable = params::set(name, value).expect("a tunable in range");
        let default = tunable.default.to_string();
        assert_ne!(tree(), nodes_off, "{name} {value} changes nothing");
        // Mate distances confirmed by Fairy-Stockfish (plies).
        assert_eq!(
            search(&position("7nl/7k1/9/7P1/9/9/9/9/4K4 b 2G 1"), 7).0,
            Score::MatePlies(3),
            "{name} {value}"
        );
        assert_eq!(
            search(&position("8l/7k1/6ppp/9/9/9/9/9/4K4 b RS 1"), 9).0,
            Score::MatePlies(5),
            "{name} {value}"
        );
        params::set(name, &default).expect("the default is in range");
    }
    assert_eq!(tree(), nodes_off, "every switch back at its default");
    // THREAD_VOTE, HELPER_AHEAD and THREAD_CHANGES change only a search
    // with helper threads, which no two runs search alike; the vote itself
    // is tested in `search::vote`, the changes' count in
    // `search::stopping`. Switched, two threads still play legal moves
    // and a mate: the main thread's, which its mate solver proves within the
    // search's time (7 plies here, where the search alone counts 5: the
    // solver's budget can run out before it has shortened its line, and a
    // timed search on one thread plays the same 7).
    let threaded = [
        ("THREAD_VOTE", "1"),
        ("HELPER_AHEAD", "0"),
        ("THREAD_CHANGES", "1"),
    ];
    for (name, value) in threaded {
        let tunable = params::set(name, value).expect("a tunable in range");
        for line in &games {
            let (m, _) = search_with_threads(line, Limits::move_time(Duration::from_millis(200)));
            assert!(line.last().unwrap().is_legal(m), "{name} {value}");
        }
        let mate = position("8l/7k1/6ppp/9/9/9/9/9/4K4 b RS 1");
        let score = search_with_threads(&mate, Limits::move_time(Duration::from_millis(500))).1;
        assert!(
            matches!(score, Score::MatePlies(5 | 7)),
            "{name} {value}: {score:?}"
        );
        params::set(name, &tunable.default.to_string()).expect("the default is in range");
    }
    // A weakened level searches without the correction history, so that
    // the levels' ladder (docs/LEVELS.md) still measures them.
    let level = |line: &[StandardShogiPosition]| {
        let mut engine = Engine::<StandardShogiPosition>::new(16);
        engine.options.skill = 12;
        engine.set_seed(7);
        let result = engine.search(
            line,
            &Limits::depth(8),
            &SearchControl::default(),
            &mut |_| {},
        );
        (result.best_move, result.nodes)
    };
    let levels_on: Vec<_> = games.iter().map(|line| level(line)).collect();
    params::set("CORRECTION_HISTORY", "0").expect("a tunable in range");
    let levels_off: Vec<_> = games.iter().map(|line| level(line)).collect();
    params::set("CORRECTION_HISTORY", "1").expect("the default is in range");
    assert_eq!(levels_on, levels_off);
}

/// The move and score of a search on two threads.
fn search_with_threads(line: &[StandardShogiPosition], limits: Limits) -> (Move, Score) {
    let mut engine = Engine::<StandardShogiPosition>::new(16);
    engine.options.threads = 2;
    let result = engine.search(line, &limits, &SearchControl::default(), &mut |_| {});
    (result.best_move.expect("a move"), result.score)
}
