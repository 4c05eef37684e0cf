//! Perft against every number in `testdata/perft/*.perft`. Counts up to
//! `QUICK_LIMIT` nodes run in the default test tier; the rest run with
//! `cargo test --release -- --ignored` (and `koma perft` reproduces them all).

use koma_rules::{
    MinishogiPosition, PawnsPosition, Position, SpearPosition, StandardShogiPosition,
};
use std::path::PathBuf;

const QUICK_LIMIT: u64 = 25_000_000;
const DEEP_LIMIT: u64 = 1_000_000_000;

struct Case {
    id: String,
    position: String,
    depth: u32,
    nodes: u64,
}

fn perft_file(name: &str) -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/perft")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases = Vec::new();
    let (mut id, mut position) = (String::new(), String::new());
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_owned(),
            "sfen" | "fen" => position = rest.to_owned(),
            "perft" => {
                let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
                cases.push(Case {
                    id: id.clone(),
                    position: position.clone(),
                    depth: depth.parse().unwrap(),
                    nodes: nodes.parse().unwrap(),
                });
            }
            _ => {}
        }
    }
    assert!(!cases.is_empty(), "{name} has no cases");
    cases
}

fn check<P: Position>(file: &str, range: std::ops::RangeInclusive<u64>) {
    let mut ran = 0;
    for case in perft_file(file) {
        if !range.contains(&case.nodes) {
            continue;
        }
        let position = P::from_text(&case.position).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(
            position.perft(case.depth),
            case.nodes,
            "{file} {} depth {}",
            case.id,
            case.depth
        );
        ran += 1;
    }
    eprintln!("{file}: {ran} counts checked");
}

#[test]
fn spear() {
    check::<SpearPosition>("spear.perft", 0..=QUICK_LIMIT);
}

#[test]
fn minishogi() {
    check::<MinishogiPosition>("minishogi.perft", 0..=QUICK_LIMIT);
}

#[test]
fn shogi() {
    check::<StandardShogiPosition>("shogi.perft", 0..=QUICK_LIMIT);
}

#[test]
fn pawns() {
    check::<PawnsPosition>("pawns.perft", 0..=QUICK_LIMIT);
}

#[test]
#[ignore = "deep: minutes in release mode"]
fn deep_counts() {
    let range = QUICK_LIMIT + 1..=DEEP_LIMIT;
    check::<SpearPosition>("spear.perft", range.clone());
    check::<MinishogiPosition>("minishogi.perft", range.clone());
    check::<StandardShogiPosition>("shogi.perft", range.clone());
    check::<PawnsPosition>("pawns.perft", range);
}
