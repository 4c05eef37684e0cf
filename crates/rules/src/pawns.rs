//! Pawns-Only Chess (`pawns`): eight pawns a side, double steps, en passant;
//! reaching the last rank or capturing the last enemy pawn wins, and a side
//! without a move draws. See `docs/rules/pawns.md`.
//!
//! The 8×8 board lies on the shared grid turned so that White (Sente, moving
//! first) plays towards rank index 0, as Sente does in shogi: chess file `a`
//! is grid file 7, chess rank 8 is grid rank 0.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::outcome::{EndReason, Outcome};
pub use crate::pawns_fen::FenError;
use crate::pawns_fen::{self, PawnsFen};
use crate::position::{IllegalReason, Position};
use crate::setup::SetupError;
use crate::square::Square;
use crate::variant::Variant;
use crate::zobrist;
use std::fmt;

/// The 64 squares of the board on the grid.
pub const BOARD: Bitboard = Bitboard(
    0xff | 0xff << 9 | 0xff << 18 | 0xff << 27 | 0xff << 36 | 0xff << 45 | 0xff << 54 | 0xff << 63,
);

const fn rank_mask(rank_index: u32) -> Bitboard {
    let mut bits = 0u128;
    let mut file = 0;
    while file < 8 {
        bits |= 1u128 << (file * 9 + rank_index);
        file += 1;
    }
    Bitboard(bits)
}

/// Last rank of each side: rank 8 for White, rank 1 for Black.
const LAST_RANK: [Bitboard; 2] = [rank_mask(0), rank_mask(7)];
/// The rank a pawn may double-step from: rank 2 for White, rank 7 for Black.
const START_RANK: [Bitboard; 2] = [rank_mask(6), rank_mask(1)];

/// The grid square of a chess square name such as `e4`.
pub fn parse_square(text: &str) -> Option<Square> {
    match text.as_bytes() {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
            Square::from_coords(7 - (file - b'a'), 8 - (rank - b'0'))
        }
        _ => None,
    }
}

/// The chess name of a grid square of the 8×8 board.
pub fn square_name(square: Square) -> String {
    square.chess_name()
}

/// Where the side to move's pawns can go, as sets of target squares.
struct PawnTargets {
    single: Bitboard,
    double: Bitboard,
    /// Captures one file towards file `a`'s side of the grid (+1) and the other (−1).
    captures: [Bitboard; 2],
}

/// A Pawns-Only Chess position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PawnsPosition {
    pawns: [Bitboard; 2],
    turn: Color,
    /// The square a pawn just passed with a double step.
    en_passant: Option<Square>,
    fullmove: u32,
    hash: u64,
}

/// Shift towards `color`'s forward direction, then `files` files over.
#[inline(always)]
fn advance(pawns: Bitboard, color: Color, files: i32) -> Bitboard {
    let forward = color.select(-1, 1);
    pawns.shift(forward + 9 * files) & BOARD
}

impl PawnsPosition {
    /// The start position.
    pub fn start() -> PawnsPosition {
        PawnsPosition::from_fen("8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1").expect("valid")
    }

    /// `color`'s pawns.
    pub fn pawns(&self, color: Color) -> Bitboard {
        self.pawns[color.index()]
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The number of the move to be played, as FEN counts it: 1 at the
    /// start, one more after each Black move.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The en passant square, if the last move was a double step.
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for color in Color::ALL {
            for square in self.pawns(color) {
                hash ^= zobrist::piece_key(crate::Piece::new(color, crate::Role::Pawn), square);
            }
        }
        if self.turn == Color::Gote {
            hash ^= zobrist::turn_key();
        }
        if let Some(square) = self.en_passant {
            hash ^= zobrist::en_passant_key(square);
        }
        hash
    }

    /// Whether the game is over before any move (a pawn on its last rank,
    /// or the side to move has no pawns left).
    fn is_decided(&self) -> bool {
        let them = !self.turn;
        (self.pawns(them) & LAST_RANK[them.index()]).any() || self.pawns(self.turn).is_empty()
    }

