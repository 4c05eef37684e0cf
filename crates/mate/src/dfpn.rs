//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε
//! thresholds of Pawlewicz and Lew: the attacker (the side to move at the
//! root) checks at every OR node, the defender answers at every AND node,
//! and a node is proven when the defender has no answer.
//!
//! A search may be bounded by a depth: then a proof says "mate within that
//! many plies" and a disproof "none within them", which is how the solver
//! finds the shortest mate once it knows one.
//!
//! A position met again on the current path (a repetition) is no mate for
//! that path: in shogi a perpetual check loses for the side giving it. What
//! that decides holds for the path only, until the search is back at the
//! position repeated (see `crate::path`).

use crate::estimate::{delay_key, first_numbers, Coverage, DelayKey};
use crate::interposition::{captures, without_the_piece, Interposition};
use crate::moves::{checks, defences, king_capture};
use crate::path::{extended, Path};
use crate::pieces::{
    before_move, cluster_key, disproof_at_attack, disproof_at_defence, disproof_of_any,
    disproof_without_checks, key_of, larger, off_board, off_board_after, proof_at_defence, smaller,
    taken_by,
};
use crate::table::{Depth, HandKey, Known, Number, Table, INFINITE, LARGEST, NO_LOOP, UNLIMITED};
use koma_rules::{Color, Move, Role, ShogiPosition, ShogiVariant, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The deepest the search recurses; no mate is claimed along deeper lines.
pub const MAX_PLY: usize = 4096;

/// When a search must stop.
pub struct Budget<'a> {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop when this becomes true.
    pub stop: Option<&'a AtomicBool>,
    /// Told the node count now and then.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
}

/// One child of a node: the move, where it leads, and its keys.
pub struct Child<V: ShogiVariant> {
    /// The move.
    pub m: Move,
    /// The position it leads to; for a useless interposition, the position
    /// after the attacker takes the piece, without the piece.
    pub position: ShogiPosition<V>,
    /// For a useless interposition (無駄合), the attacker's capture of
    /// the piece: the child is searched as the position after it, and the
    /// two moves are counted as no plies.
    pub capture: Option<Move>,
    /// The depth the child is searched at.
    pub depth: Depth,
    /// For a drop that stands for its capture: what it becomes when that
    /// is disproven.
    interposition: Option<Box<Interposition<V>>>,
    board: u64,
    hand: HandKey,
    /// The key of the path to its parent (see `crate::path`).
    parent_path: u64,
    /// Known without search (a mate or a repetition), never looked up.
    fixed: Option<Known>,
    /// The role the move takes, unpromoted, if it takes one.
    taken: Option<Role>,
    /// The like move (see [`DelayKey`]) this one waits for: it is searched
    /// only once that one is settled the way that leaves the node open
    /// (proven at the defender's turn, disproven at the attacker's).
    after: Option<u16>,
    /// Whether it is searched now: it waits for nothing, or what it waits
    /// for is settled.
    active: bool,
    /// The last numbers seen for it, used if the table forgot it.
    last: Known,
}

/// One search over a table.
pub struct Search<'t, 'b, V: ShogiVariant> {
    table: &'t mut Table,
    attacker: Color,
    path: Path,
    ply: usize,
    budget: Budget<'b>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Whether the budget ran out.
    pub aborted: bool,
    /// A node count at which this search stops early: one step of a
    /// search that may try again otherwise (see [`Search::within`]).
    cap: Option<u64>,
    /// Whether it stopped at `cap` rather than at the budget.
    capped: bool,
    marker: std::marker::PhantomData<V>,
}

/// How often (in nodes) the budget is looked at.
const BUDGET_INTERVAL: u64 = 1 << 10;
/// How often (in nodes) progress is told.
const PROGRESS_INTERVAL: u64 = 1 << 16;

/// One more ply than a child's counted `depth` (-1 for a useless
/// interposition that is mated at once), for its parent's length or
/// disproof depth.
fn plus_one(depth: i32) -> Depth {
    if depth >= i32::from(UNLIMITED) - 1 {
        UNLIMITED
    } else {
        (depth + 1).max(0) as Depth
    }
}

