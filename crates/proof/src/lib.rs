//! Checks a certificate of a Pawns-Only Chess result (`koma verify-proof`).
//!
//! It knows the rules of `docs/rules/pawns.md` through its own small
//! code, a grid of cells and plain loops, and nothing of Koma's move
//! generator or solver: a bug there cannot hide a gap in a proof here.
//! This second copy of the rules is on purpose: everywhere else Koma
//! writes them once (`koma_rules::pawns_board`, which the engine, the
//! server and the solver share), and this crate does not depend on it.
//!
//! # The certificate
//! Text lines, then binary records:
//!
//! ```text
//! koma-pawns-proof 1
//! size N                      the board: N files, N ranks (4 to 8)
//! root FEN                    the position whose value is claimed
//! claim win|draw|loss         its value for the side to move
//! strategy white|black win|draw COUNT
//! COUNT records of 19 bytes
//! … more strategies …
//! end
//! ```
//!
//! A strategy says that a side secures at least a win (or a draw) by
//! playing, in each of the positions listed, the move given. A record is
//! White's pawns and Black's as 8-byte little-endian bit sets (bit
//! `8 * rank + file`, rank 0 the first rank, file 0 file a), the file
//! where the side to move can take en passant (255 when it cannot: it is
//! given only when such a capture is legal), and the move's from and to
//! squares as bit numbers. The strategy's side is to move in each.
//!
//! A strategy is closed when, in each of its positions, its move is legal
//! and either wins at once or leaves the other side only replies that lead
//! back into the strategy, to a position its side wins by a race (the one
//! rule beyond play the checker trusts, stated and proven in the `race`
//! module's source and tested there against a full search), or to a
//! position where the strategy's side has no move; the other side may
//! have no move at all. Such stalemates are
//! draws: they close a strategy for a draw, not one for a win. Every move
//! advances a pawn, so play cannot cycle, and a closed strategy secures
//! what it says. The claim is then checked at the root: a win needs the
//! side to move's win strategy; a loss the other side's; a draw both
//! sides' draw strategies.
//!
//! ```
//! // A certificate of 4×4's start: White has six captures, each answered.
//! let text = b"koma-pawns-proof 1\nsize 4\nroot 4/pppp/PPPP/4 w - - 0 1\nclaim win\nend\n";
//! let error = koma_proof::verify(text).unwrap_err();
//! assert!(error.to_string().contains("no win strategy"), "{error}");
//! ```

mod index;
mod race;

use index::Index;
use std::fmt;

/// What was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The board's size.
    pub size: usize,
    /// The root position, as given.
    pub root: String,
    /// The value proven for the side to move: `win`, `draw` or `loss`.
    pub claim: String,
    /// The positions of all its strategies.
    pub positions: usize,
}

/// Why a certificate fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofError(pub String);

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProofError {}

fn fail<T>(why: impl Into<String>) -> Result<T, ProofError> {
    Err(ProofError(why.into()))
}

/// The bytes of one record.
const RECORD: usize = 19;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    White,
    Black,
}

/// A position on a grid: `cells[rank][file]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Board {
    size: usize,
    cells: [[Cell; 8]; 8],
    white_to_move: bool,
    /// The file where the side to move can take en passant.
    en_passant: Option<usize>,
}

/// A move: from and to, as (file, rank).
type Step = ((usize, usize), (usize, usize));

/// The result of a move.
enum Played {
    /// The mover won.
    Won,
    /// The game goes on.
    On(Board),
}

impl Board {
    fn mover(&self) -> Cell {
        if self.white_to_move {
            Cell::White
        } else {
            Cell::Black
        }
    }

    fn other(&self) -> Cell {
        if self.white_to_move {
            Cell::Black
        } else {
            Cell::White
        }
    }

    /// The rank ahead of `rank` for the side to move, if on the board.
    fn ahead(&self, rank: usize) -> Option<usize> {
        if self.white_to_move {
            (rank + 1 < self.size).then_some(rank + 1)
        } else {
            rank.checked_sub(1)
        }
    }