    /// The pawns of the side to move that can capture en passant.
    #[inline(always)]
    fn en_passant_capturers(&self) -> Bitboard {
        match self.en_passant {
            // Pawns that would attack the square: those a reversed capture reaches.
            Some(square) => {
                let target = Bitboard::from_square(square);
                let them = !self.turn;
                (advance(target, them, 1) | advance(target, them, -1)) & self.pawns(self.turn)
            }
            None => Bitboard::EMPTY,
        }
    }

    /// Targets of the side to move's board moves other than en passant:
    /// single steps, double steps, and captures towards each side.
    #[inline(always)]
    fn targets(&self) -> PawnTargets {
        let us = self.turn;
        let ours = self.pawns(us);
        let theirs = self.pawns(!us);
        let empty = !(ours | theirs) & BOARD;
        let single = advance(ours, us, 0) & empty;
        PawnTargets {
            single,
            double: advance(single & advance(START_RANK[us.index()], us, 0), us, 0) & empty,
            captures: [
                advance(ours, us, 1) & theirs,
                advance(ours, us, -1) & theirs,
            ],
        }
    }

    /// Calls `f` with every legal move.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.is_decided() {
            return;
        }
        let us = self.turn;
        // The square `files` across and one step back from `square`.
        let back = |square: Square, files: i32| {
            let delta = us.select(-1, 1) + 9 * files;
            Square::new_unchecked((square.index() as i32 - delta) as u8)
        };
        let mut board_move = |from, to| {
            f(Move::Board {
                from,
                to,
                promote: false,
            })
        };
        let targets = self.targets();
        for to in targets.single {
            board_move(back(to, 0), to);
        }
        for to in targets.double {
            board_move(back(back(to, 0), 0), to);
        }
        for (captures, files) in targets.captures.into_iter().zip([1, -1]) {
            for to in captures {
                board_move(back(to, files), to);
            }
        }
        if let Some(to) = self.en_passant {
            for from in self.en_passant_capturers() {
                board_move(from, to);
            }
        }
    }

    /// The number of legal moves.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.is_decided() {
            return 0;
        }
        let targets = self.targets();
        let [left, right] = targets.captures;
        (targets.single.count()
            + targets.double.count()
            + left.count()
            + right.count()
            + self.en_passant_capturers().count()) as u64
    }

    /// Plays a legal move.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let Move::Board { from, to, .. } = m else {
            debug_assert!(false, "no drops in Pawns-Only Chess");
            return;
        };
        let us = self.turn;
        let them = !us;
        let pawn = crate::Piece::new(us, crate::Role::Pawn);
        if let Some(square) = self.en_passant.take() {
            self.hash ^= zobrist::en_passant_key(square);
            if square == to {
                let captured = Square::new_unchecked((to.index() as i32 - us.select(-1, 1)) as u8);
                self.pawns[them.index()].remove(captured);
                self.hash ^=
                    zobrist::piece_key(crate::Piece::new(them, crate::Role::Pawn), captured);
            }
        }
        if self.pawns[them.index()].contains(to) {
            self.pawns[them.index()].remove(to);
            self.hash ^= zobrist::piece_key(crate::Piece::new(them, crate::Role::Pawn), to);
        }
        self.pawns[us.index()].remove(from);
        self.pawns[us.index()].insert(to);
        self.hash ^= zobrist::piece_key(pawn, from) ^ zobrist::piece_key(pawn, to);
        if from.rank().abs_diff(to.rank()) == 2 {
            let passed = Square::new_unchecked((from.index() + to.index()) / 2);
            self.en_passant = Some(passed);
            self.hash ^= zobrist::en_passant_key(passed);
        }
        if us == Color::Gote {
            self.fullmove += 1;
        }
        self.turn = them;
        self.hash ^= zobrist::turn_key();
    }

    /// Whether the position is one the game can reach (see
    /// [`SetupError`]); [`PawnsPosition::from_fen`] refuses those that are not.
    pub fn validate(&self) -> Result<(), SetupError> {
        crate::setup::check_pawns(8, self.pawns, self.turn)
    }

    /// The game's end as the position shows it.
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.turn;
        let them = !us;
        if (self.pawns(them) & LAST_RANK[them.index()]).any() {
            Some(Outcome::win(them, EndReason::LastRankReached))
        } else if self.pawns(us).is_empty() {
            Some(Outcome::win(them, EndReason::AllPawnsCaptured))
        } else if self.count_moves() == 0 {
            Some(Outcome::draw(EndReason::Stalemate))
        } else {
            None
        }
    }

    /// Reads a FEN with pawns only (the board is required; `w - - 0 1`
    /// are the other fields' defaults). The solver's board reads FEN with
    /// the same code, for every size.
    pub fn from_fen(text: &str) -> Result<PawnsPosition, FenError> {
        let fen = PawnsFen::read(text, 8)?;
        let mut position = PawnsPosition {
            pawns: [pawns_fen::grid(fen.white), pawns_fen::grid(fen.black)],
            turn: if fen.white_to_move {
                Color::Sente
            } else {
                Color::Gote
            },
            en_passant: fen.en_passant.map(pawns_fen::grid_square),
            fullmove: fen.fullmove,
            hash: 0,
        };
        position.hash = position.compute_hash();
        Ok(position)
    }

    /// Writes the position as FEN (the en passant square after any double step).
    pub fn to_fen(&self) -> String {
        PawnsFen {
            white: pawns_fen::bits(self.pawns[0]),
            black: pawns_fen::bits(self.pawns[1]),
            white_to_move: self.turn == Color::Sente,
            en_passant: self.en_passant.map(pawns_fen::board_bit),
            fullmove: self.fullmove,
        }
        .write(8)
    }
}

