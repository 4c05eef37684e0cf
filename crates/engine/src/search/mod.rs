//! The search: iterative deepening over a principal variation search with
//! aspiration windows, a transposition table, null-move pruning, late move
//! reductions, and a quiescence search of captures.
//!
//! [`Engine`] holds what lasts from move to move and starts each search;
//! a `Worker` (`worker`) holds one search's state, and the search is its
//! methods, one concern to a file: the root (`root`: iterative deepening,
//! aspiration, MultiPV), when a timed search stops deepening
//! (`stopping`), a node below it (`alpha_beta`: pruning,
//! reductions, extensions), the singular extension's test (`singular`),
//! quiescence (`quiescence`) and the mate solver beside it (`mate`).
//!
//! With [`EngineOptions::threads`] above one, helper threads search the
//! same root at once (Lazy SMP): each its own worker and history, all one
//! transposition table, which takes no lock (see `tt`). The main thread
//! reports and keeps the clock; the helpers stop when it does. The move
//! played is the main thread's, or with the `THREAD_VOTE` switch the one
//! the threads vote for (`vote`).

mod alpha_beta;
mod control;
mod info;
mod mate;
mod network_stack;
mod nnue;
mod probcut;
mod quiescence;
mod root;
mod singular;
mod solvers;
mod stopping;
mod vote;
mod worker;

pub use control::SearchControl;
pub use info::{Info, SearchResult};

use crate::correction::CorrectionHistory;
use crate::eval::Evaluate;
use crate::history::History;
use crate::limits::{Limits, TimePlan};
use crate::params;
use crate::score::*;
use crate::tt::TranspositionTable;
use koma_nnue::Network;
use koma_rules::{Declaration, ImpasseRule, Position};
use solvers::{MateBudget, MateProbe, MateSolvers};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use worker::{Pool, RootMove, Worker};

/// [`Engine::set_network`]'s refusal: the network evaluates another game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a network for {network}, not for {engine}")]
pub struct NetworkForAnotherGame {
    /// The game the network was trained for.
    pub network: koma_rules::Variant,
    /// The game the engine plays.
    pub engine: koma_rules::Variant,
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
    /// The impasse rule under which the engine declares (`bestmove win`)
    /// when its declaration wins; `None`: it never declares.
    pub impasse: Option<ImpasseRule>,
    /// How many threads search at once (Lazy SMP over the shared table);
    /// searches to a node count, and weakened levels, use one.
    pub threads: usize,
    /// Whether the mate solver works beside the search at full strength:
    /// at a root with checks, and on a mate the search claims (see
    /// `search::mate`). Off, the search is alone.
    pub mate_solver: bool,
    /// Whether the search evaluates with the engine's network where it
    /// has one ([`Engine::set_network`]); off, or without one, it uses the
    /// classical evaluation.
    pub use_nnue: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            move_overhead: Duration::from_millis(50),
            skill: crate::skill::MAX_SKILL,
            multipv: 1,
            impasse: Some(ImpasseRule::TwentySeven),
            mate_solver: true,
            threads: 1,
            use_nnue: true,
        }
    }
}

impl EngineOptions {
    /// The rule under which the side to move in `position` wins by
    /// declaring impasse now (USI's `bestmove win`), if it does.
    ///
    /// ```
    /// use koma_engine::EngineOptions;
    /// use koma_rules::{ImpasseRule, Position, StandardShogiPosition};
    ///
    /// let options = EngineOptions::default();
    /// let entered = "+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b R5P 1";
    /// let position = StandardShogiPosition::from_text(entered).unwrap();
    /// assert_eq!(options.winning_declaration(&position), Some(ImpasseRule::TwentySeven));
    /// assert_eq!(options.winning_declaration(&StandardShogiPosition::start()), None);
    /// ```
    pub fn winning_declaration<P: Position>(&self, position: &P) -> Option<ImpasseRule> {
        self.impasse
            .filter(|&rule| position.impasse_declaration(rule) == Declaration::Win)
    }
}