    fn moves(&self) -> Vec<Step> {
        let mut moves = Vec::new();
        let n = self.size;
        let start_rank = if self.white_to_move { 1 } else { n - 2 };
        for rank in 0..n {
            for file in 0..n {
                if self.cells[rank][file] != self.mover() {
                    continue;
                }
                let Some(next) = self.ahead(rank) else {
                    continue;
                };
                if self.cells[next][file] == Cell::Empty {
                    moves.push(((file, rank), (file, next)));
                    if rank == start_rank {
                        if let Some(second) = self.ahead(next) {
                            if self.cells[second][file] == Cell::Empty {
                                moves.push(((file, rank), (file, second)));
                            }
                        }
                    }
                }
                for target in [file.wrapping_sub(1), file + 1] {
                    if target >= n {
                        continue;
                    }
                    let enemy = self.cells[next][target] == self.other();
                    // En passant: the square behind the pawn that stepped
                    // two, which is empty.
                    let passed_rank = if self.white_to_move { n - 3 } else { 2 };
                    let en_passant = self.en_passant == Some(target) && next == passed_rank;
                    if enemy || en_passant {
                        moves.push(((file, rank), (target, next)));
                    }
                }
            }
        }
        moves
    }

    fn play(&self, ((from_file, from_rank), (to_file, to_rank)): Step) -> Played {
        let mut board = *self;
        let taken_en_passant = from_file != to_file && board.cells[to_rank][to_file] == Cell::Empty;
        board.cells[from_rank][from_file] = Cell::Empty;
        board.cells[to_rank][to_file] = self.mover();
        if taken_en_passant {
            board.cells[from_rank][to_file] = Cell::Empty;
        }
        let last_rank = if self.white_to_move { self.size - 1 } else { 0 };
        let other_left = board.cells.iter().flatten().any(|&c| c == self.other());
        if to_rank == last_rank || !other_left {
            return Played::Won;
        }
        board.white_to_move = !self.white_to_move;
        board.en_passant = None;
        if from_rank.abs_diff(to_rank) == 2 {
            board.en_passant = Some(to_file);
            board.keep_usable_en_passant();
        }
        Played::On(board)
    }

    /// Drops an en passant file the side to move cannot use: no enemy pawn
    /// has just stepped two there, or no pawn of its own can take it.
    fn keep_usable_en_passant(&mut self) {
        let Some(file) = self.en_passant else {
            return;
        };
        let n = self.size;
        // Where the pawn that stepped two stands, the square it passed and
        // the one it came from.
        let (stands, passed, came) = if self.white_to_move {
            (n - 4, n - 3, n - 2)
        } else {
            (3, 2, 1)
        };
        let stepped_two = file < n
            && self.cells[stands][file] == self.other()
            && self.cells[passed][file] == Cell::Empty
            && self.cells[came][file] == Cell::Empty;
        let taker = [file.wrapping_sub(1), file + 1]
            .into_iter()
            .any(|beside| beside < n && self.cells[stands][beside] == self.mover());
        if !(stepped_two && taker) {
            self.en_passant = None;
        }
    }

    /// White's pawns, Black's, and the en passant file: a record's key.
    fn key(&self) -> (u64, u64, u8) {
        let (mut white, mut black) = (0u64, 0u64);
        for rank in 0..self.size {
            for file in 0..self.size {
                let bit = 1u64 << (8 * rank + file);
                match self.cells[rank][file] {
                    Cell::White => white |= bit,
                    Cell::Black => black |= bit,
                    Cell::Empty => {}
                }
            }
        }
        (white, black, self.en_passant.map_or(255, |f| f as u8))
    }

    fn from_key(
        size: usize,
        white_to_move: bool,
        (white, black, en_passant): (u64, u64, u8),
    ) -> Result<Board, ProofError> {
        let mut board = Board {
            size,
            cells: [[Cell::Empty; 8]; 8],
            white_to_move,
            en_passant: (en_passant != 255).then_some(en_passant as usize),
        };
        for square in 0..64 {
            let (rank, file) = (square / 8, square % 8);
            let bit = 1u64 << square;
            let cell = match (white & bit != 0, black & bit != 0) {
                (false, false) => continue,
                (true, false) => Cell::White,
                (false, true) => Cell::Black,
                (true, true) => return fail(format!("a record puts two pawns on square {square}")),
            };
            if rank >= size || file >= size {
                return fail(format!("a record puts a pawn off the {size}×{size} board"));
            }
            board.cells[rank][file] = cell;
        }
        Ok(board)
    }

