//! The search on known positions: mates in the shogi games, king captures
//! in Spear, races in Pawns-Only Chess; legal moves always; `stop`, node
//! and time limits honoured.

use koma_engine::{Engine, Evaluate, Limits, Score, SearchControl};
use koma_rules::{
    MinishogiPosition, PawnsPosition, Position, SpearPosition, StandardShogiPosition,
};
use std::time::{Duration, Instant};

fn solve<P: Evaluate>(text: &str, depth: u32) -> (String, Score) {
    let position = P::from_text(text).expect("test positions parse");
    let mut engine = Engine::<P>::new(16);
    let result = engine.search(
        &[position],
        &Limits::depth(depth),
        &SearchControl::default(),
        &mut |_| {},
    );
    let best = result.best_move.expect("a move");
    assert!(position.is_legal(best));
    (P::move_to_text(best), result.score)
}

/// Mate distances confirmed by Fairy-Stockfish (plies, USI convention).
#[test]
fn finds_shogi_mates() {
    assert_eq!(
        solve::<StandardShogiPosition>("7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1", 5),
        ("G*1b".into(), Score::MatePlies(1))
    );
    assert_eq!(
        solve::<StandardShogiPosition>("7nl/7k1/9/7P1/9/9/9/9/4K4 b 2G 1", 7),
        ("G*2c".into(), Score::MatePlies(3))
    );
    let (_, score) = solve::<StandardShogiPosition>("8l/7k1/6ppp/9/9/9/9/9/4K4 b RS 1", 9);
    assert_eq!(score, Score::MatePlies(5));
}

/// `go searchmoves`: a mate in one left out of the moves searched is not
/// played, and a list naming no legal move searches them all.
#[test]
fn searches_only_the_moves_it_is_given() {
    let position = StandardShogiPosition::from_text("7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1").unwrap();
    let mate = position.parse_move("G*1b").unwrap();
    let quiet = position.parse_move("5i5h").unwrap();
    let search = |moves: Vec<_>| {
        let limits = Limits {
            search_moves: moves,
            ..Limits::depth(4)
        };
        let mut engine = Engine::<StandardShogiPosition>::new(16);
        let result = engine.search(&[position], &limits, &SearchControl::default(), &mut |_| {});
        (result.best_move, result.score)
    };
    let (best, score) = search(vec![quiet]);
    assert_eq!(best, Some(quiet));
    assert!(matches!(score, Score::Centipawns(_)), "{score:?}");
    let (best, score) = search(vec![quiet, mate]);
    assert_eq!((best, score), (Some(mate), Score::MatePlies(1)));
    // No piece stands on 5a.
    let illegal = StandardShogiPosition::parse_move_syntax("5a5b").unwrap();
    assert!(!position.is_legal(illegal));
    assert_eq!(search(vec![illegal]).0, Some(mate));
}

#[test]
fn finds_minishogi_mates() {
    assert_eq!(
        // G*1b and R*5a both mate.
        solve::<MinishogiPosition>("4k/5/3+P1/5/K4 b RG 1", 5).1,
        Score::MatePlies(1)
    );
    assert_eq!(
        solve::<MinishogiPosition>("3sk/5/3P1/5/K4 b GR 1", 7).1,
        Score::MatePlies(3)
    );
}

#[test]
fn finds_spear_king_captures() {
    assert_eq!(
        solve::<SpearPosition>("4k/5/5/5/K3L b G 1", 4),
        ("1e1a+".into(), Score::MatePlies(1))
    );
    assert_eq!(
        solve::<SpearPosition>("4k/5/2G2/5/K4 b S 1", 9).1,
        Score::MatePlies(5)
    );
}

#[test]
fn sees_the_pawn_race_exactly() {
    // Black takes the last white pawn.
    assert_eq!(
        solve::<PawnsPosition>("8/8/2p5/1P6/8/8/8/8 b - - 0 1", 3),
        ("c6b5".into(), Score::MatePlies(1))
    );
    // Black's g-pawn queens... reaches g1 next move whatever White does.
    assert_eq!(
        solve::<PawnsPosition>("8/2p5/8/1P1P4/8/8/6p1/8 w - - 0 1", 3).1,
        Score::MatePlies(-2)
    );
    // White's a-pawn outruns Black's h-pawn by a tempo.
    assert_eq!(
        solve::<PawnsPosition>("8/7p/8/8/P7/8/8/8 w - - 0 1", 2).1,
        Score::MatePlies(7)
    );
    // A race the evaluation cannot call: the search must find the
    // breakthrough b5-b6 (classic three against three).
    let (_, score) = solve::<PawnsPosition>("8/ppp5/8/PPP5/8/8/8/8 w - - 0 1", 14);
    assert!(matches!(score, Score::MatePlies(n) if n > 0), "{score:?}");
}

/// Plays a game of engine against engine at tiny node counts: every move
/// the engine picks must be legal, to the end of the game.
fn self_play<P: Evaluate>(nodes: u64, plies: usize) {
    let mut engine = Engine::<P>::new(4);
    let mut positions = vec![P::start()];
    for _ in 0..plies {
        let position = *positions.last().unwrap();
        let result = engine.search(
            &positions,
            &Limits::nodes(nodes),
            &SearchControl::default(),
            &mut |_| {},
        );
        match result.best_move {
            Some(m) => {
                assert!(position.is_legal(m), "{:?} in {}", m, position.to_text());
                positions.push(position.play(m).unwrap());
            }
            None => {
                assert!(position.legal_moves().is_empty());
                break;
            }
        }
        if positions.last().unwrap().outcome().is_some() {
            break;
        }
    }
}

