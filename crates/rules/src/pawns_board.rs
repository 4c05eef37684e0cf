//! Pawns-Only Chess on a square board of any size from 4 to 8: `N` files,
//! `N` ranks and `N` pawns a side at the start (White's on rank 2, Black's
//! on rank `N - 1`), under the rules of `docs/rules/pawns.md`. This is
//! where those rules are written, once: the moves, double steps and
//! en passant, the wins and the stalemate. The solver uses the board
//! directly; the game ([`crate::PawnsPosition`], the 8×8 board on the
//! shared grid behind the engine, server and records) is an adapter over
//! `PawnsBoard<8>`. Two `u64` bitboards seen from the side to move, so
//! that one move generator serves both colours and a position and its
//! colour-reversed twin share a key.
//!
//! ```
//! use koma_rules::pawns_board::{After, PawnsBoard};
//!
//! let start = PawnsBoard::<8>::start();
//! assert_eq!(start.to_fen(), "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1");
//! assert_eq!(start.moves().len(), 16);
//! let e4 = start.moves().into_iter().find(|m| start.move_name(*m) == "e2e4").unwrap();
//! let After::Continues(after) = start.play(e4) else { panic!("the game goes on") };
//! assert_eq!(after.to_fen(), "8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b - - 0 1");
//! ```

use crate::outcome::EndReason;
use crate::pawns_fen::{square_name, FenError, PawnsFen};
use arrayvec::ArrayVec;

/// The most moves a position of any size has: a single and a double step
/// and two captures for each of eight pawns, and two en passant captures.
pub const MAX_BOARD_MOVES: usize = 34;

/// A move, in the squares of the side to move's view: bit `8 * rank + file`,
/// rank 0 its own first rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardMove {
    /// The square the pawn leaves.
    pub from: u8,
    /// The square it goes to.
    pub to: u8,
}

impl BoardMove {
    /// Whether the pawn moves two squares: the square between is then the
    /// en passant square, whether or not a pawn can take there.
    pub fn is_double_step(self) -> bool {
        self.to - self.from == 16
    }
}

/// The side to move's moves as sets of target squares (bits of its view),
/// by kind: what [`PawnsBoard::moves`] lists, for a caller that wants
/// them in its own order or only counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveSets {
    /// Steps, double steps, captures toward the first file (file a) and
    /// captures toward the last, in that order: each the squares reached
    /// and how many bits below the target its pawn stands (8, 16, 7, 9).
    pub kinds: [(u64, u8); 4],
    /// En passant: the pawns that can take, and the square they go to.
    pub en_passant: Option<(u64, u8)>,
}

impl MoveSets {
    /// The number of moves.
    pub fn count(&self) -> u32 {
        let [a, b, c, d] = self.kinds.map(|(targets, _)| targets.count_ones());
        a + b + c + d + self.en_passant.map_or(0, |(from, _)| from.count_ones())
    }
}

/// What a move leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum After<const N: usize> {
    /// The mover won: a pawn reached its last rank, or it took the last
    /// enemy pawn.
    Won,
    /// The game goes on from this position, the other side to move.
    Continues(PawnsBoard<N>),
}

/// A position of Pawns-Only Chess on an `N`×`N` board, seen from the side
/// to move. The solver's boards are games still going on
/// ([`PawnsBoard::from_fen`] and [`PawnsBoard::play`] never give another);
/// [`PawnsBoard::after`] also gives the position a move ended the game in,
/// which the game keeps to show it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PawnsBoard<const N: usize> {
    /// The side to move's pawns: bit `8 * rank + file`, rank 0 its first.
    us: u64,
    /// The other side's pawns, in the same squares.
    them: u64,
    /// The file of the square that the other side's last move, a double
    /// step, passed, only when a pawn of ours can take en passant there
    /// (so that equal positions are equal values).
    en_passant: Option<u8>,
    /// Whether White is to move (only for notation: the value of a
    /// position does not depend on colour).
    white_to_move: bool,
}