    fn from_fen(size: usize, text: &str) -> Result<Board, ProofError> {
        let mut fields = text.split_whitespace();
        let rows: Vec<&str> = fields.next().unwrap_or("").split('/').collect();
        if rows.len() != size {
            return fail(format!("the root {text:?} is not {size} ranks"));
        }
        let mut board = Board {
            size,
            cells: [[Cell::Empty; 8]; 8],
            white_to_move: true,
            en_passant: None,
        };
        for (index, row) in rows.iter().enumerate() {
            let rank = size - 1 - index;
            let mut file = 0;
            for c in row.chars() {
                match c {
                    '1'..='8' => file += c as usize - '0' as usize,
                    'P' | 'p' if file < size => {
                        board.cells[rank][file] = if c == 'P' { Cell::White } else { Cell::Black };
                        file += 1;
                    }
                    _ => return fail(format!("the root {text:?} cannot be read")),
                }
            }
            if file != size {
                return fail(format!(
                    "the root {text:?} has a rank that is not {size} squares"
                ));
            }
        }
        board.white_to_move = match fields.next() {
            Some("w") => true,
            Some("b") => false,
            _ => return fail(format!("the root {text:?} has no side to move")),
        };
        let _castling = fields.next();
        if let Some(square) = fields.next().filter(|&s| s != "-") {
            let file = square
                .bytes()
                .next()
                .map_or(usize::MAX, |b| b.wrapping_sub(b'a') as usize);
            if file >= size {
                return fail(format!(
                    "the root's en passant square {square:?} is not on the board"
                ));
            }
            board.en_passant = Some(file);
            board.keep_usable_en_passant();
        }
        Ok(board)
    }
}

/// What a strategy secures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Goal {
    Win,
    Draw,
}

/// A side's strategy: its move in each of its positions.
struct Strategy<'a> {
    white: bool,
    goal: Goal,
    moves: Index<'a>,
}

