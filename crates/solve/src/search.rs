//! The exact search: alpha-beta over loss, draw and win, with a table of
//! bounds under exact keys, race rules, and its state kept on disk.

use crate::race::Race;
use crate::state::{StateDir, JOURNAL_WORK};
use crate::table::{Entry, Table};
use crate::value::Value;
use arrayvec::ArrayVec;
use koma_rules::pawns_board::{After, BoardMove, PawnsBoard, MAX_BOARD_MOVES};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The table's memory on an `n`×`n` board when none is given: a
/// generous fit for the small boards and for 8×8 positions late in the
/// game; the full 8×8 game wants all the memory it can have.
pub fn default_table_bytes(n: usize) -> usize {
    match n {
        ..=6 => 1 << 28,
        _ => 1 << 31,
    }
}

/// How often the progress hook is called, in nodes.
const PROGRESS_NODES: u64 = 1 << 20;

/// How often the state is written out.
const FLUSH_EVERY: Duration = Duration::from_secs(60);

/// Whether `stop` is set, looked at every 1,024 `nodes` only: a search
/// asks at every node.
pub(crate) fn stop_asked(stop: Option<&Arc<AtomicBool>>, nodes: u64) -> bool {
    nodes % 1024 == 0 && stop_set(stop)
}

/// Whether `stop` is set, looked at now.
fn stop_set(stop: Option<&Arc<AtomicBool>>) -> bool {
    stop.is_some_and(|flag| flag.load(Ordering::Relaxed))
}

/// The moves a securing move is chosen from.
enum Candidates<const N: usize> {
    /// A move that wins at once.
    WinsAtOnce(BoardMove),
    /// Every move with the position it leads to, a runner's moves first:
    /// on 7×7 the certificate then has 1.3 M positions instead of 2.1 M
    /// (fewest replies first: 1.9 M).
    Children(Vec<(BoardMove, PawnsBoard<N>)>),
}

impl<const N: usize> Candidates<N> {
    fn of(position: &PawnsBoard<N>) -> Candidates<N> {
        let mut moves = position.moves();
        // The first winning move in the generator's order, as certificates
        // have always chosen it.
        if let Some(&m) = moves.iter().find(|&&m| position.play(m) == After::Won) {
            return Candidates::WinsAtOnce(m);
        }
        Race::of(position).runners_first(&mut moves);
        let children = moves
            .into_iter()
            .filter_map(|m| match position.play(m) {
                After::Won => None,
                After::Continues(child) => Some((m, child)),
            })
            .collect();
        Candidates::Children(children)
    }
}

/// What the progress hook is told.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched, in this run and (with a state) the earlier ones.
    pub nodes: u64,
    /// Positions in the table.
    pub positions: usize,
    /// Positions the table can hold.
    pub capacity: usize,
    /// Records in the state's journal (0 without a state).
    pub journal: u64,
}

/// The solver: its table keeps the bounds it has proven from one question
/// to the next, and (with [`Solver::keep_state`]) on disk from one run to
/// the next.
pub struct Solver<const N: usize> {
    table: Table,
    /// Positions searched in this run (table hits included).
    pub nodes: u64,
    /// Whether a position and its mirror image share an entry.
    mirroring: bool,
    /// Told how far the search has come every [`PROGRESS_NODES`] nodes.
    progress: Option<Box<dyn FnMut(Progress) + Send>>,
    state: Option<StateDir>,
    /// The first error writing the state (after it, the state is no
    /// longer written).
    state_error: Option<io::Error>,
    started: Instant,
    last_flush: Instant,
    /// The node count at which the current question is given up.
    limit: u64,
    /// Whether it was given up: the search unwinds, storing nothing.
    given_up: bool,
    /// Set from elsewhere to give up the current question (see
    /// [`Solver::stop_with`]).
    stop: Option<Arc<AtomicBool>>,
}

impl<const N: usize> Default for Solver<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Solver<N> {
    /// A solver with an empty table of [`default_table_bytes`], mirror
    /// images merged.
    pub fn new() -> Self {
        Self::with_memory(default_table_bytes(N))
    }

    /// A solver whose table takes about `bytes` of memory. When it is
    /// full, positions that were cheap to prove give way.
    pub fn with_memory(bytes: usize) -> Self {
        Solver {
            table: Table::new(bytes),
            nodes: 0,
            mirroring: true,
            progress: None,
            state: None,
            state_error: None,
            started: Instant::now(),
            last_flush: Instant::now(),
            limit: u64::MAX,
            given_up: false,
            stop: None,
        }
    }

    /// A solver that keeps a position and its mirror image apart: slower,
    /// the check that merging them is sound.
    pub fn without_mirroring() -> Self {
        Solver {
            mirroring: false,
            ..Self::new()
        }
    }

