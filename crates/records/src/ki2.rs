//! KI2, KIF's sibling for print: the same headers and start, but moves
//! without origin squares (`▲７六歩 △３四歩`), told apart where needed by
//! words such as `右`, `左`, `上`, `引`, `寄`, `直`, `打`; the result is in the
//! closing `まで…` line.
//!
//! ```
//! use koma_records::ki2;
//! use koma_rules::Shogi;
//! let record = ki2::read::<Shogi>("手合割：平手\n▲７六歩 △３四歩 ▲２二角成\nまで3手で先手の勝ち\n").unwrap();
//! assert_eq!(record.moves.len(), 3);
//! assert_eq!(record.ending, Some(koma_records::Ending::Resignation));
//! ```
//!
//! [`move_text`] writes a move as KI2 does.

mod write;

pub use write::move_text;

use crate::kanji;
use crate::kif::read::ending_of;
use crate::kif::written_move::{parse_destination, MoveSpec, Origin};
use crate::kif::{KifError, KifErrorKind, Line, Reader};
use crate::record::{Ending, Record};
use koma_rules::{Color, ShogiPosition, ShogiVariant};

/// The marks that start a move and the side they name.
const MARKS: [(char, Color); 5] = [
    ('▲', Color::Sente),
    ('☗', Color::Sente),
    ('△', Color::Gote),
    ('▽', Color::Gote),
    ('☖', Color::Gote),
];

/// Words that may follow the piece, in any order.
const WORDS: [&str; 12] = [
    "不成", "右", "左", "直", "上", "行", "入", "引", "寄", "打", "成", "生",
];

/// Reads a KI2 record of game `V`. Errors are [`KifError`]s, as the two
/// formats share everything but their moves.
pub fn read<V: ShogiVariant>(text: &str) -> Result<Record<ShogiPosition<V>>, KifError> {
    Reader::<V>::new().read_text(text, |reader, line| {
        let trimmed = line.text.trim();
        if let Some(summary) = trimmed.strip_prefix("まで") {
            if let Some(ending) = summary_ending(summary) {
                reader.end(line, trimmed, ending)?;
            }
        } else if let Some(moves) = reader.line(line)? {
            move_line(reader, line, moves)?;
        }
        Ok(())
    })
}

/// The ending a `まで107手で先手の勝ち` line tells.
fn summary_ending(summary: &str) -> Option<Ending> {
    let (_, tail) = summary.split_once("手で")?;
    let tail = tail.trim();
    let endings = [
        ("千日手", Ending::Repetition),
        ("持将棋", Ending::Impasse),
        ("中断", Ending::Abandoned),
        ("反則負け", Ending::IllegalMove),
        ("反則勝ち", Ending::IllegalMoveWin),
        ("時間切れ", Ending::Timeout),
        ("切れ負け", Ending::Timeout),
        ("詰み", Ending::Checkmate),
        ("入玉", Ending::ImpasseWin),
        ("勝ち", Ending::Resignation),
    ];
    endings
        .iter()
        .find(|(word, _)| tail.contains(word))
        .map(|(_, ending)| *ending)
}

/// A line of moves: `▲７六歩    △３四歩`.
fn move_line<V: ShogiVariant>(
    reader: &mut Reader<V>,
    line: Line,
    text: &str,
) -> Result<(), KifError> {
    let mut rest = text;
    while !rest.is_empty() {
        let mark = rest.chars().next().expect("not empty");
        let Some(&(_, color)) = MARKS.iter().find(|(m, _)| *m == mark) else {
            return Err(line.error_at(rest, KifErrorKind::UnknownLine(rest.to_owned())));
        };
        let body = &rest[mark.len_utf8()..];
        let end = body
            .char_indices()
            .find(|(_, c)| MARKS.iter().any(|(m, _)| m == c))
            .map_or(body.len(), |(i, _)| i);
        let word = body[..end].trim();
        reader.next_ply(line)?;
        if let Some((ending, _)) = ending_of(word) {
            reader.end(line, rest, ending)?;
        } else {
            let spec = parse_move::<V>(word).ok_or_else(|| {
                line.error_at(rest, KifErrorKind::BadMove(format!("{mark}{word}")))
            })?;
            reader.play_as(line, rest, spec, color)?;
        }
        rest = body[end..].trim_start();
    }
    Ok(())
}

/// `７六歩`, `同　銀`, `５二金左上`, `２三歩成`, `５五角打`.
fn parse_move<V: ShogiVariant>(text: &str) -> Option<MoveSpec> {
    let (to, rest) = parse_destination::<V>(text)?;
    let (role, len) = kanji::parse_piece(V::VARIANT, rest)?;
    let mut rest = &rest[len..];
    let mut promote = None;
    let mut drop = false;
    let mut relative = String::new();
    while !rest.is_empty() {
        let word = WORDS.iter().find(|w| rest.starts_with(*w))?;
        match *word {
            "成" => promote = Some(true),
            "不成" | "生" => promote = Some(false),
            "打" => drop = true,
            other => relative.push_str(other),
        }
        rest = &rest[word.len()..];
    }
    let origin = if drop {
        Origin::Drop
    } else {
        Origin::Relative(relative)
    };
    Some(MoveSpec {
        to,
        role,
        promote,
        origin,
    })
}

impl<V: ShogiVariant> Reader<V> {
    /// Plays a KI2 move, whose mark must name the side to move.
    fn play_as(
        &mut self,
        line: Line,
        at: &str,
        spec: MoveSpec,
        color: Color,
    ) -> Result<(), KifError> {
        if self.turn_to_move(line)? != color {
            return Err(line.error_at(
                at,
                KifErrorKind::BadMove(format!("{at}: not this side's turn")),
            ));
        }
        self.play(line, at, spec, None)
    }
}