/// A text that is not a move like `e2e4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciMoveError(pub String);

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a move: expected from-square then to-square, like e2e4",
            self.0
        )
    }
}

impl std::error::Error for UciMoveError {}

impl fmt::Debug for PawnsPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl Position for PawnsPosition {
    const VARIANT: Variant = Variant::Pawns;
    type SetupError = FenError;
    type MoveSyntaxError = UciMoveError;

    fn start() -> Self {
        PawnsPosition::start()
    }

    fn from_text(text: &str) -> Result<Self, FenError> {
        PawnsPosition::from_fen(text)
    }

    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn validate(&self) -> Result<(), SetupError> {
        PawnsPosition::validate(self)
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn is_check(&self) -> bool {
        false
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        self.for_each_move(|m| moves.push(m));
    }

    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    fn play_unchecked(&mut self, m: Move) {
        PawnsPosition::play_unchecked(self, m)
    }

    fn outcome(&self) -> Option<Outcome> {
        PawnsPosition::outcome(self)
    }

    /// Parses `e2e4` (a trailing promotion letter is refused: pawns never promote).
    fn parse_move_syntax(text: &str) -> Result<Move, UciMoveError> {
        let error = || UciMoveError(text.to_owned());
        if text.len() != 4 || !text.is_ascii() {
            return Err(error());
        }
        let from = parse_square(&text[0..2]).ok_or_else(error)?;
        let to = parse_square(&text[2..4]).ok_or_else(error)?;
        Ok(Move::Board {
            from,
            to,
            promote: false,
        })
    }

    fn move_to_text(m: Move) -> String {
        match m {
            Move::Board { from, to, .. } => format!("{}{}", square_name(from), square_name(to)),
            Move::Drop { to, .. } => format!("@{}", square_name(to)),
        }
    }

    fn why_illegal(&self, m: Move) -> Option<IllegalReason> {
        let mut found = false;
        self.for_each_move(|legal| found |= legal == m);
        if found {
            return None;
        }
        if self.outcome().is_some() {
            return Some(IllegalReason::GameOver);
        }
        let Move::Board { from, to, promote } = m else {
            return Some(IllegalReason::NotDroppable);
        };
        if !BOARD.contains(from) || !BOARD.contains(to) {
            return Some(IllegalReason::OffBoard);
        }
        if promote {
            return Some(IllegalReason::CannotPromote);
        }
        if self.pawns(!self.turn).contains(from) {
            return Some(IllegalReason::NotYourPiece);
        }
        if !self.pawns(self.turn).contains(from) {
            return Some(IllegalReason::NoPiece);
        }
        if self.pawns(self.turn).contains(to) {
            return Some(IllegalReason::OwnPiece);
        }
        Some(IllegalReason::NotAPawnMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SetupProblem;

    #[test]
    fn square_names_round_trip() {
        for square in BOARD {
            assert_eq!(parse_square(&square_name(square)), Some(square));
        }
        assert_eq!(square_name(parse_square("a1").unwrap()), "a1");
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
    }

    #[test]
    fn fen_round_trip_and_errors() {
        for fen in [
            "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1",
            "8/8/8/3pP3/8/8/8/8 w - d6 0 1",
            "8/8/8/8/4P3/8/8/8 b - e3 0 1",
        ] {
            assert_eq!(PawnsPosition::from_fen(fen).unwrap().to_fen(), fen);
        }
        assert_eq!(
            PawnsPosition::from_fen("8/8 w - -"),
            Err(FenError::RankCount { found: 2, size: 8 })
        );
        assert_eq!(
            PawnsPosition::from_fen("8/8/8/3pP3/8/8/8/8 w - e6 0 1"),
            Err(FenError::EnPassant("e6".into()))
        );
        assert_eq!(
            PawnsPosition::from_fen("8/8/8/8/8/8/8/7P w - - 0 1"),
            Err(FenError::Setup(SetupError {
                variant: Variant::Pawns,
                problem: SetupProblem::PawnOnFirstRank(Color::Sente, parse_square("h1").unwrap())
            }))
        );
        assert_eq!(
            PawnsPosition::from_fen("8/8/8/8/8/8/8/7N w - - 0 1"),
            Err(FenError::UnexpectedCharacter(1, 'N'))
        );
        assert_eq!(
            PawnsPosition::from_fen("8/8/8/8/8/8/8/8 w KQ - 0 1"),
            Err(FenError::Castling("KQ".into()))
        );
    }

    #[test]
    fn en_passant_only_right_after_the_double_step() {
        let position = PawnsPosition::from_fen("8/3p4/8/4P3/8/8/1P6/8 b - - 0 1").unwrap();
        let after = position.play(position.parse_move("d7d5").unwrap()).unwrap();
        assert_eq!(after.to_fen(), "8/8/8/3pP3/8/8/1P6/8 w - d6 0 2");
        let capture = after.parse_move("e5d6").unwrap();
        assert_eq!(
            after.play(capture).unwrap().to_fen(),
            "8/8/3P4/8/8/8/1P6/8 b - - 0 2"
        );
        // One move later the chance is gone.
        let waited = after.play(after.parse_move("b2b3").unwrap()).unwrap();
        let waited = waited.play(waited.parse_move("d5d4").unwrap()).unwrap();
        assert!(waited.parse_move("e5d6").is_err());
    }

    #[test]
    fn endings() {
        let won = PawnsPosition::from_fen("4P3/8/8/8/8/8/p7/8 b - - 0 1").unwrap();
        assert_eq!(
            won.outcome(),
            Some(Outcome::win(Color::Sente, EndReason::LastRankReached))
        );
        assert_eq!(won.count_moves(), 0);
        let wiped = PawnsPosition::from_fen("8/8/8/8/8/8/1P6/8 b - - 0 1").unwrap();
        assert_eq!(
            wiped.outcome(),
            Some(Outcome::win(Color::Sente, EndReason::AllPawnsCaptured))
        );
        let blocked = PawnsPosition::from_fen("8/8/8/4p3/4P3/8/8/8 w - - 0 1").unwrap();
        assert_eq!(blocked.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
    }
}