    /// Calls `progress` every million nodes or so.
    pub fn on_progress(&mut self, progress: impl FnMut(Progress) + Send + 'static) {
        self.progress = Some(Box::new(progress));
    }

    /// Keeps the solver's state in `dir` for the question of `root`: what
    /// an earlier run proved there is read back into the table, and the
    /// settled answers are returned.
    ///
    /// The directory holds `about` (the size, the root and the mirroring:
    /// a directory of another question is refused), `journal` (every
    /// position whose proof took [`JOURNAL_WORK`] nodes or more, 16 bytes
    /// each, appended as it is proven), `answers` (a line `FEN<TAB>value`
    /// for each settled position, see [`Solver::record_answer`]) and
    /// `progress` (the nodes and seconds of all runs, rewritten at each
    /// flush). A kill loses the last few seconds of the journal.
    pub fn keep_state(
        &mut self,
        dir: &Path,
        root: &PawnsBoard<N>,
    ) -> io::Result<Vec<(String, Value)>> {
        let [size, mirroring] = self.about_lines();
        let about = format!("{size}\nroot {}\n{mirroring}", root.to_fen());
        let (state, resumed) = StateDir::open(dir, &about)?;
        for entry in resumed.entries {
            self.table.store(entry);
        }
        self.state = Some(state);
        Ok(resumed.answers)
    }

    /// Reads what the solve kept in `dir` (see [`Solver::keep_state`])
    /// into the table, whatever its root, without writing to it: the
    /// positions proven. Their number, or why the directory cannot be
    /// read.
    pub fn load_state(&mut self, dir: &Path) -> io::Result<usize> {
        let entries = crate::state::read_journal_of(dir, &self.about_lines())?;
        let count = entries.len();
        for entry in entries {
            self.store_entry(entry);
        }
        Ok(count)
    }

    /// Puts a proven entry into the table (merged with what it holds).
    pub(crate) fn store_entry(&mut self, entry: Entry) {
        self.table.store(entry);
    }

    /// The lines of a state's `about` that say which positions its
    /// journal can serve: the board's size and the mirroring.
    pub(crate) fn about_lines(&self) -> [String; 2] {
        let mirroring = if self.mirroring { "on" } else { "off" };
        [format!("size {N}"), format!("mirroring {mirroring}")]
    }

    /// Settles `position`'s value in the state, if there is one.
    pub fn record_answer(&mut self, position: &PawnsBoard<N>, value: Value) -> io::Result<()> {
        match &mut self.state {
            Some(state) => state.record_answer(&position.to_fen(), value),
            None => Ok(()),
        }
    }

    /// Writes the state out (the journal is also written every minute).
    /// Fails with the first error met writing it.
    pub fn flush_state(&mut self) -> io::Result<()> {
        if let Some(error) = self.state_error.take() {
            return Err(error);
        }
        let (nodes, seconds) = (self.total_nodes(), self.total_seconds());
        if let Some(state) = &mut self.state {
            state.flush(nodes, seconds)?;
        }
        self.last_flush = Instant::now();
        Ok(())
    }

