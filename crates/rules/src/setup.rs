//! What makes a position impossible: the one check that every way into
//! Koma goes through. SFEN and FEN reading call it (and so do the records,
//! which build their start as SFEN, the server's create and import, the
//! console programs' `--position` and USI's `position`), so that a
//! position one of them accepts, all accept.
//!
//! The rules it holds, by game:
//! - Shogi and minishogi: the side not to move has its king on the board
//!   (the side to move may be without one: the attacker of a mate
//!   problem); at most one king a side and no more pieces than the game's
//!   set; no pawn, lance or knight where it could never move; no two
//!   unpromoted pawns of a side on a file; the side not to move is not in
//!   check.
//! - Spear: the side not to move has its king on the board; the side to
//!   move may have lost its king, to the move just played (the game is then
//!   over). Pieces promote only by a board move and a drop may go anywhere
//!   (`docs/rules/spear.md`), so an unpromoted soldier on the last row is
//!   a position the game reaches, and allowed.
//! - Pawns-Only Chess: no pawn on its own first rank; at most eight a side;
//!   the side not to move has a pawn (the side to move may have lost its
//!   last one, to the move just played: the game is then over); no pawn of
//!   the side to move on its last rank (it would have won already), and at
//!   most one of the other side's there.
//!
//! A caller that means it (a mate problem being set up, a composed
//! problem's extra pieces) can take a refused position anyway: see
//! [`crate::PositionError`]'s `ignore_*`.
//!
//! A position that passes may still be a finished game: checkmate, no legal
//! move, a captured king, a pawn on its last rank. [`crate::Position::outcome`]
//! says so, and every path shows that outcome.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::role::Role;
use crate::shogi_position::{ShogiPosition, ShogiVariant};
use crate::spec::PromotionRule;
use crate::square::Square;
use crate::variant::Variant;
use std::fmt;

/// Why a position cannot be set up in a game, with the game (which names
/// the sides, the pieces and the squares in the sentence).
///
/// ```
/// use koma_rules::{Position, StandardShogiPosition};
/// let error = StandardShogiPosition::from_text("4k4/9/9/9/9/9/9/9/9 w - 1").unwrap_err();
/// assert_eq!(error.to_string(), "Sente has no king, and only the side to move may play without one (the attacker of a mate problem)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The game the position was meant for.
    pub variant: Variant,
    /// What is wrong.
    pub problem: SetupProblem,
}

/// What is wrong with a position; see [`SetupError`] for the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// Neither side has a king on the board.
    NoKings,
    /// This side, not to move, has no king on the board.
    MissingKing(Color),
    /// This side has more than one king (a king captured by the other side,
    /// in its hand, counts).
    TooManyKings(Color),
    /// More pieces of a role (promoted ones counted with it, on the board
    /// and in hands) than the game's set holds.
    TooManyPieces {
        /// The unpromoted role.
        role: Role,
        /// How many the position has.
        found: u32,
        /// How many the game has.
        most: u32,
    },
    /// A piece stands where it could never move (a pawn on the last rank).
    DeadPiece {
        /// Where it stands.
        square: Square,
        /// What it is.
        role: Role,
    },
    /// Two unpromoted pawns of a side on one file (nifu), file index 0..9.
    TwoPawnsOnFile(Color, u8),
    /// This side, not to move, is in check.
    OpponentInCheck(Color),
    /// Neither side has a pawn (Pawns-Only Chess).
    NoPawns,
    /// This side, not to move, has no pawn left.
    MissingPawns(Color),
    /// A pawn of this side on its own first rank, where no pawn can come.
    PawnOnFirstRank(Color, Square),
    /// A pawn of the side to move on its last rank: it won already.
    PawnOnLastRankToMove(Color, Square),
    /// More than one pawn of this side on its last rank: the game ends when
    /// the first arrives.
    TwoPawnsOnLastRank(Color),
    /// More pawns of a side than the board has files.
    TooManyPawns {
        /// The side.
        color: Color,
        /// How many it may have: 8 (fewer on the solver's smaller boards).
        most: u8,
    },
}

impl SetupError {
    pub(crate) fn new(variant: Variant, problem: SetupProblem) -> SetupError {
        SetupError { variant, problem }
    }
}