impl<const N: usize> PawnsBoard<N> {
    /// The squares of the board.
    const BOARD: u64 = {
        assert!(N >= 4 && N <= 8, "boards of 4 to 8 files");
        let row = (1u64 << N) - 1;
        let mut board = 0;
        let mut rank = 0;
        while rank < N {
            board |= row << (8 * rank);
            rank += 1;
        }
        board
    };
    /// The first file's squares.
    const FIRST_FILE: u64 = 0x0101_0101_0101_0101 & Self::BOARD;
    /// The last file's squares.
    const LAST_FILE: u64 = (0x0101_0101_0101_0101 << (N - 1)) & Self::BOARD;
    /// The rank a pawn stands on after its first single step.
    const THIRD_RANK: u64 = ((1u64 << N) - 1) << 16;
    /// The side to move's first rank: the other side's last, where a
    /// pawn of theirs has won.
    const FIRST_RANK: u64 = (1u64 << N) - 1;

    /// The start position, White to move.
    pub fn start() -> Self {
        let row = (1u64 << N) - 1;
        PawnsBoard {
            us: row << 8,
            them: row << (8 * (N - 2)),
            en_passant: None,
            white_to_move: true,
        }
    }

    /// Whether White is to move.
    pub fn white_to_move(&self) -> bool {
        self.white_to_move
    }

    /// The legal moves, in the order a search wants to try them. None
    /// when the game is over: the side to move has no pawns left (on a
    /// board that [`PawnsBoard::after`] gave, check [`PawnsBoard::is_lost`]
    /// first).
    pub fn moves(&self) -> ArrayVec<BoardMove, MAX_BOARD_MOVES> {
        let mut moves = ArrayVec::new();
        let sets = self.move_sets();
        let [single, double, toward_first, toward_last] = sets.kinds;
        // Captures first, then the steps furthest forward.
        for (targets, back) in [toward_first, toward_last] {
            for to in squares(targets) {
                moves.push(BoardMove {
                    from: to - back,
                    to,
                });
            }
        }
        if let Some((capturers, to)) = sets.en_passant {
            for from in squares(capturers) {
                moves.push(BoardMove { from, to });
            }
        }
        for to in squares(double.0) {
            moves.push(BoardMove { from: to - 16, to });
        }
        let mut steps: ArrayVec<BoardMove, 8> = squares(single.0)
            .map(|to| BoardMove { from: to - 8, to })
            .collect();
        steps.sort_unstable_by_key(|m| std::cmp::Reverse(m.to / 8));
        moves.extend(steps);
        moves
    }

    /// The legal moves by kind (see [`PawnsBoard::moves`] for a finished
    /// game).
    #[inline]
    pub fn move_sets(&self) -> MoveSets {
        let empty = !(self.us | self.them) & Self::BOARD;
        let single = (self.us << 8) & empty;
        let double = ((single & Self::THIRD_RANK) << 8) & empty;
        let toward_first = ((self.us & !Self::FIRST_FILE) << 7) & self.them;
        let toward_last = ((self.us & !Self::LAST_FILE) << 9) & self.them;
        MoveSets {
            kinds: [
                (single, 8),
                (double, 16),
                (toward_first, 7),
                (toward_last, 9),
            ],
            en_passant: self
                .en_passant_square()
                .map(|to| (self.en_passant_capturers(), to)),
        }
    }

