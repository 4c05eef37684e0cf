//! The search: iterative deepening over a principal variation search with
//! aspiration windows, a transposition table, null-move pruning, late move
//! reductions, and a quiescence search of captures.

use crate::eval::Evaluate;
use crate::history::{piece_square, History, PieceSquare};
use crate::limits::{Limits, TimePlan};
use crate::movepick::MovePicker;
use crate::params::*;
use crate::score::*;
use crate::tt::{Bound, Hit, TranspositionTable};
use arrayvec::ArrayVec;
use koma_rules::{Color, Move, MoveList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a running search is told to stop, or that pondering turned into a
/// real search (`ponderhit`). Clone it to hand it to another thread.
#[derive(Clone, Default, Debug)]
pub struct SearchControl {
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
}

impl SearchControl {
    /// A control for one search; `pondering` if it starts as a ponder search.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(pondering)),
        }
    }

    /// Stops the search as soon as it looks (within about a thousand nodes).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponder_hit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether [`SearchControl::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// Progress of a search, reported after each iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// The depth completed (in plies).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Which line this is (1 = the best) when several are searched.
    pub multipv: u32,
    /// The value of the line.
    pub score: Score,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move (resign).
    pub best_move: Option<Move>,
    /// The reply expected (to ponder on).
    pub ponder_move: Option<Move>,
    /// The value of the best move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
}

/// Options that last beyond one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Kept back from every move for communication delays.
    pub move_overhead: Duration,
    /// Playing strength, 1 (weakest) to 20 (full strength).
    pub skill: u8,
    /// How many best lines to search and report.
    pub multipv: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            move_overhead: Duration::from_millis(50),
            skill: crate::skill::MAX_SKILL,
            multipv: 1,
        }
    }
}

/// A computer player for one game: the search with its memory (table and
/// history), which persists from move to move.
pub struct Engine<P: Evaluate> {
    table: TranspositionTable,
    history: History,
    /// Options; change them between searches.
    pub options: EngineOptions,
    random: u64,
    game: std::marker::PhantomData<P>,
}

/// One root move with what the search found for it.
#[derive(Clone, Debug)]
struct RootMove {
    m: Move,
    value: Value,
    previous_value: Value,
    pv: Vec<Move>,
}

/// The state of one search.
struct Worker<'a, P: Evaluate> {
    table: &'a mut TranspositionTable,
    history: &'a mut History,
    control: &'a SearchControl,
    start: Instant,
    /// When the clock started: the start, or `ponderhit`.
    clock_start: Option<Instant>,
    plan: TimePlan,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Hashes of the game's positions then the search's, for repetitions.
    keys: Vec<u64>,
    /// Whether the side to move was in check at each of `keys`.
    checks: Vec<bool>,
    /// Static evaluations by ply (for `improving`).
    evals: [Value; MAX_PLY + 4],
    /// Whether the move into each ply was a null move.
    null_at: [bool; MAX_PLY + 4],
    /// The piece-square of the move made at each ply (`None` for a null
    /// move), for the continuation history of the next.
    moved: [Option<PieceSquare>; MAX_PLY + 4],
    /// The move a singular extension's search leaves out at each ply.
    excluded: [Option<Move>; MAX_PLY + 4],
    /// The principal variation found from each ply.
    pv: Vec<Vec<Move>>,
    root_moves: Vec<RootMove>,
    root_depth: i32,
    game: std::marker::PhantomData<P>,
}

