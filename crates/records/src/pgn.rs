//! PGN, the Portable Game Notation of chess, for Pawns-Only Chess: tag pairs
//! (`[White "Alice"]`, `[Variant "Pawns-Only"]`, `[FEN "…"]`), then the
//! moves in SAN (`e4`, `exd5`) with move numbers, `{comments}`, elapsed move
//! times as `{[%emt 0:00:05]}` and the result (`1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! The reader also takes long algebraic moves (`e2e4`, `e2-e4`, `e5xd6`),
//! `;` and `%` comments, NAGs and annotations, and skips variations: only
//! the main line is played.
//!
//! ```
//! use koma_records::pgn;
//! let record = pgn::read("[White \"Alice\"]\n\n1. e4 d5 2. exd5 {a pawn up} *").unwrap();
//! assert_eq!(record.headers.sente.as_deref(), Some("Alice"));
//! assert_eq!(record.moves.len(), 3);
//! assert!(pgn::write(&record).ends_with("\n\n1. e4 d5 2. exd5 {a pawn up} *\n"));
//! ```

use crate::notation::Notation;
use crate::record::{Ending, Record, RecordedMove, ReplayError};
use crate::text;
use koma_rules::pawns::{parse_square, square_name};
use koma_rules::{Color, FenError, IllegalReason, Move, Outcome, PawnsPosition, Position, Variant};
use std::fmt;
use std::time::Duration;

/// Where and why a text is not a PGN record of Pawns-Only Chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters) where the faulty token starts.
    pub column: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong in a PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A character that PGN does not allow there.
    UnexpectedCharacter(char),
    /// A tag pair that cannot be read, and why.
    BadTag(TagProblem),
    /// A `Variant` tag naming another game.
    WrongVariant(String),
    /// A `FEN` tag that is not a Pawns-Only Chess position, and why.
    InvalidFen(FenError),
    /// A move that is malformed, ambiguous or cannot be played.
    Move(ReplayError),
    /// A `{` comment without its `}`.
    UnclosedComment,
    /// A `(` variation without its `)`.
    UnclosedVariation,
    /// A `)` without its `(`.
    UnopenedVariation,
    /// The `Result` tag and the result after the moves differ.
    ResultMismatch {
        /// The `Result` tag's value.
        tag: String,
        /// The result token ending the moves.
        movetext: String,
    },
    /// The result contradicts how the final position ended.
    WrongResult {
        /// The result as written.
        result: String,
        /// What the final position shows.
        outcome: Outcome,
    },
    /// The text holds no game.
    NoGame,
}

/// Why a `[Name "value"]` tag pair cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagProblem {
    /// The name is not letters, digits and `_`.
    BadName(String),
    /// The value is not in double quotes.
    Unquoted {
        /// The tag's name.
        name: String,
    },
    /// The value's quote is never closed on its line.
    Unclosed {
        /// The tag's name.
        name: String,
    },
    /// No `]` after the value.
    Unended {
        /// The tag's name.
        name: String,
    },
}

impl fmt::Display for TagProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagProblem::BadName(name) => write!(f, "{} is not a tag name", crate::Excerpt(name)),
            TagProblem::Unquoted { name } => {
                write!(f, "the value of {name} must be in double quotes")
            }
            TagProblem::Unclosed { name } => write!(f, "the value of {name} has no closing quote"),
            TagProblem::Unended { name } => write!(f, "the tag {name} must end with ']'"),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            PgnErrorKind::UnexpectedCharacter(c) => write!(f, "unexpected character {c:?}"),
            PgnErrorKind::BadTag(why) => write!(f, "bad tag pair: {why}"),
            PgnErrorKind::WrongVariant(name) => write!(
                f,
                "the game is {}, not Pawns-Only Chess (Variant \"Pawns-Only\")",
                crate::Excerpt(name)
            ),
            PgnErrorKind::InvalidFen(why) => write!(f, "bad FEN: {why}"),
            PgnErrorKind::Move(error) => error.fmt(f),
            PgnErrorKind::UnclosedComment => f.write_str("a '{' comment is never closed by '}'"),
            PgnErrorKind::UnclosedVariation => f.write_str("a '(' variation is never closed"),
            PgnErrorKind::UnopenedVariation => f.write_str("a ')' without its '('"),
            PgnErrorKind::ResultMismatch { tag, movetext } => write!(
                f,
                "the Result tag says {tag} but the moves end with {movetext}"
            ),
            PgnErrorKind::WrongResult { result, outcome } => write!(
                f,
                "the result {result} contradicts the final position: {} ({})",
                (outcome.winner).map_or("a draw", |c| c.select("White won", "Black won")),
                outcome.reason
            ),
            PgnErrorKind::NoGame => f.write_str("no game in the text"),
        }
    }
}

