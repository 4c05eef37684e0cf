//! CSA, the record format of the Computer Shogi Association (V2.2): `V2.2`,
//! `N+`/`N-` names, `$KEY:value` headers, the position (`PI`, `P1`..`P9`,
//! `P+00KI`, `P-00AL`), the side to move, moves like `+7776FU` with `T`
//! times, `'` comments and a `%` ending. Standard shogi only.

use crate::record::{Ending, Headers, Record, RecordedMove, ReplayError};
use crate::text;
use koma_rules::{
    Color, Move, Piece, Position, Role, SfenError, Shogi, ShogiPosition, ShogiVariant, Square,
    StandardShogiPosition,
};
use std::fmt;
use std::time::Duration;

/// Where and why a text is not a CSA record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsaError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters) where the faulty statement starts.
    pub column: usize,
    /// What is wrong.
    pub kind: CsaErrorKind,
}

/// What is wrong in a CSA text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsaErrorKind {
    /// A statement of no known kind.
    UnknownStatement(String),
    /// A board row, piece list or piece code that cannot be read.
    BadPosition(String),
    /// The position the record sets up is not a legal shogi position.
    InvalidPosition(SfenError),
    /// No position before the first move.
    NoPosition,
    /// A move that cannot be read.
    BadMove(String),
    /// A move that cannot be played.
    Replay(ReplayError),
    /// A time (`T`) that is not a number of seconds.
    BadTime(String),
}

impl fmt::Display for CsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            CsaErrorKind::UnknownStatement(text) => {
                write!(f, "unknown statement {}", crate::Excerpt(text))
            }
            CsaErrorKind::BadPosition(text) => {
                write!(f, "cannot read the position in {}", crate::Excerpt(text))
            }
            CsaErrorKind::InvalidPosition(error) => write!(f, "the position is not legal: {error}"),
            CsaErrorKind::NoPosition => {
                f.write_str("a move before the position (PI or P1..P9 and + or -)")
            }
            CsaErrorKind::BadMove(text) => {
                write!(f, "{} is not a CSA move like +7776FU", crate::Excerpt(text))
            }
            CsaErrorKind::Replay(error) => error.fmt(f),
            CsaErrorKind::BadTime(text) => {
                write!(f, "{} is not a time like T12", crate::Excerpt(text))
            }
        }
    }
}

impl std::error::Error for CsaError {}

const PIECE_CODES: [(&str, Role); 14] = [
    ("FU", Role::Pawn),
    ("KY", Role::Lance),
    ("KE", Role::Knight),
    ("GI", Role::Silver),
    ("KI", Role::Gold),
    ("KA", Role::Bishop),
    ("HI", Role::Rook),
    ("OU", Role::King),
    ("TO", Role::Tokin),
    ("NY", Role::PromotedLance),
    ("NK", Role::PromotedKnight),
    ("NG", Role::PromotedSilver),
    ("UM", Role::Horse),
    ("RY", Role::Dragon),
];

fn role_of(code: &str) -> Option<Role> {
    PIECE_CODES
        .iter()
        .find(|(text, _)| *text == code)
        .map(|&(_, role)| role)
}

fn code_of(role: Role) -> &'static str {
    PIECE_CODES
        .iter()
        .find(|&&(_, r)| r == role)
        .map(|&(text, _)| text)
        .expect("every role has a code")
}

/// Square from CSA's two digits (file, rank); `00` is the hand.
fn square_of(text: &str) -> Option<Option<Square>> {
    match text.as_bytes() {
        [b'0', b'0'] => Some(None),
        [file @ b'1'..=b'9', rank @ b'1'..=b'9'] => {
            Some(Square::from_coords(file - b'1', rank - b'1'))
        }
        _ => None,
    }
}

fn square_code(square: Square) -> String {
    format!("{}{}", square.file() + 1, square.rank() + 1)
}

fn sign(color: Color) -> char {
    color.select('+', '-')
}

/// The `$` headers that have a field of their own in [`Headers`].
type HeaderField = fn(&mut Headers) -> &mut Option<String>;
const HEADER_FIELDS: [(&str, HeaderField); 6] = [
    ("EVENT", |h| &mut h.event),
    ("SITE", |h| &mut h.site),
    ("START_TIME", |h| &mut h.start_time),
    ("END_TIME", |h| &mut h.end_time),
    ("TIME_LIMIT", |h| &mut h.time_control),
    ("OPENING", |h| &mut h.opening),
];

