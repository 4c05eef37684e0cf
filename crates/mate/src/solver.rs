//! The solver: proves a mate by df-pn, shortens it to the shortest mate
//! against the longest resistance, reads the line out and checks it with
//! the rules.

use crate::checkmate_line::line_to_checkmate;
use crate::dfpn::{Budget, Child, Search};
use crate::mate_line::is_mate_line;
use crate::moves::king_capture;
use crate::table::{Depth, Known, Table, UNLIMITED};
use koma_rules::{Move, ShogiPosition, ShogiVariant};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long a solve may run, and with how big a table.
#[derive(Clone, Copy, Debug)]
pub struct MateLimits {
    /// Give up after this long.
    pub time: Option<Duration>,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
    /// The table's size in MiB.
    pub table_megabytes: usize,
    /// Try a short mate first, within 7, 15 then 31 plies and a share of
    /// the nodes, before the unbounded proof (see `FIRST_TRIES`). On for
    /// problems; the engine's probe at the root turns it off until a
    /// self-play match says what it is worth there.
    pub short_first: bool,
}

impl Default for MateLimits {
    /// No limit but the table's 256 MiB.
    fn default() -> Self {
        MateLimits {
            time: None,
            nodes: None,
            table_megabytes: 256,
            short_first: true,
        }
    }
}

/// What a solve found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MateAnswer {
    /// A mate: the attacker's and defender's moves in turn, ending in
    /// checkmate on the board (in Spear, with the king's capture). Where
    /// the shortest mate as problems count it ends on a distant check that
    /// the defender could still block by a drop, the line goes on with
    /// such a useless interposition and its capture until the defender has
    /// no legal move (see [`crate::line_to_checkmate`]); those plies are
    /// not in [`MateReport::length`].
    Mate(Vec<Move>),
    /// No mate: every line of checks fails.
    NoMate,
    /// The limits ran out before either was proven.
    Unknown,
}

/// A solve's answer and what it cost.
#[derive(Clone, Debug)]
pub struct MateReport {
    /// The answer.
    pub answer: MateAnswer,
    /// For a mate, its length as problems count it: the plies of the line
    /// less each useless interposition and its capture (shown where
    /// nothing else holds out as long, and at the end until the defender
    /// is checkmated on the board); when not proven the shortest, the
    /// number of plies a mate was proven within. 0 otherwise.
    pub length: u16,
    /// For a mate, whether it is proven the shortest (false when the
    /// limits ran out while shortening it).
    pub shortest: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl MateReport {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> u64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            (self.nodes as f64 / seconds) as u64
        } else {
            0
        }
    }
}

/// How a solve is going, told now and then.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

/// The depths (plies) the first proof tries before it searches without a
/// bound, each within so many nodes. The third keeps the search from the
/// long sequences of checks it can follow unbounded: on cshogi-labelled
/// positions it found mates within 31 plies that 10 s of unbounded
/// search did not (docs/performance/mate.md, "Proof pieces and a third first
/// try").
const FIRST_TRIES: [(Depth, u64); 3] = [(7, 20_000), (15, 200_000), (31, 1_000_000)];

/// The stack a solve runs on: the search recurses a frame per ply.
const STACK_BYTES: usize = 512 << 20;

/// Solves mate problems; keeps its table between problems of one game
/// only while `clear` is not called.
pub struct Solver {
    table: Table,
}

impl Solver {
    /// A solver whose table holds about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Solver {
        Solver {
            table: Table::new(megabytes),
        }
    }

    /// Forgets what earlier solves found.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `position` for the side to move: the shortest mate against
    /// the longest resistance, no mate, or unknown when `limits` (or
    /// `stop`) end it first. `progress` is told the node count now and then.
    pub fn solve<V: ShogiVariant>(
        &mut self,
        position: &ShogiPosition<V>,
        limits: &MateLimits,
        stop: Option<&AtomicBool>,
        progress: Option<&mut (dyn FnMut(Progress) + Send)>,
    ) -> MateReport {
        let started = Instant::now();
        let table = &mut self.table;
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("koma-mate".into())
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    solve_on(table, position, limits, stop, progress, started)
                })
                .expect("a thread for the solver")
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }
}

