//! Reading KIF: lines are classified, the start is set up from the headers
//! or the diagram, and every move of every line of play is checked in its
//! position.

use super::setup::{self, Diagram};
use super::written_move::{board_square, parse_destination, resolve, MoveSpec, Origin};
use super::{KifError, KifErrorKind};
use crate::kanji;
use crate::record::{Ending, Headers, Record, RecordedMove, ReplayError, Variation};
use koma_rules::{Color, Move, ShogiPosition, ShogiVariant, Square, Variant};
use std::time::Duration;

/// One line of the text, without its line end.
#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    /// 1-based.
    pub number: usize,
    pub text: &'a str,
}

impl Line<'_> {
    /// An error at the character where `rest` (a tail of the line) starts.
    pub fn error_at(&self, rest: &str, kind: KifErrorKind) -> KifError {
        let offset = self.text.len().saturating_sub(rest.len());
        let column = self
            .text
            .get(..offset)
            .map_or(1, |head| head.chars().count() + 1);
        KifError {
            line: self.number,
            column,
            kind,
        }
    }

    pub fn error(&self, kind: KifErrorKind) -> KifError {
        self.error_at(self.text.trim_start(), kind)
    }
}

/// The lines of a text, CRLF or LF.
fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n').enumerate().map(|(index, raw)| Line {
        number: index + 1,
        text: raw.strip_suffix('\r').unwrap_or(raw),
    })
}

/// What a line of a KIF or KI2 file is.
pub(crate) enum LineKind<'a> {
    Blank,
    Comment(&'a str),
    Variation(&'a str),
    /// `手数----指手--`, `まで…`, `&bookmark`, `#` file notes.
    Ignored,
    DiagramRow,
    DiagramFrame,
    Turn(Color),
    Header(&'a str, &'a str),
    /// Anything else: for KIF a numbered move, for KI2 `▲７六歩`.
    Other(&'a str),
}

/// Classifies a line, KIF and KI2 alike.
pub(crate) fn classify(text: &str) -> LineKind<'_> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return LineKind::Blank;
    }
    // A comment keeps the blanks at its end: they are part of what was
    // written after the `*`, as those at its start are.
    if let Some(comment) = text.trim_start().strip_prefix(['*', '＊']) {
        return LineKind::Comment(comment);
    }
    if let Some(rest) = trimmed.strip_prefix("変化") {
        return LineKind::Variation(rest.trim_start_matches(['：', ':']));
    }
    if trimmed.starts_with(['#', '&']) || trimmed.starts_with("手数") || trimmed.starts_with("まで")
    {
        return LineKind::Ignored;
    }
    if trimmed.starts_with('|') {
        return LineKind::DiagramRow;
    }
    if (trimmed.starts_with('+') && trimmed.trim_matches(['+', '-']).is_empty())
        || trimmed
            .chars()
            .all(|c| c.is_whitespace() || ('１'..='９').contains(&c))
    {
        return LineKind::DiagramFrame;
    }
    match trimmed {
        "先手番" | "下手番" => return LineKind::Turn(Color::Sente),
        "後手番" | "上手番" => return LineKind::Turn(Color::Gote),
        _ => {}
    }
    if !trimmed.starts_with(|c: char| c.is_ascii_digit()) {
        if let Some((key, value)) = trimmed.split_once('：').or_else(|| trimmed.split_once(':')) {
            return LineKind::Header(key.trim(), value.trim());
        }
    }
    LineKind::Other(trimmed)
}

/// The ending words of KIF, and the ending each means.
const ENDINGS: [(&str, Ending); 17] = [
    ("投了", Ending::Resignation),
    ("詰み", Ending::Checkmate),
    ("詰", Ending::Checkmate),
    ("千日手", Ending::Repetition),
    ("持将棋", Ending::Impasse),
    ("中断", Ending::Abandoned),
    ("封じ手", Ending::Abandoned),
    ("切れ負け", Ending::Timeout),
    ("時間切れ", Ending::Timeout),
    ("反則勝ち", Ending::IllegalMoveWin),
    ("反則負け", Ending::IllegalMove),
    ("入玉勝ち", Ending::ImpasseWin),
    ("宣言勝ち", Ending::ImpasseWin),
    ("不詰", Ending::NoMate),
    ("引き分け", Ending::Draw),
    ("不戦勝", Ending::Abandoned),
    ("不戦敗", Ending::Abandoned),
];

