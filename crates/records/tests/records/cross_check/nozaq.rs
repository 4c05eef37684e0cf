//! nozaq's `csa`, read through a board tracker that follows its moves as
//! written and turns them into USI and SFEN; what it should read where
//! Koma reads an ending, and the reverse.

use csa::{Action, Color, PieceType, Square};
use koma_records::Ending;

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

/// The special action nozaq's `csa` 1.0.2 reads where Koma reads `ending`.
/// Its parser has no `%TIME_UP`, `%ILLEGAL_MOVE` or `%±ILLEGAL_ACTION` (its
/// writer has them): it stops before them, so they read as nothing.
pub fn special(ending: Ending) -> Option<csa::Action> {
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
pub fn ending_of(action: csa::Action) -> Option<Ending> {
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