/// The full set of shogi pieces, to share out with `AL`.
const FULL_SET: [(Role, u8); 8] = [
    (Role::Pawn, 18),
    (Role::Lance, 4),
    (Role::Knight, 4),
    (Role::Silver, 4),
    (Role::Gold, 4),
    (Role::Bishop, 2),
    (Role::Rook, 2),
    (Role::King, 2),
];

/// The set-up being read, before the side to move completes it.
struct Setup {
    position: ShogiPosition<Shogi>,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            position: ShogiPosition::empty(),
        }
    }

    fn hirate(removed: &str) -> Option<Setup> {
        let mut setup = Setup {
            position: StandardShogiPosition::start(),
        };
        for chunk in removed.as_bytes().chunks(4) {
            let chunk = std::str::from_utf8(chunk).ok()?;
            let square = square_of(chunk.get(..2)?)??;
            let role = role_of(chunk.get(2..)?)?;
            (setup.position.piece_at(square)?.role == role).then_some(())?;
            setup.position.take(square);
        }
        Some(setup)
    }

    fn row(&mut self, rank: u8, cells: &str) -> Option<()> {
        let mut chars: Vec<char> = cells.chars().collect();
        // Trailing spaces may have been trimmed away; a cell left blank by
        // the padding is still an error below.
        if chars.len() > 27 {
            return None;
        }
        chars.resize(27, ' ');
        for column in 0..9u8 {
            let cell: String = chars[column as usize * 3..column as usize * 3 + 3]
                .iter()
                .collect();
            let square = Square::from_coords(8 - column, rank)?;
            self.position.take(square);
            if cell.trim() == "*" {
                continue;
            }
            let color = match cell.chars().next()? {
                '+' => Color::Sente,
                '-' => Color::Gote,
                _ => return None,
            };
            self.position
                .put(square, Piece::new(color, role_of(&cell[1..])?));
        }
        Some(())
    }

    fn pieces(&mut self, color: Color, list: &str) -> Option<()> {
        for chunk in list.as_bytes().chunks(4) {
            let chunk = std::str::from_utf8(chunk).ok()?;
            let code = chunk.get(2..4)?;
            match square_of(chunk.get(..2)?)? {
                None if code == "AL" => self.all_remaining_to(color),
                None => {
                    let role =
                        role_of(code).filter(|role| !role.is_promoted() && *role != Role::King)?;
                    let count = self.position.hand(color).count(role);
                    self.position.set_hand_count(color, role, count + 1);
                }
                Some(square) => {
                    self.position.take(square);
                    self.position.put(square, Piece::new(color, role_of(code)?));
                }
            }
        }
        Some(())
    }

    fn all_remaining_to(&mut self, color: Color) {
        for (role, total) in FULL_SET {
            if role == Role::King {
                continue;
            }
            let on_board = (self.position.by_role(role)
                | role.promoted().map_or(Default::default(), |promoted| {
                    self.position.by_role(promoted)
                }))
            .count() as u8;
            let in_hands = self.position.hand(Color::Sente).count(role)
                + self.position.hand(Color::Gote).count(role);
            let count =
                self.position.hand(color).count(role) + total.saturating_sub(on_board + in_hands);
            self.position.set_hand_count(color, role, count);
        }
    }

    /// Completes the set-up with the side to move, validated as SFEN is.
    fn finish(mut self, turn: Color) -> Result<StandardShogiPosition, SfenError> {
        self.position.set_turn(turn);
        StandardShogiPosition::from_text(&self.position.to_text())
    }
}

