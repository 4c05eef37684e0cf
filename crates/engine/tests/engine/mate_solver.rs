//! The mate solver beside the search: a long mate by checks, shorter than
//! any the search alone finds, is found at the root; a mate the search
//! claims is proven and played at once; and neither happens when the
//! solver is off or the level weakened.

use koma_engine::{Engine, Info, Limits, Score, SearchControl, SearchResult};
use koma_rules::{Position, StandardShogiPosition};

/// Mate in 15 by checks from `crates/mate/tests/mate/data/tsume.txt` (answer
/// checked against another solver there): the search alone, at this
/// budget, does not find it (Fairy-Stockfish sees no mate in 3 s).
/// (The mate in 19 this test used before has a mate in 11 through a quiet
/// pawn drop, which shogi's fourth network lets the search find alone.)
const MATE_IN_15: &str = "k8/9/2b6/9/+PL7/9/9/9/9 b SN3P2rb4g3s3n3l14p 1";

/// The search's budget without the solver: it finds no mate this short.
const BUDGET: u64 = 1_000_000;

/// The budget with the solver: a sixteenth of it (the solver's share) is
/// enough for the solver's nodes (59,768 before proof pieces, which
/// changed its path through this problem; more than a sixteenth of
/// `BUDGET` since).
const SOLVER_BUDGET: u64 = 2 * BUDGET;

fn search(
    text: &str,
    limits: &Limits,
    configure: impl FnOnce(&mut Engine<StandardShogiPosition>),
) -> (SearchResult, Vec<Info>) {
    let position = StandardShogiPosition::from_text(text).unwrap();
    let mut engine = Engine::new(16);
    configure(&mut engine);
    let mut infos = Vec::new();
    let result = engine.search(
        &[position],
        limits,
        &SearchControl::default(),
        &mut |info| infos.push(info.clone()),
    );
    (result, infos)
}

#[test]
fn a_long_mate_by_checks_is_found_at_the_root() {
    let (result, infos) = search(MATE_IN_15, &Limits::nodes(SOLVER_BUDGET), |_| {});
    assert_eq!(result.score, Score::MatePlies(15));
    let root = StandardShogiPosition::from_text(MATE_IN_15).unwrap();
    let line = &infos.last().unwrap().pv;
    assert_eq!(line.len(), 15);
    assert!(koma_mate::is_mate_line(&root, line));
    assert_eq!(Some(line[0]), result.best_move);
    // Played at once: the solver's share of the nodes, not the search's.
    assert!(
        result.nodes <= SOLVER_BUDGET / 16 + 1000,
        "{}",
        result.nodes
    );
}

#[test]
fn without_the_solver_the_search_misses_the_shortest_mate() {
    // The search alone finds at best a longer mate (17 plies at this
    // budget with shogi's fourth network), with all its nodes.
    let (result, _) = search(MATE_IN_15, &Limits::nodes(BUDGET), |engine| {
        engine.options.mate_solver = false
    });
    assert_ne!(result.score, Score::MatePlies(15));
    assert!(result.nodes > BUDGET / 2, "{}", result.nodes);
}

#[test]
fn a_weakened_level_gets_no_help() {
    let (result, _) = search(MATE_IN_15, &Limits::nodes(BUDGET), |engine| {
        engine.options.skill = 10
    });
    assert_ne!(result.score, Score::MatePlies(15));
}

#[test]
fn a_search_to_a_fixed_depth_is_the_search_alone() {
    let on = search(MATE_IN_15, &Limits::depth(5), |_| {}).0;
    let off = search(MATE_IN_15, &Limits::depth(5), |engine| {
        engine.options.mate_solver = false
    })
    .0;
    assert_eq!(
        (on.best_move, on.score, on.nodes),
        (off.best_move, off.score, off.nodes)
    );
}

#[test]
fn a_mate_the_search_claims_is_proven_and_played_at_once() {
    // One check only (the knight's, unpromoted), so no solve before the
    // search: the search claims the mate, the solver proves it, the search
    // stops.
    let mate_in_one = "7nk/7bl/9/9/6N2/9/9/9/4K4 b - 1";
    let limits = Limits::nodes(50_000_000);
    let (result, _) = search(mate_in_one, &limits, |_| {});
    assert_eq!(result.score, Score::MatePlies(1));
    assert!(result.nodes < 100_000, "{}", result.nodes);
    let (alone, _) = search(mate_in_one, &limits, |engine| {
        engine.options.mate_solver = false
    });
    assert_eq!(alone.score, Score::MatePlies(1));
    assert!(
        alone.nodes > result.nodes,
        "{} {}",
        alone.nodes,
        result.nodes
    );
}

#[test]
fn a_budget_too_small_to_prove_anything_leaves_the_root_to_the_search() {
    // A sixteenth of 100,000 nodes is below the root solve's minimum.
    let (result, _) = search(MATE_IN_15, &Limits::nodes(100_000), |_| {});
    assert!(
        !matches!(result.score, Score::MatePlies(_)),
        "{:?}",
        result.score
    );
}
