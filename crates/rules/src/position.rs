//! The [`Position`] trait: what every Koma game offers to the engine, the
//! console programs and the server.

use crate::color::Color;
use crate::declaration::{Declaration, ImpasseRule, Shortfall};
use crate::moves::{Move, MoveList};
use crate::outcome::Outcome;
use crate::setup::SetupError;
use crate::variant::Variant;
use std::fmt;

/// Why a move cannot be played in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is already over.
    GameOver,
    /// A square is not on this game's board.
    OffBoard,
    /// No piece stands on the origin square.
    NoPiece,
    /// The piece on the origin belongs to the other side.
    NotYourPiece,
    /// Origin and target are the same square.
    NullMove,
    /// The piece does not move that way, or its path is blocked.
    CannotReach,
    /// The target holds one of the mover's own pieces.
    OwnPiece,
    /// The move asks for a promotion that this piece or these squares do not allow.
    CannotPromote,
    /// The piece must promote on this move.
    MustPromote,
    /// The move leaves the mover's own king in check.
    LeavesKingInCheck,
    /// The mover holds no such piece in hand.
    NotInHand,
    /// The drop square is occupied.
    SquareOccupied,
    /// The dropped piece could never move from there.
    DeadDrop,
    /// A second unpromoted pawn on a file (nifu).
    TwoPawns,
    /// A pawn drop that gives checkmate (uchifuzume).
    PawnDropMate,
    /// A drop of a piece the game never drops, or of a promoted piece.
    NotDroppable,
    /// A pawn may not move like that (Pawns-Only Chess).
    NotAPawnMove,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalReason::GameOver => "the game is over",
            IllegalReason::OffBoard => "that square is not on the board",
            IllegalReason::NoPiece => "there is no piece on the starting square",
            IllegalReason::NotYourPiece => "that piece belongs to the opponent",
            IllegalReason::NullMove => "a piece must move to another square",
            IllegalReason::CannotReach => {
                "that piece cannot move there (wrong direction or blocked)"
            }
            IllegalReason::OwnPiece => "the target square holds your own piece",
            IllegalReason::CannotPromote => "that piece cannot promote on this move",
            IllegalReason::MustPromote => {
                "that piece must promote here (it could never move again)"
            }
            IllegalReason::LeavesKingInCheck => "that would leave your king in check",
            IllegalReason::NotInHand => "you hold no such piece in hand",
            IllegalReason::SquareOccupied => "pieces can only be dropped on empty squares",
            IllegalReason::DeadDrop => "a piece may not be dropped where it could never move",
            IllegalReason::TwoPawns => "you already have an unpromoted pawn on that file (nifu)",
            IllegalReason::PawnDropMate => "a pawn drop may not give checkmate (uchifuzume)",
            IllegalReason::NotDroppable => "that piece cannot be dropped",
            IllegalReason::NotAPawnMove => "a pawn cannot move like that",
        })
    }
}

/// A move refused by a position, with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The refused move.
    pub attempted: Move,
    /// Why.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {:?}: {}", self.attempted, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// A position of one of Koma's games.
///
/// The required methods are what a game must define; the provided ones follow
/// from them and no game overrides them.
///
/// ```
/// use koma_rules::{Position, ShogiPosition, Shogi};
/// let start = ShogiPosition::<Shogi>::start();
/// let m = start.parse_move("7g7f").unwrap();
/// let next = start.play(m).unwrap();
/// assert_eq!(next.to_text(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
/// assert!(start.parse_move("7g7e").is_err());
/// ```
pub trait Position: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// Which game.
    const VARIANT: Variant;
    /// Why a text is not a position of this game.
    type SetupError: std::error::Error + Send + Sync + 'static;
    /// Why a text is not a move in this game's notation.
    type MoveSyntaxError: std::error::Error + Send + Sync + 'static;

    /// The start position.
    fn start() -> Self;
    /// Reads a position in the game's notation (SFEN or FEN).
    fn from_text(text: &str) -> Result<Self, Self::SetupError>;
    /// Writes the position in the game's notation (SFEN or FEN).
    fn to_text(&self) -> String;
    /// Whether the position is one the game can reach: the one check of
    /// positions, which [`Position::from_text`] makes (see [`SetupError`]).
    fn validate(&self) -> Result<(), SetupError>;
    /// The side to move.
    fn turn(&self) -> Color;
    /// A hash of everything that decides the legal moves and the game's future.
    fn hash(&self) -> u64;
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;
    /// Appends every legal move to `moves`.
    fn legal_moves_into(&self, moves: &mut MoveList);
    /// Counts the legal moves (faster than listing them).
    fn count_legal_moves(&self) -> u64;
    /// Plays a move known to be legal.
    fn play_unchecked(&mut self, m: Move);
    /// The end of the game, as the position alone shows it.
    fn outcome(&self) -> Option<Outcome>;
    /// Parses a move in the game's notation (USI or UCI), context-free.
    fn parse_move_syntax(text: &str) -> Result<Move, Self::MoveSyntaxError>;
    /// Writes a move in the game's notation (USI or UCI).
    fn move_to_text(m: Move) -> String;
    /// Why `m` is not legal here; `None` if it is.
    fn why_illegal(&self, m: Move) -> Option<IllegalReason>;
    /// What an impasse declaration by the side to move would give under
    /// `rule`: only standard shogi has the rule.
    fn impasse_declaration(&self, rule: ImpasseRule) -> Declaration {
        let _ = rule;
        Declaration::Invalid(Shortfall::NoRule)
    }

    /// Every legal move.
    fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Whether `m` is legal here.
    fn is_legal(&self, m: Move) -> bool {
        self.why_illegal(m).is_none()
    }

    /// The position after `m`, or why `m` is illegal.
    fn play(&self, m: Move) -> Result<Self, IllegalMove> {
        match self.why_illegal(m) {
            None => {
                let mut next = self.clone();
                next.play_unchecked(m);
                Ok(next)
            }
            Some(reason) => Err(IllegalMove {
                attempted: m,
                reason,
            }),
        }
    }

    /// Parses a move in the game's notation and checks it against the position.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError<Self::MoveSyntaxError>> {
        let m = Self::parse_move_syntax(text).map_err(MoveError::Syntax)?;
        match self.why_illegal(m) {
            None => Ok(m),
            Some(reason) => Err(MoveError::Illegal(IllegalMove {
                attempted: m,
                reason,
            })),
        }
    }

    /// Number of move sequences of `depth` plies (leaf moves counted in bulk).
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut total = 0;
                for &m in self.legal_moves().iter() {
                    let mut next = self.clone();
                    next.play_unchecked(m);
                    total += next.perft(depth - 1);
                }
                total
            }
        }
    }
}

/// A move text that is malformed or not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError<S> {
    /// Not a move in the game's notation.
    Syntax(S),
    /// A well-formed move that is not legal here.
    Illegal(IllegalMove),
}

impl<S: fmt::Display> fmt::Display for MoveError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(error) => error.fmt(f),
            MoveError::Illegal(illegal) => illegal.reason.fmt(f),
        }
    }
}

impl<S: fmt::Debug + fmt::Display> std::error::Error for MoveError<S> {}