/// Reads a CSA record (the first game of a file holding several).
pub fn read(text: &str) -> Result<Record<StandardShogiPosition>, CsaError> {
    let mut setup: Option<Setup> = None;
    let mut record: Option<Record<StandardShogiPosition>> = None;
    let mut position = StandardShogiPosition::start();
    let mut headers = Headers::default();
    let mut comments = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim() == "/" {
            break;
        }
        let mut column = 1;
        let mut rest = line;
        while !rest.is_empty() {
            let error = |kind| CsaError {
                line: index + 1,
                column,
                kind,
            };
            // A comment, a name or a header runs to the end of the line,
            // commas and all.
            let (statement, next) = if rest.starts_with(['\'', '$'])
                || rest.starts_with("N+")
                || rest.starts_with("N-")
            {
                (rest, "")
            } else {
                match rest.split_once(',') {
                    Some((statement, next)) => (statement, next),
                    None => (rest, ""),
                }
            };
            let consumed = statement.chars().count() + 1;
            // A comment keeps the blanks at its end, part of what was
            // written after the `'`.
            let comment = statement.strip_prefix('\'');
            let statement = statement.trim_end();
            if let Some(comment) = comment {
                // `'encoding=Shift_JIS` says how the file's bytes were
                // written, which the record saved again will not keep.
                if !is_encoding_declaration(comment) {
                    match record.as_mut().and_then(|r| r.moves.last_mut()) {
                        Some(last) => last.comments.push(comment.to_owned()),
                        None => comments.push(comment.to_owned()),
                    }
                }
            } else if statement.is_empty() || statement.starts_with('V') {
                // Version lines carry nothing to keep.
            } else if let Some(name) = statement.strip_prefix("N+") {
                headers.sente = Some(name.to_owned());
            } else if let Some(name) = statement.strip_prefix("N-") {
                headers.gote = Some(name.to_owned());
            } else if let Some(header) = statement.strip_prefix('$') {
                let (key, value) = header.split_once(':').unwrap_or((header, ""));
                match HEADER_FIELDS.iter().find(|(name, _)| *name == key) {
                    Some((_, field)) => *field(&mut headers) = Some(value.to_owned()),
                    None => headers.other.push((key.to_owned(), value.to_owned())),
                }
            } else if let Some(body) = statement.strip_prefix('P') {
                if record.is_some() {
                    return Err(error(CsaErrorKind::BadPosition(statement.to_owned())));
                }
                let bad = || error(CsaErrorKind::BadPosition(statement.to_owned()));
                match body.chars().next() {
                    Some('I') => setup = Some(Setup::hirate(&body[1..]).ok_or_else(bad)?),
                    Some(digit @ '1'..='9') => {
                        let rank = digit as u8 - b'1';
                        setup
                            .get_or_insert_with(Setup::new)
                            .row(rank, &body[1..])
                            .ok_or_else(bad)?;
                    }
                    Some(side @ ('+' | '-')) => {
                        let color = if side == '+' {
                            Color::Sente
                        } else {
                            Color::Gote
                        };
                        setup
                            .get_or_insert_with(Setup::new)
                            .pieces(color, &body[1..])
                            .ok_or_else(bad)?;
                    }
                    _ => return Err(bad()),
                }
            } else if statement == "+" || statement == "-" {
                let turn = if statement == "+" {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let start = setup
                    .take()
                    .unwrap_or_else(|| Setup {
                        position: StandardShogiPosition::start(),
                    })
                    .finish(turn)
                    .map_err(|e| error(CsaErrorKind::InvalidPosition(e)))?;
                position = start;
                record = Some(Record::new(start));
            } else if statement.starts_with('+') || statement.starts_with('-') {
                let current = record
                    .as_mut()
                    .ok_or_else(|| error(CsaErrorKind::NoPosition))?;
                if current.ending.is_some() {
                    break;
                }
                let number = current.moves.len() + 1;
                let m = parse_move(&position, statement, number).map_err(error)?;
                position.play_unchecked(m);
                current.moves.push(RecordedMove::new(m));
            } else if let Some(time) = statement.strip_prefix('T') {
                let seconds: f64 = time
                    .trim()
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s < 1e9)
                    .ok_or_else(|| error(CsaErrorKind::BadTime(statement.to_owned())))?;
                if let Some(last) = record.as_mut().and_then(|r| {
                    if r.ending.is_none() {
                        r.moves.last_mut()
                    } else {
                        None
                    }
                }) {
                    last.time = Some(Duration::from_secs_f64(seconds));
                }
            } else if let Some(ending) = statement.strip_prefix('%') {
                let current = record
                    .as_mut()
                    .ok_or_else(|| error(CsaErrorKind::NoPosition))?;
                current.ending = match ending {
                    "TORYO" => Some(Ending::Resignation),
                    "TSUMI" => Some(Ending::Checkmate),
                    "SENNICHITE" => Some(Ending::Repetition),
                    "JISHOGI" => Some(Ending::Impasse),
                    "KACHI" => Some(Ending::ImpasseWin),
                    "CHUDAN" | "ERROR" => Some(Ending::Abandoned),
                    "TIME_UP" => Some(Ending::Timeout),
                    "ILLEGAL_MOVE" => Some(Ending::IllegalMove),
                    "+ILLEGAL_ACTION" => Some(Ending::SenteIllegalAction),
                    "-ILLEGAL_ACTION" => Some(Ending::GoteIllegalAction),
                    // V3.0's move limit, which servers score as a draw.
                    "HIKIWAKE" | "MAX_MOVES" => Some(Ending::Draw),
                    "FUZUMI" => Some(Ending::NoMate),
                    // A take-back request changes nothing in the record.
                    "MATTA" => current.ending,
                    _ => return Err(error(CsaErrorKind::UnknownStatement(statement.to_owned()))),
                };
            } else {
                return Err(error(CsaErrorKind::UnknownStatement(statement.to_owned())));
            }
            rest = next;
            column += consumed;
        }
    }
    let line = text.lines().count().max(1);
    let mut record = record.ok_or(CsaError {
        line,
        column: 1,
        kind: CsaErrorKind::NoPosition,
    })?;
    record.headers = headers;
    record.comments = comments;
    record.clean_text();
    Ok(record)
}