/// The depth a child of a node at `depth` is searched at.
fn child_depth(depth: Depth) -> Depth {
    if depth == UNLIMITED {
        UNLIMITED
    } else {
        depth.saturating_sub(1)
    }
}

/// `value` raised by the 1+ε factor (ε = 1/4), at least by one.
fn widened(value: Number) -> Number {
    if value >= LARGEST {
        return INFINITE;
    }
    value.saturating_add((value / 4).max(1)).min(LARGEST)
}

impl<'t, 'b, V: ShogiVariant> Search<'t, 'b, V> {
    /// A search for `attacker`'s mates, over `table`, within `budget`.
    pub fn new(table: &'t mut Table, attacker: Color, budget: Budget<'b>) -> Self {
        Search {
            table,
            attacker,
            path: Path::default(),
            ply: 0,
            budget,
            nodes: 0,
            aborted: false,
            cap: None,
            capped: false,
            marker: std::marker::PhantomData,
        }
    }

    /// Whether the attacker mates from `position` within `depth` plies
    /// ([`UNLIMITED`]: at all): proven, disproven, or open if the budget
    /// ran out first (or the numbers grew past counting).
    pub fn prove(&mut self, position: &ShogiPosition<V>, depth: Depth) -> Known {
        if let Some(known) = self.fixed(position, depth) {
            return known;
        }
        if let Some(known) = self.look(position, depth) {
            if known.is_proven() || known.is_disproven() {
                return known;
            }
        }
        // One call searches until the position is solved, the budget runs
        // out, or its numbers reach the largest there is (left open).
        let path = extended(0, position.hash());
        let board = cluster_key(position);
        self.mid(position, board, depth, path, LARGEST, LARGEST)
    }

    /// [`Search::prove`] within `nodes` more nodes at most: open if they
    /// run out first, and the search goes on afterwards as if they had not
    /// been set (the budget's own end still ends it).
    pub fn within(&mut self, position: &ShogiPosition<V>, depth: Depth, nodes: u64) -> Known {
        self.cap = Some(self.nodes.saturating_add(nodes));
        let known = self.prove(position, depth);
        self.cap = None;
        if self.capped {
            self.capped = false;
            self.aborted = false;
        }
        known
    }

    /// The length of the mate the search knows after `child` without
    /// searching (fixed, or proven in the table within its depth), if any.
    pub fn proven_length(&self, child: &Child<V>) -> Option<Depth> {
        child
            .fixed
            .or_else(|| self.look(&child.position, child.depth))
            .filter(|known| known.is_proven())
            .map(|known| known.depth)
    }

    /// What the table knows of `position` searched at `depth`.
    pub fn look(&self, position: &ShogiPosition<V>, depth: Depth) -> Option<Known> {
        self.table.get(
            cluster_key(position),
            HandKey::of(position.hand(self.attacker)),
            depth,
        )
    }

    /// What a position is without search: Spear's ends by king capture,
    /// and an OR node with no ply left.
    fn fixed(&self, position: &ShogiPosition<V>, depth: Depth) -> Option<Known> {
        let defender = !self.attacker;
        let or_node = position.turn() == self.attacker;
        if V::KINGS_ARE_CAPTURED {
            if position.hand(defender).count(Role::King) > 0 {
                return Some(Known::disproven(UNLIMITED));
            }
            if position.hand(self.attacker).count(Role::King) > 0 {
                return Some(Known::proven(0));
            }
            if or_node && depth >= 1 && king_capture(position).is_some() {
                return Some(Known::proven(1));
            }
        }
        // No plies left: no hand mates.
        (or_node && depth == 0).then_some(Known::disproven(0).with_pieces(disproof_of_any()))
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes % BUDGET_INTERVAL != 0 {
            return;
        }
        let out_of_time = self.budget.deadline.is_some_and(|d| Instant::now() >= d);
        let out_of_nodes = self.budget.nodes.is_some_and(|n| self.nodes >= n);
        let stopped = self.budget.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if out_of_time || out_of_nodes || stopped {
            self.aborted = true;
        } else if self.cap.is_some_and(|cap| self.nodes >= cap) {
            self.aborted = true;
            self.capped = true;
        }
        if self.nodes % PROGRESS_INTERVAL == 0 {
            if let Some(progress) = self.budget.progress.as_mut() {
                progress(self.nodes);
            }
        }
    }