/// The ending a word names (the longest match wins: `詰み` over `詰`).
pub(crate) fn ending_of(text: &str) -> Option<(Ending, usize)> {
    ENDINGS
        .iter()
        .filter(|(word, _)| text.starts_with(word))
        .max_by_key(|(word, _)| word.len())
        .map(|(word, ending)| (*ending, word.len()))
}

/// A line of play being read: the main line or a variation.
struct Node<V: ShogiVariant> {
    parent: Option<usize>,
    ply: usize,
    /// `positions[k]` is the position before move `ply + k`.
    positions: Vec<ShogiPosition<V>>,
    /// The destination of the move before this line's first.
    previous_to: Option<Square>,
    moves: Vec<RecordedMove>,
    ending: Option<Ending>,
    children: Vec<usize>,
    pending_comments: Vec<String>,
}

impl<V: ShogiVariant> Node<V> {
    fn next_ply(&self) -> usize {
        self.ply + self.moves.len()
    }

    fn last_to(&self) -> Option<Square> {
        match self.moves.last() {
            Some(RecordedMove {
                m: Move::Board { to, .. } | Move::Drop { to, .. },
                ..
            }) => Some(*to),
            None => self.previous_to,
        }
    }
}

/// Reads KIF and KI2 alike; the two differ only in how moves are written.
pub(crate) struct Reader<V: ShogiVariant> {
    headers: Headers,
    comments: Vec<String>,
    start: Option<ShogiPosition<V>>,
    diagram: Diagram<V>,
    turn: Option<Color>,
    nodes: Vec<Node<V>>,
    current: usize,
}

impl<V: ShogiVariant> Reader<V> {
    pub fn new() -> Self {
        Reader {
            headers: Headers::default(),
            comments: Vec::new(),
            start: None,
            diagram: Diagram::new(),
            turn: None,
            nodes: Vec::new(),
            current: 0,
        }
    }

