//! A record with its review written in, as comments after each move in
//! the style the format's other software writes and reads:
//!
//! - KIF: ShogiHome's keys, `*#評価値=123` (or `*#詰み=先手勝ち:5手`) and
//!   `*#読み筋=△３四歩(33)▲２六歩(27)`, with `*#エンジン=Koma`, and for a
//!   labelled move a first line such as `*【悪手】最善手は▲２六歩(27)`;
//! - CSA: floodgate's `'** 123 -3334FU +2726FU` (the value from Sente's
//!   view, then the line), and the label line;
//! - PGN: lichess's `{ [%eval 0.35] }` and `{ Mistake. e4 was best. }`.
//!
//! Each comment sits after the move it judges: the evaluation is that of
//! the position the move reached. Comments already in the record stay,
//! before the review's.

use crate::expected::{Evaluation, Label};
use crate::review::{Judgement, Review};
use koma_engine::Evaluate;
use koma_records::notation::Notation;
use koma_records::{csa, Format, Record};
use koma_rules::{Color, Move, PawnsPosition, ShogiPosition, ShogiVariant};

/// The mate value a KIF evaluation is written with when a comment needs
/// a number (ShogiHome reads `#詰み=` for mates; this is for the label).
const MATE_VALUE: i32 = 100_000;

/// How comments are written: one style per family of formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// KIF, KIFU and KI2.
    Kif,
    /// CSA.
    Csa,
    /// PGN.
    Pgn,
}

impl Style {
    /// The style of `format`; `None` for formats without comments (USI,
    /// SFEN).
    pub fn of(format: Format) -> Option<Style> {
        match format {
            Format::Kif | Format::Kifu | Format::Ki2 => Some(Style::Kif),
            Format::Csa => Some(Style::Csa),
            Format::Pgn => Some(Style::Pgn),
            _ => None,
        }
    }
}

/// A game the review can write about: its notation, and CSA's codes for
/// the shogi games.
pub trait Annotate: Evaluate + Notation {
    /// `m`, played in `before`, as CSA writes it (`+7776FU`), for the games
    /// CSA records.
    fn csa_code(before: &Self, m: Move) -> Option<String>;
}

impl<V: ShogiVariant> Annotate for ShogiPosition<V>
where
    ShogiPosition<V>: Evaluate,
{
    fn csa_code(before: &Self, m: Move) -> Option<String> {
        Some(csa::move_code(before, m))
    }
}

impl Annotate for PawnsPosition {
    fn csa_code(_before: &Self, _m: Move) -> Option<String> {
        None
    }
}

/// Writes `review` into `record` in `style`. The review must be of the
/// record's game; moves it does not cover get no comment.
///
/// ```
/// use koma_analysis::annotate::{annotate, Style};
/// use koma_analysis::review::review;
/// use koma_engine::{Limits, SearchControl};
/// use koma_records::{kif, usi, Record};
/// use koma_rules::StandardShogiPosition;
///
/// let mut record: Record<StandardShogiPosition> =
///     usi::read("position startpos moves 7g7f 3c3d").unwrap();
/// let moves: Vec<_> = record.moves.iter().map(|m| m.m).collect();
/// let reviewed = review(&record.start, &moves, &Limits::depth(2), 1, &SearchControl::default(), &mut |_, _| {});
/// annotate(&mut record, &reviewed, Style::Kif);
/// assert!(record.moves[0].comments.iter().any(|c| c.starts_with("#評価値=")));
/// let text = kif::write(&record);
/// assert!(text.contains("\n*#読み筋=▲"));
/// // Read back, the comments are there.
/// let again = kif::read::<koma_rules::Shogi>(&text).unwrap();
/// assert_eq!(again.moves[1].comments, record.moves[1].comments);
/// ```
pub fn annotate<P: Annotate>(record: &mut Record<P>, review: &Review, style: Style) {
    let mut position = record.start;
    let mut previous = None;
    for (index, recorded) in record.moves.iter_mut().enumerate() {
        let before = position;
        let played = recorded.m;
        position.play_unchecked(played);
        let (Some(reviewed), Some(after)) =
            (review.moves.get(index), review.positions.get(index + 1))
        else {
            break;
        };
        let judged = Judged {
            before,
            previous,
            played,
            reached: position,
            label: reviewed.label,
            better: review.positions[index].best,
            after,
        };
        recorded.comments.extend(match style {
            Style::Kif => judged.kif(),
            Style::Csa => judged.csa(),
            Style::Pgn => judged.pgn(),
        });
        previous = Some(played);
    }
}

/// One move of the record with the review's word on it.
struct Judged<'a, P> {
    /// The position the move was played in.
    before: P,
    /// The move before it.
    previous: Option<Move>,
    played: Move,
    /// The position it reached.
    reached: P,
    label: Option<Label>,
    /// The engine's move where it was played.
    better: Option<Move>,
    /// The judgement of the position reached.
    after: &'a Judgement,
}

impl<P: Annotate> Judged<'_, P> {
    /// The label and the engine's move, for a labelled move.
    fn labelled(&self) -> Option<(Label, Move)> {
        self.label.zip(self.better)
    }

    /// `【悪手】最善手は▲２六歩(27)`, as shogi commentary says it.
    fn japanese_label(&self) -> Option<String> {
        self.labelled().map(|(label, better)| {
            let mark = match self.before.turn() {
                Color::Sente => '▲',
                Color::Gote => '△',
            };
            format!(
                "【{}】最善手は{mark}{}",
                label.japanese(),
                P::move_text(&self.before, better, self.previous)
            )
        })
    }

    fn kif(&self) -> Vec<String> {
        let mut comments: Vec<String> = self.japanese_label().into_iter().collect();
        comments.push(match self.after.evaluation {
            Evaluation::Mate { winner, plies } => format!(
                "#詰み={}:{plies}手",
                match winner {
                    Color::Sente => "先手勝ち",
                    Color::Gote => "後手勝ち",
                }
            ),
            evaluation => format!("#評価値={}", evaluation.centipawns_or(MATE_VALUE)),
        });
        if !self.after.line.is_empty() {
            comments.push(format!(
                "#読み筋={}",
                P::line_text(&self.reached, &self.after.line, Some(self.played))
            ));
        }
        comments.push("#エンジン=Koma".to_owned());
        comments
    }

    fn csa(&self) -> Vec<String> {
        let mut comments: Vec<String> = self.japanese_label().into_iter().collect();
        // The comment's text follows CSA's `'`: floodgate writes `'** 123 …`.
        let mut floodgate = format!("** {}", self.after.evaluation.centipawns_or(MATE_VALUE));
        let mut position = self.reached;
        for &m in &self.after.line {
            let Some(code) = P::csa_code(&position, m) else {
                break;
            };
            floodgate.push(' ');
            floodgate.push_str(&code);
            position.play_unchecked(m);
        }
        comments.push(floodgate);
        comments
    }

    fn pgn(&self) -> Vec<String> {
        let mut comments = vec![match self.after.evaluation {
            Evaluation::Centipawns(cp) => format!("[%eval {:.2}]", f64::from(cp) / 100.0),
            Evaluation::Mate { winner, plies } => {
                let moves = plies.div_ceil(2);
                match winner {
                    Color::Sente => format!("[%eval #{moves}]"),
                    Color::Gote => format!("[%eval #-{moves}]"),
                }
            }
        }];
        if let Some((label, better)) = self.labelled() {
            let name = label.name();
            let mut title = name[..1].to_uppercase();
            title.push_str(&name[1..]);
            comments.push(format!(
                "{title}. {} was best.",
                P::move_text(&self.before, better, None)
            ));
        }
        comments
    }
}
