//! Quiescence: past the main search's horizon, captures (and moves to the
//! last rank in Pawns-Only Chess) until the position is quiet, every reply
//! when in danger, and at the horizon itself quiet checks that lose
//! nothing.

use super::worker::Worker;
use crate::eval::Evaluate;
use crate::history::piece_square;
use crate::movepick::{MovePicker, ScoreList};
use crate::params::*;
use crate::score::*;
use koma_rules::MoveList;

impl<P: Evaluate> Worker<'_, P> {
    /// Quiescence from a position the caller has not looked at.
    pub(super) fn quiescence(
        &mut self,
        position: &P,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        if let Some(value) = self.known(position, ply) {
            return value;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(position, ply);
        }
        self.quiescence_known(position, alpha, beta, ply, position.in_danger(), false)
    }

    /// Quiescence once the caller has looked for a known result and the
    /// ply limit, and knows whether the side to move is in danger (the main
    /// search has, at its horizon: not done twice). At the horizon itself
    /// (`horizon`), quiet checks that lose nothing are tried too.
    pub(super) fn quiescence_known(
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
            let raw = self.evaluate(position, ply);
            stand_pat = self.corrected(raw, position, ply);
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
        let mut scores = ScoreList::new();
        let mut picker = MovePicker::tactical(position, &mut moves, &mut scores);
        // Captures first; then, at the horizon, quiet checks.
        let mut checks = MoveList::new();
        let mut checks_generated = false;
        let mut next_check = 0;
        loop {
            let m = if let Some((m, _)) = picker.next() {
                if !in_danger {
                    let gain = position.captured_value(m) + position.promotion_gain(m);
                    if stand_pat + gain + delta_margin() * P::MARGIN_SCALE < alpha
                        || !position.see_ge(m, 0)
                    {
                        continue;
                    }
                }
                m
            } else if horizon && !in_danger && quiescence_checks() == 1 {
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
            self.network_move(position, m, &child, ply);
            if self.correction.is_some() {
                // The correction's moves before, below the horizon too.
                self.moved[ply] = Some(piece_square(position.mover_kind(m), m));
            }
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
}