    /// Handles every kind of line but moves; returns the text of a line
    /// that must be a move.
    pub fn line<'a>(&mut self, line: Line<'a>) -> Result<Option<&'a str>, KifError> {
        match classify(line.text) {
            LineKind::Blank | LineKind::Ignored | LineKind::DiagramFrame => {}
            LineKind::Comment(text) => self.comment(text),
            LineKind::Variation(text) => self.variation(line, text)?,
            LineKind::DiagramRow if self.nodes.is_empty() => self
                .diagram
                .row(line.text.trim())
                .map_err(|kind| line.error(kind))?,
            LineKind::Turn(color) => self.turn = Some(color),
            LineKind::Header(key, value) => self
                .header(key, value)
                .map_err(|kind| line.error_at(value, kind))?,
            LineKind::DiagramRow => {
                return Err(line.error(KifErrorKind::UnknownLine(line.text.trim().to_owned())))
            }
            LineKind::Other(text) => return Ok(Some(text)),
        }
        Ok(None)
    }

    fn comment(&mut self, text: &str) {
        let text = text.to_owned();
        match self.nodes.get_mut(self.current) {
            None => self.comments.push(text),
            Some(node) => match node.moves.last_mut() {
                Some(last) => last.comments.push(text),
                None if node.parent.is_none() => self.comments.push(text),
                None => node.pending_comments.push(text),
            },
        }
    }

    fn header(&mut self, key: &str, value: &str) -> Result<(), KifErrorKind> {
        let headers = &mut self.headers;
        let field = match key {
            "先手" | "下手" => &mut headers.sente,
            "後手" | "上手" => &mut headers.gote,
            "棋戦" => &mut headers.event,
            "場所" => &mut headers.site,
            "開始日時" => &mut headers.start_time,
            "終了日時" => &mut headers.end_time,
            "持ち時間" => &mut headers.time_control,
            "戦型" => &mut headers.opening,
            "手合割" => {
                self.start = setup::handicap_start::<V>(value)?;
                return Ok(());
            }
            "先手の持駒" | "下手の持駒" => return self.diagram.hand(Color::Sente, value),
            "後手の持駒" | "上手の持駒" => return self.diagram.hand(Color::Gote, value),
            _ => {
                headers.other.push((key.to_owned(), value.to_owned()));
                return Ok(());
            }
        };
        if !value.is_empty() {
            *field = Some(value.to_owned());
        }
        Ok(())
    }

    /// The start, fixed when the first move (or variation) arrives.
    fn begin(&mut self, line: Line) -> Result<(), KifError> {
        if !self.nodes.is_empty() {
            return Ok(());
        }
        let diagram = std::mem::replace(&mut self.diagram, Diagram::new());
        let start = if diagram.seen {
            diagram
                .finish(self.turn.unwrap_or(Color::Sente))
                .map_err(|kind| line.error(kind))?
        } else if diagram.has_hands() {
            return Err(line.error(KifErrorKind::BadDiagram(
                "pieces in hand but no board diagram".into(),
            )));
        } else {
            let mut start = self.start.unwrap_or_else(ShogiPosition::start);
            if let Some(turn) = self.turn {
                start.set_turn(turn);
            }
            start
        };
        self.nodes.push(Node {
            parent: None,
            ply: 1,
            positions: vec![start],
            previous_to: None,
            moves: Vec::new(),
            ending: None,
            children: Vec::new(),
            pending_comments: Vec::new(),
        });
        self.current = 0;
        Ok(())
    }

    /// `変化：N手`: a new line replacing move N of the latest line that has
    /// one.
    fn variation(&mut self, line: Line, text: &str) -> Result<(), KifError> {
        self.begin(line)?;
        let bad = || line.error_at(text, KifErrorKind::BadVariation(text.to_owned()));
        let digits = text.trim().trim_end_matches('手');
        let ply: usize = digits.parse().map_err(|_| bad())?;
        let mut parent = self.current;
        while self.nodes[parent].parent.is_some() && self.nodes[parent].ply >= ply {
            parent = self.nodes[parent].parent.expect("checked");
        }
        let node = &self.nodes[parent];
        if ply < node.ply || ply > node.next_ply() {
            return Err(bad());
        }
        let index = ply - node.ply;
        let previous_to = if index == 0 {
            node.previous_to
        } else {
            match node.moves[index - 1].m {
                Move::Board { to, .. } | Move::Drop { to, .. } => Some(to),
            }
        };
        let position = node.positions[index];
        self.nodes.push(Node {
            parent: Some(parent),
            ply,
            positions: vec![position],
            previous_to,
            moves: Vec::new(),
            ending: None,
            children: Vec::new(),
            pending_comments: Vec::new(),
        });
        self.current = self.nodes.len() - 1;
        self.nodes[parent].children.push(self.current);
        Ok(())
    }

    /// The number the next move of the current line has.
    pub fn next_ply(&mut self, line: Line) -> Result<usize, KifError> {
        self.begin(line)?;
        Ok(self.nodes[self.current].next_ply())
    }

    /// The side to move in the current line.
    pub fn turn_to_move(&mut self, line: Line) -> Result<Color, KifError> {
        self.begin(line)?;
        let node = &self.nodes[self.current];
        Ok(koma_rules::Position::turn(
            node.positions
                .last()
                .expect("a line starts with its position"),
        ))
    }

    /// The current line ends.
    pub fn end(&mut self, line: Line, rest: &str, ending: Ending) -> Result<(), KifError> {
        self.begin(line)?;
        let node = &mut self.nodes[self.current];
        if node.ending.is_some() {
            return Err(line.error_at(rest, KifErrorKind::MoveAfterEnd));
        }
        node.ending = Some(ending);
        Ok(())
    }

    /// Plays a written move in the current line.
    pub fn play(
        &mut self,
        line: Line,
        at: &str,
        spec: MoveSpec,
        time: Option<Duration>,
    ) -> Result<(), KifError> {
        self.begin(line)?;
        let node = &mut self.nodes[self.current];
        if node.ending.is_some() {
            return Err(line.error_at(at, KifErrorKind::MoveAfterEnd));
        }
        let position = node
            .positions
            .last()
            .expect("a line starts with its position");
        let ply = node.next_ply();
        let replay = |reason: String| {
            line.error_at(
                at,
                KifErrorKind::Replay(ReplayError {
                    move_number: ply,
                    text: at.split_whitespace().next().unwrap_or_default().to_owned(),
                    reason,
                }),
            )
        };
        let to = match spec.to.or_else(|| node.last_to()) {
            Some(to) => to,
            None => return Err(replay("同 (same square) with no move before".into())),
        };
        let m = resolve(position, &spec, to).map_err(replay)?;
        let mut next = *position;
        next.play_unchecked(m);
        node.positions.push(next);
        let mut recorded = RecordedMove::new(m);
        recorded.time = time;
        recorded.comments = std::mem::take(&mut node.pending_comments);
        node.moves.push(recorded);
        Ok(())
    }

    /// Reads `text` line by line: `each` is given every line (to pass on to
    /// [`Reader::line`] and read the moves the format writes its own way).
    pub fn read_text(
        mut self,
        text: &str,
        mut each: impl FnMut(&mut Self, Line) -> Result<(), KifError>,
    ) -> Result<Record<ShogiPosition<V>>, KifError> {
        let mut last = Line {
            number: 1,
            text: "",
        };
        for line in lines(text) {
            last = line;
            each(&mut self, line)?;
        }
        self.finish(last)
    }

    /// The record: the main line, its ending and its variations.
    fn finish(mut self, line: Line) -> Result<Record<ShogiPosition<V>>, KifError> {
        self.begin(line)?;
        let mut nodes: Vec<Option<Node<V>>> = self.nodes.into_iter().map(Some).collect();
        let main = nodes[0].take().expect("the main line");
        let mut record = Record::new(main.positions[0]);
        record.headers = self.headers;
        record.comments = self.comments;
        record.moves = main.moves;
        record.ending = main.ending;
        record.variations = variations(&mut nodes, &main.children);
        record.clean_text();
        Ok(record)
    }
}

