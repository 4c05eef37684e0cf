//! A game's review as it is kept with the game (plain data a database row
//! holds), and as the page and scripts read it (`review` in the game's
//! state, and `GET /api/games/{id}/review`).
//!
//! Only the engine's judgement of each position is kept: each move's loss,
//! label and accuracy follow from the judgements before and after it
//! ([`koma_analysis::Review::from_judgements`]), so that they cannot
//! disagree with the evaluations shown.

use crate::games::live::{AnyGame, Served};
use crate::games::names;
use crate::games::state::{
    EvaluationJson, MoveJson, MoveReviewJson, PositionReviewJson, ReviewJson, SideReviewJson,
};
use koma_analysis::annotate::{annotate, Annotate, Style};
use koma_analysis::{Evaluation, Judgement, Review};
use koma_records::{AnyRecord, Format, Record};
use koma_rules::{each_game, Color, Game, Move, Position, Variant};
use serde::{Deserialize, Serialize};

/// The longest line kept per position: the page names the engine's move,
/// and records write a few moves of its line.
const LINE_KEPT: usize = 8;

/// A review kept with its game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredReview {
    /// The registered engine that reviewed it; Koma's own when absent
    /// (and in every review kept before engines could be registered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The engine's budget per position, in nodes.
    pub nodes: u64,
    /// Every position's judgement, the start's first.
    pub positions: Vec<StoredJudgement>,
}

/// The engine's judgement of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredJudgement {
    /// The evaluation from the first player's view.
    pub evaluation: KeptEvaluation,
    /// The line the engine expects, its move first, in USI/UCI; empty
    /// where the game is over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The depth searched.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

/// An evaluation as kept: `{"cp": 35}` or `{"mate": {"winner": "gote",
/// "plies": 3}}` (plies 0: the game is won).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum KeptEvaluation {
    /// Centipawns, positive for the first player.
    Cp(i32),
    /// A forced win.
    Mate {
        /// The winner's side by name.
        winner: String,
        /// Plies to the end.
        plies: u32,
    },
}

impl KeptEvaluation {
    fn new(variant: Variant, evaluation: Evaluation) -> KeptEvaluation {
        match evaluation {
            Evaluation::Centipawns(cp) => KeptEvaluation::Cp(cp),
            Evaluation::Mate { winner, plies } => KeptEvaluation::Mate {
                winner: names::color_name(variant, winner).to_owned(),
                plies,
            },
        }
    }

    fn read(&self, variant: Variant) -> Option<Evaluation> {
        Some(match self {
            KeptEvaluation::Cp(cp) => Evaluation::Centipawns(*cp),
            KeptEvaluation::Mate { winner, plies } => Evaluation::Mate {
                winner: names::parse_color(variant, winner)?,
                plies: *plies,
            },
        })
    }
}

impl StoredReview {
    /// The review of `review`, searched at `nodes` a position, as kept.
    pub fn new(review: &Review, nodes: u64, move_text: impl Fn(Move) -> String) -> StoredReview {
        StoredReview {
            engine: None,
            nodes,
            positions: review
                .positions
                .iter()
                .map(|judgement| StoredJudgement {
                    evaluation: KeptEvaluation::new(review.variant, judgement.evaluation),
                    line: judgement
                        .line
                        .iter()
                        .take(LINE_KEPT)
                        .map(|&m| move_text(m))
                        .collect(),
                    depth: judgement.depth,
                    nodes: judgement.nodes,
                })
                .collect(),
        }
    }

    /// The review of `game` this keeps, or `None` if it does not fit the
    /// game (a damaged row): every judgement must read and its line be
    /// legal.
    pub fn to_review<P: Position>(&self, game: &Game<P>) -> Option<Review> {
        let positions = game.positions();
        if self.positions.len() > positions.len() {
            return None;
        }
        let judgements = self
            .positions
            .iter()
            .zip(positions)
            .map(|(kept, position)| {
                let evaluation = kept.evaluation.read(P::VARIANT)?;
                let mut at = position.clone();
                let mut line = Vec::with_capacity(kept.line.len());
                for text in &kept.line {
                    let m = at.parse_move(text).ok().filter(|&m| at.is_legal(m))?;
                    at.play_unchecked(m);
                    line.push(m);
                }
                Some(Judgement {
                    evaluation,
                    best: line.first().copied(),
                    line,
                    depth: kept.depth,
                    nodes: kept.nodes,
                })
            })
            .collect::<Option<Vec<Judgement>>>()?;
        Some(Review::from_judgements(
            &positions[0],
            game.moves(),
            judgements,
        ))
    }
}

