//! The perfect player: from a won position it never lets the win go and
//! takes the shortest win it finds; from a drawn one it never loses; from
//! a lost one it makes the winner take longest.
//!
//! Values come from the [`Solver`] (exact). Lengths come from a search of
//! "does the side to move win within `d` plies?", deepened two plies at a
//! time, with a budget of nodes: a win it finds is a proof (every reply
//! is answered within the limit), so a winning move it picks keeps the
//! win; past the budget the player falls back on the solver's move, which
//! keeps the value but may be longer.

use crate::race::Race;
use crate::search::{stop_asked, Solver};
use crate::value::Value;
use koma_rules::pawns_board::{After, BoardMove, PawnsBoard};
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A choice given up because the stop flag was set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stopped before the position's value was known")
    }
}

impl std::error::Error for Interrupted {}

/// The longest win the length search looks for, in plies.
const LONGEST: u32 = 41;

/// A move the perfect player chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerfectMove {
    /// The move.
    pub best: BoardMove,
    /// The position's value for the side to move.
    pub value: Value,
    /// The plies to the end with this move, when the length search found
    /// them: the winner's last move included, for a win or a loss.
    pub plies: Option<u32>,
}

/// A player that never errs, over a [`Solver`] (with its table, often
/// loaded from a solve's state with [`Solver::load_state`]).
pub struct Perfect<const N: usize> {
    solver: Solver<N>,
    /// Nodes each length search may spend.
    budget: u64,
    stop: Option<Arc<AtomicBool>>,
}

/// The length search of one choice: what it knows of each position, by
/// key: the longest limit known too short, the shortest known enough.
struct Lengths {
    known: FxHashMap<u128, (u32, u32)>,
    nodes: u64,
    budget: u64,
    stop: Option<Arc<AtomicBool>>,
}

impl<const N: usize> Perfect<N> {
    /// A player over `solver` whose length searches spend at most
    /// `budget` nodes each.
    ///
    /// ```
    /// use koma_rules::pawns_board::PawnsBoard;
    /// use koma_solve::{Perfect, Solver, Value};
    ///
    /// let mut player = Perfect::new(Solver::new(), 100_000);
    /// // Both pawns need two moves (a double step, then one), and White
    /// // moves first: b4, e2, b5.
    /// let position = PawnsBoard::<5>::from_fen("5/4p/5/1P3/5 w - - 0 1").unwrap();
    /// let chosen = player.choose(&position).unwrap().unwrap();
    /// assert_eq!(chosen.value, Value::Win);
    /// assert_eq!(position.move_name(chosen.best), "b2b4");
    /// assert_eq!(chosen.plies, Some(3));
    /// ```
    pub fn new(solver: Solver<N>, budget: u64) -> Self {
        Perfect {
            solver,
            budget,
            stop: None,
        }
    }

    /// Gives up a choice whenever `flag` is set (see [`Perfect::choose`]).
    pub fn stop_with(&mut self, flag: Arc<AtomicBool>) {
        self.solver.stop_with(flag.clone());
        self.stop = Some(flag);
    }

    /// The solver behind the player.
    pub fn solver(&mut self) -> &mut Solver<N> {
        &mut self.solver
    }

    /// The move to play in `position` (`None` when it has no move), or
    /// [`Interrupted`] if the stop flag was set before the value, and a
    /// move that keeps it, were known. (Set during a length search, it
    /// only cuts that search short.)
    pub fn choose(&mut self, position: &PawnsBoard<N>) -> Result<Option<PerfectMove>, Interrupted> {
        let moves = position.moves();
        if let Some(&best) = moves.iter().find(|&&m| position.play(m) == After::Won) {
            return Ok(Some(PerfectMove {
                best,
                value: Value::Win,
                plies: Some(1),
            }));
        }
        let Some(&first) = moves.first() else {
            return Ok(None);
        };
        self.solver.interrupted();
        let value = self.solver.value(position);
        if self.solver.interrupted() {
            return Err(Interrupted);
        }
        let mut lengths = Lengths {
            known: FxHashMap::default(),
            nodes: 0,
            budget: self.budget,
            stop: self.stop.clone(),
        };
        let chosen = match value {
            Value::Win => match lengths.shortest_win(position) {
                Some((plies, best)) => PerfectMove {
                    best,
                    value,
                    plies: Some(plies),
                },
                None => PerfectMove {
                    best: self.securing(position, value)?,
                    value,
                    plies: None,
                },
            },
            Value::Draw => PerfectMove {
                best: self.securing(position, value)?,
                value,
                plies: None,
            },
            Value::Loss => {
                let (best, plies) = lengths.longest_resistance(position);
                PerfectMove {
                    best: best.unwrap_or(first),
                    value,
                    plies,
                }
            }
        };
        Ok(Some(chosen))
    }