fn variations<V: ShogiVariant>(
    nodes: &mut [Option<Node<V>>],
    children: &[usize],
) -> Vec<Variation> {
    let mut out: Vec<Variation> = children
        .iter()
        .filter_map(|&index| {
            let node = nodes[index].take()?;
            Some(Variation {
                ply: node.ply,
                moves: node.moves,
                ending: node.ending,
                variations: variations(nodes, &node.children),
            })
        })
        .collect();
    out.sort_by_key(|variation| variation.ply);
    out
}

/// Reads a KIF record of game `V` (shogi, minishogi or Spear).
pub fn read<V: ShogiVariant>(text: &str) -> Result<Record<ShogiPosition<V>>, KifError> {
    Reader::<V>::new().read_text(text, |reader, line| {
        if let Some(text) = reader.line(line)? {
            move_line(reader, line, text)?;
        }
        Ok(())
    })
}

/// `  12 ７六歩(77)   ( 0:16/00:00:16)+` or `  13 投了`.
fn move_line<V: ShogiVariant>(
    reader: &mut Reader<V>,
    line: Line,
    text: &str,
) -> Result<(), KifError> {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let found: usize = text[..digits]
        .parse()
        .map_err(|_| line.error_at(text, KifErrorKind::UnknownLine(text.to_owned())))?;
    let rest = text[digits..].trim_start();
    if rest.len() == text[digits..].len() && !rest.is_empty() {
        return Err(line.error_at(text, KifErrorKind::UnknownLine(text.to_owned())));
    }
    let expected = reader.next_ply(line)?;
    if found != expected {
        return Err(line.error_at(text, KifErrorKind::MoveNumber { expected, found }));
    }
    if let Some((ending, len)) = ending_of(rest) {
        parse_time(line, &rest[len..])?;
        return reader.end(line, rest, ending);
    }
    let (spec, after) = parse_move::<V>(rest).ok_or_else(|| {
        let word = rest.split_whitespace().next().unwrap_or(rest);
        line.error_at(rest, KifErrorKind::BadMove(word.to_owned()))
    })?;
    let time = parse_time(line, after)?;
    reader.play(line, rest, spec, time)
}