impl std::error::Error for PgnError {}

/// Reads the first game of a PGN text.
pub fn read(text: &str) -> Result<Record<PawnsPosition>, PgnError> {
    let games = parse(text, 1).map_err(|failure| locate(text, failure))?;
    games.into_iter().next().ok_or(PgnError {
        line: 1,
        column: 1,
        kind: PgnErrorKind::NoGame,
    })
}

/// Reads every game of a PGN text (none for a text without games).
pub fn read_all(text: &str) -> Result<Vec<Record<PawnsPosition>>, PgnError> {
    parse(text, usize::MAX).map_err(|failure| locate(text, failure))
}

/// What is wrong and the byte offset where; [`locate`] makes it a [`PgnError`].
type Failure = (usize, PgnErrorKind);

fn locate(text: &str, (at, kind): Failure) -> PgnError {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    PgnError {
        line: before.matches('\n').count() + 1,
        column: before[line_start..].chars().count() + 1,
        kind,
    }
}

/// Reads up to `limit` games.
fn parse(text: &str, limit: usize) -> Result<Vec<Record<PawnsPosition>>, Failure> {
    let mut at = 0;
    let mut games = Vec::new();
    let mut game = GameReader::new();
    while games.len() < limit {
        let Some((token, start, length)) = next_token(text, at)? else {
            games.extend(game.finish()?);
            break;
        };
        at = start + length;
        // A tag after the moves starts the next game.
        if matches!(token, Token::Tag(..)) && game.in_movetext {
            games.extend(std::mem::replace(&mut game, GameReader::new()).finish()?);
        }
        if game.feed(token, start)? {
            games.extend(std::mem::replace(&mut game, GameReader::new()).finish()?);
        }
    }
    Ok(games)
}

enum Token<'a> {
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    /// A move, a move number, a result.
    Symbol(&'a str),
}

/// Characters of symbols: moves, move numbers, results, annotations.
fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+#=:-/!?".contains(c)
}

/// A tag name: a letter or digit, then symbol characters.
fn is_tag_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && (name.chars()).all(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(c))
}

/// The next token from byte `at` on: the token, where it starts, its length.
/// Blanks, periods, NAGs, `e.p.` and `%` lines are skipped.
fn next_token(text: &str, mut at: usize) -> Result<Option<(Token<'_>, usize, usize)>, Failure> {
    loop {
        let rest = &text[at..];
        let Some(c) = rest.chars().next() else {
            return Ok(None);
        };
        let line_end = || rest.find('\n').unwrap_or(rest.len());
        let (token, length) = match c {
            _ if rest.starts_with("e.p.") => (None, 4),
            '%' if text[..at].ends_with('\n') || at == 0 => (None, line_end()),
            c if c.is_whitespace() || c == '\u{feff}' || c == '.' => (None, c.len_utf8()),
            '$' => match rest[1..].find(|c: char| !c.is_ascii_digit()) {
                Some(digits) if digits > 0 => (None, 1 + digits),
                None if rest.len() > 1 => (None, rest.len()),
                _ => return Err((at, PgnErrorKind::UnexpectedCharacter('$'))),
            },
            ';' => (
                Some(Token::Comment(rest[1..line_end()].to_owned())),
                line_end(),
            ),
            '{' => match rest.find('}') {
                Some(end) => {
                    let text = rest[1..end].replace("\r\n", " ").replace('\n', " ");
                    (Some(Token::Comment(text)), end + 1)
                }
                None => return Err((at, PgnErrorKind::UnclosedComment)),
            },
            '[' => {
                let (name, value, length) = tag(rest).map_err(|e| (at, PgnErrorKind::BadTag(e)))?;
                (Some(Token::Tag(name, value)), length)
            }
            '(' => (Some(Token::Open), 1),
            ')' => (Some(Token::Close), 1),
            '*' => (Some(Token::Symbol("*")), 1),
            c if is_symbol_char(c) => {
                let mut end = rest.find(|c| !is_symbol_char(c)).unwrap_or(rest.len());
                if end > 1 && rest[end - 1..].starts_with("e.p.") {
                    end -= 1; // `exd6e.p.`
                }
                (Some(Token::Symbol(&rest[..end])), end)
            }
            other => return Err((at, PgnErrorKind::UnexpectedCharacter(other))),
        };
        if let Some(token) = token {
            return Ok(Some((token, at, length)));
        }
        at += length;
    }
}