/// The English name of a piece in `variant` (Spear's soldier, spear and
/// elephant are shogi's pawn, lance and bishop).
fn role_name(variant: Variant, role: Role) -> &'static str {
    match (variant, role) {
        (Variant::Spear, Role::Pawn) => "soldier",
        (Variant::Spear, Role::Lance) => "spear",
        (Variant::Spear, Role::Bishop) => "elephant",
        (_, Role::Pawn) => "pawn",
        (_, Role::Lance) => "lance",
        (_, Role::Knight) => "knight",
        (_, Role::Silver) => "silver",
        (_, Role::Gold) => "gold",
        (_, Role::Bishop) => "bishop",
        (_, Role::Rook) => "rook",
        (_, Role::King) => "king",
        (_, Role::Tokin) => "tokin",
        (_, Role::PromotedLance) => "promoted lance",
        (_, Role::PromotedKnight) => "promoted knight",
        (_, Role::PromotedSilver) => "promoted silver",
        (_, Role::Horse) => "horse",
        (_, Role::Dragon) => "dragon",
    }
}

/// A square as the game's notation names it: `1a` (USI), `e4` (chess).
fn square_name(variant: Variant, square: Square) -> String {
    match variant {
        Variant::Pawns => square.chess_name(),
        _ => square.to_string(),
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let variant = self.variant;
        let side = |color: Color| variant.side_name(color);
        let pawn_colour = |color: Color| color.select("white", "black");
        match self.problem {
            SetupProblem::NoKings => f.write_str("there is no king on the board"),
            SetupProblem::MissingKing(color) if variant == Variant::Spear => write!(
                f,
                "{} has no king, and only the side to move can have lost its king (to the move just played)",
                side(color)
            ),
            SetupProblem::MissingKing(color) => write!(
                f,
                "{} has no king, and only the side to move may play without one (the attacker of a mate problem)",
                side(color)
            ),
            SetupProblem::TooManyKings(color) => {
                write!(f, "{} has more than one king", side(color))
            }
            SetupProblem::TooManyPieces { role, found, most } => write!(
                f,
                "there are {found} {}s, and the game has {most}",
                role_name(variant, role)
            ),
            SetupProblem::DeadPiece { square, role } => write!(
                f,
                "a {} on {} can never move",
                role_name(variant, role),
                square_name(variant, square)
            ),
            SetupProblem::TwoPawnsOnFile(color, file) => write!(
                f,
                "{} has two unpromoted pawns on file {} (nifu)",
                side(color),
                file + 1
            ),
            SetupProblem::OpponentInCheck(color) => write!(
                f,
                "{} is in check on {}'s turn, and no move may leave its own king in check",
                side(color),
                side(!color)
            ),
            SetupProblem::NoPawns => f.write_str("there are no pawns on the board"),
            SetupProblem::MissingPawns(color) => write!(
                f,
                "{} has no pawns, and only the side to move can have lost its last one (to the move just played)",
                side(color)
            ),
            SetupProblem::PawnOnFirstRank(color, square) => write!(
                f,
                "a {} pawn on {} stands on its own first rank, where no pawn can ever be",
                pawn_colour(color),
                square_name(variant, square)
            ),
            SetupProblem::PawnOnLastRankToMove(color, square) => write!(
                f,
                "a {} pawn on {} has already won the game, so it cannot be {}'s turn",
                pawn_colour(color),
                square_name(variant, square),
                side(color)
            ),
            SetupProblem::TwoPawnsOnLastRank(color) => write!(
                f,
                "two {} pawns stand on the last rank, and the game ends when the first gets there",
                pawn_colour(color)
            ),
            SetupProblem::TooManyPawns { color, most } => {
                write!(f, "{} has more than {most} pawns", side(color))
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// The checks a caller chose to skip ([`crate::PositionError`]'s
/// `ignore_*`): none by default.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ignored {
    /// A side without a king on the board (or both).
    pub missing_kings: bool,
    /// More pieces of a role than the game's set holds.
    pub too_many_pieces: bool,
}

/// Checks a shogi-family position (see the module's rules).
pub(crate) fn check_shogi<V: ShogiVariant>(position: &ShogiPosition<V>) -> Result<(), SetupError> {
    check_shogi_ignoring(position, Ignored::default())
}

/// [`check_shogi`], without the checks in `ignored`.
pub(crate) fn check_shogi_ignoring<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    ignored: Ignored,
) -> Result<(), SetupError> {
    let fail = |problem| Err(SetupError::new(V::VARIANT, problem));
    for color in Color::ALL {
        // A king in a hand is the opponent's, captured (Spear).
        let captured = position.hand(!color).count(Role::King) as u32;
        if position.pieces(color, Role::King).count() + captured > 1 {
            return fail(SetupProblem::TooManyKings(color));
        }
    }
    let them = !position.turn();
    if !ignored.missing_kings {
        if position.by_role(Role::King).is_empty() {
            return fail(SetupProblem::NoKings);
        }
        if position.king(them).is_none() {
            return fail(SetupProblem::MissingKing(them));
        }
    }
    if !ignored.too_many_pieces {
        if let Some(problem) = too_many_pieces(position) {
            return fail(problem);
        }
    }
    // Where promotion is by choice, a piece that could never move again
    // must have promoted, and a drop may not leave one there: no move
    // leads to it. (Spear's drops go anywhere.)
    if V::SPEC.promotion == PromotionRule::Optional {
        for color in Color::ALL {
            for role in [Role::Pawn, Role::Lance, Role::Knight] {
                let dead = V::SPEC.far_ranks(color, V::SPEC.movement(role).immobile_ranks());
                if let Some(square) = (position.pieces(color, role) & dead).first() {
                    return fail(SetupProblem::DeadPiece { square, role });
                }
            }
            let mut files_with_pawn = [false; 9];
            for square in position.pieces(color, Role::Pawn) {
                if std::mem::replace(&mut files_with_pawn[square.file() as usize], true) {
                    return fail(SetupProblem::TwoPawnsOnFile(color, square.file()));
                }
            }
        }
    }
    if !V::KINGS_ARE_CAPTURED {
        if let Some(king) = position.king(them) {
            if position.is_attacked(king, position.turn(), position.blockers()) {
                return fail(SetupProblem::OpponentInCheck(them));
            }
        }
    }
    Ok(())
}

/// More pieces of a role (promoted ones counted with it, on the board and
/// in hands) than the game's set holds, if any.
fn too_many_pieces<V: ShogiVariant>(position: &ShogiPosition<V>) -> Option<SetupProblem> {
    let full_set = piece_set_counts(V::SPEC.start);
    for role in Role::HAND {
        let on_board = (position.by_role(role)
            | role
                .promoted()
                .map_or(Bitboard::EMPTY, |p| position.by_role(p)))
        .count();
        let in_hands = Color::ALL
            .iter()
            .map(|&c| position.hand(c).count(role) as u32)
            .sum::<u32>();
        let most = full_set[role.index()];
        if on_board + in_hands > most {
            return Some(SetupProblem::TooManyPieces {
                role,
                found: on_board + in_hands,
                most,
            });
        }
    }
    None
}

/// How many pieces of each unpromoted role a full set has, read off the
/// start position.
fn piece_set_counts(start: &str) -> [u32; Role::NUM] {
    let mut counts = [0u32; Role::NUM];
    let board = start.split(' ').next().unwrap_or_default();
    for c in board.chars() {
        if let Some(role) = Role::from_letter(c) {
            counts[role.index()] += 1;
        }
    }
    counts
}

/// The squares of chess rank `rank` (1 to 8) on the grid, as
/// [`crate::pawns`] lays the board out (chess rank 8 is grid rank 0).
fn chess_rank(rank: u8) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for file in 0..8 {
        if let Some(square) = Square::from_coords(file, 8 - rank) {
            squares.insert(square);
        }
    }
    squares
}

/// Checks a Pawns-Only Chess position on a board of `size` files and
/// ranks (8, or the solver's smaller boards, which use the grid's chess
/// ranks 1 to `size`), given by each side's pawns (White's first) and the
/// side to move (see the module's rules).
pub(crate) fn check_pawns(size: u8, pawns: [Bitboard; 2], turn: Color) -> Result<(), SetupError> {
    let fail = |problem| Err(SetupError::new(Variant::Pawns, problem));
    let of = |color: Color| pawns[color.index()];
    let last_rank = |color: Color| chess_rank(color.select(size, 1));
    for color in Color::ALL {
        if let Some(square) = (of(color) & last_rank(!color)).first() {
            return fail(SetupProblem::PawnOnFirstRank(color, square));
        }
    }
    for color in Color::ALL {
        if of(color).count() > size as u32 {
            return fail(SetupProblem::TooManyPawns { color, most: size });
        }
    }
    let them = !turn;
    if (of(Color::Sente) | of(Color::Gote)).is_empty() {
        return fail(SetupProblem::NoPawns);
    }
    if of(them).is_empty() {
        return fail(SetupProblem::MissingPawns(them));
    }
    if let Some(square) = (of(turn) & last_rank(turn)).first() {
        return fail(SetupProblem::PawnOnLastRankToMove(turn, square));
    }
    if (of(them) & last_rank(them)).has_more_than_one() {
        return fail(SetupProblem::TwoPawnsOnLastRank(them));
    }
    Ok(())
}