    /// The children of a node, each with its first numbers and its delay
    /// group. In a search bounded by depth, a defender's drop between the
    /// king and a distant checker (next to the king too, when the king
    /// cannot take back) stands for the position after the checker takes
    /// it, at the node's own depth, until that is disproven (see
    /// `crate::interposition`).
    pub fn expand(
        &mut self,
        position: &ShogiPosition<V>,
        or_node: bool,
        depth: Depth,
    ) -> Vec<Child<V>> {
        self.expand_on(position, or_node, depth, extended(0, position.hash()))
    }

    /// [`Search::expand`] for the node at the end of the path with key
    /// `path`.
    fn expand_on(
        &mut self,
        position: &ShogiPosition<V>,
        or_node: bool,
        depth: Depth,
        path: u64,
    ) -> Vec<Child<V>> {
        let mut moves = Vec::new();
        if or_node {
            checks(position, &mut moves);
        } else {
            defences(position, &mut moves);
        }
        let next_depth = child_depth(depth);
        let mut children = Vec::with_capacity(moves.len());
        // The last move of each delay group so far.
        let mut groups: Vec<(DelayKey, u16)> = Vec::new();
        let mut coverage: Coverage = [None; Square::NUM];
        let off_board = off_board(position);
        for (m, next) in moves {
            let after = delay_key(position, m, or_node, &mut coverage).and_then(|key| {
                let index = children.len() as u16;
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, last)) => Some(std::mem::replace(last, index)),
                    None => {
                        groups.push((key, index));
                        None
                    }
                }
            });
            // A drop between the king and a distant checker stands first
            // for its capture (see crate::interposition).
            let [first_capture, other_capture] = if !or_node && depth != UNLIMITED && m.is_drop() {
                captures(position, m, &next)
            } else {
                [None, None]
            };
            let (target, capture, child_depth, interposition) = match first_capture {
                Some(capture) => (
                    without_the_piece(&next, m, capture, self.attacker),
                    Some(capture),
                    depth,
                    Some(Box::new(Interposition {
                        dropped: next,
                        other_capture,
                    })),
                ),
                None => (next, None, next_depth, None),
            };
            let taken = taken_by(position, m);
            // Worked out from the node's, but for a capture standing for an
            // interposition, which takes a piece out of the game.
            let board = if capture.is_some() {
                cluster_key(&target)
            } else {
                key_of(target.board_hash(), off_board_after(off_board, m, taken))
            };
            let fixed = self.fixed_child(&target, child_depth, or_node);
            // A child known without search needs no first numbers.
            let last = fixed.unwrap_or_else(|| {
                let (proof, disproof) = first_numbers(position, m, or_node, &mut coverage);
                Known::open(proof, disproof, child_depth)
            });
            children.push(Child {
                m,
                position: target,
                capture,
                depth: child_depth,
                interposition,
                taken,
                board,
                hand: HandKey::of(target.hand(self.attacker)),
                parent_path: path,
                fixed,
                after,
                active: true,
                last,
            });
        }
        children
    }

    /// What a child is without search: a repetition, a mate in 0, Spear's
    /// king captures, a depth run out.
    fn fixed_child(&self, target: &ShogiPosition<V>, depth: Depth, or_node: bool) -> Option<Known> {
        let mut fixed = self.fixed(target, depth);
        if let (None, Some(ply)) = (fixed, self.path.ply_of(target.hash())) {
            fixed = Some(Known {
                loop_ply: ply,
                ..Known::disproven(UNLIMITED)
            });
        }
        if fixed.is_none() && or_node && !V::KINGS_ARE_CAPTURED && !target.has_legal_move() {
            // Checked with no answer: mated. (A pawn drop that would do
            // this is not among the legal moves.)
            fixed = Some(Known::proven(0).with_pieces(proof_at_defence(target, HandKey(0))));
        }
        fixed
    }

    /// Makes a drop that stood for a capture now disproven stand for the
    /// other capture, or else for itself: a real answer, one ply deeper.
    fn fall_back(&self, child: &mut Child<V>) {
        let Some(interposition) = child.interposition.take() else {
            return;
        };
        let (target, capture, depth) = match interposition.other_capture {
            Some(other) => (
                without_the_piece(&interposition.dropped, child.m, other, self.attacker),
                Some(other),
                child.depth,
            ),
            None => (interposition.dropped, None, child_depth(child.depth)),
        };
        if capture.is_some() {
            child.interposition = Some(Box::new(Interposition {
                dropped: interposition.dropped,
                other_capture: None,
            }));
        }
        child.position = target;
        child.capture = capture;
        child.depth = depth;
        child.board = cluster_key(&target);
        child.hand = HandKey::of(target.hand(self.attacker));
        child.fixed = self.fixed_child(&target, depth, false);
        child.last = Known::open(1, 1, depth);
    }

    /// Settles at once which of `children`'s drops are useless
    /// interpositions (for reading a line out, where each child is asked
    /// about anyway): a drop whose capture leaves no mate within the depth
    /// becomes a real answer.
    pub fn settle_interpositions(&mut self, children: &mut [Child<V>]) {
        for child in children {
            while child.interposition.is_some()
                && !self.prove(&child.position, child.depth).is_proven()
            {
                if self.aborted {
                    return;
                }
                self.fall_back(child);
            }
            child.interposition = None;
        }
    }

    /// Where a node with no children ends.
    fn leaf(&self, position: &ShogiPosition<V>, or_node: bool) -> Known {
        if V::KINGS_ARE_CAPTURED {
            // The defender cannot move: in Spear, the rules say who wins.
            // (Spear's values keep the hand they were found with.)
            let mated = !or_node
                && koma_rules::Position::outcome(position)
                    .is_some_and(|o| o.winner == Some(self.attacker));
            return if mated {
                Known::proven(0)
            } else {
                Known::disproven(UNLIMITED)
            };
        }
        if or_node {
            Known::disproven(UNLIMITED).with_pieces(disproof_without_checks(position))
        } else {
            // The defender cannot move: mated.
            Known::proven(0).with_pieces(proof_at_defence(position, HandKey(0)))
        }
    }

    /// Searches `position` (its table key `board`), at the end of the path
    /// with key `path`, until its proof number reaches `proof_limit` or its
    /// disproof number `disproof_limit`, stores and returns what it found.
    fn mid(
        &mut self,
        position: &ShogiPosition<V>,
        board: u64,
        depth: Depth,
        path: u64,
        proof_limit: Number,
        disproof_limit: Number,
    ) -> Known {
        self.tick();
        let or_node = position.turn() == self.attacker;
        let hand = HandKey::of(position.hand(self.attacker));
        if self.ply >= MAX_PLY {
            // Too deep to follow: no mate along this line, as far as this
            // search will say (never a false mate).
            return Known::disproven(0);
        }
        let mut children = self.expand_on(position, or_node, depth, path);
        if children.is_empty() {
            let known = self.leaf(position, or_node);
            self.table.put(board, known.pieces.or_exact(hand), known, 1);
            return known;
        }
        let start = self.nodes;
        let full = position.hash();
        // MAX_PLY keeps plies within u16.
        let node_ply = self.ply as u16;
        self.path.enter(full, node_ply);
        self.ply += 1;
        let known = loop {
            let summary = self.summarise(position, &mut children, or_node);
            if let Some(solved) = summary.solved {
                break solved;
            }
            let open = Known::open(summary.proof, summary.disproof, depth);
            if summary.proof >= proof_limit || summary.disproof >= disproof_limit || self.aborted {
                break open;
            }
            let best = summary.best;
            let last = children[best].last;
            let (child_proof, child_disproof) = if or_node {
                (
                    proof_limit.min(widened(summary.second)),
                    (disproof_limit - summary.disproof).saturating_add(last.disproof),
                )
            } else {
                (
                    // The node's proof number is weak (see `summarise`):
                    // the child may grow until it alone reaches the limit.
                    (proof_limit - summary.proof).saturating_add(summary.largest_proof),
                    disproof_limit.min(widened(summary.second)),
                )
            };
            let (child, child_depth) = (children[best].position, children[best].depth);
            let found = self.mid(
                &child,
                children[best].board,
                child_depth,
                extended(path, child.hash()),
                child_proof.min(LARGEST),
                child_disproof.min(LARGEST),
            );
            children[best].last = found;
        };
        self.ply -= 1;
        self.path.leave(full);
        let mut known = known;
        if known.loop_ply != NO_LOOP && known.loop_ply >= node_ply {
            // The repetition was of this very position: going round to it
            // again cannot help the attacker, from any path.
            known.loop_ply = NO_LOOP;
        }
        if known.is_path_disproof() {
            self.path.keep(path, known);
        } else {
            self.table.put(
                board,
                known.pieces.or_exact(hand),
                known,
                self.nodes - start,
            );
        }
        known
    }

    /// What is known of a child: fixed, solved in the table, disproven for
    /// this path, open in the table, or last seen.
    fn known(&self, child: &Child<V>) -> Known {
        if let Some(known) = child.fixed {
            return known;
        }
        let stored = self.table.get(child.board, child.hand, child.depth);
        if let Some(known) = stored.filter(|k| k.is_proven() || k.is_disproven()) {
            return known;
        }
        let path = extended(child.parent_path, child.position.hash());
        self.path
            .disproof(path, child.depth)
            .or(stored)
            .unwrap_or(child.last)
    }

    /// Reads every child's numbers and makes the node's of them: the
    /// smallest of the minimised number, and the sum (at an AND node, the
    /// weak sum) of the other. A node it settles gets its proof or
    /// disproof pieces (see `crate::pieces`).
    fn summarise(
        &self,
        position: &ShogiPosition<V>,
        children: &mut [Child<V>],
        or_node: bool,
    ) -> Summary {
        let mut summary = Summary {
            proof: if or_node { INFINITE } else { 0 },
            disproof: if or_node { 0 } else { INFINITE },
            best: 0,
            second: INFINITE,
            largest_proof: 0,
            solved: None,
        };
        // Lengths and depths as the node counts them: one ply less for a
        // useless interposition, whose capture is not counted either.
        let mut shortest = i32::from(UNLIMITED);
        let mut longest = -1;
        let mut disproof_depth = if or_node { i32::from(UNLIMITED) } else { -1 };
        // The highest repeated position a disproof needs on the path: at
        // an OR node any child's, at an AND node the refutation's that
        // needs least (none, if one holds from any path).
        let mut loop_ply = if or_node { NO_LOOP } else { 0 };
        let mut open_children: Number = 0;
        // The pieces of the proof or disproof the node would have: at an
        // OR node, the shortest mate's and what every disproof allows; at
        // an AND node, what every proof needs and the longest refutation's.
        let mut proof_pieces = HandKey(0);
        let mut disproof_pieces = disproof_of_any();
        for index in 0..children.len() {
            let mut known = self.known(&children[index]);
            while known.is_disproven() && children[index].interposition.is_some() {
                self.fall_back(&mut children[index]);
                known = self.known(&children[index]);
            }
            let child = &children[index];
            // A delayed move waits until the one before it is settled in
            // the node's favour (the group's moves come in order).
            let active = child.after.is_none_or(|before| {
                let before = &children[before as usize];
                before.active
                    && if or_node {
                        before.last.is_disproven()
                    } else {
                        before.last.is_proven()
                    }
            });
            let child = &mut children[index];
            child.last = known;
            child.active = active;
            if !active {
                continue;
            }
            // The number the node minimises over, and the one it sums.
            let (minimised, summed) = if or_node {
                (known.proof, known.disproof)
            } else {
                (known.disproof, known.proof)
            };
            let current = if or_node {
                summary.proof
            } else {
                summary.disproof
            };
            if minimised < current {
                summary.second = current;
                summary.best = index;
                if or_node {
                    summary.proof = minimised;
                } else {
                    summary.disproof = minimised;
                }
            } else if minimised < summary.second {
                summary.second = minimised;
            }
            if or_node {
                summary.disproof = summary.disproof.saturating_add(summed).min(LARGEST);
            } else if summed != 0 {
                open_children += 1;
                summary.largest_proof = summary.largest_proof.max(summed);
            }
            let counted = match known.depth {
                UNLIMITED => i32::from(UNLIMITED),
                depth => i32::from(depth) - i32::from(child.capture.is_some()),
            };
            // The child's pieces as the node's hand sees them (the
            // defender's moves leave the attacker's hand as it is).
            let pieces = || {
                let pieces = known.pieces.or_exact(child.hand);
                match child.m {
                    Move::Drop { role, .. } if or_node => before_move(pieces, Some(role), None),
                    _ if or_node => before_move(pieces, None, child.taken),
                    _ => pieces,
                }
            };
            if known.is_proven() {
                if or_node && counted < shortest {
                    proof_pieces = pieces();
                } else if !or_node {
                    proof_pieces = larger(proof_pieces, pieces());
                }
                shortest = shortest.min(counted);
                longest = longest.max(counted);
            } else if known.is_disproven() {
                if or_node {
                    disproof_depth = disproof_depth.min(counted);
                    loop_ply = loop_ply.min(known.loop_ply);
                    disproof_pieces = smaller(disproof_pieces, pieces());
                } else {
                    if counted > disproof_depth {
                        disproof_pieces = disproof_at_defence(position, child.m, pieces());
                    }
                    disproof_depth = disproof_depth.max(counted);
                    loop_ply = loop_ply.max(known.loop_ply);
                }
            }
        }
        if !or_node && open_children > 0 {
            // The weak proof number (Ueda et al. 2008): the hardest
            // answer's, plus one for each other answer left open. A sum
            // counts a position again for every path into it, and in the
            // defender's king walks the paths multiply: summed, the root's
            // proof number passed 10^19 within 330,000 nodes on suite line
            // 479, once disproofs through repetitions stopped cutting the
            // cycles (see `crate::path`).
            summary.proof = summary
                .largest_proof
                .saturating_add(open_children - 1)
                .min(LARGEST);
        }
        let all_solved_sum = if or_node {
            summary.disproof
        } else {
            summary.proof
        };
        let disproven = Known {
            loop_ply,
            ..Known::disproven(plus_one(disproof_depth))
        };
        let solved = if or_node {
            if summary.proof == 0 {
                Some(Known::proven(plus_one(shortest)).with_pieces(proof_pieces))
            } else if all_solved_sum == 0 {
                Some(disproven.with_pieces(disproof_at_attack(position, disproof_pieces)))
            } else {
                None
            }
        } else if summary.disproof == 0 {
            Some(disproven.with_pieces(disproof_pieces))
        } else if all_solved_sum == 0 {
            let pieces = proof_at_defence(position, proof_pieces);
            Some(Known::proven(plus_one(longest)).with_pieces(pieces))
        } else {
            None
        };
        // Spear's values keep the hand they were found with.
        summary.solved = solved.map(|known| {
            if V::KINGS_ARE_CAPTURED {
                known.with_pieces(HandKey::EXACT)
            } else {
                known
            }
        });
        summary
    }
}

/// A node's numbers as its children give them.
struct Summary {
    proof: Number,
    disproof: Number,
    /// The child to search next: the smallest proof number at an OR node,
    /// the smallest disproof number at an AND node.
    best: usize,
    /// The second smallest of that number.
    second: Number,
    /// The node's value, if its children settle it.
    solved: Option<Known>,
    /// At an AND node, the largest proof number of an open child.
    largest_proof: Number,
}
