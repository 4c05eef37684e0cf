//! Pawns-Only Chess (`pawns`): eight pawns a side, double steps, en passant;
//! reaching the last rank or capturing the last enemy pawn wins, and a side
//! without a move draws. See `docs/rules/pawns.md`.
//!
//! The rules are written once, in [`PawnsBoard`] (the solver's board, seen
//! from the side to move); [`PawnsPosition`] is the game over a
//! `PawnsBoard<8>`: what the shared [`Position`] trait and the programs
//! need besides, the moves and squares of the shared grid, the en passant
//! square FEN names, the move number and the Zobrist hash.
//!
//! The 8×8 board lies on the shared grid turned so that White (Sente, moving
//! first) plays towards rank index 0, as Sente does in shogi: chess file `a`
//! is grid file 7, chess rank 8 is grid rank 0.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::outcome::{EndReason, Outcome};
use crate::pawns_board::{squares, BoardMove, PawnsBoard};
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

/// The grid square of each square of a side's view of the board (bit
/// `8 * rank + file`, rank 0 its own first rank), `[color][bit]`.
static VIEW_TO_GRID: [[Square; 64]; 2] = {
    let mut table = [[Square::new_unchecked(0); 64]; 2];
    let mut bit = 0;
    while bit < 64 {
        let (rank, file) = (bit as u8 / 8, bit as u8 % 8);
        // White's view is the board as FEN numbers it; Black's turns it over.
        table[0][bit] = Square::new_unchecked((7 - file) * 9 + (7 - rank));
        table[1][bit] = Square::new_unchecked((7 - file) * 9 + rank);
        bit += 1;
    }
    table
};

/// The square of `color`'s view (see [`VIEW_TO_GRID`]) of a grid square of
/// the board.
#[inline(always)]
fn view_bit(square: Square, color: Color) -> u8 {
    let rank = color.select(7 - square.rank(), square.rank());
    8 * rank + (7 - square.file())
}

/// The grid squares of a set of `color`'s view.
#[inline(always)]
fn grid_of(bits: u64, color: Color) -> Bitboard {
    let table = &VIEW_TO_GRID[color.index()];
    squares(bits).fold(Bitboard::EMPTY, |grid, bit| {
        grid | Bitboard::from_square(table[bit as usize])
    })
}

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

/// A Pawns-Only Chess position: the game over the rules' board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PawnsPosition {
    /// The position as the rules see it: every move and ending comes from
    /// it. It may hold a finished game (the position the last move made).
    board: PawnsBoard<8>,
    /// White's and Black's pawns on the grid: the same pawns as the
    /// board's, kept for the evaluation and the checks that read grid
    /// squares, which ask for them at every node.
    pawns: [Bitboard; 2],
    /// The square a pawn just passed with a double step, whether or not a
    /// pawn can take there (FEN names it; the board keeps it only when one
    /// can).
    en_passant: Option<Square>,
    fullmove: u32,
    hash: u64,
}

impl PawnsPosition {
    /// The start position.
    pub fn start() -> PawnsPosition {
        PawnsPosition::from_fen("8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1").expect("valid")
    }

    /// `color`'s pawns.
    #[inline]
    pub fn pawns(&self, color: Color) -> Bitboard {
        self.pawns[color.index()]
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        if self.board.white_to_move() {
            Color::Sente
        } else {
            Color::Gote
        }
    }

    /// The number of the move to be played, as FEN counts it: 1 at the
    /// start, one more after each Black move.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The en passant square, if the last move was a double step.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The position on the rules' board, finished games included (see
    /// [`PawnsBoard::is_lost`]); `PawnsBoard::<8>::try_from` refuses those,
    /// as the solver values only games going on.
    pub fn board(&self) -> &PawnsBoard<8> {
        &self.board
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for color in Color::ALL {
            for square in self.pawns(color) {
                hash ^= zobrist::piece_key(crate::Piece::new(color, crate::Role::Pawn), square);
            }
        }
        if self.turn() == Color::Gote {
            hash ^= zobrist::turn_key();
        }
        if let Some(square) = self.en_passant {
            hash ^= zobrist::en_passant_key(square);
        }
        hash
    }