impl<P: Evaluate> Engine<P> {
    /// An engine with a transposition table of `hash_megabytes` MiB.
    pub fn new(hash_megabytes: usize) -> Engine<P> {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9e37_79b9, |d| d.as_nanos() as u64);
        Engine {
            table: TranspositionTable::new(hash_megabytes),
            history: History::default(),
            options: EngineOptions::default(),
            random: seed | 1,
            game: std::marker::PhantomData,
        }
    }

    /// Resizes the transposition table (which empties it).
    pub fn set_hash_size(&mut self, megabytes: usize) {
        self.table = TranspositionTable::new(megabytes);
    }

    /// Seeds the randomness used by weaker skill levels (for repeatable tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.random = seed | 1;
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.clear();
    }

    /// Searches the last of `positions` (the game so far, for repetitions)
    /// within `limits`, reporting progress to `report`.
    ///
    /// ```
    /// use koma_engine::{Engine, Limits, SearchControl};
    /// use koma_rules::{Position, SpearPosition};
    ///
    /// let mut engine = Engine::new(16);
    /// let start = SpearPosition::start();
    /// let result = engine.search(&[start], &Limits::depth(4), &SearchControl::default(), &mut |_| {});
    /// assert!(start.is_legal(result.best_move.unwrap()));
    /// ```
    pub fn search(
        &mut self,
        positions: &[P],
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let Some(root) = positions.last() else {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: Score::Centipawns(0),
                depth: 0,
                nodes: 0,
                time: Duration::ZERO,
            };
        };
        let skill = crate::skill::Skill::new(self.options.skill);
        let mut limits = limits.clone();
        skill.restrict(&mut limits);
        let multipv = self.options.multipv.max(skill.multipv());
        let moves_left = (P::TYPICAL_PLIES_LEFT / 2).max(8);
        let plan = TimePlan::new(&limits, self.options.move_overhead, moves_left);
        self.table.new_search();
        self.history.clear_killers();
        let legal = root.legal_moves();
        let root_moves = legal
            .iter()
            .map(|&m| RootMove {
                m,
                value: -INFINITE,
                previous_value: -INFINITE,
                pv: vec![m],
            })
            .collect::<Vec<_>>();
        let mut worker = Worker {
            table: &mut self.table,
            history: &mut self.history,
            control,
            start,
            clock_start: (!limits.ponder).then_some(start),
            plan,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys: positions.iter().map(|p| p.hash()).collect(),
            checks: positions.iter().map(|p| p.is_check()).collect(),
            evals: [0; MAX_PLY + 4],
            null_at: [false; MAX_PLY + 4],
            moved: [None; MAX_PLY + 4],
            excluded: [None; MAX_PLY + 4],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            root_moves,
            root_depth: 0,
            game: std::marker::PhantomData,
        };
        let (depth, value) = worker.iterate(root, &limits, multipv as usize, report);
        let nodes = worker.nodes;
        let mut chosen = worker.root_moves.first().cloned();
        if skill.is_limited() {
            let lines = multipv.min(worker.root_moves.len() as u32) as usize;
            if lines > 1 {
                let index = skill.pick(
                    &worker.root_moves[..lines]
                        .iter()
                        .map(|r| r.value)
                        .collect::<Vec<_>>(),
                    &mut self.random,
                );
                chosen = Some(worker.root_moves[index].clone());
            }
        }
        let time = start.elapsed();
        match chosen {
            Some(root_move) => SearchResult {
                best_move: Some(root_move.m),
                ponder_move: root_move.pv.get(1).copied(),
                score: Score::from_value(if root_move.value == -INFINITE {
                    value
                } else {
                    root_move.value
                }),
                depth,
                nodes,
                time,
            },
            None => SearchResult {
                best_move: None,
                ponder_move: None,
                score: Score::from_value(value),
                depth,
                nodes,
                time,
            },
        }
    }
}

