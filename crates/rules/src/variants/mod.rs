//! The shogi-like games: one short file each, saying what is particular to it.

mod minishogi;
mod shogi;
mod spear;

pub use minishogi::Minishogi;
pub use shogi::Shogi;
pub use spear::Spear;

use crate::movegen::generate_with_check;
use crate::outcome::{EndReason, Outcome};
use crate::shogi_position::{ShogiPosition, ShogiVariant};

/// The game end shared by games with check: a side without a legal move
/// loses (checkmated if in check), with or without a king: the attacker of
/// a mate problem, kingless, who has run out of moves has lost too.
fn outcome_with_check<V: ShogiVariant>(position: &ShogiPosition<V>) -> Option<Outcome> {
    let us = position.turn();
    if position.has_legal_move() {
        None
    } else if position.checkers().any() {
        Some(Outcome::win(!us, EndReason::Checkmate))
    } else {
        Some(Outcome::win(!us, EndReason::NoLegalMoves))
    }
}

/// Implements the rules-as-code half of [`ShogiVariant`] for a game that plays
/// by the standard rules of check, drops and promotion.
macro_rules! standard_shogi_rules {
    () => {
        fn generate<F: FnMut(MoveSet) -> bool>(
            position: &ShogiPosition<Self>,
            listener: &mut F,
        ) -> bool {
            generate_with_check(position, listener)
        }

        fn is_legal(position: &ShogiPosition<Self>, m: crate::moves::Move) -> bool {
            crate::movegen::is_legal_with_check(position, m)
        }

        fn refresh(position: &mut ShogiPosition<Self>) {
            position.compute_checks_and_pins();
        }

        fn outcome(position: &ShogiPosition<Self>) -> Option<Outcome> {
            outcome_with_check(position)
        }

        fn is_check(position: &ShogiPosition<Self>) -> bool {
            position.checkers().any()
        }
    };
}

use standard_shogi_rules;