fn solve_on<V: ShogiVariant>(
    table: &mut Table,
    position: &ShogiPosition<V>,
    limits: &MateLimits,
    stop: Option<&AtomicBool>,
    progress: Option<&mut (dyn FnMut(Progress) + Send)>,
    started: Instant,
) -> MateReport {
    let mut tell = progress.map(|p| {
        move |nodes| {
            p(Progress {
                nodes,
                elapsed: started.elapsed(),
            })
        }
    });
    let budget = Budget {
        deadline: limits.time.map(|t| started + t),
        nodes: limits.nodes,
        stop,
        progress: tell.as_mut().map(|t| t as &mut dyn FnMut(u64)),
    };
    let mut search = Search::new(table, position.turn(), budget);
    let report = |search: &Search<V>, answer, length, shortest| MateReport {
        answer,
        length,
        shortest,
        nodes: search.nodes,
        elapsed: started.elapsed(),
    };

    // A short mate first, within a few plies and a share of the nodes:
    // unbounded, df-pn can follow long sequences of checks whose numbers
    // keep looking hopeful while a short mate waits beside them (issue
    // 54's mate in 7: 3.9 M nodes unbounded, 4.6 k within 7 plies).
    let mut first = Known::disproven(0);
    let tries = if limits.short_first {
        &FIRST_TRIES[..]
    } else {
        &[]
    };
    for &(depth, nodes) in tries {
        first = search.within(position, depth, nodes);
        if first.is_proven() || search.aborted {
            break;
        }
    }
    if !first.is_proven() && !search.aborted {
        first = search.prove(position, UNLIMITED);
    }
    if first.is_disproven() {
        return report(&search, MateAnswer::NoMate, 0, false);
    }
    if !first.is_proven() {
        return report(&search, MateAnswer::Unknown, 0, false);
    }
    // Shorten: ask for a mate two plies shorter than the best known until
    // there is none. Each proof gives its own length, often shorter still.
    let mut length = first.depth;
    let mut shortest = true;
    while length >= 3 {
        let shorter = search.prove(position, length - 2);
        if shorter.is_proven() {
            length = shorter.depth.min(length - 2);
        } else if shorter.is_disproven() {
            break;
        } else {
            shortest = false;
            break;
        }
    }
    let line = if shortest {
        read_line(&mut search, position, length)
    } else {
        None
    };
    let line = line.or_else(|| table_line(&mut search, position, length));
    match line {
        Some(line) if is_mate_line(position, &line) => {
            // Not proven the shortest, `length` is still a bound that a
            // proof holds to, whatever the line's defender chose.
            let counted = length;
            // The line as played on a board, to checkmate: the length
            // stays the convention's. (A line `is_mate_line` accepts always
            // goes on so; were it not to, the convention's line is still a
            // mate.)
            let line = line_to_checkmate(position, &line).unwrap_or(line);
            report(&search, MateAnswer::Mate(line), counted, shortest)
        }
        _ => report(&search, MateAnswer::Unknown, 0, false),
    }
}

/// The mate of exactly `length` plies from `root`, read by search: at each
/// attacker's turn a check that still mates in time, at each defender's
/// turn an answer that holds out longest. A useless interposition is
/// shown (with its capture) only where nothing else holds out as long; a
/// line may end where the defender has nothing else left.
fn read_line<V: ShogiVariant>(
    search: &mut Search<V>,
    root: &ShogiPosition<V>,
    length: Depth,
) -> Option<Vec<Move>> {
    let attacker = root.turn();
    let mut position = *root;
    let mut depth = length;
    let mut line = Vec::new();
    loop {
        let or_node = position.turn() == attacker;
        let mut children = match step(search, &position, or_node, depth) {
            Step::Children(children) => children,
            Step::Mated(last) => {
                line.extend(last);
                return Some(line);
            }
            Step::NoMate => return None,
        };
        if or_node {
            if depth == 0 {
                return None;
            }
            // Those the table already proves first.
            children.sort_by_cached_key(|c| match search.look(&c.position, c.depth) {
                Some(k) if k.is_proven() => 0,
                Some(k) if k.is_disproven() => 2,
                _ => 1,
            });
            let chosen = first_where(search, children, |k| k.is_proven(), Some)?;
            line.push(chosen.m);
            position = chosen.position;
            depth = chosen.depth;
            continue;
        }
        if depth == 0 {
            // Only useless interpositions are left: mated, as problems count.
            return children.iter().all(|c| c.capture.is_some()).then_some(line);
        }
        children.sort_by_key(|c| defence_order(&position, c.m));
        let (useless, real): (Vec<_>, Vec<_>) =
            children.into_iter().partition(|c| c.capture.is_some());
        // A real answer holds out `depth` plies when the attacker cannot
        // mate two plies sooner; an interposition, counted as nothing,
        // when its capture leaves no mate two plies sooner.
        if let Some(chosen) = first_where(search, real, |k| k.is_disproven(), |d| d.checked_sub(2))
        {
            line.push(chosen.m);
            position = chosen.position;
            depth = chosen.depth;
            continue;
        }
        if search.aborted {
            return None;
        }
        let chosen = first_where(search, useless, |k| k.is_disproven(), |d| d.checked_sub(2))?;
        let capture = chosen.capture?;
        line.push(chosen.m);
        line.push(capture);
        position.play_unchecked(chosen.m);
        position.play_unchecked(capture);
    }
}

