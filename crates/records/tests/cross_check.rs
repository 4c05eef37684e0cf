//! Koma's record readers and writers checked against independent ones from
//! crates.io (dev-dependencies, see Cargo.toml):
//!
//! - rsshogi: CSA, USI `position`, KIF and KI2 readers and writers, and its
//!   own move generator to play random games in its own types;
//! - nozaq's `csa`: a nom CSA V2.2 parser and writer, read here through a
//!   small board tracker that turns its moves into USI;
//! - shogi-kifu-converter: CSA (through `csa`, plus its own replay), KIF
//!   and KI2 readers; CSA, KIF and (through shogi_core) USI writers;
//! - haitaka: SFEN and USI moves, with its own legality check.
//!
//! 1. What Koma writes (random legal games: CSA, USI, KIF), the others
//!    read as the same game. 2. What the others write (their own random
//!    games, or their reading of real records), Koma reads as the same
//!    game. 3. The shared real records read the same everywhere. 4. KIF and
//!    KI2 likewise. Moves are compared as USI strings, start positions as
//!    the first three SFEN fields (CSA has no move number), endings by kind
//!    and winner. Where another crate is wrong, a constant names the file
//!    and says why.

mod common;

use common::Rng;
use koma_records::csa::CsaErrorKind;
use koma_records::{decode, Ending, Record, RecordedMove};
use koma_rules::{Color, Move, Position, StandardShogiPosition};
use std::path::PathBuf;
use std::time::Duration;

type Koma = StandardShogiPosition;

// ---------------------------------------------------------------------------
// Common helpers
// ---------------------------------------------------------------------------

/// Board, side to move and hands of an SFEN, without the move number.
fn sfen_core(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every variation of a Koma record as its first move number and moves,
/// sorted.
fn koma_variations(record: &Record<Koma>) -> Vec<(usize, Vec<String>)> {
    fn walk(variations: &[koma_records::Variation], lines: &mut Vec<(usize, Vec<String>)>) {
        for variation in variations {
            let moves = variation
                .moves
                .iter()
                .map(|m| Koma::move_to_text(m.m))
                .collect();
            lines.push((variation.ply, moves));
            walk(&variation.variations, lines);
        }
    }
    let mut lines = Vec::new();
    walk(&record.variations, &mut lines);
    lines.sort();
    lines
}

fn koma_moves(record: &Record<Koma>) -> Vec<String> {
    record
        .moves
        .iter()
        .map(|recorded| Koma::move_to_text(recorded.m))
        .collect()
}

fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/records")
}

/// Every `*.csa` file of the shared records, decoded, sorted by name.
fn shared_csa_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(shared_dir())
        .expect("shared/records is beside the work tree")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "csa"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap();
            let text = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect();
    files.sort();
    files
}

/// Start positions: the even game and the handicaps that CSA writes as `PI`.
const STARTS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
];

/// Endings a random game may be given when it did not end in mate.
const ENDINGS: [Option<Ending>; 14] = [
    None,
    Some(Ending::Resignation),
    Some(Ending::Repetition),
    Some(Ending::PerpetualCheck),
    Some(Ending::Impasse),
    Some(Ending::ImpasseWin),
    Some(Ending::Abandoned),
    Some(Ending::Timeout),
    Some(Ending::IllegalMove),
    Some(Ending::IllegalMoveWin),
    Some(Ending::SenteIllegalAction),
    Some(Ending::GoteIllegalAction),
    Some(Ending::Draw),
    Some(Ending::NoMate),
];