/// Reads `[Name "value"]` at the start of `text`: the name, the value with
/// `\"` and `\\` undone, and the length.
fn tag(text: &str) -> Result<(String, String, usize), TagProblem> {
    let body = text[1..].trim_start();
    let name_end = body.find(|c: char| c.is_whitespace() || c == '"' || c == ']');
    let (name, after) = body.split_at(name_end.unwrap_or(body.len()));
    if !is_tag_name(name) {
        return Err(TagProblem::BadName(name.to_owned()));
    }
    let named = || name.to_owned();
    let Some(quoted) = after.trim_start().strip_prefix('"') else {
        return Err(TagProblem::Unquoted { name: named() });
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    let end = loop {
        match chars.next() {
            None | Some((_, '\n')) => return Err(TagProblem::Unclosed { name: named() }),
            Some((end, '"')) => break end,
            Some((index, '\\'))
                if matches!(quoted[index + 1..].chars().next(), Some('"' | '\\')) =>
            {
                value.extend(chars.next().map(|(_, c)| c));
            }
            Some((_, c)) => value.push(c),
        }
    };
    let rest = quoted[end + 1..].trim_start();
    match rest.strip_prefix(']') {
        Some(after) => Ok((name.to_owned(), value, text.len() - after.len())),
        None => Err(TagProblem::Unended { name: named() }),
    }
}

/// A written result and the byte offset where it stands.
type Written = (String, usize);

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game being read.
struct GameReader {
    record: Record<PawnsPosition>,
    position: PawnsPosition,
    tags: Vec<(String, String, usize)>,
    in_movetext: bool,
    /// How deep in variations, and where the outermost one opened.
    depth: usize,
    open_at: usize,
    result_token: Option<Written>,
    result_tag: Option<Written>,
    termination: Option<String>,
}

impl GameReader {
    fn new() -> GameReader {
        let start = PawnsPosition::start();
        GameReader {
            record: Record::new(start),
            position: start,
            tags: Vec::new(),
            in_movetext: false,
            depth: 0,
            open_at: 0,
            result_token: None,
            result_tag: None,
            termination: None,
        }
    }

    /// Takes a token starting at byte `at`; true when it ends the game.
    fn feed(&mut self, token: Token<'_>, at: usize) -> Result<bool, Failure> {
        match token {
            Token::Tag(name, value) => self.tags.push((name, value, at)),
            Token::Comment(text) if self.depth == 0 => self.comment(text.trim()),
            Token::Comment(_) => {}
            _ if !self.in_movetext => {
                self.apply_tags()?;
                self.in_movetext = true;
                return self.feed(token, at);
            }
            Token::Open => {
                self.open_at = if self.depth == 0 { at } else { self.open_at };
                self.depth += 1;
            }
            Token::Close if self.depth == 0 => return Err((at, PgnErrorKind::UnopenedVariation)),
            Token::Close => self.depth -= 1,
            Token::Symbol(text) => {
                let digits = text.bytes().all(|b| b.is_ascii_digit());
                let annotation = text.bytes().all(|b| b == b'!' || b == b'?');
                if self.depth > 0 || digits || annotation {
                    // Moves of variations, move numbers and annotations.
                } else if RESULTS.contains(&text) {
                    self.result_token = Some((text.to_owned(), at));
                    return Ok(true);
                } else {
                    let number = self.record.moves.len() + 1;
                    let m = parse_move(&self.position, text, number)
                        .map_err(|e| (at, PgnErrorKind::Move(e)))?;
                    self.position.play_unchecked(m);
                    self.record.moves.push(RecordedMove::new(m));
                }
            }
        }
        Ok(false)
    }

    fn comment(&mut self, text: &str) {
        match (self.record.moves.last_mut(), take_emt(text)) {
            (None, _) => self.record.comments.push(text.to_owned()),
            (Some(last), Some((time, rest))) => {
                last.time = Some(time);
                last.comments.extend((!rest.is_empty()).then_some(rest));
            }
            (Some(last), None) => last.comments.push(text.to_owned()),
        }
    }

    /// Turns the tags into headers and the start position.
    fn apply_tags(&mut self) -> Result<(), Failure> {
        let tags = std::mem::take(&mut self.tags);
        if let Some((_, value, at)) = (tags.iter()).find(|(name, value, _)| {
            name.eq_ignore_ascii_case("Variant") && !is_pawns_variant(value)
        }) {
            return Err((*at, PgnErrorKind::WrongVariant(value.clone())));
        }
        let headers = &mut self.record.headers;
        for (name, value, at) in tags {
            let known = |value: String| (value != "?").then_some(value);
            match name.to_ascii_lowercase().as_str() {
                "event" => headers.event = known(value),
                "site" => headers.site = known(value),
                "date" => headers.start_time = known(value).filter(|v| v != "????.??.??"),
                "white" => headers.sente = known(value),
                "black" => headers.gote = known(value),
                "timecontrol" => headers.time_control = known(value),
                "opening" => headers.opening = known(value),
                "endtime" => headers.end_time = known(value),
                "variant" | "setup" => {}
                "round" if value == "?" => {}
                "fen" => {
                    let start = PawnsPosition::from_fen(&value)
                        .map_err(|e| (at, PgnErrorKind::InvalidFen(e)))?;
                    self.record.start = start;
                    self.position = start;
                }
                "result" => self.result_tag = Some((value, at)),
                "termination" => self.termination = Some(value),
                _ => headers.other.push((name, value)),
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Option<Record<PawnsPosition>>, Failure> {
        if !self.in_movetext {
            if self.tags.is_empty() {
                return Ok(None);
            }
            self.apply_tags()?;
        }
        if self.depth > 0 {
            return Err((self.open_at, PgnErrorKind::UnclosedVariation));
        }
        let tag = (self.result_tag.take()).filter(|(text, _)| RESULTS.contains(&text.as_str()));
        let (result, at) = match (self.result_token.take(), tag) {
            (Some((movetext, at)), Some((tag, _))) if movetext != tag => {
                return Err((at, PgnErrorKind::ResultMismatch { tag, movetext }));
            }
            (Some(written), _) | (None, Some(written)) => written,
            (None, None) => ("*".to_owned(), 0),
        };
        let winner = match result.as_str() {
            "1-0" => Some(Some(Color::Sente)),
            "0-1" => Some(Some(Color::Gote)),
            "1/2-1/2" => Some(None),
            _ => None,
        };
        let said = (self.termination.as_deref()).map(|t| t.trim().to_ascii_lowercase());
        let said = said.as_deref();
        let turn = self.position.turn();
        let ending = match (self.position.outcome(), winner) {
            (_, None) => (said == Some("abandoned")).then_some(Ending::Abandoned),
            (Some(outcome), Some(winner)) if outcome.winner == winner => {
                Some(Ending::from_outcome(outcome, turn))
            }
            (Some(outcome), Some(_)) => {
                return Err((at, PgnErrorKind::WrongResult { result, outcome }));
            }
            (None, Some(None)) => Some(Ending::Draw),
            (None, Some(Some(winner))) => match said {
                Some("rules infraction") if winner == turn => Some(Ending::IllegalMoveWin),
                Some("rules infraction") => Some(Ending::IllegalMove),
                Some("time forfeit") if winner != turn => Some(Ending::Timeout),
                // Resigned out of turn: no ending says so, the Result tag will.
                _ if winner == turn => None,
                _ => Some(Ending::Resignation),
            },
        };
        self.record.ending = ending;
        // A termination or a result that the ending does not say stays a tag.
        let other = &mut self.record.headers.other;
        let says = ending.map(|ending| termination(ending).unwrap_or("normal"));
        if let Some(text) = self.termination.filter(|_| said != says) {
            other.push(("Termination".to_owned(), text));
        }
        if ending.is_none() && winner.is_some() {
            other.push(("Result".to_owned(), result));
        }
        self.record.clean_text();
        Ok(Some(self.record))
    }
}

/// Whether a `Variant` tag names Pawns-Only Chess (or nothing).
fn is_pawns_variant(name: &str) -> bool {
    let name = name
        .to_lowercase()
        .replace(|c: char| !c.is_alphanumeric(), "");
    ["", "pawns", "pawnsonly", "pawnsonlychess", "pawnschess"].contains(&name.as_str())
}

/// A move as written: SAN (`e4`, `exd5`, `Pe4`) or long algebraic
/// (`e2e4`, `e2-e4`, `e5xd6`), with `+ # ! ?` suffixes.
fn parse_move(position: &PawnsPosition, text: &str, number: usize) -> Result<Move, ReplayError> {
    let fail = |reason: &str| ReplayError {
        move_number: number,
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let illegal = |reason| ReplayError::illegal(number, text, reason);
    if position.outcome().is_some() {
        return Err(illegal(IllegalReason::GameOver));
    }
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    let core = core.strip_prefix('P').unwrap_or(core);
    if core.starts_with(['N', 'B', 'R', 'Q', 'K', 'O', '0']) {
        return Err(fail("only pawns play in Pawns-Only Chess"));
    } else if core.contains('=') {
        return Err(fail("pawns do not promote in Pawns-Only Chess"));
    }
    let square = |at: usize| core.get(at..at + 2).and_then(parse_square);
    let board = |from, to| Move::Board {
        from,
        to,
        promote: false,
    };
    // The origin's file when written alone (a capture), and the target.
    let (file, to) = match (core.len(), core.as_bytes()) {
        (2, _) => (None, square(0)),
        (3, [file, ..]) | (4, [file, b'x', ..]) => (Some(*file), square(core.len() - 2)),
        (4, _) | (5, [_, _, b'-' | b'x', ..]) => match (square(0), square(core.len() - 2)) {
            (Some(from), Some(to)) => {
                return match position.why_illegal(board(from, to)) {
                    None => Ok(board(from, to)),
                    Some(reason) => Err(illegal(reason)),
                }
            }
            _ => (None, None),
        },
        _ => (None, None),
    };
    let Some(to) = to else {
        return Err(fail("not a move like e4, exd5 or e2e4"));
    };
    let target = square_name(to);
    let [to_file, to_rank] = [target.as_bytes()[0], target.as_bytes()[1]];
    let from_file = file.unwrap_or(to_file);
    if file.is_some() && from_file.abs_diff(to_file) != 1 {
        return Err(fail("a pawn captures on a neighbouring file"));
    }
    let from_file_of = |m: &Move| m.from().map(|from| square_name(from).as_bytes()[0]);
    let candidates: Vec<Move> = (position.legal_moves().iter().copied())
        .filter(|m| m.to() == to && from_file_of(m) == Some(from_file))
        .collect();
    match candidates[..] {
        [m] => Ok(m),
        [] => {
            // Explain with the pawn meant: one step back, or two for a double step.
            let rank = |steps: i32| (to_rank - b'0') as i32 - position.turn().select(steps, -steps);
            let back = |steps| parse_square(&format!("{}{}", from_file as char, rank(steps)));
            let mine = position.pawns(position.turn());
            let steps = if file.is_some() { 1..2 } else { 1..3 };
            let from = steps.filter_map(back).find(|&from| mine.contains(from));
            match from.and_then(|from| position.why_illegal(board(from, to))) {
                Some(reason) => Err(illegal(reason)),
                None => Err(fail(&format!(
                    "no {} pawn {}can move to {target}",
                    position.turn().select("white", "black"),
                    file.map_or(String::new(), |_| format!(
                        "from the {}-file ",
                        from_file as char
                    ))
                ))),
            }
        }
        _ => Err(fail("ambiguous: more than one pawn can make it")),
    }
}

/// Takes a `[%emt 0:00:05]` command out of a comment: the time and the rest.
fn take_emt(text: &str) -> Option<(Duration, String)> {
    let start = text.find("[%emt")?;
    let length = text[start..].find(']')?;
    let time = parse_time(text[start + 5..start + length].trim())?;
    let rest = format!("{}{}", &text[..start], &text[start + length + 1..]);
    Some((time, rest.trim().to_owned()))
}

/// Reads `H:MM:SS`, `M:SS` or `S`, each with an optional decimal fraction.
fn parse_time(text: &str) -> Option<Duration> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str| (1..=12).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    let fields: Vec<&str> = whole.split(':').collect();
    if fields.len() > 3 || !fields.iter().all(|f| digits(f)) || fraction.len() > 9 {
        return None;
    }
    let seconds = (fields.iter()).try_fold(0u64, |total, field| {
        total.checked_mul(60)?.checked_add(field.parse().ok()?)
    })?;
    let nanos = format!("{fraction:0<9}");
    Some(Duration::new(
        seconds,
        nanos.parse().ok().filter(|_| digits(fraction))?,
    ))
}

/// Writes `H:MM:SS`, with a fraction only when there is one.
fn write_time(time: Duration) -> String {
    let (seconds, fraction) = (time.as_secs(), format!(".{:09}", time.subsec_nanos()));
    let fraction = fraction.trim_end_matches('0').trim_end_matches('.');
    format!(
        "{}:{:02}:{:02}{fraction}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The tags [`write`] writes itself; others of these names are not copied.
const RESERVED_TAGS: &str = "event site date round white black result variant setup fen termination timecontrol opening endtime";

/// The `Termination` tag that says an ending the final position does not show.
fn termination(ending: Ending) -> Option<&'static str> {
    match ending {
        Ending::Resignation => Some("normal"),
        Ending::Timeout => Some("time forfeit"),
        Ending::Abandoned => Some("abandoned"),
        Ending::IllegalMove
        | Ending::IllegalMoveWin
        | Ending::SenteIllegalAction
        | Ending::GoteIllegalAction => Some("rules infraction"),
        _ => None,
    }
}

/// Writes a record as PGN: the seven-tag roster, `Variant`, `SetUp` and
/// `FEN` for another start, `Termination` for an ending the final position
/// does not show, the other headers; then the moves in SAN, wrapped at 80
/// columns. Each line of a comment is its own `{…}` (or `;…` if it holds a
/// `}`), so that a comment reads back line by line, each line without the
/// blanks around it.
pub fn write(record: &Record<PawnsPosition>) -> String {
    let final_position = record.final_position();
    let turn = final_position.turn();
    let shown = final_position.outcome();
    let headers = &record.headers;
    let other = |key: &str| {
        headers
            .other
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(key))
            .map(|(_, value)| value.as_str())
    };
    let result = match record
        .ending
        .and_then(|e| shown.or_else(|| e.outcome(Variant::Pawns, turn)))
    {
        Some(outcome) => match outcome.winner {
            Some(Color::Sente) => "1-0",
            Some(Color::Gote) => "0-1",
            None => "1/2-1/2",
        },
        // A resignation out of turn, kept in the Result tag.
        None => match other("Result") {
            Some(text @ ("1-0" | "0-1")) if record.ending.is_none() && shown.is_none() => text,
            _ => "*",
        },
    };
    let termination = (record.ending.filter(|_| shown.is_none())).and_then(termination);
    let fen = (record.start != PawnsPosition::start()).then(|| record.start.to_fen());
    fn unknown(value: &Option<String>) -> Option<&str> {
        Some(value.as_deref().unwrap_or("?"))
    }
    let mut out = String::new();
    for (name, value) in [
        ("Event", unknown(&headers.event)),
        ("Site", unknown(&headers.site)),
        (
            "Date",
            Some(headers.start_time.as_deref().unwrap_or("????.??.??")),
        ),
        ("Round", Some(other("Round").unwrap_or("?"))),
        ("White", unknown(&headers.sente)),
        ("Black", unknown(&headers.gote)),
        ("Result", Some(result)),
        ("Variant", Some("Pawns-Only")),
        ("SetUp", fen.as_ref().map(|_| "1")),
        ("FEN", fen.as_deref()),
        ("Termination", termination),
        ("TimeControl", headers.time_control.as_deref()),
        ("EndTime", headers.end_time.as_deref()),
        ("Opening", headers.opening.as_deref()),
    ] {
        if let Some(value) = value {
            write_tag(&mut out, name, value);
        }
    }
    for (name, value) in &headers.other {
        let lower = name.to_ascii_lowercase();
        let own = lower == "termination" && termination.is_none();
        if is_tag_name(name) && (own || !RESERVED_TAGS.split(' ').any(|tag| tag == lower)) {
            write_tag(&mut out, name, value);
        }
    }
    out.push('\n');

    let mut lines = Lines {
        out,
        length: 0,
        fresh: true,
    };
    for comment in &record.comments {
        lines.comment(comment);
    }
    let fullmove = record.start.to_fen().rsplit(' ').next().map(str::parse);
    let mut number: u64 = fullmove.and_then(Result::ok).unwrap_or(1);
    let mut position = record.start;
    let mut black_needs_number = true;
    for recorded in &record.moves {
        if position.turn() == Color::Sente {
            lines.atom(&format!("{number}."));
        } else if black_needs_number {
            lines.atom(&format!("{number}..."));
        }
        lines.atom(&PawnsPosition::move_text(&position, recorded.m, None));
        black_needs_number = recorded.time.is_some() || !recorded.comments.is_empty();
        if let Some(time) = recorded.time {
            lines.comment(&format!("[%emt {}]", write_time(time)));
        }
        for comment in &recorded.comments {
            lines.comment(comment);
        }
        if position.turn() == Color::Gote {
            number += 1;
        }
        position.play_unchecked(recorded.m);
    }
    lines.atom(result);
    lines.out.push('\n');
    lines.out
}

/// `[Name "value"]` and a line break: the value cleaned as headers are
/// (one line, hidden characters escaped), quotes and backslashes escaped.
fn write_tag(out: &mut String, name: &str, value: &str) {
    let value = text::header(value)
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{value}\"]\n"));
}

/// Movetext being written, broken into lines of at most 80 columns between
/// atoms (an atom longer than a line stands alone).
struct Lines {
    out: String,
    length: usize,
    /// At the start of a line: no separator before the next atom.
    fresh: bool,
}

impl Lines {
    fn atom(&mut self, atom: &str) {
        let length = atom.chars().count();
        if !self.fresh {
            if self.length + 1 + length > 80 {
                self.out.push('\n');
                self.length = 0;
            } else {
                self.out.push(' ');
                self.length += 1;
            }
        }
        self.out.push_str(atom);
        self.length += length;
        self.fresh = false;
    }

    /// Each line of a comment its own `{comment}`, its words atoms (a line
    /// break the wrapping puts inside braces reads back as the space it
    /// replaces, as in other software's PGN); `;comment` and a line break
    /// for a line that holds a `}`, which would end the braces.
    fn comment(&mut self, comment: &str) {
        for line in text::comment(comment).split('\n') {
            self.comment_line(line);
        }
    }

    /// A comment line without the blanks around it, which no reader keeps.
    fn comment_line(&mut self, text: &str) {
        let text = text.trim();
        if text.contains('}') {
            self.atom(&format!(";{text}"));
            self.out.push('\n');
            self.length = 0;
            self.fresh = true;
            return;
        }
        let words: Vec<&str> = text.split(' ').collect();
        for (index, word) in words.iter().enumerate() {
            let open = if index == 0 { "{" } else { "" };
            let close = if index + 1 == words.len() { "}" } else { "" };
            self.atom(&format!("{open}{word}{close}"));
        }
    }
}