fn parse_move(
    position: &StandardShogiPosition,
    text: &str,
    number: usize,
) -> Result<Move, CsaErrorKind> {
    let bad = || CsaErrorKind::BadMove(text.to_owned());
    if text.len() != 7 || !text.is_ascii() {
        return Err(bad());
    }
    let color = if text.starts_with('+') {
        Color::Sente
    } else {
        Color::Gote
    };
    let from = square_of(&text[1..3]).ok_or_else(bad)?;
    let to = square_of(&text[3..5]).ok_or_else(bad)?.ok_or_else(bad)?;
    let role = role_of(&text[5..7]).ok_or_else(bad)?;
    let illegal = |reason| CsaErrorKind::Replay(ReplayError::illegal(number, text, reason));
    if color != position.turn() {
        return Err(illegal(koma_rules::IllegalReason::NotYourPiece));
    }
    let m = match from {
        None => Move::Drop { role, to },
        Some(from) => {
            let moving = position
                .piece_at(from)
                .ok_or_else(|| illegal(koma_rules::IllegalReason::NoPiece))?;
            let promote = moving.role != role && moving.role.promoted() == Some(role);
            if !promote && moving.role != role {
                return Err(CsaErrorKind::Replay(ReplayError {
                    move_number: number,
                    text: text.to_owned(),
                    reason: format!("the piece on {} is not {}", &text[1..3], &text[5..7]),
                }));
            }
            Move::Board { from, to, promote }
        }
    };
    match position.why_illegal(m) {
        None => Ok(m),
        Some(reason) => Err(illegal(reason)),
    }
}

/// Writes a record as CSA V2.2.
pub fn write(record: &Record<StandardShogiPosition>) -> String {
    let mut out = String::from("V2.2\n");
    let headers = &record.headers;
    for (prefix, value) in [("N+", &headers.sente), ("N-", &headers.gote)] {
        if let Some(value) = value {
            out.push_str(&format!("{prefix}{}\n", text::header(value)));
        }
    }
    let mut fields = headers.clone();
    for (key, field) in HEADER_FIELDS {
        if let Some(value) = field(&mut fields) {
            out.push_str(&format!("${key}:{}\n", text::header(value)));
        }
    }
    for (key, value) in &headers.other {
        if !key.is_empty() && key.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            out.push_str(&format!("${key}:{}\n", text::header(value)));
        }
    }
    push_comments(&mut out, &record.comments);
    write_start(&record.start, &mut out);
    let mut position = record.start;
    for recorded in &record.moves {
        out.push_str(&move_code(&position, recorded.m));
        out.push('\n');
        if let Some(time) = recorded.time {
            out.push_str(&format!("T{}\n", time.as_secs()));
        }
        push_comments(&mut out, &recorded.comments);
        position.play_unchecked(recorded.m);
    }
    if let Some(ending) = record.ending {
        let to_move = position.turn();
        let code = match ending {
            Ending::Resignation => "TORYO",
            Ending::Checkmate => "TSUMI",
            Ending::Repetition => "SENNICHITE",
            // A perpetual check is a foul by the side that gave it.
            Ending::PerpetualCheck if to_move == Color::Sente => "-ILLEGAL_ACTION",
            Ending::PerpetualCheck => "+ILLEGAL_ACTION",
            Ending::Impasse => "JISHOGI",
            Ending::ImpasseWin => "KACHI",
            Ending::Abandoned => "CHUDAN",
            Ending::Timeout => "TIME_UP",
            Ending::IllegalMove => "ILLEGAL_MOVE",
            Ending::IllegalMoveWin if to_move == Color::Sente => "-ILLEGAL_ACTION",
            Ending::IllegalMoveWin => "+ILLEGAL_ACTION",
            Ending::SenteIllegalAction => "+ILLEGAL_ACTION",
            Ending::GoteIllegalAction => "-ILLEGAL_ACTION",
            Ending::Draw => "HIKIWAKE",
            Ending::NoMate => "FUZUMI",
        };
        out.push_str(&format!("%{code}\n"));
    }
    out
}