    /// The number of legal moves (see [`PawnsBoard::moves`] for a finished
    /// game).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        self.move_sets().count()
    }

    /// Whether the side that just moved has won: a pawn of its stands on
    /// its last rank, or it took the side to move's last pawn.
    #[inline]
    pub fn is_lost(&self) -> bool {
        self.them & Self::FIRST_RANK != 0 || self.us == 0
    }

    /// How the game has ended, if it has: the side that just moved won
    /// ([`EndReason::LastRankReached`], [`EndReason::AllPawnsCaptured`],
    /// asked in that order), or the side to move has no move, a draw
    /// ([`EndReason::Stalemate`]).
    pub fn ending(&self) -> Option<EndReason> {
        if self.them & Self::FIRST_RANK != 0 {
            Some(EndReason::LastRankReached)
        } else if self.us == 0 {
            Some(EndReason::AllPawnsCaptured)
        } else if self.count_moves() == 0 {
            Some(EndReason::Stalemate)
        } else {
            None
        }
    }

    /// The square where the side to move can take en passant, if it can.
    fn en_passant_square(&self) -> Option<u8> {
        self.en_passant.map(|file| 8 * (N as u8 - 3) + file)
    }

    /// Our pawns that attack the en passant square, if there is one.
    fn en_passant_capturers(&self) -> u64 {
        let Some(file) = self.en_passant else {
            return 0;
        };
        // Where they would stand: one rank below the passed square, on a
        // file beside it.
        let square = 8 * (N as u32 - 4) + file as u32;
        let beside = ((1u64 << square) << 1 | (1u64 << square) >> 1) & (0xffu64 << (8 * (N - 4)));
        beside & Self::BOARD & self.us
    }

    /// Plays a legal move.
    #[inline]
    pub fn play(&self, m: BoardMove) -> After<N> {
        let next = self.after(m);
        if next.is_lost() {
            After::Won
        } else {
            After::Continues(next)
        }
    }

    /// The position after a legal move, the other side to move, also when
    /// the move won the game (then [`PawnsBoard::is_lost`]).
    #[inline]
    pub fn after(&self, m: BoardMove) -> PawnsBoard<N> {
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        let us = (self.us & !from) | to;
        let mut them = self.them & !to;
        let takes_en_passant = self.en_passant_square() == Some(m.to) && m.from % 8 != m.to % 8;
        if takes_en_passant {
            them &= !(1u64 << (m.to - 8));
        }
        // The next side's view: the board turned over.
        let mut next = PawnsBoard {
            us: flip::<N>(them),
            them: flip::<N>(us),
            en_passant: None,
            white_to_move: !self.white_to_move,
        };
        if m.is_double_step() {
            next.en_passant = Some(m.to % 8);
            next.keep_usable_en_passant();
        }
        next
    }

    /// Drops an en passant file where no pawn of the side to move can take.
    fn keep_usable_en_passant(&mut self) {
        if self.en_passant_capturers() == 0 {
            self.en_passant = None;
        }
    }

    /// The same position with the files in reverse order (a to h, b to g
    /// …): its value is the same.
    pub fn mirrored(&self) -> Self {
        PawnsBoard {
            us: mirror::<N>(self.us),
            them: mirror::<N>(self.them),
            en_passant: self.en_passant.map(|file| N as u8 - 1 - file),
            white_to_move: self.white_to_move,
        }
    }

    /// An exact key: two positions of games still going on share it if
    /// and only if they are equal seen from the side to move (the colour
    /// to move aside).
    pub fn key(&self) -> u128 {
        // Neither side has a pawn on the side to move's first rank (ours
        // never stood there; theirs would have won), so it holds the
        // en passant file.
        let en_passant = self.en_passant.map_or(0, |file| 1 + file as u64);
        (self.us | en_passant) as u128 | (self.them as u128) << 64
    }

    /// The smaller of the keys of the position and its mirror image: one
    /// key for both, whose value is the same.
    pub fn canonical_key(&self) -> u128 {
        self.key().min(self.mirrored().key())
    }

    /// A move in the notation of the board's colours: `e2e4`.
    pub fn move_name(&self, m: BoardMove) -> String {
        let name = |square: u8| square_name(self.absolute(square));
        format!("{}{}", name(m.from), name(m.to))
    }

    /// The legal move named `name` (`e2e4`), if there is one.
    pub fn find_move(&self, name: &str) -> Option<BoardMove> {
        self.moves()
            .into_iter()
            .find(|&m| self.move_name(m) == name)
    }

    /// A square of the side to move's view (bit `8 * rank + file`) as
    /// White sees the board.
    pub fn absolute(&self, square: u8) -> u8 {
        if self.white_to_move {
            square
        } else {
            8 * (N as u8 - 1 - square / 8) + square % 8
        }
    }

    /// The side to move's pawns and the other side's, in its view (bit
    /// `8 * rank + file`, rank 0 its own first rank; it moves toward rank
    /// `N - 1`, the other side toward rank 0).
    pub fn sides(&self) -> (u64, u64) {
        (self.us, self.them)
    }

    /// The pawns as the other side sees them: its own, then the side to
    /// move's, in its view (the board turned over).
    pub fn sides_turned_over(&self) -> (u64, u64) {
        (flip::<N>(self.them), flip::<N>(self.us))
    }

    /// The file of the square where the side to move can take en passant,
    /// if it can.
    pub fn en_passant_file(&self) -> Option<u8> {
        self.en_passant
    }

    /// White's and Black's pawns as White sees the board (bit
    /// `8 * rank + file`, rank 0 rank 1).
    pub fn colours(&self) -> (u64, u64) {
        if self.white_to_move {
            (self.us, self.them)
        } else {
            self.sides_turned_over()
        }
    }

    /// The position in FEN, with `N` ranks of `N` squares (move number 1:
    /// the board does not count moves).
    pub fn to_fen(&self) -> String {
        let (white, black) = self.colours();
        PawnsFen {
            white,
            black,
            white_to_move: self.white_to_move,
            en_passant: self.en_passant_square().map(|square| self.absolute(square)),
            fullmove: 1,
        }
        .write(N)
    }

    /// Reads a FEN of `N` ranks of `N` squares (the same reader as
    /// [`crate::PawnsPosition::from_fen`]; the move number is not kept). Refused besides what any FEN is
    /// refused for: a game already over (a side without pawns, a pawn on
    /// its last rank), [`FenError::GameOver`]. An en passant square where
    /// no pawn can take is dropped, so that equal positions are equal.
    pub fn from_fen(text: &str) -> Result<Self, FenError> {
        Self::from_fields(PawnsFen::read(text, N)?)
    }

    /// The board of a FEN's fields, checked already but for a game over.
    fn from_fields(fen: PawnsFen) -> Result<Self, FenError> {
        let edge = |rank: usize| ((1u64 << N) - 1) << (8 * rank);
        let (white, black) = (fen.white, fen.black);
        if (white | black) & (edge(0) | edge(N - 1)) != 0 || white == 0 || black == 0 {
            return Err(FenError::GameOver);
        }
        Ok(Self::from_colours(
            white,
            black,
            fen.white_to_move,
            fen.en_passant,
        ))
    }

    /// The board of White's and Black's pawns as White sees them (bit
    /// `8 * rank + file`), checked already (by the FEN reader's setup
    /// check), finished games included; `en_passant` is the square a
    /// double step just passed, kept only if a pawn can take there.
    pub(crate) fn from_colours(
        white: u64,
        black: u64,
        white_to_move: bool,
        en_passant: Option<u8>,
    ) -> Self {
        let mut position = if white_to_move {
            PawnsBoard {
                us: white,
                them: black,
                en_passant: None,
                white_to_move: true,
            }
        } else {
            PawnsBoard {
                us: flip::<N>(black),
                them: flip::<N>(white),
                en_passant: None,
                white_to_move: false,
            }
        };
        if let Some(square) = en_passant {
            position.en_passant = Some(square % 8);
            position.keep_usable_en_passant();
        }
        position
    }

    /// Counts the move sequences of `depth` plies (a finished game ends a
    /// sequence early).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_moves() as u64;
        }
        self.moves()
            .into_iter()
            .map(|m| match self.play(m) {
                After::Won => 0,
                After::Continues(next) => next.perft(depth - 1),
            })
            .sum()
    }
}