#[test]
fn never_plays_an_illegal_move() {
    for nodes in [1, 50, 3000] {
        self_play::<SpearPosition>(nodes, 200);
        self_play::<MinishogiPosition>(nodes, 200);
        self_play::<StandardShogiPosition>(nodes, 120);
        self_play::<PawnsPosition>(nodes, 120);
    }
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let control = SearchControl::default();
    let remote = control.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        remote.stop();
        Instant::now()
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut engine = Engine::<StandardShogiPosition>::new(16);
    let result = engine.search(
        &[StandardShogiPosition::start()],
        &limits,
        &control,
        &mut |_| {},
    );
    let stopped_at = stopper.join().unwrap();
    assert!(result.best_move.is_some());
    // Generous: the check comes every 1024 nodes; a loaded machine is slow.
    assert!(stopped_at.elapsed() < Duration::from_secs(2));
}

#[test]
fn node_and_depth_limits_are_kept() {
    let mut engine = Engine::<MinishogiPosition>::new(16);
    let result = engine.search(
        &[MinishogiPosition::start()],
        &Limits::nodes(5000),
        &SearchControl::default(),
        &mut |_| {},
    );
    assert!(result.nodes <= 5000, "{}", result.nodes);
    let mut depths = Vec::new();
    engine.search(
        &[MinishogiPosition::start()],
        &Limits::depth(5),
        &SearchControl::default(),
        &mut |info| depths.push(info.depth),
    );
    assert_eq!(depths.last(), Some(&5));
}

#[test]
fn a_repetition_is_a_draw_in_search() {
    // Kings shuffle: after 5a4a 1e2e 4a5a 2e1e the start repeats.
    let start = SpearPosition::from_text("4k/5/5/5/K4 b - 1").unwrap();
    let mut positions = vec![start];
    for text in ["5e4e", "1a2a", "4e5e", "2a1a"] {
        let next = positions
            .last()
            .unwrap()
            .play(positions.last().unwrap().parse_move(text).unwrap())
            .unwrap();
        positions.push(next);
    }
    let mut engine = Engine::<SpearPosition>::new(16);
    let result = engine.search(
        &positions,
        &Limits::depth(6),
        &SearchControl::default(),
        &mut |_| {},
    );
    assert_eq!(result.score, Score::Centipawns(0));
}

#[test]
fn a_search_stopped_at_once_still_answers_with_a_sane_score() {
    let control = SearchControl::default();
    control.stop();
    let mut engine = Engine::<StandardShogiPosition>::new(1);
    let start = StandardShogiPosition::start();
    let result = engine.search(&[start], &Limits::depth(10), &control, &mut |_| {});
    assert!(start.is_legal(result.best_move.unwrap()));
    assert!(
        matches!(result.score, Score::Centipawns(_)),
        "{:?}",
        result.score
    );
    let result = engine.search(
        &[start],
        &Limits::nodes(1),
        &SearchControl::default(),
        &mut |_| {},
    );
    assert!(
        matches!(result.score, Score::Centipawns(_)),
        "{:?}",
        result.score
    );
}

/// In minishogi a repetition loses for sente: gote, a gold down, steers
/// back into a position of the game with sente to move, and sees a win.
#[test]
fn minishogi_repetition_is_a_win_for_gote() {
    let a = MinishogiPosition::from_text("4k/5/2G2/5/K4 w - 1").unwrap();
    let mut positions = vec![a];
    for m in ["1a1b", "5e5d", "1b1a", "5d5e"] {
        let last = positions.last().unwrap();
        let next = last.play(last.parse_move(m).unwrap()).unwrap();
        positions.push(next);
    }
    assert_eq!(positions.last(), Some(&a));
    let mut engine = Engine::<MinishogiPosition>::new(16);
    let result = engine.search(
        &positions,
        &Limits::depth(4),
        &SearchControl::default(),
        &mut |_| {},
    );
    let best = result.best_move.map(MinishogiPosition::move_to_text);
    assert_eq!(best.as_deref(), Some("1a1b"));
    assert!(
        matches!(result.score, Score::Centipawns(v) if v >= 10_000),
        "{:?}",
        result.score
    );
}

#[test]
fn two_threads_search_together_and_answer_legally() {
    let mut engine = Engine::<MinishogiPosition>::new(16);
    engine.options.threads = 2;
    let position = MinishogiPosition::start();
    let mut last = None;
    let result = engine.search(
        &[position],
        &Limits::move_time(Duration::from_millis(300)),
        &SearchControl::default(),
        &mut |info| last = Some(info.clone()),
    );
    assert!(position.is_legal(result.best_move.unwrap()));
    // The helper's nodes are counted: more than the main thread reported
    // at its last completed depth alone would be, and every info counts
    // both threads.
    let last = last.unwrap();
    assert!(
        result.nodes >= last.nodes,
        "{} {}",
        result.nodes,
        last.nodes
    );
}

#[test]
fn a_search_to_a_node_count_is_the_same_with_threads() {
    let search = |threads| {
        let mut engine = Engine::<MinishogiPosition>::new(16);
        engine.options.threads = threads;
        let result = engine.search(
            &[MinishogiPosition::start()],
            &Limits::nodes(20_000),
            &SearchControl::default(),
            &mut |_| {},
        );
        (result.best_move, result.score, result.nodes)
    };
    assert_eq!(search(1), search(2));
}
