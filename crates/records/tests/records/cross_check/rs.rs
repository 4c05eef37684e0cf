//! rsshogi's side: its reading of a record as USI moves, start, times,
//! variations and terminal, what it should read where Koma reads an
//! ending, and random games played by its own move generator.

use super::games::{koma_moves, sfen_core, Koma, STARTS};
use crate::common::Rng;
use koma_records::{Ending, Record};
use koma_rules::{Color, Position};
use rsshogi::board::{generate_legal_all_move32, Move32List, Position as Board};
use rsshogi::records::{
    MoveEntry, Record as RsRecord, RecordAnnotation, RecordNodeId, SpecialMove, SpecialMoveEntry,
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
    assert_eq!(moves(theirs), koma_moves(koma), "{name}: moves");
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
        SpecialMove::Resign | SpecialMove::Mate => pick(GameResult::BlackWin, GameResult::WhiteWin),
        SpecialMove::Timeout => pick(GameResult::BlackWinByTimeout, GameResult::WhiteWinByTimeout),
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
/// [`STARTS`] or from where a random opening of up to 80
/// plies leads.
pub fn random_game(seed: u64) -> RsRecord {
    let mut rng = Rng::new(seed);
    let mut board = Board::empty();
    board.set_sfen(STARTS[rng.below(STARTS.len())]).unwrap();
    let mut list = Move32List::new();
    let mut play =
        |board: &mut Board, rng: &mut Rng, plies: usize, record: Option<&mut RsRecord>| {
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

/// rsshogi's reading of a KIF or KI2 text.
pub fn kifu(ki2: bool, text: &str) -> rsshogi::records::Record {
    use rsshogi::records::formats::kif;
    if ki2 {
        kif::parse_ki2_str(text).unwrap()
    } else {
        kif::parse_kif_str(text).unwrap()
    }
}