    fn securing(
        &mut self,
        position: &PawnsBoard<N>,
        value: Value,
    ) -> Result<BoardMove, Interrupted> {
        let m = self.solver.securing_move_soon(position, value);
        if self.solver.interrupted() {
            return Err(Interrupted);
        }
        Ok(m.expect("a position's value is kept by one of its moves"))
    }
}

impl Lengths {
    /// The shortest win of the side to move within [`LONGEST`] plies and
    /// the budget, with its first move.
    fn shortest_win<const N: usize>(
        &mut self,
        position: &PawnsBoard<N>,
    ) -> Option<(u32, BoardMove)> {
        let mut plies = 1;
        while plies <= LONGEST {
            match self.win_within(position, plies, true) {
                Some(Some(m)) => return Some((plies, m)),
                Some(None) => plies += 2,
                None => return None,
            }
        }
        None
    }

    /// In a lost position, the move after which the winner needs the most
    /// plies, and those plies (this move included), found by deepening
    /// the search after every move together: when the budget runs out,
    /// the moves whose win was not yet found are longer than every one
    /// found, and the first of them is chosen (with no length).
    fn longest_resistance<const N: usize>(
        &mut self,
        position: &PawnsBoard<N>,
    ) -> (Option<BoardMove>, Option<u32>) {
        let children: Vec<(BoardMove, PawnsBoard<N>)> = position
            .moves()
            .into_iter()
            .filter_map(|m| match position.play(m) {
                After::Won => None,
                After::Continues(child) => Some((m, child)),
            })
            .collect();
        let mut their_win: Vec<Option<u32>> = vec![None; children.len()];
        let mut plies = 1;
        'deepening: while plies <= LONGEST {
            for (index, (_, child)) in children.iter().enumerate() {
                if their_win[index].is_some() {
                    continue;
                }
                match self.win_within(child, plies, false) {
                    Some(Some(_)) => their_win[index] = Some(plies + 1),
                    Some(None) => {}
                    None => break 'deepening,
                }
            }
            if their_win.iter().all(Option::is_some) {
                break;
            }
            plies += 2;
        }
        if let Some(index) = their_win.iter().position(Option::is_none) {
            return (Some(children[index].0), None);
        }
        let longest = (0..children.len()).max_by_key(|&i| (their_win[i], std::cmp::Reverse(i)));
        match longest {
            Some(index) => (Some(children[index].0), their_win[index]),
            None => (None, None),
        }
    }

    /// Whether the side to move wins within `plies` plies: `Some(Some(m))`
    /// with the first move of such a win (`m` is found only at the `top`;
    /// deeper, any move stands for yes), `Some(None)` for no, `None` when
    /// the budget ran out.
    fn win_within<const N: usize>(
        &mut self,
        position: &PawnsBoard<N>,
        plies: u32,
        top: bool,
    ) -> Option<Option<BoardMove>> {
        self.nodes += 1;
        if self.nodes > self.budget || stop_asked(self.stop.as_ref(), self.nodes) {
            return None;
        }
        let moves = position.moves();
        if let Some(&m) = moves.iter().find(|&&m| position.play(m) == After::Won) {
            return Some(Some(m));
        }
        if plies < 3 || moves.is_empty() {
            return Some(None);
        }
        let key = position.key();
        let (too_short, enough) = self.known.get(&key).copied().unwrap_or((0, u32::MAX));
        if plies <= too_short {
            return Some(None);
        }
        let race = Race::of(position);
        let race_plies = race.won_in().map(|n| 2 * u32::from(n) - 1);
        if !top && (enough <= plies || race_plies.is_some_and(|p| p <= plies)) {
            return Some(Some(moves[0]));
        }
        let mut ordered = moves;
        race.runners_first(&mut ordered);
        for m in ordered {
            let After::Continues(child) = position.play(m) else {
                continue;
            };
            let replies = child.moves();
            // Their stalemate is a draw.
            let mut wins = !replies.is_empty();
            for reply in replies {
                if !wins {
                    break;
                }
                wins = match child.play(reply) {
                    After::Won => false,
                    After::Continues(next) => self.win_within(&next, plies - 2, false)?.is_some(),
                };
            }
            if wins {
                let entry = self.known.entry(key).or_insert((0, u32::MAX));
                entry.1 = entry.1.min(plies);
                return Some(Some(m));
            }
        }
        let entry = self.known.entry(key).or_insert((0, u32::MAX));
        entry.0 = entry.0.max(plies);
        Some(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::random_positions;
    use std::collections::HashMap;
    use std::sync::atomic::Ordering;

    /// The value (1, 0, -1) and the plies to the end under perfect play
    /// (the winner fastest, the loser slowest; 0 for a draw), by plain
    /// minimax over every move.
    fn exact<const N: usize>(
        position: &PawnsBoard<N>,
        known: &mut HashMap<u128, (i8, u32)>,
    ) -> (i8, u32) {
        if let Some(&known) = known.get(&position.key()) {
            return known;
        }
        let mut best: Option<(i8, u32)> = None;
        for m in position.moves() {
            let this = match position.play(m) {
                After::Won => (1, 1),
                After::Continues(child) => {
                    let (value, plies) = exact(&child, known);
                    (-value, if value == 0 { 0 } else { plies + 1 })
                }
            };
            // Higher values first; among wins the shortest, among losses
            // the longest.
            let better = |a: (i8, u32), b: (i8, u32)| {
                a.0 > b.0 || (a.0 == b.0 && ((a.0 == 1 && a.1 < b.1) || (a.0 == -1 && a.1 > b.1)))
            };
            if best.is_none_or(|b| better(this, b)) {
                best = Some(this);
            }
        }
        let best = best.unwrap_or((0, 0));
        known.insert(position.key(), best);
        best
    }

    #[test]
    fn the_perfect_player_keeps_every_value_and_its_lengths_are_exact() {
        let mut player = Perfect::new(Solver::<5>::new(), 1 << 22);
        let mut known = HashMap::new();
        let mut checked = [0; 3];
        let mut lengths = 0;
        for plies in [0, 2, 4, 6, 8] {
            for position in random_positions::<5>(plies, 40) {
                let Some(chosen) = player.choose(&position).unwrap() else {
                    continue;
                };
                let fen = position.to_fen();
                let (value, length) = exact(&position, &mut known);
                assert_eq!(chosen.value as i8, value, "{fen}");
                checked[(value + 1) as usize] += 1;
                // The move keeps the value, and takes as long as perfect
                // play does.
                let after = match position.play(chosen.best) {
                    After::Won => (1, 1),
                    After::Continues(child) => {
                        let (v, p) = exact(&child, &mut known);
                        (-v, if v == 0 { 0 } else { p + 1 })
                    }
                };
                assert_eq!(after.0, value, "{fen}");
                if value != 0 {
                    assert_eq!(after.1, length, "{fen}: the move's length");
                    if let Some(plies) = chosen.plies {
                        assert_eq!(plies, length, "{fen}: the length said");
                        lengths += 1;
                    }
                }
            }
        }
        assert!(
            checked.iter().all(|&n| n > 5),
            "losses, draws, wins: {checked:?}"
        );
        assert!(lengths > 20, "{lengths} lengths checked");
    }

    #[test]
    fn a_choice_stopped_before_the_value_is_known_says_so() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut player = Perfect::new(Solver::<7>::with_memory(1 << 24), 1 << 20);
        player.stop_with(flag.clone());
        assert_eq!(player.choose(&PawnsBoard::<7>::start()), Err(Interrupted));
        // Once the flag is down the player answers, and a stop did not
        // spoil what its table holds.
        flag.store(false, Ordering::Relaxed);
        let six = Perfect::new(Solver::<6>::new(), 1 << 20).choose(&PawnsBoard::<6>::start());
        assert_eq!(six.unwrap().unwrap().value, Value::Draw);
        let runner = PawnsBoard::<7>::from_fen("7/7/1P3p1/7/7/7/7 w - - 0 1").unwrap();
        assert_eq!(player.choose(&runner).unwrap().unwrap().value, Value::Win);
    }
}