/// A random legal game played by Koma: from one of [`STARTS`], or from the
/// position a random opening of up to 80 plies reaches (so with pieces in
/// hand and promoted pieces), then up to 199 random plies.
fn koma_random_game(seed: u64) -> Record<Koma> {
    let mut rng = Rng(seed);
    let mut position = Koma::from_text(STARTS[rng.below(STARTS.len())]).unwrap();
    if rng.below(2) == 0 {
        for _ in 0..rng.below(81) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    let mut record = Record::new(position);
    for _ in 0..rng.below(200) {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        position.play_unchecked(m);
        let mut recorded = RecordedMove::new(m);
        if rng.below(2) == 0 {
            recorded.time = Some(Duration::from_secs(rng.below(4000) as u64));
        }
        record.moves.push(recorded);
    }
    record.ending = if position.legal_moves().is_empty() {
        Some(Ending::Checkmate)
    } else {
        ENDINGS[rng.below(ENDINGS.len())]
    };
    record
}

const RANDOM_GAMES: u64 = 300;

/// What the random games cover, so that a change to the generator cannot
/// quietly make the cross-checks trivial.
#[derive(Default)]
struct Coverage {
    moves: usize,
    drops: usize,
    promotions: usize,
    declined_promotions: usize,
    set_up_starts: usize,
    gote_starts: usize,
    checkmates: usize,
}

impl Coverage {
    fn add(&mut self, record: &Record<Koma>) {
        let mut position = record.start;
        for recorded in &record.moves {
            self.moves += 1;
            match recorded.m {
                Move::Drop { .. } => self.drops += 1,
                Move::Board { promote: true, .. } => self.promotions += 1,
                Move::Board { from, to, .. } => {
                    let promoted = Move::Board {
                        from,
                        to,
                        promote: true,
                    };
                    if position.is_legal(promoted) {
                        self.declined_promotions += 1;
                    }
                }
            }
            position.play_unchecked(recorded.m);
        }
        let start = record.start.to_text();
        if !STARTS.iter().any(|s| sfen_core(s) == sfen_core(&start)) {
            self.set_up_starts += 1;
        }
        if record.start.turn() == Color::Gote {
            self.gote_starts += 1;
        }
        if record.ending == Some(Ending::Checkmate) {
            self.checkmates += 1;
        }
    }

    fn assert_broad(&self) {
        assert!(self.moves > 20_000, "{} moves", self.moves);
        assert!(self.drops > 2_000, "{} drops", self.drops);
        assert!(self.promotions > 500, "{} promotions", self.promotions);
        assert!(
            self.declined_promotions > 500,
            "{} declined promotions",
            self.declined_promotions
        );
        assert!(
            self.set_up_starts > 100,
            "{} set-up starts",
            self.set_up_starts
        );
        assert!(self.gote_starts > 100, "{} Gote starts", self.gote_starts);
        assert!(self.checkmates >= 5, "{} checkmates", self.checkmates);
    }
}

// ---------------------------------------------------------------------------
// rsshogi
// ---------------------------------------------------------------------------

mod rs {
    use super::{sfen_core, Koma, Rng};
    use koma_records::{Ending, Record};
    use koma_rules::{Color, Position};
    use rsshogi::board::{generate_legal_all_move32, Move32List, Position as Board};
    use rsshogi::records::{
        MoveEntry, Record as RsRecord, RecordAnnotation, RecordNodeId, SpecialMove,
        SpecialMoveEntry,
    };
    use rsshogi::types::{Color as RsColor, GameResult};

    pub fn moves(record: &RsRecord) -> Vec<String> {
        record
            .main_moves()
            .map(|entry| entry.mv().to_usi())
            .collect()
    }

    /// The start position as rsshogi writes it. Its CSA reader keeps the
    /// hands in the order it met them (`PS2p`), so it goes through its
    /// position to come out in the usual order (`SP2p`).
    pub fn start(record: &RsRecord) -> String {
        let mut board = Board::empty();
        board.set_sfen(record.init_position_sfen()).unwrap();
        sfen_core(&board.to_sfen(None))
    }

    /// Every variation (`変化`) of the record as its first move number and
    /// moves, sorted.
    pub fn variations(record: &RsRecord) -> Vec<(usize, Vec<String>)> {
        fn chain(
            record: &RsRecord,
            mut node: RecordNodeId,
            mut ply: usize,
            lines: &mut Vec<(usize, Vec<String>)>,
        ) -> Vec<String> {
            let usi = |id: RecordNodeId| record.node(id).mv().map(|m| m.mv().to_usi());
            let mut moves = Vec::new();
            loop {
                for &branch in record.variation_children(node) {
                    if let Some(first) = usi(branch) {
                        let mut line = vec![first];
                        line.extend(chain(record, branch, ply + 1, lines));
                        lines.push((ply, line));
                    }
                }
                match record
                    .main_child(node)
                    .and_then(|child| Some((child, usi(child)?)))
                {
                    Some((child, m)) => {
                        moves.push(m);
                        node = child;
                        ply += 1;
                    }
                    None => return moves,
                }
            }
        }
        let mut root = record.main_line_tail();
        while let Some(parent) = record.node(root).parent() {
            root = parent;
        }
        let mut lines = Vec::new();
        chain(record, root, 1, &mut lines);
        lines.sort();
        lines
    }

    /// Seconds spent on each move, as rsshogi read them.
    pub fn times(record: &RsRecord) -> Vec<Option<u32>> {
        record
            .main_line_ids()
            .into_iter()
            .filter(|&id| record.node(id).mv().is_some())
            .map(|id| record.node(id).time_ms().map(|ms| ms / 1000))
            .collect()
    }

    pub fn color(color: Color) -> RsColor {
        match color {
            Color::Sente => RsColor::BLACK,
            Color::Gote => RsColor::WHITE,
        }
    }

    /// The terminal rsshogi should read where Koma reads `ending`, `to_move`
    /// being the side to move after the last move: its kind and winner.
    pub fn expected_terminal(ending: Ending, to_move: Color) -> (SpecialMove, Option<RsColor>) {
        let loser = |kind| (kind, Some(color(!to_move)));
        match ending {
            Ending::Resignation => loser(SpecialMove::Resign),
            Ending::Checkmate => loser(SpecialMove::Mate),
            Ending::Timeout => loser(SpecialMove::Timeout),
            Ending::IllegalMove => loser(SpecialMove::WinByIllegalMove),
            Ending::IllegalMoveWin => (SpecialMove::WinByIllegalMove, Some(color(to_move))),
            Ending::SenteIllegalAction => (SpecialMove::WinByIllegalMove, Some(RsColor::WHITE)),
            Ending::GoteIllegalAction => (SpecialMove::WinByIllegalMove, Some(RsColor::BLACK)),
            Ending::ImpasseWin => (SpecialMove::WinByDeclaration, Some(color(to_move))),
            Ending::Repetition => (SpecialMove::RepetitionDraw, None),
            // Written as an illegal action by the side that gave the checks.
            Ending::PerpetualCheck => (SpecialMove::WinByIllegalMove, Some(color(to_move))),
            Ending::Impasse => (SpecialMove::Impasse, None),
            Ending::Draw => (SpecialMove::Draw, None),
            Ending::Abandoned => (SpecialMove::Interrupt, None),
            Ending::NoMate => (SpecialMove::NoMate, None),
        }
    }

    /// The terminal rsshogi should read where Koma writes `ending` in KIF,
    /// `to_move` being the side to move after the last move.
    pub fn expected_kif_terminal(ending: Ending, to_move: Color) -> (SpecialMove, Option<RsColor>) {
        let winner = |side: Color| Some(color(side));
        let kind = match ending {
            Ending::Resignation => SpecialMove::Resign,
            Ending::Checkmate => SpecialMove::Mate,
            Ending::Timeout => SpecialMove::Timeout,
            Ending::Repetition => SpecialMove::RepetitionDraw,
            Ending::Impasse => SpecialMove::Impasse,
            Ending::ImpasseWin => SpecialMove::WinByDeclaration,
            Ending::Abandoned => SpecialMove::Interrupt,
            Ending::NoMate => SpecialMove::NoMate,
            // KIF has no plain draw: Koma writes 持将棋, which all read.
            Ending::Draw => SpecialMove::Impasse,
            // 反則負け: the side to move lost; 反則勝ち: it won.
            Ending::IllegalMove => SpecialMove::LoseByIllegalMove,
            Ending::IllegalMoveWin | Ending::PerpetualCheck => SpecialMove::WinByIllegalMove,
            Ending::SenteIllegalAction | Ending::GoteIllegalAction => {
                let loser = if ending == Ending::SenteIllegalAction {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let kind = if loser == to_move {
                    SpecialMove::LoseByIllegalMove
                } else {
                    SpecialMove::WinByIllegalMove
                };
                return (kind, winner(!loser));
            }
        };
        let who = match ending {
            Ending::Resignation | Ending::Checkmate | Ending::Timeout | Ending::IllegalMove => {
                winner(!to_move)
            }
            Ending::ImpasseWin | Ending::IllegalMoveWin | Ending::PerpetualCheck => winner(to_move),
            _ => None,
        };
        (kind, who)
    }

    /// rsshogi's terminal: kind and winner.
    pub fn terminal(record: &RsRecord) -> Option<(SpecialMove, Option<RsColor>)> {
        record
            .main_terminal()
            .map(|t| (t.kind().clone(), t.result().winner_color()))
    }

    /// Asserts that rsshogi's reading of a text agrees with Koma's on moves,
    /// start position, times and ending.
    pub fn assert_same(name: &str, koma: &Record<Koma>, theirs: &RsRecord) {
        assert_eq!(
            start(theirs),
            sfen_core(&koma.start.to_text()),
            "{name}: start position"
        );
        assert_eq!(moves(theirs), super::koma_moves(koma), "{name}: moves");
        let koma_times: Vec<Option<u32>> = koma
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        assert_eq!(times(theirs), koma_times, "{name}: times");
        let to_move = koma.final_position().turn();
        // CSA has one kind of win by an illegal move, whoever is to move.
        let their_terminal = terminal(theirs).map(|(kind, winner)| match kind {
            SpecialMove::LoseByIllegalMove => (SpecialMove::WinByIllegalMove, winner),
            kind => (kind, winner),
        });
        assert_eq!(
            their_terminal,
            koma.ending.map(|e| expected_terminal(e, to_move)),
            "{name}: ending"
        );
    }

    /// Endings a random rsshogi game may be given when it did not end in
    /// mate.
    pub const TERMINALS: [SpecialMove; 10] = [
        SpecialMove::Resign,
        SpecialMove::Mate,
        SpecialMove::Timeout,
        SpecialMove::WinByIllegalMove,
        SpecialMove::WinByDeclaration,
        SpecialMove::RepetitionDraw,
        SpecialMove::Impasse,
        SpecialMove::Draw,
        SpecialMove::Interrupt,
        SpecialMove::NoMate,
    ];

    /// The result rsshogi records for a terminal of `kind` won by `winner`.
    fn result(kind: &SpecialMove, winner: Option<RsColor>) -> GameResult {
        let black = winner == Some(RsColor::BLACK);
        let pick = |b, w| if black { b } else { w };
        match kind {
            SpecialMove::Resign | SpecialMove::Mate => {
                pick(GameResult::BlackWin, GameResult::WhiteWin)
            }
            SpecialMove::Timeout => {
                pick(GameResult::BlackWinByTimeout, GameResult::WhiteWinByTimeout)
            }
            SpecialMove::WinByIllegalMove => pick(
                GameResult::BlackWinByIllegalMove,
                GameResult::WhiteWinByIllegalMove,
            ),
            SpecialMove::WinByDeclaration => pick(
                GameResult::BlackWinByDeclaration,
                GameResult::WhiteWinByDeclaration,
            ),
            SpecialMove::RepetitionDraw => GameResult::DrawByRepetition,
            SpecialMove::Impasse | SpecialMove::Draw => GameResult::DrawByImpasse,
            _ => GameResult::Paused,
        }
    }

    /// A random legal game played by rsshogi's own move generator, with
    /// random times and ending, as an rsshogi record: from one of
    /// [`STARTS`](super::STARTS) or from where a random opening of up to 80
    /// plies leads.
    pub fn random_game(seed: u64) -> RsRecord {
        let mut rng = Rng(seed);
        let mut board = Board::empty();
        board
            .set_sfen(super::STARTS[rng.below(super::STARTS.len())])
            .unwrap();
        let mut list = Move32List::new();
        let mut play = |board: &mut Board,
                        rng: &mut Rng,
                        plies: usize,
                        record: Option<&mut RsRecord>| {
            let mut record = record;
            for ply in 0..plies {
                list.clear();
                generate_legal_all_move32(board, &mut list);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[rng.below(list.len())];
                if let Some(record) = record.as_deref_mut() {
                    let annotation = if rng.below(2) == 0 {
                        RecordAnnotation::new().with_elapsed_ms(Some(rng.below(4000) as u32 * 1000))
                    } else {
                        RecordAnnotation::new()
                    };
                    let tail = record.main_line_tail();
                    record
                        .append_move_with_annotation(tail, MoveEntry::new(m.to_move()), annotation)
                        .unwrap();
                }
                board.apply_move32(m);
                if ply % 100 == 99 {
                    let sfen = board.to_sfen(None);
                    board.set_sfen(&sfen).unwrap();
                }
            }
        };
        if rng.below(2) == 0 {
            let plies = rng.below(81);
            play(&mut board, &mut rng, plies, None);
        }
        let mut record = RsRecord::new(board.to_sfen(Some(1))).unwrap();
        let plies = rng.below(200);
        play(&mut board, &mut rng, plies, Some(&mut record));
        list.clear();
        generate_legal_all_move32(&board, &mut list);
        let to_move = board.turn();
        let opponent = if to_move == RsColor::BLACK {
            RsColor::WHITE
        } else {
            RsColor::BLACK
        };
        let (kind, winner) = if list.is_empty() {
            (SpecialMove::Mate, Some(opponent))
        } else {
            let kind = TERMINALS[rng.below(TERMINALS.len())].clone();
            let winner = match kind {
                SpecialMove::Resign | SpecialMove::Mate | SpecialMove::Timeout => Some(opponent),
                SpecialMove::WinByDeclaration => Some(to_move),
                SpecialMove::WinByIllegalMove => Some([to_move, opponent][rng.below(2)]),
                _ => None,
            };
            (kind, winner)
        };
        if rng.below(8) != 0 {
            let result = result(&kind, winner);
            record
                .set_main_terminal(SpecialMoveEntry::new(kind, result))
                .unwrap();
        }
        record
    }

    /// The position rsshogi reaches after the record's moves, as an SFEN core.
    pub fn final_sfen(record: &RsRecord) -> String {
        let mut board = Board::empty();
        board.set_sfen(record.init_position_sfen()).unwrap();
        for (ply, entry) in record.main_moves().enumerate() {
            board.apply_move(entry.mv());
            if ply % 100 == 99 {
                let sfen = board.to_sfen(None);
                board.set_sfen(&sfen).unwrap();
            }
        }
        sfen_core(&board.to_sfen(None))
    }
}

// ---------------------------------------------------------------------------
// nozaq's csa, read through a board tracker
// ---------------------------------------------------------------------------

mod nozaq {
    use csa::{Action, Color, PieceType, Square};

    const HAND_ORDER: [(PieceType, char); 7] = [
        (PieceType::Rook, 'R'),
        (PieceType::Bishop, 'B'),
        (PieceType::Gold, 'G'),
        (PieceType::Silver, 'S'),
        (PieceType::Knight, 'N'),
        (PieceType::Lance, 'L'),
        (PieceType::Pawn, 'P'),
    ];

    /// How many of each piece a full set has.
    const FULL_SET: [(PieceType, u8); 7] = [
        (PieceType::Rook, 2),
        (PieceType::Bishop, 2),
        (PieceType::Gold, 4),
        (PieceType::Silver, 4),
        (PieceType::Knight, 4),
        (PieceType::Lance, 4),
        (PieceType::Pawn, 18),
    ];

    const HIRATE: [&str; 9] = [
        "-KY-KE-GI-KI-OU-KI-GI-KE-KY",
        " * -HI *  *  *  *  * -KA * ",
        "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
        " *  *  *  *  *  *  *  *  * ",
        " *  *  *  *  *  *  *  *  * ",
        " *  *  *  *  *  *  *  *  * ",
        "+FU+FU+FU+FU+FU+FU+FU+FU+FU",
        " * +KA *  *  *  *  * +HI * ",
        "+KY+KE+GI+KI+OU+KI+GI+KE+KY",
    ];

    fn promoted(pt: PieceType) -> Option<PieceType> {
        Some(match pt {
            PieceType::Pawn => PieceType::ProPawn,
            PieceType::Lance => PieceType::ProLance,
            PieceType::Knight => PieceType::ProKnight,
            PieceType::Silver => PieceType::ProSilver,
            PieceType::Bishop => PieceType::Horse,
            PieceType::Rook => PieceType::Dragon,
            _ => return None,
        })
    }

    fn unpromoted(pt: PieceType) -> PieceType {
        match pt {
            PieceType::ProPawn => PieceType::Pawn,
            PieceType::ProLance => PieceType::Lance,
            PieceType::ProKnight => PieceType::Knight,
            PieceType::ProSilver => PieceType::Silver,
            PieceType::Horse => PieceType::Bishop,
            PieceType::Dragon => PieceType::Rook,
            other => other,
        }
    }

    fn letter(pt: PieceType) -> char {
        match pt {
            PieceType::Pawn | PieceType::ProPawn => 'P',
            PieceType::Lance | PieceType::ProLance => 'L',
            PieceType::Knight | PieceType::ProKnight => 'N',
            PieceType::Silver | PieceType::ProSilver => 'S',
            PieceType::Gold => 'G',
            PieceType::Bishop | PieceType::Horse => 'B',
            PieceType::Rook | PieceType::Dragon => 'R',
            PieceType::King => 'K',
            PieceType::All => panic!("AL is not a piece"),
        }
    }

    fn hand_index(pt: PieceType) -> usize {
        HAND_ORDER
            .iter()
            .position(|&(p, _)| p == unpromoted(pt))
            .expect("a piece that can be in hand")
    }

    fn side(color: Color) -> usize {
        match color {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    fn usi_square(square: Square) -> String {
        format!("{}{}", square.file, (b'a' + square.rank - 1) as char)
    }

    /// A board that follows CSA moves as written: no rules, only where the
    /// pieces are, to tell promotions and to write USI and SFEN.
    pub struct Tracker {
        /// `cells[file - 1][rank - 1]`.
        cells: [[Option<(Color, PieceType)>; 9]; 9],
        hands: [[u8; 7]; 2],
        turn: Color,
    }

    impl Tracker {
        pub fn new(start: &csa::Position) -> Tracker {
            let mut tracker = Tracker {
                cells: [[None; 9]; 9],
                hands: [[0; 7]; 2],
                turn: start.side_to_move,
            };
            match &start.bulk {
                Some(rows) => {
                    for (rank, row) in rows.iter().enumerate() {
                        for (column, cell) in row.iter().enumerate() {
                            tracker.cells[8 - column][rank] = *cell;
                        }
                    }
                }
                None if start.add_pieces.iter().all(|&(_, sq, _)| sq.file == 0) => {
                    for (rank, row) in HIRATE.iter().enumerate() {
                        for column in 0..9 {
                            let cell = &row[column * 3..column * 3 + 3];
                            let color = match &cell[..1] {
                                "+" => Color::Black,
                                "-" => Color::White,
                                _ => continue,
                            };
                            let pt = piece_type(&cell[1..]);
                            tracker.cells[8 - column][rank] = Some((color, pt));
                        }
                    }
                    for &(sq, _) in &start.drop_pieces {
                        tracker.cells[sq.file as usize - 1][sq.rank as usize - 1] = None;
                    }
                }
                None => {}
            }
            let mut all = None;
            for &(color, sq, pt) in &start.add_pieces {
                if sq.file == 0 {
                    if pt == PieceType::All {
                        all = Some(color);
                    } else {
                        tracker.hands[side(color)][hand_index(pt)] += 1;
                    }
                } else {
                    tracker.cells[sq.file as usize - 1][sq.rank as usize - 1] = Some((color, pt));
                }
            }
            if let Some(color) = all {
                for (index, &(pt, total)) in FULL_SET.iter().enumerate() {
                    let on_board = tracker
                        .cells
                        .iter()
                        .flatten()
                        .flatten()
                        .filter(|&&(_, p)| unpromoted(p) == pt)
                        .count() as u8;
                    let in_hands = tracker.hands[0][index] + tracker.hands[1][index];
                    tracker.hands[side(color)][index] += total - on_board - in_hands;
                }
            }
            tracker
        }

        /// The tracker of an SFEN position.
        pub fn from_sfen(sfen: &str) -> Tracker {
            let mut fields = sfen.split_whitespace();
            let mut tracker = Tracker {
                cells: [[None; 9]; 9],
                hands: [[0; 7]; 2],
                turn: Color::Black,
            };
            for (rank, row) in fields.next().unwrap().split('/').enumerate() {
                let mut file = 9;
                let mut promote = false;
                for c in row.chars() {
                    if let Some(empty) = c.to_digit(10) {
                        file -= empty as usize;
                    } else if c == '+' {
                        promote = true;
                    } else {
                        let pt = match c.to_ascii_uppercase() {
                            'K' => PieceType::King,
                            'G' => PieceType::Gold,
                            upper => HAND_ORDER.iter().find(|&&(_, l)| l == upper).unwrap().0,
                        };
                        let pt = if promote { promoted(pt).unwrap() } else { pt };
                        let color = if c.is_ascii_uppercase() {
                            Color::Black
                        } else {
                            Color::White
                        };
                        file -= 1;
                        tracker.cells[file][rank] = Some((color, pt));
                        promote = false;
                    }
                }
            }
            if fields.next() == Some("w") {
                tracker.turn = Color::White;
            }
            let mut count = 0;
            for c in fields.next().unwrap().chars().filter(|&c| c != '-') {
                if let Some(digit) = c.to_digit(10) {
                    count = count * 10 + digit as u8;
                    continue;
                }
                let side = usize::from(c.is_ascii_lowercase());
                let index = HAND_ORDER
                    .iter()
                    .position(|&(_, l)| l == c.to_ascii_uppercase())
                    .unwrap();
                tracker.hands[side][index] += count.max(1);
                count = 0;
            }
            tracker
        }

        /// Board, side to move and hands in SFEN.
        pub fn sfen(&self) -> String {
            let mut rows = Vec::new();
            for rank in 0..9 {
                let mut row = String::new();
                let mut empty = 0;
                for file in (0..9).rev() {
                    match self.cells[file][rank] {
                        None => empty += 1,
                        Some((color, pt)) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            if pt != unpromoted(pt) {
                                row.push('+');
                            }
                            let letter = letter(pt);
                            row.push(match color {
                                Color::Black => letter,
                                Color::White => letter.to_ascii_lowercase(),
                            });
                        }
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                rows.push(row);
            }
            let mut hands = String::new();
            for (color, hand) in self.hands.iter().enumerate() {
                for (index, &(_, letter)) in HAND_ORDER.iter().enumerate() {
                    let count = hand[index];
                    if count > 1 {
                        hands.push_str(&count.to_string());
                    }
                    if count > 0 {
                        hands.push(if color == 0 {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                    }
                }
            }
            if hands.is_empty() {
                hands.push('-');
            }
            let turn = match self.turn {
                Color::Black => 'b',
                Color::White => 'w',
            };
            format!("{} {turn} {hands}", rows.join("/"))
        }

        /// Plays a CSA move as written and returns it in USI.
        pub fn play(&mut self, action: Action) -> String {
            let Action::Move(color, from, to, pt) = action else {
                panic!("{action} is not a move");
            };
            assert_eq!(color, self.turn, "{action}: not the side to move");
            let usi = if from.file == 0 {
                self.hands[side(color)][hand_index(pt)] -= 1;
                format!("{}*{}", letter(pt), usi_square(to))
            } else {
                let cell = &mut self.cells[from.file as usize - 1][from.rank as usize - 1];
                let (_, before) = cell.take().unwrap_or_else(|| panic!("{action}: no piece"));
                let promote = before != pt;
                assert!(
                    !promote || promoted(before) == Some(pt),
                    "{action}: the piece is {before}"
                );
                format!(
                    "{}{}{}",
                    usi_square(from),
                    usi_square(to),
                    if promote { "+" } else { "" }
                )
            };
            let target = &mut self.cells[to.file as usize - 1][to.rank as usize - 1];
            if let Some((_, captured)) = target.replace((color, pt)) {
                self.hands[side(color)][hand_index(captured)] += 1;
            }
            self.turn = match color {
                Color::Black => Color::White,
                Color::White => Color::Black,
            };
            usi
        }

        /// The CSA action of a USI move, the side to move playing it.
        pub fn action(&self, usi: &str) -> Action {
            let square = |text: &str| {
                let bytes = text.as_bytes();
                Square::new(bytes[0] - b'0', bytes[1] - b'a' + 1)
            };
            match usi.split_once('*') {
                Some((piece, to)) => {
                    let pt = HAND_ORDER
                        .iter()
                        .find(|&&(_, l)| l.to_string() == piece)
                        .map(|&(p, _)| p)
                        .unwrap();
                    Action::Move(self.turn, Square::new(0, 0), square(to), pt)
                }
                None => {
                    let from = square(&usi[0..2]);
                    let (_, before) = self.cells[from.file as usize - 1][from.rank as usize - 1]
                        .expect("a piece to move");
                    let pt = if usi.ends_with('+') {
                        promoted(before).unwrap()
                    } else {
                        before
                    };
                    Action::Move(self.turn, from, square(&usi[2..4]), pt)
                }
            }
        }

        /// The set-up as nozaq's CSA position: the nine rows and each piece
        /// in hand on its own `P+00..` statement.
        pub fn position(&self) -> csa::Position {
            let mut bulk = [[None; 9]; 9];
            for (rank, row) in bulk.iter_mut().enumerate() {
                for (column, cell) in row.iter_mut().enumerate() {
                    *cell = self.cells[8 - column][rank];
                }
            }
            let mut add_pieces = Vec::new();
            for (index, hand) in self.hands.iter().enumerate() {
                let color = if index == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                for (slot, &(pt, _)) in HAND_ORDER.iter().enumerate() {
                    for _ in 0..hand[slot] {
                        add_pieces.push((color, Square::new(0, 0), pt));
                    }
                }
            }
            csa::Position {
                drop_pieces: Vec::new(),
                bulk: Some(bulk),
                add_pieces,
                side_to_move: self.turn,
            }
        }
    }

    pub fn piece_type(code: &str) -> PieceType {
        match code {
            "FU" => PieceType::Pawn,
            "KY" => PieceType::Lance,
            "KE" => PieceType::Knight,
            "GI" => PieceType::Silver,
            "KI" => PieceType::Gold,
            "KA" => PieceType::Bishop,
            "HI" => PieceType::Rook,
            "OU" => PieceType::King,
            other => panic!("{other} is not a piece of the start position"),
        }
    }

    /// nozaq's reading of a CSA text: start (SFEN core), moves in USI and
    /// the special action after the last move, if it read one.
    pub struct Read {
        pub start: String,
        pub moves: Vec<String>,
        pub special: Option<Action>,
    }

    pub fn read(text: &str) -> Read {
        let record = csa::parse_csa(text).expect("nozaq's csa reads it");
        let mut tracker = Tracker::new(&record.start_pos);
        let start = tracker.sfen();
        let mut moves = Vec::new();
        let mut special = None;
        for m in &record.moves {
            match m.action {
                Action::Move(..) => {
                    assert!(special.is_none(), "a move after {special:?}");
                    moves.push(tracker.play(m.action));
                }
                other => special = special.or(Some(other)),
            }
        }
        Read {
            start,
            moves,
            special,
        }
    }
}

/// The special action nozaq's `csa` 1.0.2 reads where Koma reads `ending`.
/// Its parser has no `%TIME_UP`, `%ILLEGAL_MOVE` or `%±ILLEGAL_ACTION` (its
/// writer has them): it stops before them, so they read as nothing.
fn nozaq_special(ending: Ending) -> Option<csa::Action> {
    use csa::Action;
    match ending {
        Ending::Resignation => Some(Action::Toryo),
        Ending::Checkmate => Some(Action::Tsumi),
        Ending::Repetition => Some(Action::Sennichite),
        Ending::Impasse => Some(Action::Jishogi),
        Ending::ImpasseWin => Some(Action::Kachi),
        Ending::Abandoned => Some(Action::Chudan),
        Ending::Draw => Some(Action::Hikiwake),
        Ending::NoMate => Some(Action::Fuzumi),
        Ending::Timeout
        | Ending::PerpetualCheck
        | Ending::IllegalMove
        | Ending::IllegalMoveWin
        | Ending::SenteIllegalAction
        | Ending::GoteIllegalAction => None,
    }
}

/// The ending Koma should read for a special action nozaq's `csa` writes.
fn ending_of_nozaq(action: csa::Action) -> Option<Ending> {
    use csa::Action;
    match action {
        Action::Toryo => Some(Ending::Resignation),
        Action::Tsumi => Some(Ending::Checkmate),
        Action::Sennichite => Some(Ending::Repetition),
        Action::Jishogi => Some(Ending::Impasse),
        Action::Kachi => Some(Ending::ImpasseWin),
        Action::Chudan | Action::Error => Some(Ending::Abandoned),
        Action::Hikiwake => Some(Ending::Draw),
        Action::Fuzumi => Some(Ending::NoMate),
        Action::TimeUp => Some(Ending::Timeout),
        Action::IllegalMove => Some(Ending::IllegalMove),
        Action::IllegalAction(csa::Color::Black) => Some(Ending::SenteIllegalAction),
        Action::IllegalAction(csa::Color::White) => Some(Ending::GoteIllegalAction),
        Action::Matta | Action::Move(..) => None,
    }
}

/// Start (SFEN core; `startpos` as the even game's) and moves of a USI
/// `position` command as another crate wrote it.
fn usi_parts(text: &str) -> (String, Vec<String>) {
    let mut words = text.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let start = match words.next() {
        Some("startpos") => sfen_core(STARTS[0]),
        Some("sfen") => {
            let fields: Vec<&str> = words.by_ref().take_while(|&w| w != "moves").collect();
            return (
                sfen_core(&fields.join(" ")),
                words.map(String::from).collect(),
            );
        }
        other => panic!("{other:?} in {text:?}"),
    };
    assert!(matches!(words.next(), None | Some("moves")), "{text}");
    (start, words.map(String::from).collect())
}

/// shogi-kifu-converter's reading, as its USI: start and moves.
fn skc_usi(jkf: &shogi_kifu_converter::JKF) -> (String, Vec<String>) {
    use shogi_core::ToUsi;
    usi_parts(&jkf.to_usi_owned())
}

// ---------------------------------------------------------------------------
// 1. What Koma writes, the others read as the same game
// ---------------------------------------------------------------------------

#[test]
fn koma_csa_reads_the_same_in_rsshogi_nozaq_csa_and_shogi_kifu_converter() {
    let mut coverage = Coverage::default();
    for seed in 0..RANDOM_GAMES {
        let record = koma_random_game(seed);
        coverage.add(&record);
        let text = koma_records::csa::write(&record);
        let name = format!("game {seed}\n{text}");
        let start = sfen_core(&record.start.to_text());
        let moves = koma_moves(&record);

        let theirs = rsshogi::records::formats::csa::parse_csa_str(&text)
            .unwrap_or_else(|e| panic!("rsshogi: {e}: {name}"));
        rs::assert_same(&name, &record, &theirs);

        let theirs = nozaq::read(&text);
        assert_eq!(theirs.start, start, "nozaq start: {name}");
        assert_eq!(theirs.moves, moves, "nozaq moves: {name}");
        assert_eq!(
            theirs.special,
            record.ending.and_then(nozaq_special),
            "nozaq ending: {name}"
        );

        // shogi-kifu-converter replays slowly (some 0.3 ms a move): one game in 5.
        if seed % 5 == 0 {
            let jkf = shogi_kifu_converter::parser::parse_csa_str(&text)
                .unwrap_or_else(|e| panic!("shogi-kifu-converter: {e}: {name}"));
            assert_eq!(skc_usi(&jkf), (start, moves), "skc: {name}");
        }
    }
    coverage.assert_broad();
}

#[test]
fn koma_usi_reads_the_same_in_rsshogi_and_haitaka() {
    for seed in 0..RANDOM_GAMES {
        let record = koma_random_game(seed);
        let text = koma_records::usi::write(&record);
        let name = format!("game {seed}: {text}");
        let moves = koma_moves(&record);

        let theirs = rsshogi::records::formats::usi::parse_usi_position(&text)
            .unwrap_or_else(|e| panic!("rsshogi: {e}: {name}"));
        assert_eq!(
            rs::start(&theirs),
            sfen_core(&record.start.to_text()),
            "{name}"
        );
        assert_eq!(rs::moves(&theirs), moves, "{name}");
        assert_eq!(
            rs::final_sfen(&theirs),
            sfen_core(&record.final_position().to_text()),
            "{name}"
        );

        // haitaka reads the SFEN Koma writes and writes it back to the letter
        // (hand order, move number), then finds every move legal.
        let sfen = record.start.to_text();
        let mut board =
            haitaka::Board::from_sfen(&sfen).unwrap_or_else(|e| panic!("{e:?}: {name}"));
        assert_eq!(board.to_string(), sfen, "{name}");
        let (_, words) = usi_parts(&text);
        for word in &words {
            let m: haitaka::Move = word
                .parse()
                .unwrap_or_else(|e| panic!("{word}: {e:?}: {name}"));
            board
                .try_play(m)
                .unwrap_or_else(|_| panic!("haitaka: {word} is illegal: {name}"));
        }
        assert_eq!(words, moves, "{name}");
        assert_eq!(
            board.to_string(),
            record.final_position().to_text(),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------
// 2. What the others write, Koma reads as the same game
// ---------------------------------------------------------------------------

#[test]
fn rsshogi_csa_and_usi_read_the_same_in_koma() {
    let mut coverage = Coverage::default();
    let mut terminals = 0;
    for seed in 0..RANDOM_GAMES {
        let theirs = rs::random_game(seed);
        terminals += usize::from(theirs.main_terminal().is_some());

        let text = rsshogi::records::formats::csa::export_csa(&theirs)
            .unwrap_or_else(|e| panic!("game {seed}: rsshogi cannot write it: {e}"));
        let name = format!("game {seed}\n{text}");
        let record = koma_records::csa::read(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        rs::assert_same(&name, &record, &theirs);
        record.to_game().unwrap_or_else(|e| panic!("{e}: {name}"));
        coverage.add(&record);

        let text = rsshogi::records::formats::usi::export_usi_position(&theirs).unwrap();
        let name = format!("game {seed}: {text}");
        let record: Record<Koma> =
            koma_records::usi::read(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&theirs),
            "{name}"
        );
        assert_eq!(koma_moves(&record), rs::moves(&theirs), "{name}");
    }
    assert!(terminals > RANDOM_GAMES as usize / 2, "{terminals} endings");
    coverage.assert_broad();
}

#[test]
fn nozaq_csa_reads_the_same_in_koma() {
    use csa::{Action, GameRecord, MoveRecord};
    const SPECIALS: [Action; 13] = [
        Action::Toryo,
        Action::Chudan,
        Action::Sennichite,
        Action::TimeUp,
        Action::IllegalMove,
        Action::IllegalAction(csa::Color::Black),
        Action::IllegalAction(csa::Color::White),
        Action::Jishogi,
        Action::Kachi,
        Action::Hikiwake,
        Action::Tsumi,
        Action::Fuzumi,
        Action::Error,
    ];
    // The games are rsshogi's, turned into nozaq's types move by move.
    for seed in 0..RANDOM_GAMES {
        let game = rs::random_game(seed);
        let mut rng = Rng(seed);
        let mut tracker = nozaq::Tracker::from_sfen(game.init_position_sfen());
        let mut theirs = GameRecord {
            black_player: Some(format!("black {seed}")),
            white_player: Some("white".into()),
            event: Some("cross-check".into()),
            site: Some("Koma".into()),
            opening: Some("random".into()),
            start_pos: tracker.position(),
            ..GameRecord::default()
        };
        let moves = rs::moves(&game);
        for usi in &moves {
            let action = tracker.action(usi);
            assert_eq!(&tracker.play(action), usi);
            let time = (rng.below(2) == 0).then(|| Duration::from_secs(rng.below(4000) as u64));
            theirs.moves.push(MoveRecord { action, time });
        }
        let special = SPECIALS[rng.below(SPECIALS.len())];
        theirs.moves.push(MoveRecord {
            action: special,
            time: None,
        });

        let text = theirs.to_string();
        let name = format!("game {seed}\n{text}");
        let record = koma_records::csa::read(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&game),
            "{name}"
        );
        assert_eq!(koma_moves(&record), moves, "{name}");
        let times: Vec<Option<Duration>> = theirs.moves.iter().map(|m| m.time).collect();
        let koma_times: Vec<Option<Duration>> = record.moves.iter().map(|m| m.time).collect();
        assert_eq!(koma_times, times[..moves.len()], "{name}");
        assert_eq!(record.ending, ending_of_nozaq(special), "{name}");
        assert_eq!(record.headers.sente, theirs.black_player, "{name}");
        assert_eq!(record.headers.gote, theirs.white_player, "{name}");
        assert_eq!(record.headers.event, theirs.event, "{name}");
        assert_eq!(record.headers.site, theirs.site, "{name}");
        assert_eq!(record.headers.opening, theirs.opening, "{name}");
    }
}

// ---------------------------------------------------------------------------
// 3. Real records: Koma and the others agree
// ---------------------------------------------------------------------------

/// nozaq's `csa` reads nothing after `PI`/`+` of a record whose statements
/// are padded with spaces (`+7776FU  ,T0       ,'T0`, as GPS wrote in 2005),
/// and says nothing about it: `parse_csa` ignores what it could not read.
/// Spaces before a comma are not in the CSA V2.2 grammar, but Koma and
/// rsshogi read them as written.
const NOZAQ_READS_NO_MOVES: [&str; 1] = ["2005_YAMADA_GPS.csa"];

/// rsshogi 1.7.3 shares out `P-00AL` as if each side had its own set (the
/// rest of Gote's 9 pawns, 1 bishop...): `b2g2s2n2l5p` where the CSA spec's
/// "all remaining pieces" are `4g4s4n3l14p` (Koma, nozaq's `csa` and
/// shogi-kifu-converter agree; Sente's two bishops are on the board).
const RSSHOGI_MISREADS_AL: [(&str, &str); 1] = [(
    "tsumeshogi.csa",
    "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b b2g2s2n2l5p",
)];

#[test]
fn shared_csa_records_read_the_same_in_koma_and_the_others() {
    let files = shared_csa_files();
    assert!(files.len() >= 7, "{} CSA files", files.len());
    for (name, text) in &files {
        let koma = koma_records::csa::read(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = sfen_core(&koma.start.to_text());
        let moves = koma_moves(&koma);

        let theirs = rsshogi::records::formats::csa::parse_csa_str(text)
            .unwrap_or_else(|e| panic!("rsshogi: {name}: {e}"));
        match RSSHOGI_MISREADS_AL.iter().find(|(file, _)| file == name) {
            Some((_, their_start)) => {
                assert_eq!(rs::start(&theirs), *their_start, "{name}");
                assert_eq!(rs::moves(&theirs), moves, "{name}");
            }
            None => rs::assert_same(name, &koma, &theirs),
        }

        let theirs = nozaq::read(text);
        assert_eq!(theirs.start, start, "nozaq: {name}");
        if NOZAQ_READS_NO_MOVES.contains(&name.as_str()) {
            assert!(!moves.is_empty(), "{name}");
            assert_eq!(theirs.moves, Vec::<String>::new(), "nozaq: {name}");
        } else {
            assert_eq!(theirs.moves, moves, "nozaq: {name}");
            assert_eq!(
                theirs.special,
                koma.ending.and_then(nozaq_special),
                "nozaq: {name}"
            );
        }

        let jkf = shogi_kifu_converter::parser::parse_csa_str(text)
            .unwrap_or_else(|e| panic!("shogi-kifu-converter: {name}: {e}"));
        let (their_start, their_moves) = skc_usi(&jkf);
        assert_eq!(their_start, start, "shogi-kifu-converter: {name}");
        if NOZAQ_READS_NO_MOVES.contains(&name.as_str()) {
            assert!(their_moves.is_empty(), "shogi-kifu-converter: {name}");
        } else {
            assert_eq!(their_moves, moves, "shogi-kifu-converter: {name}");
        }
    }
}

/// The others read a real record and write it; Koma reads what they wrote as
/// the game they read.
#[test]
fn shared_csa_records_written_by_the_others_read_the_same_in_koma() {
    use shogi_kifu_converter::converter::ToCsa;
    for (name, text) in shared_csa_files() {
        let theirs = rsshogi::records::formats::csa::parse_csa_str(&text).unwrap();
        let written = rsshogi::records::formats::csa::export_csa(&theirs)
            .unwrap_or_else(|e| panic!("rsshogi cannot write {name}: {e}"));
        let what = format!("{name} as rsshogi wrote it\n{written}");
        if RSSHOGI_MISREADS_AL.iter().any(|(file, _)| *file == name) {
            // What rsshogi read has three bishops: Koma refuses it.
            let error = koma_records::csa::read(&written).unwrap_err();
            assert!(
                matches!(error.kind, CsaErrorKind::InvalidPosition(_)),
                "{error}: {what}"
            );
        } else {
            let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
            rs::assert_same(&what, &koma, &theirs);
        }

        let theirs = csa::parse_csa(&text).unwrap();
        let read = nozaq::read(&text);
        let written = theirs.to_string();
        let what = format!("{name} as nozaq's csa wrote it\n{written}");
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(sfen_core(&koma.start.to_text()), read.start, "{what}");
        assert_eq!(koma_moves(&koma), read.moves, "{what}");
        assert_eq!(koma.ending.and_then(nozaq_special), read.special, "{what}");
        assert_eq!(koma.headers.sente, theirs.black_player, "{what}");

        let theirs = shogi_kifu_converter::parser::parse_csa_str(&text).unwrap();
        let written = theirs.to_csa_owned();
        let what = format!("{name} as shogi-kifu-converter wrote it\n{written}");
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        let (start, moves) = skc_usi(&theirs);
        assert_eq!(sfen_core(&koma.start.to_text()), start, "{what}");
        assert_eq!(koma_moves(&koma), moves, "{what}");
    }
}

/// The shared KIF, KIFU and KI2 files: name, whether KI2, decoded text.
fn shared_kifu_files() -> Vec<(String, bool, String)> {
    let mut files: Vec<(String, bool, String)> = std::fs::read_dir(shared_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "kif" || ext == "kifu" || ext == "ki2")
        })
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = decode(&std::fs::read(&path).unwrap()).unwrap();
            (name.clone(), name.ends_with(".ki2"), text)
        })
        .collect();
    files.sort();
    files
}

fn rs_kifu(ki2: bool, text: &str) -> rsshogi::records::Record {
    use rsshogi::records::formats::kif;
    if ki2 {
        kif::parse_ki2_str(text).unwrap()
    } else {
        kif::parse_kif_str(text).unwrap()
    }
}

fn skc_kifu(ki2: bool, text: &str) -> shogi_kifu_converter::JKF {
    use shogi_kifu_converter::parser;
    if ki2 {
        parser::parse_ki2_str(text).unwrap()
    } else {
        parser::parse_kif_str(text).unwrap()
    }
}

/// The ending Koma should read for a special move shogi-kifu-converter
/// writes in CSA.
fn ending_of_skc(special: shogi_kifu_converter::jkf::MoveSpecial) -> Option<Ending> {
    use shogi_kifu_converter::jkf::MoveSpecial as S;
    match special {
        S::SpecialToryo => Some(Ending::Resignation),
        S::SpecialChudan | S::SpecialError => Some(Ending::Abandoned),
        S::SpecialSennichite => Some(Ending::Repetition),
        S::SpecialTimeUp => Some(Ending::Timeout),
        S::SpecialIllegalMove => Some(Ending::IllegalMove),
        S::SpecialIllegalActionBlack => Some(Ending::SenteIllegalAction),
        S::SpecialIllegalActionWhite => Some(Ending::GoteIllegalAction),
        S::SpecialJishogi => Some(Ending::Impasse),
        S::SpecialKachi => Some(Ending::ImpasseWin),
        S::SpecialHikiwake => Some(Ending::Draw),
        S::SpecialMatta => None,
        S::SpecialTsumi => Some(Ending::Checkmate),
        S::SpecialFuzumi => Some(Ending::NoMate),
    }
}

fn skc_special(jkf: &shogi_kifu_converter::JKF) -> Option<shogi_kifu_converter::jkf::MoveSpecial> {
    jkf.moves.last().and_then(|m| m.special)
}

/// Every variation (fork) shogi-kifu-converter read, as its first move
/// number and moves in USI, sorted.
fn skc_variations(jkf: &shogi_kifu_converter::JKF) -> Vec<(usize, Vec<String>)> {
    use shogi_kifu_converter::jkf::{MoveFormat, MoveMoveFormat};
    fn usi(m: MoveMoveFormat) -> String {
        let square = |x: u8, y: u8| format!("{x}{}", (b'a' + y - 1) as char);
        match m.from {
            Some(from) => format!(
                "{}{}{}",
                square(from.x, from.y),
                square(m.to.x, m.to.y),
                if m.promote == Some(true) { "+" } else { "" }
            ),
            None => {
                let letter = format!("{:?}", m.piece);
                let letter = match letter.as_str() {
                    "FU" => 'P',
                    "KY" => 'L',
                    "KE" => 'N',
                    "GI" => 'S',
                    "KI" => 'G',
                    "KA" => 'B',
                    "HI" => 'R',
                    other => panic!("{other} dropped"),
                };
                format!("{letter}*{}", square(m.to.x, m.to.y))
            }
        }
    }
    fn walk(moves: &[MoveFormat], first_ply: usize, lines: &mut Vec<(usize, Vec<String>)>) {
        for (index, m) in moves.iter().enumerate() {
            for fork in m.forks.iter().flatten() {
                let line: Vec<String> = fork.iter().map_while(|m| m.move_.map(usi)).collect();
                if !line.is_empty() {
                    lines.push((first_ply + index, line));
                }
                walk(fork, first_ply + index, lines);
            }
        }
    }
    let mut lines = Vec::new();
    walk(&jkf.moves[1..], 1, &mut lines);
    lines.sort();
    lines
}

/// rsshogi writes, from two real KIF headers, CSA that Koma refuses:
/// `$振り駒:3,0,藤`, which Koma splits at the commas (the Koma bug: its own
/// writer writes such values too), and `%封じ手` (a sealed move), which is
/// no CSA ending (Koma is right). Each: the file and Koma's error.
const KOMA_REFUSES_RSSHOGI_CSA: [(&str, &str); 1] = [(
    "meijinsen_20180508_M7_10034.kif",
    "unknown statement \"%封じ手\"",
)];

/// Real KIF and KI2 games, as rsshogi and shogi-kifu-converter read them
/// (both agree), written as CSA by each: Koma reads that CSA as the same
/// game. Handicaps, set-up positions and mate problems come this way.
#[test]
fn shared_kif_games_written_as_csa_by_the_others_read_the_same_in_koma() {
    use shogi_kifu_converter::converter::ToCsa;
    let files = shared_kifu_files();
    assert!(files.len() >= 12, "{} KIF files", files.len());
    for (name, ki2, text) in &files {
        let rs = rs_kifu(*ki2, text);
        let skc = skc_kifu(*ki2, text);
        let (start, moves) = skc_usi(&skc);
        assert_eq!(rs::start(&rs), start, "{name}: rsshogi and skc");
        assert_eq!(rs::moves(&rs), moves, "{name}: rsshogi and skc");

        let written = skc.to_csa_owned();
        let what = format!("{name} as shogi-kifu-converter wrote it\n{written}");
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(sfen_core(&koma.start.to_text()), start, "{what}");
        assert_eq!(koma_moves(&koma), moves, "{what}");
        assert_eq!(
            koma.ending,
            skc_special(&skc).and_then(ending_of_skc),
            "{what}"
        );

        let mut rs = rs;
        let written = rsshogi::records::formats::csa::export_csa(&rs).unwrap();
        let what = format!("{name} as rsshogi wrote it\n{written}");
        if let Some((_, error)) = KOMA_REFUSES_RSSHOGI_CSA.iter().find(|(f, _)| f == name) {
            let refused = koma_records::csa::read(&written).unwrap_err();
            assert!(refused.to_string().ends_with(error), "{refused}: {what}");
            // Still the same moves without the headers and ending Koma refuses.
            rs.set_metadata(Default::default());
            if let Some(terminal) = rs.main_terminal_node() {
                rs.detach_subtree(terminal).unwrap();
            }
        }
        let written = rsshogi::records::formats::csa::export_csa(&rs).unwrap();
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        rs::assert_same(&what, &koma, &rs);
    }
}

// ---------------------------------------------------------------------------
// 4. KIF and KI2 (koma_records::kif, koma_records::ki2)
// ---------------------------------------------------------------------------

type KomaShogi = koma_rules::Shogi;

/// Whether shogi-kifu-converter 0.2.2 can read a KIF text Koma wrote. Its
/// KIF parser knows `成` but not `不成` (which Kifu for Windows, rsshogi
/// and Koma write; its own KI2 parser knows it), panics on a board diagram
/// with `後手番`, and stops at ending words it does not know.
fn skc_reads_kif(text: &str) -> bool {
    !["不成", "後手番", "反則勝ち", "不詰", "引き分け"]
        .iter()
        .any(|word| text.contains(word))
}

#[test]
fn koma_kif_reads_the_same_in_rsshogi_and_shogi_kifu_converter() {
    let mut skc_games = 0;
    for seed in 0..RANDOM_GAMES {
        let record = koma_random_game(seed);
        let text = koma_records::kif::write(&record);
        let name = format!("game {seed}\n{text}");
        let start = sfen_core(&record.start.to_text());
        let moves = koma_moves(&record);
        let reread =
            koma_records::kif::read::<KomaShogi>(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(koma_moves(&reread), moves, "{name}");

        let theirs = rsshogi::records::formats::kif::parse_kif_str(&text)
            .unwrap_or_else(|e| panic!("rsshogi: {e}: {name}"));
        assert_eq!(rs::start(&theirs), start, "{name}");
        assert_eq!(rs::moves(&theirs), moves, "{name}");
        // KIF writes a time for every move or none: compare with what Koma
        // reads back (a move without time is written 0:00).
        let koma_times: Vec<Option<u32>> = reread
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        assert_eq!(rs::times(&theirs), koma_times, "{name}");
        let to_move = record.final_position().turn();
        assert_eq!(
            rs::terminal(&theirs),
            record.ending.map(|e| rs::expected_kif_terminal(e, to_move)),
            "{name}"
        );

        if skc_reads_kif(&text) {
            skc_games += 1;
            let jkf = shogi_kifu_converter::parser::parse_kif_str(&text)
                .unwrap_or_else(|e| panic!("shogi-kifu-converter: {e}: {name}"));
            assert_eq!(skc_usi(&jkf), (start, moves), "{name}");
            assert_eq!(
                skc_special(&jkf).and_then(ending_of_skc),
                reread.ending,
                "{name}"
            );
        }
    }
    assert!(
        skc_games > 20,
        "shogi-kifu-converter read {skc_games} games"
    );
}

#[test]
fn rsshogi_and_shogi_kifu_converter_kif_read_the_same_in_koma() {
    use rsshogi::records::SpecialMove;
    use shogi_kifu_converter::converter::ToKif;
    for seed in 0..RANDOM_GAMES {
        let theirs = rs::random_game(seed);
        let text = rsshogi::records::formats::kif::export_kif(&theirs)
            .unwrap_or_else(|e| panic!("game {seed}: rsshogi cannot write it: {e}"));
        let name = format!("game {seed} as rsshogi wrote it\n{text}");
        let record =
            koma_records::kif::read::<KomaShogi>(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&theirs),
            "{name}"
        );
        assert_eq!(koma_moves(&record), rs::moves(&theirs), "{name}");
        let koma_times: Vec<Option<u32>> = record
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        let their_times: Vec<Option<u32>> = rs::times(&theirs)
            .into_iter()
            .map(|t| t.or(koma_times.iter().any(Option::is_some).then_some(0)))
            .collect();
        assert_eq!(koma_times, their_times, "{name}");
        // rsshogi writes its draws (Draw, Impasse) as 持将棋, and a win by
        // the other side's illegal move as 反則負け when the loser is to move.
        let to_move = record.final_position().turn();
        let their_terminal = rs::terminal(&theirs).map(|(kind, winner)| match kind {
            SpecialMove::Draw => (SpecialMove::Impasse, winner),
            SpecialMove::WinByIllegalMove if winner != Some(rs::color(to_move)) => {
                (SpecialMove::LoseByIllegalMove, winner)
            }
            kind => (kind, winner),
        });
        assert_eq!(
            record.ending.map(|e| rs::expected_kif_terminal(e, to_move)),
            their_terminal,
            "{name}"
        );

        // The same game in shogi-kifu-converter's types (read from rsshogi's
        // CSA), written as KIF by shogi-kifu-converter; one game in 5. Its
        // KIF writer leaves `後手番` out of a diagram (and the hours out of
        // a move's time), so only games Sente starts.
        if seed % 5 == 0 && rs::start(&theirs).contains(" b ") {
            let csa = rsshogi::records::formats::csa::export_csa(&theirs).unwrap();
            let jkf = shogi_kifu_converter::parser::parse_csa_str(&csa).unwrap();
            let text = jkf.to_kif_owned();
            let name = format!("game {seed} as shogi-kifu-converter wrote it\n{text}");
            let record = koma_records::kif::read::<KomaShogi>(&text)
                .unwrap_or_else(|e| panic!("{e}: {name}"));
            assert_eq!(
                skc_usi(&jkf),
                (sfen_core(&record.start.to_text()), koma_moves(&record)),
                "{name}"
            );
        }
    }
}

/// rsshogi 1.7.3 drops the variations (`変化：`) of a KIF file whose main
/// line ends with an ending and `まで…` (it keeps those of `forks.kif`,
/// which has neither); Koma and shogi-kifu-converter keep them.
const RSSHOGI_DROPS_VARIATIONS: [&str; 4] = [
    "Shogidokoro.kif",
    "Shogidokoro.kifu",
    "everyday_20211107.kif",
    "illegal.kif",
];

#[test]
fn shared_kif_records_read_the_same_in_koma_and_the_others() {
    let files = shared_kifu_files();
    let mut variations = 0;
    for (name, ki2, text) in &files {
        let koma = if *ki2 {
            koma_records::ki2::read::<KomaShogi>(text)
        } else {
            koma_records::kif::read::<KomaShogi>(text)
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = sfen_core(&koma.start.to_text());
        let moves = koma_moves(&koma);
        let lines = koma_variations(&koma);
        variations += lines.len();

        let theirs = rs_kifu(*ki2, text);
        assert_eq!(rs::start(&theirs), start, "rsshogi: {name}");
        assert_eq!(rs::moves(&theirs), moves, "rsshogi: {name}");
        let koma_times: Vec<Option<u32>> = koma
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        assert_eq!(rs::times(&theirs), koma_times, "rsshogi: {name}");
        let to_move = koma.final_position().turn();
        assert_eq!(
            rs::terminal(&theirs).and_then(|(_, winner)| winner),
            koma.ending
                .and_then(|e| e.outcome(to_move))
                .and_then(|o| o.winner)
                .map(rs::color),
            "rsshogi: {name}"
        );
        if RSSHOGI_DROPS_VARIATIONS.contains(&name.as_str()) {
            assert!(!lines.is_empty(), "{name}");
            assert_eq!(rs::variations(&theirs), Vec::new(), "rsshogi: {name}");
        } else {
            assert_eq!(rs::variations(&theirs), lines, "rsshogi: {name}");
        }

        let theirs = skc_kifu(*ki2, text);
        assert_eq!(skc_usi(&theirs), (start, moves), "skc: {name}");
        assert_eq!(skc_variations(&theirs), lines, "skc: {name}");
    }
    assert!(variations >= 6, "{variations} variations");
}

/// rsshogi 1.7.3 writes the variations of `forks.kif` earliest branch first
/// and loses the one branching off a variation: `変化：10手` then follows
/// the move-5 line, whose move 11 (６九玉) cannot be played. Kifu for
/// Windows writes the latest branch first, and a `変化：N手` continues the
/// latest line that has move N: Koma, shogi-kifu-converter and rsshogi
/// itself all refuse what rsshogi wrote.
const RSSHOGI_MISWRITES_VARIATIONS: [&str; 1] = ["forks.kif"];

/// Real KIF games as shogi-kifu-converter and rsshogi read them, written
/// as KIF by each: Koma reads the same game.
#[test]
fn shared_kif_records_written_by_the_others_read_the_same_in_koma() {
    use shogi_kifu_converter::converter::ToKif;
    for (name, ki2, text) in &shared_kifu_files() {
        let theirs = skc_kifu(*ki2, text);
        let written = theirs.to_kif_owned();
        let what = format!("{name} as shogi-kifu-converter wrote it\n{written}");
        let koma = koma_records::kif::read::<KomaShogi>(&written)
            .unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(
            skc_usi(&theirs),
            (sfen_core(&koma.start.to_text()), koma_moves(&koma)),
            "{what}"
        );
        assert_eq!(skc_variations(&theirs), koma_variations(&koma), "{what}");

        let mut theirs = rs_kifu(*ki2, text);
        let written = rsshogi::records::formats::kif::export_kif(&theirs).unwrap();
        let what = format!("{name} as rsshogi wrote it\n{written}");
        if RSSHOGI_MISWRITES_VARIATIONS.contains(&name.as_str()) {
            let refused = koma_records::kif::read::<KomaShogi>(&written).unwrap_err();
            assert!(
                matches!(refused.kind, koma_records::kif::KifErrorKind::Replay(_)),
                "{refused}: {what}"
            );
            assert!(
                rsshogi::records::formats::kif::parse_kif_str(&written).is_err(),
                "{what}"
            );
            // The main line alone still reads the same.
            for id in theirs.main_line_ids() {
                for branch in theirs.variation_children(id).to_vec() {
                    theirs.detach_subtree(branch).unwrap();
                }
            }
            let root = theirs.node(theirs.main_line_ids()[0]).parent().unwrap();
            for branch in theirs.variation_children(root).to_vec() {
                theirs.detach_subtree(branch).unwrap();
            }
        }
        let written = rsshogi::records::formats::kif::export_kif(&theirs).unwrap();
        let koma = koma_records::kif::read::<KomaShogi>(&written)
            .unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(
            sfen_core(&koma.start.to_text()),
            rs::start(&theirs),
            "{what}"
        );
        assert_eq!(koma_moves(&koma), rs::moves(&theirs), "{what}");
        assert_eq!(koma_variations(&koma), rs::variations(&theirs), "{what}");
    }
}

/// KI2 gives no square a piece comes from, only `右`, `左`, `上`, `引`,
/// `寄`, `直` when two pieces could go: rsshogi's KI2 of random games (many
/// such choices) reads in Koma as the same moves.
#[test]
fn rsshogi_ki2_reads_the_same_in_koma() {
    for seed in 0..RANDOM_GAMES {
        let theirs = rs::random_game(seed);
        let text = rsshogi::records::formats::kif::export_ki2(&theirs)
            .unwrap_or_else(|e| panic!("game {seed}: rsshogi cannot write it: {e}"));
        let name = format!("game {seed} as rsshogi wrote it\n{text}");
        let record =
            koma_records::ki2::read::<KomaShogi>(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&theirs),
            "{name}"
        );
        assert_eq!(koma_moves(&record), rs::moves(&theirs), "{name}");
    }
}

/// A name or `$` header value holding a comma (`N+Foo, Jr.`, `$EVENT:a,b`,
/// `$振り駒:3,0,藤` from a real KIF header) is one statement, not two: the
/// cross-checks found Koma splitting it, which rsshogi does not.
#[test]
fn csa_header_values_with_commas_read_back_as_in_rsshogi() {
    let mut record = Record::new(Koma::start());
    record.headers.sente = Some("Foo, Jr.".into());
    record.headers.event = Some("a,b".into());
    let text = koma_records::csa::write(&record);
    let theirs = rsshogi::records::formats::csa::parse_csa_str(&text).unwrap();
    assert_eq!(theirs.metadata().black_player(), Some("Foo, Jr."), "{text}");
    assert_eq!(theirs.metadata().event(), Some("a,b"), "{text}");
    let koma = koma_records::csa::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(koma.headers.sente.as_deref(), Some("Foo, Jr."), "{text}");
    assert_eq!(koma.headers.event.as_deref(), Some("a,b"), "{text}");
}