    /// Calls `f` with every legal move.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.board.is_lost() {
            return;
        }
        let us = self.turn();
        let view = &VIEW_TO_GRID[us.index()];
        let sets = self.board.move_sets();
        let mut board_move = |from, to| {
            f(Move::Board {
                from,
                to,
                promote: false,
            })
        };
        // Each kind in turn, in the order of the grid's squares: the order
        // the engine's search has always had, and its node counts (the
        // bench's signature) with it.
        for (targets, back) in sets.kinds {
            for to in grid_of(targets, us) {
                board_move(view[(view_bit(to, us) - back) as usize], to);
            }
        }
        if let Some((capturers, to)) = sets.en_passant {
            let to = view[to as usize];
            for from in grid_of(capturers, us) {
                board_move(from, to);
            }
        }
    }

    /// The number of legal moves.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.board.is_lost() {
            return 0;
        }
        self.board.count_moves() as u64
    }

    /// Plays a legal move.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let Move::Board { from, to, .. } = m else {
            debug_assert!(false, "no drops in Pawns-Only Chess");
            return;
        };
        let us = self.turn();
        let m = BoardMove {
            from: view_bit(from, us),
            to: view_bit(to, us),
        };
        let (ours, theirs) = self.board.sides();
        self.board = self.board.after(m);
        // The pawns that changed, in the mover's view: the grid's sets and
        // the hash follow them without knowing what the move was.
        let (ours_after, theirs_after) = self.board.sides_turned_over();
        let view = &VIEW_TO_GRID[us.index()];
        for (color, changed) in [(us, ours ^ ours_after), (!us, theirs ^ theirs_after)] {
            let pawn = crate::Piece::new(color, crate::Role::Pawn);
            for bit in squares(changed) {
                let square = view[bit as usize];
                self.pawns[color.index()].toggle(square);
                self.hash ^= zobrist::piece_key(pawn, square);
            }
        }
        if let Some(square) = self.en_passant.take() {
            self.hash ^= zobrist::en_passant_key(square);
        }
        if m.is_double_step() {
            let passed = view[m.from as usize + 8];
            self.en_passant = Some(passed);
            self.hash ^= zobrist::en_passant_key(passed);
        }
        if us == Color::Gote {
            self.fullmove += 1;
        }
        self.hash ^= zobrist::turn_key();
    }

    /// Whether the position is one the game can reach (see
    /// [`SetupError`]); [`PawnsPosition::from_fen`] refuses those that are not.
    pub fn validate(&self) -> Result<(), SetupError> {
        crate::setup::check_pawns(8, self.pawns, self.turn())
    }

    /// The game's end as the position shows it.
    pub fn outcome(&self) -> Option<Outcome> {
        Some(match self.board.ending()? {
            EndReason::Stalemate => Outcome::draw(EndReason::Stalemate),
            won => Outcome::win(!self.turn(), won),
        })
    }

    /// Reads a FEN with pawns only (the board is required; `w - - 0 1`
    /// are the other fields' defaults). The solver's board reads FEN with
    /// the same code, for every size.
    pub fn from_fen(text: &str) -> Result<PawnsPosition, FenError> {
        let fen = PawnsFen::read(text, 8)?;
        let mut position = PawnsPosition {
            board: PawnsBoard::from_colours(
                fen.white,
                fen.black,
                fen.white_to_move,
                fen.en_passant,
            ),
            pawns: [pawns_fen::grid(fen.white), pawns_fen::grid(fen.black)],
            en_passant: fen.en_passant.map(pawns_fen::grid_square),
            fullmove: fen.fullmove,
            hash: 0,
        };
        position.hash = position.compute_hash();
        Ok(position)
    }

    /// Writes the position as FEN (the en passant square after any double step).
    pub fn to_fen(&self) -> String {
        let (white, black) = self.board.colours();
        PawnsFen {
            white,
            black,
            white_to_move: self.board.white_to_move(),
            en_passant: self.en_passant.map(pawns_fen::board_bit),
            fullmove: self.fullmove,
        }
        .write(8)
    }
}

/// The game's position on the solver's board, without going through
/// text (the board keeps no move number). [`FenError::GameOver`] for a
/// finished game: the solver values only games going on.
impl TryFrom<&PawnsPosition> for PawnsBoard<8> {
    type Error = FenError;

    fn try_from(position: &PawnsPosition) -> Result<Self, FenError> {
        if position.board.is_lost() {
            Err(FenError::GameOver)
        } else {
            Ok(position.board)
        }
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
        PawnsPosition::turn(self)
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
        let us = self.turn();
        if self.pawns(!us).contains(from) {
            return Some(IllegalReason::NotYourPiece);
        }
        if !self.pawns(us).contains(from) {
            return Some(IllegalReason::NoPiece);
        }
        if self.pawns(us).contains(to) {
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
