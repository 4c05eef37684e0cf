//! Certificates: the strategies that prove a value, written in the format
//! that `koma-proof` documents and checks.

use crate::search::Solver;
use crate::value::Value;
use koma_rules::pawns_board::{After, BoardMove, PawnsBoard};
use rustc_hash::FxHashSet;
use std::io::{self, Write};

/// A side's strategy: the move it plays in each of its positions, securing
/// at least [`Strategy::secures`].
pub struct Strategy<const N: usize> {
    /// Whether the side is White.
    pub white: bool,
    /// A win or a draw.
    pub secures: Value,
    /// The side's positions (it is to move in each) and its move there.
    pub moves: Vec<(PawnsBoard<N>, BoardMove)>,
}

/// The proof of a position's value: one strategy for a win or a loss, two
/// (one for each side, each securing a draw) for a draw.
pub struct Certificate<const N: usize> {
    /// The position.
    pub root: PawnsBoard<N>,
    /// Its value for the side to move.
    pub value: Value,
    /// The strategies that prove it.
    pub strategies: Vec<Strategy<N>>,
}

impl<const N: usize> Certificate<N> {
    /// Proves `root`'s value with `solver` (solving it first if need be)
    /// and collects the strategies that show it.
    pub fn prove(solver: &mut Solver<N>, root: &PawnsBoard<N>) -> Certificate<N> {
        let value = solver.value(root);
        let mover = root.white_to_move();
        let children = || {
            root.moves().into_iter().filter_map(|m| match root.play(m) {
                After::Won => None,
                After::Continues(child) => Some(child),
            })
        };
        let strategies = match value {
            Value::Win => vec![strategy(solver, mover, Value::Win, vec![*root])],
            Value::Loss => vec![strategy(solver, !mover, Value::Win, children().collect())],
            Value::Draw => vec![
                strategy(solver, mover, Value::Draw, vec![*root]),
                strategy(solver, !mover, Value::Draw, children().collect()),
            ],
        };
        Certificate {
            root: *root,
            value,
            strategies,
        }
    }

    /// The positions of all its strategies.
    pub fn len(&self) -> usize {
        self.strategies.iter().map(|s| s.moves.len()).sum()
    }

    /// Whether it has no positions (a root won in one move still has one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes it in `koma-proof`'s format.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "koma-pawns-proof 1")?;
        writeln!(out, "size {N}")?;
        writeln!(out, "root {}", self.root.to_fen())?;
        writeln!(out, "claim {}", self.value)?;
        for strategy in &self.strategies {
            let side = if strategy.white { "white" } else { "black" };
            let count = strategy.moves.len();
            writeln!(out, "strategy {side} {} {count}", strategy.secures)?;
            for (position, m) in &strategy.moves {
                let (white, black) = position.colours();
                out.write_all(&white.to_le_bytes())?;
                out.write_all(&black.to_le_bytes())?;
                out.write_all(&[
                    position.en_passant_file().unwrap_or(255),
                    position.absolute(m.from),
                    position.absolute(m.to),
                ])?;
            }
        }
        writeln!(out, "end")
    }
}

/// The strategy by which the side (`white` or not) secures `goal` from
/// each of `starts`, positions where either side may be to move: in each of
/// its positions it plays a move that keeps the goal; every reply is
/// followed.
fn strategy<const N: usize>(
    solver: &mut Solver<N>,
    white: bool,
    goal: Value,
    starts: Vec<PawnsBoard<N>>,
) -> Strategy<N> {
    let mut seen = FxHashSet::default();
    let mut own = Vec::new();
    let follow_replies = |position: &PawnsBoard<N>, own: &mut Vec<PawnsBoard<N>>| {
        for reply in position.moves() {
            if let After::Continues(next) = position.play(reply) {
                own.push(next);
            }
        }
    };
    for start in starts {
        if start.white_to_move() == white {
            own.push(start);
        } else {
            follow_replies(&start, &mut own);
        }
    }
    let mut moves = Vec::new();
    while let Some(position) = own.pop() {
        if !seen.insert(position.key()) || position.moves().is_empty() {
            continue;
        }
        let m = solver
            .securing_move(&position, goal)
            .expect("a position of the strategy keeps its goal");
        moves.push((position, m));
        if let After::Continues(next) = position.play(m) {
            follow_replies(&next, &mut own);
        }
    }
    Strategy {
        white,
        secures: goal,
        moves,
    }
}
