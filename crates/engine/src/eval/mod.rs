//! What the search needs to know about a game beyond its rules: how good a
//! position looks, what a move captures, and what counts as danger.
//!
//! Each game has its own evaluation: [`shogi`] for the shogi family (Spear,
//! minishogi, shogi) and [`pawns`] for Pawns-Only Chess.

mod impasse;
pub mod pawns;
mod see;
pub mod shogi;
pub mod shogi_weights;

use crate::score::Value;
use koma_nnue::{Accumulator, AccumulatorStack, Network};
use koma_rules::{Move, MoveList, Position};

/// A side's share of `typical_plies_left`, and at least 8 moves.
pub(crate) fn typical_moves_left(typical_plies_left: u32) -> u32 {
    (typical_plies_left / 2).max(8)
}

/// A game the engine can play: a [`Position`] plus evaluation, and the
/// mate solver's view of it (which the search asks at the root).
pub trait Evaluate: Position + Copy + koma_mate::MateSearch {
    /// How many plies a game usually still lasts; [`Self::moves_left`]
    /// divides it by two unless the game knows better.
    const TYPICAL_PLIES_LEFT: u32;
    /// Whether a null move is sound (false where zugzwang is common).
    const NULL_MOVE: bool;
    /// What the search's margins (in [`crate::params`]) are multiplied by:
    /// a game whose values run larger, a centipawn there saying less about
    /// the result, needs wider margins to prune as safely.
    const MARGIN_SCALE: Value = 1;
    /// Whether the search extends a table move that no other move comes
    /// near (singular extension), where it has been measured to pay.
    const SINGULAR_EXTENSION: bool = false;

    /// The static evaluation in centipawns, from the side to move's view.
    fn evaluate(&self) -> Value;

    /// The keys of the features by which the correction history learns
    /// how far this position's evaluation is off (`crate::correction`);
    /// `None`: the game has none, and its evaluation is taken as it is.
    fn correction_keys(&self) -> Option<crate::CorrectionKeys> {
        None
    }

    /// How many more moves the side to move is expected to make in this
    /// game: time management gives a move about its clock divided by
    /// this. The same at every ply unless a game follows its own course
    /// (shogi's estimate falls with the plies played).
    fn moves_left(&self) -> u32 {
        typical_moves_left(Self::TYPICAL_PLIES_LEFT)
    }

    /// A value the search can trust without looking further, from the side
    /// to move's view, as plies to the end: `Some(n)` with `n > 0` wins in
    /// `n` plies, `n < 0` loses in `-n`, `0` (only for a finished game) is
    /// lost already. Cheaper than generating moves; `None` when unknown.
    fn known_result(&self) -> Option<i32>;

    /// The value of the piece `m` captures; 0 for a non-capture.
    fn captured_value(&self, m: Move) -> Value;

    /// A small index (below [`CAPTURED_KINDS`]) for the kind of piece `m`
    /// captures, for the capture history: 0 for a non-capture. The default
    /// tells only whether something is captured.
    fn captured_kind(&self, m: Move) -> usize {
        usize::from(self.captured_value(m) > 0)
    }

    /// The value of the piece that moves (or is dropped).
    fn mover_value(&self, m: Move) -> Value;

    /// What promotion adds to the moving piece's value; 0 if none.
    fn promotion_gain(&self, m: Move) -> Value;

    /// A small index (below [`MOVER_KINDS`]) for the kind of piece that
    /// moves, for history tables.
    fn mover_kind(&self, m: Move) -> usize;

    /// Whether `m` wins at least `threshold` by static exchange on its
    /// target square. The default knows only what the move itself captures
    /// and promotes, and so never calls a move losing.
    fn see_ge(&self, m: Move, threshold: Value) -> bool {
        self.captured_value(m) + self.promotion_gain(m) >= threshold
    }

    /// Whether the side to move must react to a threat on its king: check,
    /// or in Spear a king that can be captured next move.
    fn in_danger(&self) -> bool;

    /// What [`Evaluate::gives_danger`] needs to know about this position,
    /// found once for the many moves a node asks about.
    type DangerSquares: Copy;

    /// This position's [`Evaluate::DangerSquares`].
    fn danger_squares(&self) -> Self::DangerSquares;

    /// Whether `m` leaves the side then to move in danger
    /// ([`Evaluate::in_danger`] of the position after it), with `squares`
    /// this position's [`Evaluate::danger_squares`]. Games that can tell
    /// without playing the move say so more cheaply: the search asks
    /// before it prunes, so a pruned move costs no position.
    fn gives_danger(&self, _squares: &Self::DangerSquares, m: Move) -> bool {
        let mut child = *self;
        child.play_unchecked(m);
        child.in_danger()
    }

    /// Whether the evaluation can be trusted here without a search: the
    /// king is not in danger, the result is not already known, and no
    /// capture wins material by static exchange. Training data keeps only
    /// such positions.
    fn is_quiet(&self) -> bool {
        if self.in_danger() || self.known_result().is_some() {
            return false;
        }
        let mut captures = MoveList::new();
        self.tactical_moves_into(&mut captures);
        !captures.iter().any(|&m| self.see_ge(m, 1))
    }

    /// The legal moves quiescence searches when not in danger: captures
    /// (and in Pawns-Only Chess, moves that reach the last rank).
    fn tactical_moves_into(&self, moves: &mut MoveList);

    /// Legal moves that capture and promote nothing but attack the enemy
    /// king directly (quiescence tries them at the horizon). None by
    /// default.
    fn quiet_checks_into(&self, _moves: &mut MoveList) {}

    /// A legal move that mates at once: it gives check and leaves no
    /// legal reply. None by default, and where kings are captured.
    fn mate_in_one(&self) -> Option<Move> {
        None
    }

    /// The position with the turn passed, if the game allows pretending so.
    fn null_move(&self) -> Option<Self>;

    /// Computes `accumulator` afresh for this position under `network`
    /// (the shogi family's; the engine gives a game a network only if it
    /// is the game's own, so the default, for games without one, does
    /// nothing).
    fn refresh_accumulator(&self, _network: &Network, _accumulator: &mut Accumulator) {}

    /// Sets `stack`'s root to this position.
    fn set_accumulator_root(&self, _network: &Network, _stack: &mut AccumulatorStack) {}

    /// Records in `stack` the legal move `m` from this position, at `ply`,
    /// to `child`.
    fn push_accumulator_move(
        &self,
        _m: Move,
        _child: &Self,
        _network: &Network,
        _stack: &mut AccumulatorStack,
        _ply: usize,
    ) {
    }
}

/// How many kinds of movers [`Evaluate::mover_kind`] distinguishes: 14
/// roles on the board and 8 in the hand.
pub const MOVER_KINDS: usize = 22;

/// How many kinds of captured pieces [`Evaluate::captured_kind`]
/// distinguishes: none, and the 14 roles on the board.
pub const CAPTURED_KINDS: usize = 15;
