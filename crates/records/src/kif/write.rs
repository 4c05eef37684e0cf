//! Writing KIF as Kifu for Windows does: headers, the start, aligned moves
//! with times, the ending with its summary, then the variations.

use super::setup;
use super::written_move::declines_promotion;
use crate::kanji;
use crate::record::{Ending, Record, RecordedMove, Variation};
use crate::text;
use koma_rules::{Color, Move, ShogiPosition, ShogiVariant, Variant};
use std::time::Duration;

/// Writes `record` as UTF-8 KIF (a `.kifu` file; for a Shift_JIS `.kif`
/// use [`write_shift_jis`]).
pub fn write<V: ShogiVariant>(record: &Record<ShogiPosition<V>>) -> String {
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n# ---- Koma 棋譜ファイル ----\n");
    let headers = &record.headers;
    let fields = [
        ("開始日時", &headers.start_time),
        ("終了日時", &headers.end_time),
        ("棋戦", &headers.event),
        ("場所", &headers.site),
        ("持ち時間", &headers.time_control),
        ("戦型", &headers.opening),
    ];
    for (key, value) in fields {
        // An empty one reads back as none: not written.
        if let Some(value) = value.as_deref().filter(|v| !text::header(v).is_empty()) {
            push_header(&mut out, key, value);
        }
    }
    for (key, value) in &headers.other {
        push_header(&mut out, key, value);
    }
    let named = setup::handicap_name(&record.start);
    match (named, V::VARIANT) {
        (Some(name), Variant::Shogi | Variant::Minishogi) => push_header(&mut out, "手合割", name),
        (_, Variant::Shogi) => setup::write_diagram(&record.start, &mut out),
        (_, variant) => {
            let name = if variant == Variant::Spear {
                setup::SPEAR_NAME
            } else {
                setup::MINISHOGI_NAME
            };
            push_header(&mut out, "手合割", name);
            setup::write_diagram(&record.start, &mut out);
        }
    }
    let handicap = named.is_some_and(|name| name.ends_with("落ち"));
    let (sente_key, gote_key) = if handicap {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    push_header(&mut out, sente_key, headers.sente.as_deref().unwrap_or(""));
    push_header(&mut out, gote_key, headers.gote.as_deref().unwrap_or(""));
    out.push_str("手数----指手---------消費時間--\n");
    push_comments(&mut out, &record.comments);
    let writer = LineWriter {
        timed: record.moves.iter().any(|m| m.time.is_some())
            || record.variations.iter().any(variation_timed),
        sides: if handicap {
            ["下手", "上手"]
        } else {
            ["先手", "後手"]
        },
    };
    let line = Line {
        ply: 1,
        moves: &record.moves,
        ending: record.ending,
        variations: &record.variations,
    };
    writer.write(&mut out, &line, &record.start, None, [Duration::ZERO; 2]);
    out
}

fn variation_timed(variation: &Variation) -> bool {
    variation.moves.iter().any(|m| m.time.is_some())
        || variation.variations.iter().any(variation_timed)
}

/// `key：value`, both cleaned as headers are (one line, hidden characters
/// escaped), so that no header starts another line of the file.
fn push_header(out: &mut String, key: &str, value: &str) {
    out.push_str(&text::header(key));
    out.push('：');
    out.push_str(&text::header(value));
    out.push('\n');
}

/// Each line of each comment its own `*` line, hidden characters escaped:
/// what KIF readers read as one comment line each.
fn push_comments(out: &mut String, comments: &[String]) {
    for comment in comments {
        for line in text::comment(comment).split('\n') {
            out.push('*');
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// The main line or a variation, seen the same way.
struct Line<'a> {
    ply: usize,
    moves: &'a [RecordedMove],
    ending: Option<Ending>,
    variations: &'a [Variation],
}

struct LineWriter {
    timed: bool,
    sides: [&'static str; 2],
}

impl LineWriter {
    /// Writes a line from `position` (before move `line.ply`), then its
    /// variations, latest branch first as KIF readers expect.
    fn write<V: ShogiVariant>(
        &self,
        out: &mut String,
        line: &Line,
        start: &ShogiPosition<V>,
        previous_to: Option<koma_rules::Square>,
        start_totals: [Duration; 2],
    ) {
        let mut position = *start;
        let mut positions = Vec::with_capacity(line.moves.len() + 1);
        let mut previous = previous_to;
        let mut totals = start_totals;
        let mut branch_state = Vec::with_capacity(line.moves.len() + 1);
        for (index, recorded) in line.moves.iter().enumerate() {
            let ply = line.ply + index;
            positions.push(position);
            branch_state.push((previous, totals));
            let mut text = move_text(&position, recorded.m, previous);
            let side = position.turn() as usize;
            let spent = recorded.time.unwrap_or_default();
            totals[side] += spent;
            pad(&mut text);
            let mut row = format!("{ply:>4} {text}");
            if self.timed {
                row.push_str(&time_column(spent, totals[side]));
            }
            if line.variations.iter().any(|v| v.ply == ply) {
                row.push('+');
            }
            out.push_str(row.trim_end());
            out.push('\n');
            push_comments(out, &recorded.comments);
            previous = Some(destination(recorded.m));
            position.play_unchecked(recorded.m);
        }
        positions.push(position);
        branch_state.push((previous, totals));
        let end_ply = line.ply + line.moves.len();
        if let Some(ending) = line.ending {
            let word = ending_word(ending, position.turn());
            out.push_str(&format!("{end_ply:>4} {word}\n"));
            out.push_str(&self.summary(ending, end_ply - 1, position.turn()));
            out.push('\n');
        }
        let mut variations: Vec<&Variation> = line.variations.iter().collect();
        variations.sort_by_key(|v| std::cmp::Reverse(v.ply));
        for variation in variations {
            let Some(index) = variation
                .ply
                .checked_sub(line.ply)
                .filter(|&i| i < positions.len())
            else {
                continue;
            };
            out.push_str(&format!("\n変化：{}手\n", variation.ply));
            let (previous, totals) = branch_state[index];
            let sub = Line {
                ply: variation.ply,
                moves: &variation.moves,
                ending: variation.ending,
                variations: &variation.variations,
            };
            self.write(out, &sub, &positions[index], previous, totals);
        }
    }

    /// `まで64手で先手の勝ち` and the like.
    fn summary(&self, ending: Ending, moves: usize, to_move: Color) -> String {
        let mover = self.sides[to_move as usize];
        let other = self.sides[!to_move as usize];
        let tail = match ending {
            Ending::Resignation | Ending::Checkmate => format!("{other}の勝ち"),
            Ending::Timeout => format!("時間切れにより{other}の勝ち"),
            Ending::Repetition => "千日手".to_owned(),
            Ending::PerpetualCheck => format!("連続王手の千日手により{mover}の勝ち"),
            Ending::Impasse => "持将棋".to_owned(),
            Ending::ImpasseWin => format!("入玉宣言により{mover}の勝ち"),
            Ending::Abandoned => "中断".to_owned(),
            Ending::IllegalMove => format!("{mover}の反則負け"),
            Ending::IllegalMoveWin => format!("{mover}の反則勝ち"),
            Ending::SenteIllegalAction => format!("{}の反則負け", self.sides[0]),
            Ending::GoteIllegalAction => format!("{}の反則負け", self.sides[1]),
            Ending::Draw => "持将棋".to_owned(),
            Ending::NoMate => "不詰".to_owned(),
        };
        format!("まで{moves}手で{tail}")
    }
}

fn destination(m: Move) -> koma_rules::Square {
    match m {
        Move::Board { to, .. } | Move::Drop { to, .. } => to,
    }
}

/// The word that ends a line; an illegal action by one side is written as
/// the loss or win of the side to move.
fn ending_word(ending: Ending, to_move: Color) -> &'static str {
    match ending {
        Ending::Resignation => "投了",
        Ending::Checkmate => "詰み",
        Ending::Repetition => "千日手",
        Ending::PerpetualCheck | Ending::IllegalMoveWin => "反則勝ち",
        Ending::Impasse => "持将棋",
        Ending::ImpasseWin => "入玉勝ち",
        Ending::Abandoned => "中断",
        Ending::Timeout => "切れ負け",
        Ending::IllegalMove => "反則負け",
        Ending::SenteIllegalAction if to_move == Color::Sente => "反則負け",
        Ending::GoteIllegalAction if to_move == Color::Gote => "反則負け",
        Ending::SenteIllegalAction | Ending::GoteIllegalAction => "反則勝ち",
        // KIF has no plain draw; 持将棋 is the draw every reader knows.
        Ending::Draw => "持将棋",
        Ending::NoMate => "不詰",
    }
}

/// A move as KIF writes it: `７六歩(77)`, `同　銀(61)` (when it lands where
/// the previous move did), `６二銀打`, `３三角成(88)`, `２四歩不成(25)`.
/// `position` is where it is played.
pub fn move_text<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    m: Move,
    previous_to: Option<koma_rules::Square>,
) -> String {
    let mut text = String::new();
    let to = destination(m);
    if previous_to == Some(to) {
        text.push_str("同　");
    } else {
        text.push(kanji::file_digit(to.file()));
        text.push(kanji::NUMERALS[to.rank() as usize]);
    }
    match m {
        Move::Drop { role, .. } => {
            text.push_str(kanji::piece_name(V::VARIANT, role));
            text.push('打');
        }
        Move::Board { from, promote, .. } => {
            let role = position
                .piece_at(from)
                .map_or(koma_rules::Role::Pawn, |p| p.role);
            text.push_str(kanji::piece_name(V::VARIANT, role));
            if promote {
                text.push('成');
            } else if declines_promotion(position, m) {
                text.push_str("不成");
            }
            text.push_str(&format!("({}{})", from.file() + 1, from.rank() + 1));
        }
    }
    text
}

/// Pads a move to the width Kifu for Windows aligns times at.
fn pad(text: &mut String) {
    let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    let spaces = 13usize.saturating_sub(width).max(1);
    text.push_str(&" ".repeat(spaces));
}

/// `( 0:16/00:00:16)`: this move's time and the side's total.
fn time_column(spent: Duration, total: Duration) -> String {
    let spent = spent.as_secs();
    let total = total.as_secs();
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        spent / 60,
        spent % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// Writes `record` as a Shift_JIS `.kif` with CRLF line ends, as Kifu for
/// Windows does; text Shift_JIS cannot hold is refused, not lost.
pub fn write_shift_jis<V: ShogiVariant>(
    record: &Record<ShogiPosition<V>>,
) -> Result<Vec<u8>, crate::EncodeError> {
    let text = write(record)
        .replacen("encoding=UTF-8", "encoding=Shift_JIS", 1)
        .replace('\n', "\r\n");
    crate::encode_shift_jis(&text)
}