impl Strategy<'_> {
    /// Whether the strategy's side secures its goal from `board`, with
    /// either side to move there (not recursing: the strategy's own
    /// positions are checked once each by [`Strategy::check_closed`]).
    fn covers(&self, board: &Board) -> Result<(), String> {
        if board.white_to_move == self.white {
            if self.moves.contains(board.key()) || board.won_by_race() {
                return Ok(());
            }
            if board.moves().is_empty() && self.goal == Goal::Draw {
                return Ok(());
            }
            return Err(format!(
                "the strategy does not hold the position {}",
                describe(board)
            ));
        }
        let replies = board.moves();
        if replies.is_empty() {
            return match self.goal {
                Goal::Draw => Ok(()),
                Goal::Win => Err(format!(
                    "the other side is stalemated (a draw) in {}",
                    describe(board)
                )),
            };
        }
        for reply in replies {
            match board.play(reply) {
                Played::Won => {
                    return Err(format!(
                        "the other side wins at once in {}",
                        describe(board)
                    ))
                }
                Played::On(next) => self.covers(&next)?,
            }
        }
        Ok(())
    }

    /// Every position's move is legal, and what it leads to is covered.
    fn check_closed(&self, size: usize) -> Result<(), ProofError> {
        for (key, from, to) in self.moves.records() {
            let board = Board::from_key(size, self.white, key)?;
            let step = (
                (from as usize % 8, from as usize / 8),
                (to as usize % 8, to as usize / 8),
            );
            if !board.moves().contains(&step) {
                return fail(format!(
                    "illegal move {}{} in {}",
                    name(step.0),
                    name(step.1),
                    describe(&board)
                ));
            }
            match board.play(step) {
                Played::Won => {}
                Played::On(next) => {
                    if let Err(why) = self.covers(&next) {
                        return fail(format!(
                            "after {}{} in {}: {why}",
                            name(step.0),
                            name(step.1),
                            describe(&board)
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

fn name((file, rank): (usize, usize)) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// A position in FEN, for messages.
fn describe(board: &Board) -> String {
    let mut rows = Vec::new();
    for rank in (0..board.size).rev() {
        let mut row = String::new();
        let mut gap = 0;
        for file in 0..board.size {
            let c = match board.cells[rank][file] {
                Cell::Empty => {
                    gap += 1;
                    continue;
                }
                Cell::White => 'P',
                Cell::Black => 'p',
            };
            if gap > 0 {
                row.push_str(&gap.to_string());
                gap = 0;
            }
            row.push(c);
        }
        if gap > 0 {
            row.push_str(&gap.to_string());
        }
        rows.push(row);
    }
    let side = if board.white_to_move { 'w' } else { 'b' };
    format!("{} {side}", rows.join("/"))
}

/// Reads one text line from `bytes` at `at`.
fn line<'a>(bytes: &'a [u8], at: &mut usize) -> Result<&'a str, ProofError> {
    let rest = &bytes[*at..];
    let Some(end) = rest.iter().position(|&b| b == b'\n') else {
        return fail("the certificate ends in the middle of a line (no \"end\")");
    };
    *at += end + 1;
    std::str::from_utf8(&rest[..end]).or_else(|_| fail("a header line is not text"))
}

/// Checks a certificate; what it proves, or why it does not.
pub fn verify(bytes: &[u8]) -> Result<Report, ProofError> {
    let mut at = 0;
    if line(bytes, &mut at)? != "koma-pawns-proof 1" {
        return fail("not a Koma Pawns-Only Chess certificate (its first line is not \"koma-pawns-proof 1\")");
    }
    let size = match line(bytes, &mut at)?
        .strip_prefix("size ")
        .map(str::parse::<usize>)
    {
        Some(Ok(size)) if (4..=8).contains(&size) => size,
        _ => return fail("the second line is not \"size N\" with N from 4 to 8"),
    };
    let Some(root_text) = line(bytes, &mut at)?.strip_prefix("root ") else {
        return fail("the third line is not \"root FEN\"");
    };
    let root = Board::from_fen(size, root_text)?;
    let claim = match line(bytes, &mut at)?.strip_prefix("claim ") {
        Some(claim @ ("win" | "draw" | "loss")) => claim.to_string(),
        _ => return fail("the fourth line is not \"claim win|draw|loss\""),
    };
    let mut strategies: Vec<Strategy> = Vec::new();
    loop {
        let header = line(bytes, &mut at)?;
        if header == "end" {
            break;
        }
        let words: Vec<&str> = header.split(' ').collect();
        let (white, goal, count) = match words.as_slice() {
            ["strategy", side @ ("white" | "black"), goal @ ("win" | "draw"), count] => {
                let Ok(count) = count.parse::<usize>() else {
                    return fail(format!("{header:?}: the count is not a number"));
                };
                (
                    *side == "white",
                    if *goal == "win" {
                        Goal::Win
                    } else {
                        Goal::Draw
                    },
                    count,
                )
            }
            _ => {
                return fail(format!(
                    "{header:?} is neither \"strategy SIDE GOAL COUNT\" nor \"end\""
                ))
            }
        };
        if strategies
            .iter()
            .any(|s| s.white == white && s.goal == goal)
        {
            return fail(format!(
                "{header:?}: a second strategy for the same side and goal"
            ));
        }
        let Some(records) = count
            .checked_mul(RECORD)
            .and_then(|n| bytes.get(at..at.checked_add(n)?))
        else {
            return fail(format!(
                "{header:?}: the file ends before its {count} records"
            ));
        };
        at += records.len();
        let moves = Index::new(records).or_else(|why| fail(format!("{header:?}: {why}")))?;
        strategies.push(Strategy { white, goal, moves });
    }
    if at != bytes.len() {
        return fail("bytes follow \"end\"");
    }
    for strategy in &strategies {
        strategy.check_closed(size)?;
    }
    let mover = root.white_to_move;
    let side = |white: bool| if white { "white" } else { "black" };
    let need = |white: bool, goal: Goal| -> Result<(), ProofError> {
        let Some(strategy) = strategies
            .iter()
            .find(|s| s.white == white && s.goal == goal)
        else {
            let goal = if goal == Goal::Win { "win" } else { "draw" };
            return fail(format!(
                "the claim needs {}'s {goal} strategy, and there is no {goal} strategy for {}",
                side(white),
                side(white)
            ));
        };
        strategy
            .covers(&root)
            .or_else(|why| fail(format!("at the root: {why}")))
    };
    match claim.as_str() {
        "win" => need(mover, Goal::Win)?,
        "loss" => need(!mover, Goal::Win)?,
        _ => {
            need(mover, Goal::Draw)?;
            need(!mover, Goal::Draw)?;
        }
    }
    Ok(Report {
        size,
        root: root_text.to_string(),
        claim,
        positions: strategies.iter().map(|s| s.moves.len()).sum(),
    })
}