/// Reads `７六歩(77)`, `同　銀(61)`, `６二銀打`, `３三角成(88)`; returns the
/// move and what follows it.
fn parse_move<V: ShogiVariant>(text: &str) -> Option<(MoveSpec, &str)> {
    let (to, rest) = parse_destination::<V>(text)?;
    let (role, len) = kanji::parse_piece(V::VARIANT, rest)?;
    let mut rest = &rest[len..];
    let mut promote = None;
    for (word, value) in [("不成", false), ("生", false), ("成", true)] {
        if let Some(after) = rest.strip_prefix(word) {
            promote = Some(value);
            rest = after;
            break;
        }
    }
    let origin = if let Some(after) = rest.strip_prefix('打') {
        rest = after;
        Origin::Drop
    } else {
        let inner = rest.strip_prefix('(')?;
        let (digits, after) = inner.split_once(')')?;
        let mut chars = digits.chars();
        let file = kanji::parse_file_digit(chars.next()?)?;
        let rank = kanji::parse_file_digit(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        rest = after;
        Origin::Square(board_square::<V>(file, rank)?)
    };
    Some((
        MoveSpec {
            to,
            role,
            promote,
            origin,
        },
        rest,
    ))
}

/// The time column `( 0:16/00:00:16)` and a `+` (variations follow): the
/// time the move took.
fn parse_time(line: Line, text: &str) -> Result<Option<Duration>, KifError> {
    let trimmed = text.trim().trim_end_matches('+').trim_end();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let bad = || line.error_at(text.trim_start(), KifErrorKind::BadTime(trimmed.to_owned()));
    let inner = trimmed
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(bad)?;
    let spent = inner.split('/').next().unwrap_or_default().trim();
    duration(spent).map(Some).ok_or_else(bad)
}

/// `m:ss` or `h:mm:ss`.
fn duration(text: &str) -> Option<Duration> {
    let mut seconds: u64 = 0;
    let parts: Vec<&str> = text.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    for part in parts {
        let part = part.trim();
        if part.is_empty() || part.len() > 6 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        seconds = seconds * 60 + part.parse::<u64>().ok()?;
    }
    Some(Duration::from_secs(seconds))
}

/// The game a KIF or KI2 text records, from its `手合割` or its diagram.
pub fn variant(text: &str) -> Variant {
    let mut diagram_width = None;
    let mut spear_pieces = false;
    for line in text.lines() {
        match classify(line) {
            LineKind::Header("手合割", value) => {
                if let Some(game) = setup::game_of_handicap(value) {
                    if game != Variant::Shogi {
                        return game;
                    }
                }
            }
            LineKind::Header(key, value) if key.ends_with("持駒") => {
                spear_pieces |= value.contains(['槍', '象']);
            }
            LineKind::DiagramRow => {
                let inner = line.trim().trim_start_matches('|');
                let inner = inner.split('|').next().unwrap_or_default();
                diagram_width.get_or_insert(inner.chars().count() / 2);
                spear_pieces |= inner.contains(['槍', '象']);
            }
            LineKind::Other(_) | LineKind::Variation(_) => break,
            _ => {}
        }
    }
    match diagram_width {
        Some(5) if spear_pieces => Variant::Spear,
        Some(5) => Variant::Minishogi,
        _ => Variant::Shogi,
    }
}
