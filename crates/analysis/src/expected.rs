//! What an evaluation means for the result, and what a move lost.
//!
//! A centipawn says different things in different games: Koma's shogi
//! values put a pawn near 90 and its minishogi values run three times
//! larger. Each game gets a logistic scale, and every comparison is made
//! in *expected score* (win 1, draw ½, loss 0): `1 / (1 + e^(−cp/scale))`.
//! A move's loss is how much expected score its player gave up against
//! the engine's choice, and its label follows lichess's thresholds
//! (winning chances down by 0.1, 0.2, 0.3 on lichess's −1…1 scale).

use koma_engine::Score;
use koma_rules::{Color, Variant};

/// An evaluation from the first player's view (Sente; White in Pawns-Only
/// Chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Centipawns: positive favours the first player.
    Centipawns(i32),
    /// A forced win for `winner` in `plies` plies (0: the game is won).
    Mate {
        /// Who wins.
        winner: Color,
        /// Plies to the end.
        plies: u32,
    },
}

impl Evaluation {
    /// The evaluation of a search's `score`, which is from the view of
    /// `to_move`.
    ///
    /// ```
    /// use koma_analysis::Evaluation;
    /// use koma_engine::Score;
    /// use koma_rules::Color;
    ///
    /// assert_eq!(Evaluation::from_score(Score::Centipawns(40), Color::Gote), Evaluation::Centipawns(-40));
    /// assert_eq!(
    ///     Evaluation::from_score(Score::MatePlies(-3), Color::Sente),
    ///     Evaluation::Mate { winner: Color::Gote, plies: 3 }
    /// );
    /// ```
    pub fn from_score(score: Score, to_move: Color) -> Evaluation {
        match score {
            Score::Centipawns(cp) => Evaluation::Centipawns(match to_move {
                Color::Sente => cp,
                Color::Gote => -cp,
            }),
            Score::MatePlies(plies) => Evaluation::Mate {
                winner: if plies > 0 { to_move } else { !to_move },
                plies: plies.unsigned_abs(),
            },
        }
    }

    /// The expected score of `color` in `variant`'s game.
    ///
    /// ```
    /// use koma_analysis::Evaluation;
    /// use koma_rules::{Color, Variant};
    ///
    /// let even = Evaluation::Centipawns(0).expected_score(Variant::Shogi, Color::Sente);
    /// assert_eq!(even, 0.5);
    /// let ahead = Evaluation::Centipawns(600).expected_score(Variant::Shogi, Color::Gote);
    /// assert!((ahead - 0.269).abs() < 0.001);
    /// ```
    pub fn expected_score(self, variant: Variant, color: Color) -> f64 {
        match self {
            Evaluation::Centipawns(cp) => {
                let cp = match color {
                    Color::Sente => cp,
                    Color::Gote => -cp,
                };
                1.0 / (1.0 + (-f64::from(cp) / scale(variant)).exp())
            }
            Evaluation::Mate { winner, .. } if winner == color => 1.0,
            Evaluation::Mate { .. } => 0.0,
        }
    }

    /// The evaluation as one number from the first player's view, mates
    /// as ±`mate_value` less their plies (how ShogiHome and USI GUIs plot
    /// and record a mate).
    pub fn centipawns_or(self, mate_value: i32) -> i32 {
        match self {
            Evaluation::Centipawns(cp) => cp,
            Evaluation::Mate { winner, plies } => {
                let value = mate_value - plies.min(mate_value as u32 / 2) as i32;
                match winner {
                    Color::Sente => value,
                    Color::Gote => -value,
                }
            }
        }
    }
}

/// The logistic scale of `variant`'s centipawns, in the natural exponent.
/// Shogi's is the 600 that shogi engines with a 90-centipawn pawn use
/// (YaneuraOu's win-rate conversion); minishogi's and Spear's come from the
/// scales Koma's tuner fits to game results (0.36 and 0.26 in base 10 over
/// 400); Pawns-Only Chess takes lichess's chess constant.
pub fn scale(variant: Variant) -> f64 {
    match variant {
        Variant::Shogi => 600.0,
        Variant::Minishogi => 480.0,
        Variant::Spear => 670.0,
        Variant::Pawns => 272.0,
    }
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    /// A loss of 5 % of expected score or more.
    Inaccuracy,
    /// A loss of 10 % or more.
    Mistake,
    /// A loss of 15 % or more.
    Blunder,
}

impl Label {
    /// Every label, the mildest first.
    pub const ALL: [Label; 3] = [Label::Inaccuracy, Label::Mistake, Label::Blunder];

    /// The label of a move that lost `loss` expected score, if any.
    ///
    /// ```
    /// use koma_analysis::Label;
    /// assert_eq!(Label::of_loss(0.049), None);
    /// assert_eq!(Label::of_loss(0.05), Some(Label::Inaccuracy));
    /// assert_eq!(Label::of_loss(0.12), Some(Label::Mistake));
    /// assert_eq!(Label::of_loss(0.6), Some(Label::Blunder));
    /// ```
    pub fn of_loss(loss: f64) -> Option<Label> {
        Label::ALL
            .into_iter()
            .rev()
            .find(|label| loss >= label.threshold() - 1e-9)
    }

    /// The least loss that earns the label.
    pub fn threshold(self) -> f64 {
        match self {
            Label::Inaccuracy => 0.05,
            Label::Mistake => 0.10,
            Label::Blunder => 0.15,
        }
    }

    /// The label in English: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The label as shogi commentary writes it: 緩手, 疑問手, 悪手.
    pub fn japanese(self) -> &'static str {
        match self {
            Label::Inaccuracy => "緩手",
            Label::Mistake => "疑問手",
            Label::Blunder => "悪手",
        }
    }

    /// The annotation chess writes after the move: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Label::Inaccuracy => "?!",
            Label::Mistake => "?",
            Label::Blunder => "??",
        }
    }
}

/// The accuracy of one move, 0 to 100, from its player's expected score
/// before and after it (lichess's curve: 100 for no loss, about 50 for a
/// loss of 16 points, falling towards 0).
///
/// ```
/// use koma_analysis::expected::move_accuracy;
/// assert_eq!(move_accuracy(0.6, 0.6), 100.0);
/// assert!(move_accuracy(0.6, 0.4) < 45.0);
/// assert_eq!(move_accuracy(1.0, 0.0), 0.0);
/// ```
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    let lost = (before - after) * 100.0;
    if lost <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * lost).exp() - 3.1669).clamp(0.0, 100.0)
}