    /// Nodes over all runs of the state (this run's without one).
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.state.as_ref().map_or(0, |s| s.earlier_nodes)
    }

    /// Seconds over all runs of the state (this run's without one).
    pub fn total_seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
            + self.state.as_ref().map_or(0.0, |s| s.earlier_seconds)
    }

    /// Positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The value of `position` for the side to move.
    pub fn value(&mut self, position: &PawnsBoard<N>) -> Value {
        if self.wins(position) {
            Value::Win
        } else if self.loses(position) {
            Value::Loss
        } else {
            Value::Draw
        }
    }

    /// Whether the side to move wins: a yes/no question, cheaper than the
    /// value.
    pub fn wins(&mut self, position: &PawnsBoard<N>) -> bool {
        self.search(position, 0, 1) >= 1
    }

    /// Whether the side to move loses.
    pub fn loses(&mut self, position: &PawnsBoard<N>) -> bool {
        self.search(position, -1, 0) <= -1
    }

    /// [`Solver::wins`] within `nodes` nodes: `None` if it took more.
    /// What was proven on the way stays in the table, so asking again
    /// with more nodes goes on where this left off.
    pub fn wins_within(&mut self, position: &PawnsBoard<N>, nodes: u64) -> Option<bool> {
        self.within(nodes, |solver| solver.search(position, 0, 1) >= 1)
    }

    /// [`Solver::loses`] within `nodes` nodes: `None` if it took more.
    pub fn loses_within(&mut self, position: &PawnsBoard<N>, nodes: u64) -> Option<bool> {
        self.within(nodes, |solver| solver.search(position, -1, 0) <= -1)
    }

    fn within(&mut self, nodes: u64, question: impl FnOnce(&mut Self) -> bool) -> Option<bool> {
        self.limit = self.nodes.saturating_add(nodes);
        let answer = question(self);
        self.limit = u64::MAX;
        let given_up = std::mem::take(&mut self.given_up);
        (!given_up).then_some(answer)
    }

    /// Gives up the question being asked whenever `flag` is set: its
    /// answer is then meaningless and [`Solver::interrupted`] says so.
    /// Nothing given up is stored.
    pub fn stop_with(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Whether a question was given up for the stop flag since the last
    /// call (which clears it).
    pub fn interrupted(&mut self) -> bool {
        std::mem::take(&mut self.given_up)
    }

    fn key(&self, position: &PawnsBoard<N>) -> u128 {
        if self.mirroring {
            position.canonical_key()
        } else {
            position.key()
        }
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes % PROGRESS_NODES != 0 {
            return;
        }
        let progress = Progress {
            nodes: self.total_nodes(),
            positions: self.table.len(),
            capacity: self.table.capacity(),
            journal: self.state.as_ref().map_or(0, |s| s.journal_len()),
        };
        if let Some(report) = &mut self.progress {
            report(progress);
        }
        if self.state.is_some() && self.last_flush.elapsed() >= FLUSH_EVERY {
            if let Err(error) = self.flush_state() {
                self.state_error.get_or_insert(error);
                self.state = None;
            }
        }
    }

    /// Fail-soft alpha-beta: the value if it lies strictly between `alpha`
    /// and `beta`, otherwise a bound on the far side of the window.
    fn search(&mut self, position: &PawnsBoard<N>, alpha: i8, beta: i8) -> i8 {
        let key = self.key(position);
        self.search_keyed(position, key, alpha, beta)
    }

    /// [`Solver::search`] of a position whose table key is `key`.
    fn search_keyed(
        &mut self,
        position: &PawnsBoard<N>,
        key: u128,
        mut alpha: i8,
        mut beta: i8,
    ) -> i8 {
        self.tick();
        if self.nodes >= self.limit || stop_asked(self.stop.as_ref(), self.nodes) {
            self.given_up = true;
            return 0;
        }
        if let Some((lower, upper)) = self.table.get(key) {
            if lower == upper || lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let mut children: ArrayVec<PawnsBoard<N>, MAX_BOARD_MOVES> = ArrayVec::new();
        let race = Race::of(position);
        let mut moves = position.moves();
        // 11 % fewer nodes on 8×8 positions ten plies in.
        race.runners_first(&mut moves);
        for m in moves {
            match position.play(m) {
                After::Won => return 1,
                After::Continues(child) => children.push(child),
            }
        }
        if children.is_empty() {
            // Stalemate.
            return 0;
        }
        let (race_lower, race_upper) = race.bounds();
        if race_lower >= beta || race_lower == race_upper {
            return race_lower;
        }
        if race_upper <= alpha {
            return race_upper;
        }
        alpha = alpha.max(race_lower);
        beta = beta.min(race_upper);
        // A child already known to be bad enough for them settles this
        // position without a search.
        let mut keyed: ArrayVec<(PawnsBoard<N>, u128), MAX_BOARD_MOVES> = ArrayVec::new();
        for child in children {
            let child_key = self.key(&child);
            self.table.prefetch(child_key);
            keyed.push((child, child_key));
        }
        for &(_, child_key) in &keyed {
            if let Some((_, child_upper)) = self.table.get(child_key) {
                if -child_upper >= beta {
                    return -child_upper;
                }
            }
        }
        let nodes_before = self.nodes;
        let start_alpha = alpha;
        let mut best = -1;
        for (child, child_key) in keyed {
            best = best.max(-self.search_keyed(&child, child_key, -beta, -alpha));
            if self.given_up {
                return 0;
            }
            if best >= beta {
                break;
            }
            alpha = alpha.max(best);
        }
        let (lower, upper) = if best <= start_alpha {
            (-1, best)
        } else if best >= beta {
            (best, 1)
        } else {
            (best, best)
        };
        let entry = Entry::new(
            key,
            lower.max(race_lower),
            upper.min(race_upper),
            self.nodes - nodes_before,
        );
        self.table.store(entry);
        if self.nodes - nodes_before >= JOURNAL_WORK {
            if let Some(state) = &mut self.state {
                if let Err(error) = state.record(entry) {
                    self.state_error.get_or_insert(error);
                    self.state = None;
                }
            }
        }
        best
    }

    /// A move of `position` that secures at least `value` for the side to
    /// move, if it has one: a winning move first, then the first that
    /// leaves the other side no better than the complement.
    pub fn securing_move(&mut self, position: &PawnsBoard<N>, value: Value) -> Option<BoardMove> {
        let children = match Candidates::of(position) {
            Candidates::WinsAtOnce(m) => return Some(m),
            Candidates::Children(children) => children,
        };
        children
            .into_iter()
            .find(|(_, child)| self.holds_to(child, value))
            .map(|(m, _)| m)
    }

    /// Whether the other side, to move in `child`, scores no better than
    /// the complement of `value`.
    fn holds_to(&mut self, child: &PawnsBoard<N>, value: Value) -> bool {
        let target = value as i8;
        self.search(child, -target, -target + 1) <= -target
    }

    /// A move of `position` that secures at least `value`, like
    /// [`Solver::securing_move`], found by asking every move in rounds of
    /// growing node budgets: a move that is cheap to prove is found even
    /// when a move tried before it is costly to refute (the perfect player
    /// after 1.d3 waited minutes for the plain order). It may be another
    /// move than `securing_move`'s, so certificates, which must come out
    /// the same on every run, keep to that one. `None` if no move secures
    /// `value`, or if the stop flag was set ([`Solver::interrupted`] then
    /// says so).
    pub fn securing_move_soon(
        &mut self,
        position: &PawnsBoard<N>,
        value: Value,
    ) -> Option<BoardMove> {
        self.securing_in_rounds(position, value, SOON_FIRST_BUDGET)
    }

    /// [`Solver::securing_move_soon`] with `budget` nodes a move in the
    /// first round.
    fn securing_in_rounds(
        &mut self,
        position: &PawnsBoard<N>,
        value: Value,
        mut budget: u64,
    ) -> Option<BoardMove> {
        let mut open = match Candidates::of(position) {
            Candidates::WinsAtOnce(m) => return Some(m),
            Candidates::Children(children) => children,
        };
        while !open.is_empty() {
            let mut still_open = Vec::new();
            for (m, child) in open {
                match self.within(budget, |s| s.holds_to(&child, value)) {
                    Some(true) => return Some(m),
                    Some(false) => {}
                    None if stop_set(self.stop.as_ref()) => {
                        self.given_up = true;
                        return None;
                    }
                    None => still_open.push((m, child)),
                }
            }
            open = still_open;
            budget = budget.saturating_mul(4);
        }
        None
    }
}

/// Nodes each move gets in the first round of
/// [`Solver::securing_move_soon`].
const SOON_FIRST_BUDGET: u64 = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{minimax, random_positions};
    use std::collections::HashMap;

    #[test]
    fn the_search_agrees_with_plain_minimax_with_and_without_mirroring() {
        let mut seen = [0; 3];
        let mut known = HashMap::new();
        let mut check = |position: &PawnsBoard<5>, seen: &mut [usize; 3]| {
            let expected = Value::from_score(minimax(position, &mut known));
            seen[(expected as i8 + 1) as usize] += 1;
            assert_eq!(
                Solver::new().value(position),
                expected,
                "{}",
                position.to_fen()
            );
            let plain = Solver::without_mirroring().value(position);
            assert_eq!(plain, expected, "{}", position.to_fen());
        };
        for plies in [0, 2, 4, 6] {
            for position in random_positions::<5>(plies, 40) {
                check(&position, &mut seen);
            }
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "losses, draws and wins: {seen:?}"
        );
        let four = PawnsBoard::<4>::start();
        let expected = minimax(&four, &mut HashMap::new());
        assert_eq!(Solver::new().value(&four), Value::from_score(expected));
    }

    #[test]
    fn a_move_found_in_rounds_secures_the_value_and_no_more() {
        let mut known = HashMap::new();
        let mut asked = 0;
        for plies in [0, 2, 4, 6] {
            for position in random_positions::<5>(plies, 40) {
                let value = Value::from_score(minimax(&position, &mut known));
                // One node a move at first: the rounds must widen.
                let found = Solver::new().securing_in_rounds(&position, value, 1);
                let Some(m) = found else {
                    assert!(position.moves().is_empty(), "{}", position.to_fen());
                    continue;
                };
                asked += 1;
                let reached = match position.play(m) {
                    After::Won => 1,
                    After::Continues(child) => -minimax(&child, &mut known),
                };
                assert!(reached >= value as i8, "{} {m:?}", position.to_fen());
                if value != Value::Win {
                    let better = Value::from_score(value as i8 + 1);
                    let none = Solver::new().securing_in_rounds(&position, better, 1);
                    assert_eq!(none, None, "{}", position.to_fen());
                }
            }
        }
        assert!(asked > 100, "{asked} positions");
    }
}
