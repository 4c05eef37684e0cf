//! The mate solver beside the search: a df-pn solve (`koma-mate`) of the
//! root where the side to move has checks enough for a mate to be likely,
//! and of a mate the search claims, before it stops deepening on the
//! strength of it.
//!
//! The alpha-beta search finds short mates itself; the solver proves long
//! ones that it cannot see, and its mates are read out and checked with
//! the rules, so a mate it proves is sure (the search's own mate scores
//! can come from the table's transpositions). It only ever adds: a solve
//! that runs out of budget or finds no mate leaves the search as it was
//! (no mate by checks alone can still be a mate with a quiet move).

use super::worker::{RootMove, Worker};
use crate::eval::Evaluate;
use crate::params::MATE_PROBE_CHECKS;
use crate::score::*;
use koma_mate::MateAnswer;
use koma_rules::Position;

/// How many of the side to move's legal moves give check.
fn checks<P: Position + Copy>(position: &P) -> usize {
    position
        .legal_moves()
        .iter()
        .filter(|&&m| {
            let mut child = *position;
            child.play_unchecked(m);
            child.is_check()
        })
        .count()
}

impl<P: Evaluate> Worker<'_, P> {
    /// Solves the root for a mate by checks when the side to move has
    /// [`MATE_PROBE_CHECKS`] of them or more and the budget is worth it; a
    /// proven mate becomes the first root move and is reported. Returns
    /// its value.
    pub(super) fn probe_root_mate(
        &mut self,
        root: &P,
        report: &mut dyn FnMut(&super::Info),
    ) -> Option<Value> {
        let worth_it = self
            .mate
            .as_ref()
            .is_some_and(|probe| probe.budget.enough_for_the_root());
        if !worth_it || root.is_check() || checks(root) < MATE_PROBE_CHECKS {
            return None;
        }
        self.solve_mate(root, report)
    }

    /// Puts the mate the search claims at the root to the solver, once a
    /// search. Returns the value of the mate it proves.
    pub(super) fn check_claimed_mate(
        &mut self,
        root: &P,
        report: &mut dyn FnMut(&super::Info),
    ) -> Option<Value> {
        let probe = self.mate.as_mut()?;
        if probe.claim_checked {
            return None;
        }
        probe.claim_checked = true;
        self.solve_mate(root, report)
    }

    fn solve_mate(&mut self, root: &P, report: &mut dyn FnMut(&super::Info)) -> Option<Value> {
        let probe = self.mate.as_mut()?;
        let solver = probe.solvers.for_attacker(root.turn());
        let answer = root.solve_mate(
            solver,
            &probe.budget.limits(),
            Some(self.control.stop_flag()),
        )?;
        self.nodes += answer.nodes;
        let MateAnswer::Mate(line) = answer.answer else {
            return None;
        };
        let first = *line.first()?;
        let index = self.root_moves.iter().position(|r| r.m == first)?;
        let value = mate_in(line.len());
        self.root_moves[..=index].rotate_right(1);
        self.root_moves[0] = RootMove {
            m: first,
            value,
            previous_value: value,
            effort: self.root_moves[0].effort,
            pv: line,
        };
        let pv = self.root_moves[0].pv.clone();
        report(&self.info(pv.len() as u32, 0, value, None, pv));
        Some(value)
    }
}

/// Whether `value` is a mate for the side to move.
pub(super) fn is_winning_mate(value: Value) -> bool {
    is_mate(value) && value > 0
}