impl EvaluationJson {
    /// `evaluation` in `variant`'s game.
    pub fn new(variant: Variant, evaluation: Evaluation) -> EvaluationJson {
        let (cp, mate) = match evaluation {
            Evaluation::Centipawns(cp) => (Some(cp), None),
            Evaluation::Mate { winner, plies } => {
                let plies = i32::try_from(plies).unwrap_or(i32::MAX);
                (
                    None,
                    Some(if winner == Color::Sente {
                        plies
                    } else {
                        -plies
                    }),
                )
            }
        };
        EvaluationJson {
            cp,
            mate,
            expected: round(evaluation.expected_score(variant, Color::Sente), 4),
        }
    }
}

impl ReviewJson {
    /// The review `kept` of `game`, or `None` if it does not fit.
    pub fn new(kept: &StoredReview, game: &AnyGame) -> Option<ReviewJson> {
        each_game!(AnyGame, game, g => Self::of_game(kept, g))
    }

    fn of_game<P: Served>(kept: &StoredReview, game: &Game<P>) -> Option<ReviewJson> {
        let review = kept.to_review(game)?;
        let variant = P::VARIANT;
        let positions = game.positions();
        let previous = |ply: usize| ply.checked_sub(1).map(|i| game.moves()[i]);
        let name = |m: Option<Move>, ply: usize| {
            m.and_then(|m| MoveJson::line(&positions[ply], &[m], previous(ply)).pop())
        };
        Some(ReviewJson {
            engine: kept
                .engine
                .clone()
                .unwrap_or_else(|| crate::external::registry::BUILT_IN.to_owned()),
            nodes: kept.nodes,
            positions: review
                .positions
                .iter()
                .enumerate()
                .map(|(ply, judgement)| PositionReviewJson {
                    ply,
                    evaluation: EvaluationJson::new(variant, judgement.evaluation),
                    best: name(judgement.best, ply),
                    depth: judgement.depth,
                })
                .collect(),
            moves: review
                .moves
                .iter()
                .enumerate()
                .map(|(index, reviewed)| MoveReviewJson {
                    ply: index + 1,
                    loss: round(reviewed.loss, 4),
                    label: reviewed.label.map(|label| label.name()),
                    accuracy: round(reviewed.accuracy, 1),
                    better: (reviewed.loss > 0.0)
                        .then(|| name(review.positions[index].best, index))
                        .flatten(),
                })
                .collect(),
            sides: Color::ALL
                .into_iter()
                .map(|color| {
                    let summary = review.summary(color);
                    let side = SideReviewJson {
                        moves: summary.moves,
                        inaccuracies: summary.labelled[0],
                        mistakes: summary.labelled[1],
                        blunders: summary.labelled[2],
                        accuracy: round(summary.accuracy, 1),
                        average_loss: round(summary.average_loss, 4),
                    };
                    (names::color_name(variant, color), side)
                })
                .collect(),
        })
    }
}

/// Writes the review `kept` of `game` into `record` (the game's) as
/// comments, in the style `format`'s other software reads; formats
/// without comments (USI, SFEN) get none.
pub fn write_review(kept: &StoredReview, game: &AnyGame, record: &mut AnyRecord, format: Format) {
    let Some(style) = Style::of(format) else {
        return;
    };
    fn write<P: Annotate>(
        kept: &StoredReview,
        game: &Game<P>,
        record: &mut Record<P>,
        style: Style,
    ) {
        if let Some(review) = kept.to_review(game) {
            annotate(record, &review, style);
        }
    }
    match (game, record) {
        (AnyGame::Spear(g), AnyRecord::Spear(r)) => write(kept, g, r, style),
        (AnyGame::Minishogi(g), AnyRecord::Minishogi(r)) => write(kept, g, r, style),
        (AnyGame::Shogi(g), AnyRecord::Shogi(r)) => write(kept, g, r, style),
        (AnyGame::Pawns(g), AnyRecord::Pawns(r)) => write(kept, g, r, style),
        _ => {}
    }
}

/// `value` to `digits` decimals, so that the JSON stays short and the
/// page shows what the API says.
fn round(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}