impl<P: Evaluate> Worker<'_, P> {
    /// Iterative deepening; returns the last completed depth and value.
    fn iterate(
        &mut self,
        root: &P,
        limits: &Limits,
        multipv: usize,
        report: &mut dyn FnMut(&Info),
    ) -> (u32, Value) {
        if self.root_moves.is_empty() {
            let value = match root.outcome() {
                Some(outcome) if outcome.winner == Some(root.turn()) => mate_in(0),
                Some(outcome) if outcome.winner.is_some() => mated_in(0),
                _ => DRAW,
            };
            return (0, value);
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let multipv = multipv.clamp(1, self.root_moves.len());
        let mut completed = (0, -INFINITE);
        let mut best_changes = 0u32;
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let previous_best = self.root_moves[0].m;
            for root_move in &mut self.root_moves {
                root_move.previous_value = root_move.value;
            }
            for line in 0..multipv {
                self.search_line(root, depth as i32, line, report);
                if self.stopped {
                    break;
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            completed = (depth, self.root_moves[0].value);
            self.report_lines(depth, multipv, report);
            if self.stopped {
                break;
            }
            if self.root_moves[0].m != previous_best {
                best_changes += 1;
            }
            // Timed searches stop early: one legal move, a mate found, or
            // too little time left for another iteration.
            if limits.infinite || self.control.is_pondering() {
                continue;
            }
            let value = self.root_moves[0].value;
            if self.plan.soft.is_some() {
                if self.root_moves.len() == 1 && depth >= 4 {
                    break;
                }
                if is_mate(value) && (MATE - value.abs()) as u32 <= depth {
                    break;
                }
            }
            if let (Some(soft), Some(clock_start)) = (self.plan.soft, self.clock_start) {
                let instability = 1.0 + 0.3 * best_changes.min(3) as f64;
                let soft = soft.mul_f64(instability);
                if clock_start.elapsed() > soft.mul_f64(0.6) {
                    break;
                }
                best_changes = best_changes.saturating_sub(1);
            }
        }
        // Stopped inside the first iteration: no searched value; the static
        // evaluation stands in (never a mate score made of -INFINITE).
        if completed.1 == -INFINITE {
            completed.1 = if root.in_danger() {
                DRAW
            } else {
                root.evaluate()
            };
        }
        // A ponder search must not answer before `ponderhit` or `stop`.
        while (limits.infinite || limits.ponder && self.control.is_pondering())
            && !self.control.is_stopped()
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        completed
    }

    /// Searches root moves from `line` on with an aspiration window around
    /// the line's previous value, and moves the best to position `line`.
    fn search_line(&mut self, root: &P, depth: i32, line: usize, report: &mut dyn FnMut(&Info)) {
        let previous = self.root_moves[line].previous_value;
        let mut delta = ASPIRATION_WINDOW * P::MARGIN_SCALE;
        let (mut alpha, mut beta) = if depth >= 4 && previous != -INFINITE && !is_mate(previous) {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.root_search(root, depth, alpha, beta, line);
            self.root_moves[line..].sort_by_key(|r| std::cmp::Reverse(r.value));
            if self.stopped {
                return;
            }
            let bound = if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
                Bound::Upper
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if self.start.elapsed() > Duration::from_secs(2) {
                let pv = self.root_moves[line].pv.clone();
                report(&self.info(depth as u32, line, value, Some(bound), pv));
            }
            delta += delta / 2;
        }
    }

    fn root_search(
        &mut self,
        root: &P,
        depth: i32,
        mut alpha: Value,
        beta: Value,
        line: usize,
    ) -> Value {
        let mut best = -INFINITE;
        for root_move in &mut self.root_moves[line..] {
            root_move.value = -INFINITE;
        }
        let in_danger = root.in_danger();
        self.evals[0] = if in_danger {
            -INFINITE
        } else {
            root.evaluate()
        };
        for index in line..self.root_moves.len() {
            let m = self.root_moves[index].m;
            self.moved[0] = Some(piece_square(root.mover_kind(m), m));
            let mut child = *root;
            child.play_unchecked(m);
            self.count_node();
            self.push(&child);
            let value = if index == line {
                -self.search(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let mut value = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1);
                if value > alpha && value < beta {
                    value = -self.search(&child, depth - 1, -beta, -alpha, 1);
                }
                value
            };
            self.pop();
            if self.stopped {
                break;
            }
            let root_move = &mut self.root_moves[index];
            if value > alpha || index == line {
                root_move.value = value;
                root_move.pv.clear();
                root_move.pv.push(m);
                root_move.pv.extend_from_slice(&self.pv[1]);
            }
            if value > best {
                best = value;
            }
            if value > alpha {
                alpha = value;
                if value >= beta {
                    break;
                }
            }
        }
        best
    }

    fn push(&mut self, position: &P) {
        self.keys.push(position.hash());
        self.checks.push(position.is_check());
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
    }

    /// Counts a node (a move made) and looks at the clock now and then.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            self.check_time();
        }
    }

    fn check_time(&mut self) {
        if self.control.is_stopped() {
            self.stopped = true;
            return;
        }
        if self.control.is_pondering() {
            return;
        }
        let clock_start = *self.clock_start.get_or_insert_with(Instant::now);
        if let Some(hard) = self.plan.hard {
            // Depth 1 always finishes, so there is a move to play.
            if clock_start.elapsed() >= hard && self.root_depth > 1 {
                self.stopped = true;
            }
        }
    }

    /// A repetition of an earlier position with the same side to move:
    /// a draw, or a loss for a side that gave check all the way round.
    fn repetition(&self) -> Option<Value> {
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let mut index = current;
        let oldest = current.saturating_sub(REPETITION_LOOKBACK);
        while index >= oldest + 2 {
            index -= 2;
            if self.keys[index] == key {
                // Positions in the cycle where the opponent was to move
                // came after our moves: all checks means we gave perpetual.
                let we_checked = (index + 1..current).step_by(2).all(|i| self.checks[i]);
                let they_checked = (index + 2..=current).step_by(2).all(|i| self.checks[i]);
                return Some(if we_checked {
                    -PERPETUAL_CHECK
                } else if they_checked {
                    PERPETUAL_CHECK
                } else {
                    DRAW
                });
            }
        }
        None
    }

    /// The value of a position whose result the evaluation already knows.
    #[inline]
    fn known(&self, position: &P, ply: usize) -> Option<Value> {
        position.known_result().map(|plies| match plies {
            0 => mated_in(ply),
            n if n > 0 => mate_in(ply + n as usize),
            n => mated_in(ply + (-n) as usize),
        })
    }

    /// The value of a position without legal moves.
    fn terminal(position: &P, ply: usize) -> Value {
        match position.outcome() {
            Some(outcome) => match outcome.winner {
                Some(winner) if winner == position.turn() => mate_in(ply),
                Some(_) => mated_in(ply),
                None => DRAW,
            },
            None => DRAW,
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn search(
        &mut self,
        position: &P,
        mut depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if let Some(value) = self.known(position, ply) {
            return value;
        }
        if let Some(value) = self.repetition() {
            return value;
        }
        if ply >= MAX_PLY - 2 {
            return position.evaluate();
        }
        // Mate distance pruning: no line here can beat a mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let in_danger = position.in_danger();
        if in_danger && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence_known(position, alpha, beta, ply, in_danger, true);
        }
        if self.stopped {
            return DRAW;
        }
        let hash = position.hash();
        let excluded = self.excluded[ply];
        let hit = self.table.probe(hash);
        if let Some(hit) = hit {
            let value = from_table(hit.value, ply);
            // Without the excluded move the table's value is not this node's.
            if !pv_node && hit.depth >= depth && excluded.is_none() {
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if usable {
                    return value;
                }
            }
        }
        let eval = if in_danger {
            -INFINITE
        } else {
            hit.map_or_else(|| position.evaluate(), |hit| hit.eval)
        };
        self.evals[ply] = eval;
        let improving = !in_danger && ply >= 2 && eval > self.evals[ply - 2];

        if !pv_node && !in_danger && !is_mate(beta) && excluded.is_none() {
            // Reverse futility: far enough above beta that a quiet move
            // will not bring it down.
            if depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * P::MARGIN_SCALE * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will.
            if P::NULL_MOVE && depth >= 3 && eval >= beta && !self.null_at[ply] {
                if let Some(child) = position.null_move() {
                    let reduction = NULL_BASE_REDUCTION
                        + depth / 4
                        + ((eval - beta) / (NULL_MARGIN_PER_PLY * P::MARGIN_SCALE)).min(2);
                    self.count_node();
                    self.push(&child);
                    self.null_at[ply + 1] = true;
                    self.moved[ply] = None;
                    let value =
                        -self.search(&child, depth - 1 - reduction, -beta, -beta + 1, ply + 1);
                    self.null_at[ply + 1] = false;
                    self.pop();
                    if self.stopped {
                        return DRAW;
                    }
                    if value >= beta {
                        return if is_mate(value) { beta } else { value };
                    }
                }
            }
        }

        let mut moves = MoveList::new();
        position.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return Self::terminal(position, ply);
        }
        let table_move = hit
            .and_then(|hit| hit.best_move)
            .filter(|m| moves.contains(m));
        let previous = ply.checked_sub(1).and_then(|parent| self.moved[parent]);
        let mut picker = MovePicker::new(position, moves, table_move, self.history, ply, previous);
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let original_alpha = alpha;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        while let Some((m, order)) = picker.next() {
            if Some(m) == excluded {
                continue;
            }
            let mut extension = 0;
            if P::SINGULAR_EXTENSION && Some(m) == table_move && excluded.is_none() {
                match self.singular(position, hit, m, depth, beta, ply) {
                    Singular::Extend => extension = 1,
                    Singular::Cut(value) => return value,
                    Singular::No => {}
                }
                if self.stopped {
                    return DRAW;
                }
            }
            let quiet = position.captured_value(m) == 0 && position.promotion_gain(m) == 0;
            let mut child = *position;
            child.play_unchecked(m);
            let gives_check = child.in_danger();
            // Moves that lose material by static exchange, at shallow depth:
            // captures and checks past a margin growing with depth, other
            // quiet moves past one growing with its square.
            if !pv_node
                && !in_danger
                && best > -MATE_BOUND
                && searched > 0
                && depth <= SEE_MAX_DEPTH
            {
                let margin = if quiet && !gives_check {
                    SEE_QUIET_MARGIN * P::MARGIN_SCALE * depth * depth
                } else {
                    SEE_CAPTURE_MARGIN * P::MARGIN_SCALE * depth
                };
                // Ordering found a winning capture already: it loses nothing.
                if !MovePicker::is_winning_capture_score(order) && !position.see_ge(m, -margin) {
                    continue;
                }
            }
            let quiet_non_check = quiet && !gives_check;
            if !pv_node && !in_danger && quiet_non_check && best > -MATE_BOUND && searched > 0 {
                // Late move pruning and futility: at shallow depth, late
                // quiet moves rarely matter.
                let late = LMP_BASE + depth * depth * if improving { 2 } else { 1 };
                if depth <= LMP_MAX_DEPTH && searched as i32 >= late {
                    continue;
                }
                if depth <= FUTILITY_MAX_DEPTH
                    && eval + (FUTILITY_MARGIN * depth + FUTILITY_BASE) * P::MARGIN_SCALE <= alpha
                {
                    continue;
                }
            }
            self.moved[ply] = Some(piece_square(position.mover_kind(m), m));
            self.count_node();
            self.push(&child);
            let value = if searched == 0 {
                -self.search(&child, depth - 1 + extension, -beta, -alpha, ply + 1)
            } else {
                let mut reduction = 0;
                if depth >= 3 && quiet && searched >= if pv_node { 3 } else { 2 } {
                    reduction = lmr(depth, searched);
                    reduction += !improving as i32;
                    reduction -= pv_node as i32;
                    reduction -= MovePicker::is_killer_score(order) as i32;
                    if order > 4_000 {
                        reduction -= 1;
                    } else if order < -4_000 {
                        reduction += 1;
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                let mut value =
                    -self.search(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if value > alpha && reduction > 0 {
                    value = -self.search(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if value > alpha && value < beta && pv_node {
                    value = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                value
            };
            self.pop();
            if self.stopped {
                return DRAW;
            }
            searched += 1;
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        if quiet {
                            self.reward_quiet(position, m, &quiets_tried, depth, ply, previous);
                        }
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(m);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A search without one move says nothing about the node.
        if excluded.is_some() {
            return best;
        }
        self.table.store(
            hash,
            best_move.or(table_move),
            to_table(best, ply),
            if in_danger { 0 } else { eval },
            depth,
            bound,
        );
        best
    }

    /// Whether the table's move at this node stands alone: every other
    /// move, searched to half the depth, falls short of its value by a
    /// margin. When even the others beat beta, the node is a cut node
    /// twice over and returns at once (multi-cut).
    fn singular(
        &mut self,
        position: &P,
        hit: Option<Hit>,
        m: Move,
        depth: i32,
        beta: Value,
        ply: usize,
    ) -> Singular {
        let Some(hit) = hit else {
            return Singular::No;
        };
        let table_value = from_table(hit.value, ply);
        if depth < SINGULAR_MIN_DEPTH
            || (ply as i32) >= 2 * self.root_depth
            || hit.bound == Bound::Upper
            || hit.depth < depth - SINGULAR_DEPTH_SLACK
            || is_mate(table_value)
        {
            return Singular::No;
        }
        let singular_beta = table_value - SINGULAR_MARGIN_PER_PLY * P::MARGIN_SCALE * depth;
        self.excluded[ply] = Some(m);
        let value = self.search(
            position,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
        );
        self.excluded[ply] = None;
        if value < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    fn reward_quiet(
        &mut self,
        position: &P,
        m: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        previous: Option<PieceSquare>,
    ) {
        let us: Color = position.turn();
        let bonus = (depth * depth * 16).min(2000);
        self.history.add_killer(ply, m);
        self.history
            .update(us, position.mover_kind(m), m, bonus, previous);
        for &other in tried {
            self.history
                .update(us, position.mover_kind(other), other, -bonus, previous);
        }
    }

    fn quiescence(&mut self, position: &P, alpha: Value, beta: Value, ply: usize) -> Value {
        if let Some(value) = self.known(position, ply) {
            return value;
        }
        if ply >= MAX_PLY - 2 {
            return position.evaluate();
        }
        self.quiescence_known(position, alpha, beta, ply, position.in_danger(), false)
    }

    /// Quiescence once the caller has looked for a known result and the
    /// ply limit, and knows whether the side to move is in danger (the main
    /// search has, at its horizon: not done twice). At the horizon itself
    /// (`horizon`), quiet checks that lose nothing are tried too.
    fn quiescence_known(
        &mut self,
        position: &P,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        in_danger: bool,
        horizon: bool,
    ) -> Value {
        if self.stopped {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut best = -INFINITE;
        let mut stand_pat = -INFINITE;
        if !in_danger {
            stand_pat = position.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut moves = MoveList::new();
        if in_danger {
            position.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return Self::terminal(position, ply);
            }
        } else {
            position.tactical_moves_into(&mut moves);
        }
        let mut picker = MovePicker::tactical(position, moves);
        // Captures first; then, at the horizon, quiet checks.
        let mut checks = MoveList::new();
        let mut checks_generated = false;
        let mut next_check = 0;
        loop {
            let m = if let Some((m, _)) = picker.next() {
                if !in_danger {
                    let gain = position.captured_value(m) + position.promotion_gain(m);
                    if stand_pat + gain + DELTA_MARGIN * P::MARGIN_SCALE < alpha
                        || !position.see_ge(m, 0)
                    {
                        continue;
                    }
                }
                m
            } else if horizon && !in_danger {
                if !checks_generated {
                    position.quiet_checks_into(&mut checks);
                    checks_generated = true;
                }
                let Some(&m) = checks.get(next_check) else {
                    break;
                };
                next_check += 1;
                if !position.see_ge(m, 0) {
                    continue;
                }
                m
            } else {
                break;
            };
            let mut child = *position;
            child.play_unchecked(m);
            self.count_node();
            let value = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return DRAW;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn info(
        &self,
        depth: u32,
        line: usize,
        value: Value,
        bound: Option<Bound>,
        pv: Vec<Move>,
    ) -> Info {
        let time = self.start.elapsed();
        let nps = (self.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64;
        Info {
            depth,
            seldepth: self.seldepth.max(depth as usize) as u32,
            multipv: line as u32 + 1,
            score: Score::from_value(value),
            bound,
            nodes: self.nodes,
            time,
            nps,
            hashfull: self.table.hashfull(),
            pv,
        }
    }

    fn report_lines(&self, depth: u32, lines: usize, report: &mut dyn FnMut(&Info)) {
        for (line, root_move) in self.root_moves.iter().take(lines).enumerate() {
            if root_move.value == -INFINITE {
                continue;
            }
            report(&self.info(depth, line, root_move.value, None, root_move.pv.clone()));
        }
    }
}

/// What a singular extension's test found.
enum Singular {
    /// The table's move stands alone: search it a ply deeper.
    Extend,
    /// Other moves beat beta too: the node fails high with this value.
    Cut(Value),
    /// Neither.
    No,
}

/// The late move reduction for the `searched`-th move at `depth`.
fn lmr(depth: i32, searched: usize) -> i32 {
    let value = LMR_BASE + (depth as f64).ln() * (searched as f64).ln() / LMR_DIVISOR;
    value as i32
}