/// Each line of each comment its own `'` line, hidden characters escaped:
/// CSA has no continuation lines, and a reader takes each for a comment.
fn push_comments(out: &mut String, comments: &[String]) {
    for comment in comments {
        for line in text::comment(comment).split('\n') {
            out.push('\'');
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// Whether a comment is CSA 3.0's `'encoding=NAME` line.
fn is_encoding_declaration(comment: &str) -> bool {
    comment
        .get(..9)
        .is_some_and(|head| head.eq_ignore_ascii_case("encoding="))
}

/// The pieces the even start has and `start` lacks, as `PI` lists them
/// (`82HI22KA` for a two-piece handicap), if `start` is the even start
/// with pieces taken off and nothing in hand.
fn removed_from_even(start: &StandardShogiPosition) -> Option<String> {
    if !start.hand(Color::Sente).is_empty() || !start.hand(Color::Gote).is_empty() {
        return None;
    }
    let standard = StandardShogiPosition::start();
    let mut removed = String::new();
    for rank in 0..9u8 {
        for file in (0..9u8).rev() {
            let square = Square::from_coords(file, rank).expect("on the board");
            match (standard.piece_at(square), start.piece_at(square)) {
                (even, now) if even == now => {}
                (Some(piece), None) => {
                    removed.push_str(&square_code(square));
                    removed.push_str(code_of(piece.role));
                }
                _ => return None,
            }
        }
    }
    Some(removed)
}

fn write_start(start: &StandardShogiPosition, out: &mut String) {
    match removed_from_even(start) {
        // The even start, or a handicap: `PI` and the pieces taken off.
        Some(removed) => {
            out.push_str(&format!("PI{removed}\n"));
            out.push(sign(start.turn()));
            out.push('\n');
        }
        None => out.push_str(&write_position(start)),
    }
}

/// `position` as a CSA diagram, the way shogi-server writes a board (its
/// `Board#to_s`, also the `BEGIN Position` of a `Game_Summary`): the
/// rows `P1`…`P9`, then each side's pieces in hand (`P+00FU00KA`) if it
/// has any, then the side to move.
///
/// ```
/// use koma_records::csa::write_position;
/// use koma_rules::StandardShogiPosition;
/// let text = write_position(&StandardShogiPosition::start());
/// assert!(text.starts_with("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n"));
/// assert!(text.ends_with("P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n"));
/// assert_eq!(text.lines().count(), 10);
/// ```
pub fn write_position(position: &StandardShogiPosition) -> String {
    let mut out = String::new();
    for rank in 0..9u8 {
        out.push_str(&format!("P{}", rank + 1));
        for file in (0..9u8).rev() {
            let square = Square::from_coords(file, rank).expect("on the board");
            match position.piece_at(square) {
                None => out.push_str(" * "),
                Some(piece) => {
                    out.push_str(&format!("{}{}", sign(piece.color), code_of(piece.role)))
                }
            }
        }
        out.push('\n');
    }
    for color in Color::ALL {
        let hand = position.hand(color);
        if hand.is_empty() {
            continue;
        }
        out.push_str(&format!("P{}", sign(color)));
        for (role, count) in hand.iter() {
            for _ in 0..count {
                out.push_str(&format!("00{}", code_of(role)));
            }
        }
        out.push('\n');
    }
    out.push(sign(position.turn()));
    out.push('\n');
    out
}

/// A legal move of `position` as CSA writes it: `+7776FU`, `-0055KA`,
/// `+8822UM` (a promotion names the promoted piece).
///
/// ```
/// use koma_records::csa::move_code;
/// use koma_rules::{Position, StandardShogiPosition};
/// let start = StandardShogiPosition::start();
/// assert_eq!(move_code(&start, start.parse_move("7g7f").unwrap()), "+7776FU");
/// ```
pub fn move_code<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> String {
    let color = sign(position.turn());
    match m {
        Move::Drop { role, to } => format!("{color}00{}{}", square_code(to), code_of(role)),
        Move::Board { from, to, promote } => {
            let role = position
                .piece_at(from)
                .expect("a recorded move starts on a piece")
                .role;
            let role = if promote {
                role.promoted().expect("promotable")
            } else {
                role
            };
            format!(
                "{color}{}{}{}",
                square_code(from),
                square_code(to),
                code_of(role)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_specification_example() {
        let text = "V2.2\nN+NAKAHARA\nN-YONENAGA\n$EVENT:13th World Computer Shogi Championship\nPI\n+\n+2726FU\nT12\n-3334FU\nT6\n%CHUDAN\n";
        let record = read(text).unwrap();
        assert_eq!(record.headers.sente.as_deref(), Some("NAKAHARA"));
        assert_eq!(record.moves.len(), 2);
        assert_eq!(record.moves[0].time, Some(Duration::from_secs(12)));
        assert_eq!(record.ending, Some(Ending::Abandoned));
        assert_eq!(read(&write(&record)).unwrap(), record);
    }

    #[test]
    fn promotion_is_read_from_the_piece_code() {
        let record = read("PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n").unwrap();
        assert!(record.moves[2].m.is_promotion());
        // Sente is to move after four moves: Sente resigned.
        assert_eq!(
            record.to_game().unwrap().outcome().map(|o| o.winner),
            Some(Some(Color::Gote))
        );
        assert!(write(&record).contains("+8822UM\n"));
    }

    #[test]
    fn errors_have_line_and_column() {
        let error = read("PI\n+\n+7776FU,T1,-3335FU\n").unwrap_err();
        assert_eq!((error.line, error.column), (3, 12));
        assert!(matches!(
            error.kind,
            CsaErrorKind::Replay(ReplayError { move_number: 2, .. })
        ));
        let error = read("PI\n+\n+7776HI\n").unwrap_err();
        assert!(error.to_string().contains("not HI"), "{error}");
        assert!(matches!(
            read("P1 * \n+\n").unwrap_err().kind,
            CsaErrorKind::BadPosition(_)
        ));
        assert!(matches!(
            read("+7776FU\n").unwrap_err().kind,
            CsaErrorKind::NoPosition
        ));
        assert!(matches!(
            read("PI\n+\nX\n").unwrap_err().kind,
            CsaErrorKind::UnknownStatement(_)
        ));
        assert!(matches!(
            read("PI\n+\n+7776FU\nTx\n").unwrap_err().kind,
            CsaErrorKind::BadTime(_)
        ));
    }

    #[test]
    fn handicap_starts_are_written_as_pi_with_the_pieces_taken_off() {
        let two_pieces = StandardShogiPosition::from_text(
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .unwrap();
        let mut record = Record::new(two_pieces);
        record
            .moves
            .push(RecordedMove::new(two_pieces.parse_move("5a4b").unwrap()));
        let text = write(&record);
        assert!(text.contains("\nPI82HI22KA\n-\n-5142OU\n"), "{text}");
        assert_eq!(read(&text).unwrap(), record);
        let ten_pieces = StandardShogiPosition::from_text(
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .unwrap();
        let text = write(&Record::new(ten_pieces));
        assert!(
            text.contains("\nPI91KY81KE71GI61KI41KI31GI21KE11KY82HI22KA\n-\n"),
            "{text}"
        );
        assert_eq!(read(&text).unwrap().start, ten_pieces);
        // Not a handicap: a diagram.
        let moved = StandardShogiPosition::from_text(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .unwrap();
        assert!(write(&Record::new(moved)).contains("\nP1-KY"));
        assert!(write(&Record::new(StandardShogiPosition::start())).contains("\nPI\n+\n"));
    }

    #[test]
    fn set_up_positions_with_al() {
        let text = "P1 *  *  *  *  *  *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  * -FU-FU *  *  *  * \nP4-RY *  * -OU * -FU *  *  * \nP5 *  * +KY * -TO *  *  *  * \nP6 *  * +RY *  *  *  *  *  * \nP7+KA *  *  *  *  *  *  *  * \nP8+KA *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \nP-00AL\n+\n";
        let record = read(text).unwrap();
        let gote = record.start.hand(Color::Gote);
        assert_eq!(gote.count(Role::Pawn), 14); // three pawns and a tokin stand on the board
        assert_eq!(gote.count(Role::Gold), 4);
        assert_eq!(read(&write(&record)).unwrap().start, record.start);
    }
}