/// A computer player for one game: the search with its memory (table and
/// history), which persists from move to move.
pub struct Engine<P: Evaluate> {
    table: TranspositionTable,
    /// The evaluation's corrections (with `CORRECTION_HISTORY`), kept
    /// from move to move as the histories are.
    correction: CorrectionHistory,
    history: History,
    /// The helper threads' histories, kept from move to move as the main
    /// thread's is.
    helper_histories: Vec<History>,
    mate: MateSolvers,
    /// The network the search evaluates with (its game's, embedded, unless
    /// another was set); `None`: the classical evaluation.
    network: Option<Arc<Network>>,
    /// Options; change them between searches.
    pub options: EngineOptions,
    random: u64,
    /// The length of the game the last search was given and the root's
    /// value it found, which the next search's clock compares with its
    /// own (`search::stopping`).
    last_search: Option<(usize, Value)>,
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
            correction: CorrectionHistory::default(),
            history: History::default(),
            helper_histories: Vec::new(),
            mate: MateSolvers::new(),
            network: crate::networks::embedded(P::VARIANT),
            options: EngineOptions::default(),
            random: seed | 1,
            last_search: None,
            game: std::marker::PhantomData,
        }
    }

    /// Resizes the transposition table (which empties it).
    pub fn set_hash_size(&mut self, megabytes: usize) {
        self.table = TranspositionTable::new(megabytes);
    }

    /// Evaluates with `network` from the next search on (`None`: the
    /// classical evaluation). A network of another game is refused, and
    /// the engine keeps the one it had.
    pub fn set_network(
        &mut self,
        network: Option<Arc<Network>>,
    ) -> Result<(), NetworkForAnotherGame> {
        if let Some(network) = &network {
            if network.variant() != P::VARIANT {
                return Err(NetworkForAnotherGame {
                    network: network.variant(),
                    engine: P::VARIANT,
                });
            }
        }
        self.network = network;
        Ok(())
    }

    /// The network the search evaluates with when [`EngineOptions::use_nnue`]
    /// is on.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Seeds the randomness used by weaker skill levels (for repeatable tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.random = seed | 1;
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.correction.clear();
        self.history.clear();
        self.helper_histories.clear();
        self.mate.clear();
        self.last_search = None;
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
        let plan = TimePlan::new(&limits, self.options.move_overhead, root.moves_left());
        self.table.new_search();
        self.history.clear_killers();
        let mut legal = root.legal_moves();
        if legal.iter().any(|m| limits.search_moves.contains(m)) {
            legal.retain(|m| limits.search_moves.contains(m));
        }
        let root_moves = legal
            .iter()
            .map(|&m| RootMove {
                m,
                value: -INFINITE,
                previous_value: -INFINITE,
                effort: 0,
                pv: vec![m],
            })
            .collect::<Vec<_>>();
        // The solver helps only at full strength: a weakened level must
        // not see the long mates the search alone would miss.
        let mate_budget = MateBudget::for_search(&limits, plan.soft.or(plan.hard))
            .filter(|_| self.options.mate_solver && !skill.is_limited());
        let mate = mate_budget.map(|budget| MateProbe {
            solvers: &mut self.mate,
            budget,
            claim_checked: false,
        });
        // Helper threads (Lazy SMP); a search to a node count stays on one
        // thread, to be the same on every run (an analysis, training data),
        // and so does a weakened level.
        let helpers = if limits.nodes.is_none() && !skill.is_limited() {
            self.options.threads.max(1) - 1
        } else {
            0
        };
        if self.helper_histories.len() < helpers {
            self.helper_histories.resize_with(helpers, History::default);
        }
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let best_changes = AtomicU32::new(0);
        let pool = |index| {
            (helpers > 0).then_some(Pool {
                done: &done,
                helper_nodes: &helper_nodes,
                best_changes: &best_changes,
                threads: helpers as u32 + 1,
                index,
            })
        };
        let table = &self.table;
        // The correction history where its SPRT passed; a weakened level
        // searches without it: the levels' ladder (docs/LEVELS.md)
        // measured them so.
        let corrects = match params::correction_history() {
            0 => false,
            1 => P::VARIANT == koma_rules::Variant::Shogi,
            _ => true,
        };
        let correction = (corrects && !skill.is_limited()).then_some(&self.correction);
        let impasse = self.options.impasse;
        let network = self.network.as_deref().filter(|_| self.options.use_nnue);
        // This side's last search, if it was of the position two plies ago.
        let previous_value = self
            .last_search
            .filter(|&(length, _)| length + 2 == positions.len())
            .map(|(_, value)| value);
        let (depth, value, nodes, root_moves, ballots) = std::thread::scope(|scope| {
            let running = self.helper_histories[..helpers]
                .iter_mut()
                .enumerate()
                .map(|(index, history)| {
                    history.clear_killers();
                    let root_moves = root_moves.clone();
                    let pool = pool(index + 1);
                    scope.spawn(move || {
                        // No clock: the main thread ends the helpers.
                        let limits = Limits::default();
                        let plan = TimePlan {
                            soft: None,
                            hard: None,
                        };
                        let mut helper = Worker::new(
                            table, correction, history, None, control, start, plan, &limits,
                            positions, root_moves, impasse, pool, network,
                        );
                        let (depth, value) = helper.iterate(root, &limits, 1, &mut |_| {});
                        (
                            helper.nodes,
                            vote::Ballot::of(&helper.root_moves, depth, value),
                        )
                    })
                })
                .collect::<Vec<_>>();
            let mut worker = Worker::new(
                table,
                correction,
                &mut self.history,
                mate,
                control,
                start,
                plan,
                &limits,
                positions,
                root_moves,
                impasse,
                pool(0),
                network,
            );
            worker.last_search_value = previous_value;
            let (depth, value) = worker.iterate(root, &limits, multipv as usize, report);
            done.store(true, Ordering::Relaxed);
            let mut nodes = worker.nodes;
            let mut ballots = Vec::from_iter(vote::Ballot::of(&worker.root_moves, depth, value));
            for helper in running {
                let (helped, ballot) = helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                nodes += helped;
                ballots.extend(ballot);
            }
            (depth, value, nodes, worker.root_moves, ballots)
        });
        let mut chosen = root_moves.first().cloned();
        let (mut depth, mut value) = (depth, value);
        // The threads vote when there are several and one line is asked
        // for; not in a search to a depth, which answers for that depth
        // (the main thread's), as Stockfish's does.
        if ballots.len() > 1 && params::thread_vote() != 0 && multipv == 1 && limits.depth.is_none()
        {
            let winner = vote::winner(&ballots, params::thread_vote_margin() * P::MARGIN_SCALE);
            if winner != 0 {
                let ballot = &ballots[winner];
                (depth, value) = (ballot.depth, ballot.root_move.value);
                chosen = Some(ballot.root_move.clone());
                // What is shown is what is played.
                let time = start.elapsed();
                report(&Info {
                    depth,
                    seldepth: depth,
                    multipv: 1,
                    score: Score::from_value(value),
                    bound: None,
                    nodes,
                    time,
                    nps: info::nodes_per_second(nodes, time),
                    hashfull: self.table.hashfull(),
                    pv: ballot.root_move.pv.clone(),
                });
            }
        }
        self.last_search = Some((positions.len(), value));
        if skill.is_limited() {
            let lines = multipv.min(root_moves.len() as u32) as usize;
            if lines > 1 {
                let index = skill.pick(
                    &root_moves[..lines]
                        .iter()
                        .map(|r| r.value)
                        .collect::<Vec<_>>(),
                    &mut self.random,
                );
                chosen = Some(root_moves[index].clone());
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