/// The squares of a set (bit `8 * rank + file`), lowest first.
pub fn squares(mut bits: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let square = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            square
        })
    })
}

/// The board turned over: rank `r` to rank `N - 1 - r`.
fn flip<const N: usize>(bits: u64) -> u64 {
    bits.swap_bytes() >> (8 * (8 - N))
}

/// A bitboard (bit `8 * rank + file`) in a mirror: file `f` to file
/// `N - 1 - f`, in either side's view.
pub fn mirror<const N: usize>(bits: u64) -> u64 {
    // Reversing the bits reverses both files and ranks; turning the board
    // back over restores the ranks.
    bits.reverse_bits().swap_bytes() >> (8 - N)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PawnsPosition, Position};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn names<const N: usize>(board: &PawnsBoard<N>) -> Vec<String> {
        let mut names: Vec<String> = board.moves().iter().map(|&m| board.move_name(m)).collect();
        names.sort();
        names
    }

    #[test]
    fn the_eight_file_board_plays_as_the_game_does() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let mut game = PawnsPosition::start();
            let mut board = PawnsBoard::<8>::start();
            loop {
                let mut expected: Vec<String> = game
                    .legal_moves()
                    .iter()
                    .map(|&m| PawnsPosition::move_to_text(m))
                    .collect();
                expected.sort();
                // The game keeps an en passant square no pawn can use.
                assert_eq!(names(&board), expected, "{}", game.to_fen());
                assert_eq!(board.count_moves() as usize, expected.len());
                assert_eq!(
                    PawnsBoard::<8>::from_fen(&game.to_fen()).map(|b| b.key()),
                    Ok(board.key()),
                    "{} {}",
                    game.to_fen(),
                    board.to_fen()
                );
                if expected.is_empty() {
                    break;
                }
                let name = &expected[rng.random_range(0..expected.len())];
                game = game.play(game.parse_move(name).unwrap()).unwrap();
                match board.play(board.find_move(name).unwrap()) {
                    After::Won => {
                        assert!(game.outcome().is_some_and(|o| o.winner.is_some()));
                        break;
                    }
                    After::Continues(next) => board = next,
                }
                assert!(game.outcome().is_none_or(|o| o.winner.is_none()));
            }
        }
    }

    #[test]
    fn perft_of_the_start_equals_the_game_s() {
        assert_eq!(
            PawnsBoard::<8>::start().perft(5),
            PawnsPosition::start().perft(5)
        );
        // The smaller boards, counted by hand. On four files the pawns face
        // each other at once: six captures. On five, a single step each
        // (the double step's square is Black's).
        assert_eq!(PawnsBoard::<4>::start().perft(1), 6);
        assert_eq!(PawnsBoard::<5>::start().perft(1), 5);
    }

    #[test]
    fn fen_round_trips_and_bad_fens_are_refused() {
        fn round_trip<const N: usize>(fen: &str) {
            assert_eq!(
                PawnsBoard::<N>::from_fen(fen)
                    .map(|b| b.to_fen())
                    .as_deref(),
                Ok(fen)
            );
        }
        round_trip::<4>("4/pppp/PPPP/4 w - - 0 1");
        round_trip::<5>("5/ppppp/5/PPPPP/5 w - - 0 1");
        round_trip::<5>("5/pp1pp/5/PPpPP/5 w - c3 0 1");
        round_trip::<6>("6/1ppppp/6/pP4/6/6 w - a4 0 1");
        round_trip::<8>("8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b - - 0 1");
        // An en passant square no pawn can use is dropped.
        assert_eq!(
            PawnsBoard::<5>::from_fen("5/pp1pp/5/P1p1P/5 w - c3 0 1").map(|b| b.to_fen()),
            Ok("5/pp1pp/5/P1p1P/5 w - - 0 1".to_string())
        );
        for bad in [
            "",
            "4/pppp/PPPP w",
            "P3/pppp/4/4 w",
            "4/4/PPPP/4 w",
            "4/pppp/PPPP/4 x",
            "4/ppxp/PPPP/4 w",
            "4/ppppp/PPPP/4 w",
        ] {
            assert!(PawnsBoard::<4>::from_fen(bad).is_err(), "{bad:?}");
        }
        for bad in [
            "5/ppppp/5/PPPPP/5 w - e4",
            "5/ppppp/5/PPPPP/5 w - c3",
            "5/ppppp/5/PPPPP/5 w - z9",
            // Six white pawns: more than a side ever has.
            "5/ppppp/P4/PPPPP/5 w - -",
        ] {
            assert!(PawnsBoard::<5>::from_fen(bad).is_err(), "{bad:?}");
        }
        // The rules' sentences, as every other path says them; then the
        // solver's own refusal of a game already over.
        let why = |fen: &str| PawnsBoard::<5>::from_fen(fen).unwrap_err().to_string();
        assert!(why("5/ppppp/P4/PPPPP/5 w - -").ends_with("White has more than 5 pawns"));
        assert!(why("5/p4/5/5/5 w - -")
            .ends_with("the game is over, and the solver values games still going on"));
        assert!(why("5/5/5/P4/5 w - -").ends_with(
            "Black has no pawns, and only the side to move can have lost its last one (to the move just played)"
        ));
        assert!(why("P4/5/5/5/p4 w - -").ends_with(
            "a white pawn on a5 has already won the game, so it cannot be White's turn"
        ));
        assert!(why("P4/5/5/p4/5 b - -")
            .ends_with("the game is over, and the solver values games still going on"));
    }

    #[test]
    fn the_games_position_becomes_the_board_without_text() {
        for fen in [
            "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1",
            "8/8/8/3pP3/8/8/8/8 w - d6 0 1",
            "8/pp1ppppp/8/8/1PpP4/8/P1P1PPPP/8 b - d3 0 1",
        ] {
            let position = crate::PawnsPosition::from_fen(fen).unwrap();
            assert_eq!(
                PawnsBoard::<8>::try_from(&position),
                PawnsBoard::<8>::from_fen(fen),
                "{fen}"
            );
        }
        // A won game: the position holds it, the board cannot.
        let won = crate::PawnsPosition::from_fen("P7/8/8/8/8/8/p7/8 b - - 0 1").unwrap();
        assert!(won.outcome().is_some());
        assert_eq!(PawnsBoard::<8>::try_from(&won), Err(FenError::GameOver));
    }

    #[test]
    fn en_passant_is_taken_and_then_gone() {
        let board = PawnsBoard::<5>::from_fen("5/p4/5/1P3/5 b - - 0 1").unwrap();
        let step = board.find_move("a4a2").unwrap();
        let After::Continues(after) = board.play(step) else {
            panic!()
        };
        assert_eq!(after.to_fen(), "5/5/5/pP3/5 w - a3 0 1");
        let take = after.find_move("b2a3").expect("en passant");
        let After::Won = after.play(take) else {
            panic!("the last black pawn is taken")
        };
        // A move later the chance is gone.
        let board = PawnsBoard::<5>::from_fen("5/p3p/5/1P3/5 b - - 0 1").unwrap();
        let After::Continues(after) = board.play(board.find_move("a4a2").unwrap()) else {
            panic!()
        };
        let After::Continues(later) = after.play(after.find_move("b2b3").unwrap()) else {
            panic!()
        };
        let After::Continues(again) = later.play(later.find_move("e4e3").unwrap()) else {
            panic!()
        };
        assert_eq!(names(&again), ["b3b4"]);
    }

    #[test]
    fn a_mirror_image_mirrors_the_moves() {
        let board = PawnsBoard::<6>::from_fen("6/p1pp2/2p3/1P2P1/P4P/6 w - - 0 1").unwrap();
        let mirrored = board.mirrored();
        assert_eq!(mirrored.to_fen(), "6/2pp1p/3p2/1P2P1/P4P/6 w - - 0 1");
        assert_eq!(mirrored.mirrored(), board);
        assert_eq!(board.moves().len(), mirrored.moves().len());
        assert_eq!(board.canonical_key(), mirrored.canonical_key());
    }
}
