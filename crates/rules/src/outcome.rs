//! How a game ended.

use crate::color::Color;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (a loss in shogi).
    NoLegalMoves,
    /// A king was captured (Spear).
    KingCaptured,
    /// A pawn reached its last rank (Pawns-Only Chess).
    LastRankReached,
    /// The last enemy pawn was captured (Pawns-Only Chess).
    AllPawnsCaptured,
    /// The side to move has no legal move, which is a draw (Pawns-Only Chess).
    Stalemate,
    /// The same position occurred for the fourth time (sennichite).
    Repetition,
    /// Fourfold repetition in which one side gave check with every move.
    PerpetualCheck,
    /// A player resigned.
    Resignation,
    /// A player declared a win by impasse (jishogi, 27-point rule).
    Impasse,
    /// A player made an illegal move (recorded games).
    IllegalMove,
    /// A player ran out of time.
    Timeout,
    /// The game was broken off.
    Abandoned,
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner; `None` for a draw or an abandoned game.
    pub winner: Option<Color>,
    /// Why it ended.
    pub reason: EndReason,
}

impl Outcome {
    /// `winner` won for `reason`.
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw for `reason`.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMoves => "no legal moves",
            EndReason::KingCaptured => "king captured",
            EndReason::LastRankReached => "a pawn reached the last rank",
            EndReason::AllPawnsCaptured => "all pawns captured",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "fourfold repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::Resignation => "resignation",
            EndReason::Impasse => "impasse declaration",
            EndReason::IllegalMove => "illegal move",
            EndReason::Timeout => "time forfeit",
            EndReason::Abandoned => "abandoned",
        })
    }
}