/// Where a line being read stands at one position.
enum Step<V: ShogiVariant> {
    /// It goes on to one of these.
    Children(Vec<Child<V>>),
    /// The defender is mated: after this last move (Spear's king capture),
    /// or already, having no move.
    Mated(Option<Move>),
    /// The attacker has no check: not a mate.
    NoMate,
}

/// How a line goes on from `position`: in Spear it ends when the attacker
/// can take the king, and anywhere when the side to move has no move.
fn step<V: ShogiVariant>(
    search: &mut Search<V>,
    position: &ShogiPosition<V>,
    or_node: bool,
    depth: Depth,
) -> Step<V> {
    if V::KINGS_ARE_CAPTURED && or_node {
        if let Some(capture) = king_capture(position) {
            return Step::Mated(Some(capture));
        }
    }
    let mut children = search.expand(position, or_node, depth);
    if !or_node {
        search.settle_interpositions(&mut children);
    }
    match (children.is_empty(), or_node) {
        (false, _) => Step::Children(children),
        (true, false) => Step::Mated(None),
        (true, true) => Step::NoMate,
    }
}

/// The first child whose search at `depth_of(child.depth)` satisfies
/// `wanted`; a child with no such depth (too few plies to ask) satisfies it.
fn first_where<V: ShogiVariant>(
    search: &mut Search<V>,
    children: Vec<Child<V>>,
    wanted: impl Fn(Known) -> bool,
    depth_of: impl Fn(Depth) -> Option<Depth>,
) -> Option<Child<V>> {
    for child in children {
        let Some(depth) = depth_of(child.depth) else {
            return Some(child);
        };
        let known = search.prove(&child.position, depth);
        if search.aborted {
            return None;
        }
        if wanted(known) {
            return Some(child);
        }
    }
    None
}

/// Among answers that hold out equally long, the one a problem's author
/// would show: a board move before a drop (an interposed piece is often
/// taken for nothing), a capture before a quiet move.
fn defence_order<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> (bool, bool) {
    let capture = position.piece_at(m.to()).is_some();
    (m.is_drop(), !capture)
}

/// A mate line of `length` plies at most read from the table alone, with
/// no search (the budget may have run out): at the attacker's turns the
/// check the table proves shortest within the plies left, at the
/// defender's the answer it proves longest. A useless interposition
/// stands for its capture as in the search bounded by depth that proved
/// the mate, and both moves go into the line. After a proof within
/// `length`, every node on such a line is proven within its plies; an
/// answer the table has forgotten is passed over, and the line may then
/// be shorter than the longest defence (it is checked as a mate all the
/// same). No line if the table forgot every answer or check of a node.
fn table_line<V: ShogiVariant>(
    search: &mut Search<V>,
    root: &ShogiPosition<V>,
    length: Depth,
) -> Option<Vec<Move>> {
    let attacker = root.turn();
    let mut position = *root;
    let mut depth = length;
    let mut line = Vec::new();
    // Each ply lowers the depth but an interposition's two; the defender
    // has few pieces to drop.
    while line.len() <= 2 * usize::from(length) + 2 * MAX_INTERPOSED {
        let or_node = position.turn() == attacker;
        let children = match step(search, &position, or_node, depth) {
            Step::Children(children) => children,
            Step::Mated(last) => {
                line.extend(last);
                return Some(line);
            }
            Step::NoMate => return None,
        };
        if depth == 0 && !or_node && children.iter().all(|c| c.capture.is_some()) {
            // Only useless interpositions are left: mated, as problems count.
            return Some(line);
        }
        let proven = children
            .into_iter()
            .filter_map(|child| search.proven_length(&child).map(|length| (length, child)));
        let (_, chosen) = if or_node {
            proven.min_by_key(|(length, _)| *length)?
        } else {
            proven.max_by_key(|(length, child)| (*length, child.capture.is_none()))?
        };
        line.push(chosen.m);
        line.extend(chosen.capture);
        position = chosen.position;
        depth = chosen.depth;
    }
    None
}

/// Pieces a defender may drop in a row on a line read from the table.
const MAX_INTERPOSED: usize = 38;
