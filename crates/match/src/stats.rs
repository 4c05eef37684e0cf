//! What a match's results say about the two engines: score, Elo difference
//! with its 95 % error bar, likelihood of superiority, and the sequential
//! probability ratio test (SPRT).
//!
//! The formulas are the usual ones of engine testing (cutechess-cli,
//! fastchess, fishtest): the logistic Elo model, a normal approximation of
//! the mean score for the error bars, and the generalized SPRT.

use crate::error::SprtError;
use std::fmt;

/// The quantile of the normal distribution for a two-sided 95 % interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws, seen from engine 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games engine 1 won.
    pub wins: u64,
    /// Games engine 1 lost.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

/// A game's result for engine 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// Engine 1 won.
    Win,
    /// Engine 1 lost.
    Loss,
    /// A draw.
    Draw,
}

impl GameScore {
    /// Engine 1's result when it played `engine1` and `winner` won (`None`:
    /// a draw).
    pub fn of(winner: Option<koma_rules::Color>, engine1: koma_rules::Color) -> GameScore {
        match winner {
            None => GameScore::Draw,
            Some(winner) if winner == engine1 => GameScore::Win,
            Some(_) => GameScore::Loss,
        }
    }

    /// Points: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            GameScore::Win => 1.0,
            GameScore::Draw => 0.5,
            GameScore::Loss => 0.0,
        }
    }
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Engine 1's mean score, 0 to 1; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
    }

    /// (points, frequency) for loss, draw, win.
    fn frequencies(&self) -> Vec<(f64, f64)> {
        vec![
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
            (1.0, self.wins as f64),
        ]
    }

    fn distribution(&self) -> Distribution {
        Distribution::new(&self.frequencies())
    }

    /// Elo difference and its 95 % error bar, treating games as independent.
    pub fn estimate(&self) -> Option<Estimate> {
        self.distribution().estimate()
    }

    /// Likelihood of superiority: the probability that engine 1 is the
    /// stronger, from wins and losses (draws say nothing about it).
    pub fn likelihood_of_superiority(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

/// Game pairs (the same opening with colours swapped) by engine 1's points
/// in the pair: 0, ½, 1, 1½, 2. Pairs remove most of the noise that the
/// openings add, so their error bar is the honest one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a finished pair.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        let half_points = (first.points() * 2.0 + second.points() * 2.0) as usize;
        self.0[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// (points per game, frequency) for each kind of pair.
    fn frequencies(&self) -> Vec<(f64, f64)> {
        let points = [0.0, 0.25, 0.5, 0.75, 1.0];
        points.into_iter().zip(self.0.map(|n| n as f64)).collect()
    }

    fn distribution(&self) -> Distribution {
        Distribution::new(&self.frequencies())
    }

    /// Elo difference and its 95 % error bar from the pairs.
    pub fn estimate(&self) -> Option<Estimate> {
        self.distribution().estimate()
    }
}

/// A sample's mean and variance, each outcome's points weighted by its
/// frequency.
#[derive(Clone, Copy, Debug)]
struct Distribution {
    count: f64,
    mean: f64,
    variance: f64,
}

impl Distribution {
    fn new(frequencies: &[(f64, f64)]) -> Distribution {
        let count: f64 = frequencies.iter().map(|&(_, n)| n).sum();
        if count == 0.0 {
            return Distribution {
                count,
                mean: 0.5,
                variance: 0.0,
            };
        }
        let mean = frequencies.iter().map(|&(x, n)| x * n).sum::<f64>() / count;
        let variance = frequencies
            .iter()
            .map(|&(x, n)| n * (x - mean).powi(2))
            .sum::<f64>()
            / count;
        Distribution {
            count,
            mean,
            variance,
        }
    }

    fn estimate(&self) -> Option<Estimate> {
        if self.count == 0.0 {
            return None;
        }
        // One sample says nothing of the spread.
        let margin = if self.count < 2.0 {
            f64::INFINITY
        } else {
            Z_95 * (self.variance / self.count).sqrt()
        };
        let low = elo_from_score(self.mean - margin);
        let high = elo_from_score(self.mean + margin);
        Some(Estimate {
            score: self.mean,
            elo: elo_from_score(self.mean),
            error: (high - low) / 2.0,
        })
    }
}

/// An Elo difference with its 95 % error bar. At a score of 0 or 1 the
/// difference is infinite; `Display` says so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Engine 1's mean score, 0 to 1.
    pub score: f64,
    /// Engine 1's Elo advantage.
    pub elo: f64,
    /// Half the width of the 95 % interval (infinite or NaN when the
    /// interval reaches a score of 0 or 1).
    pub error: f64,
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elo.is_finite() {
            write!(f, "{:+.1}", self.elo)?;
        } else if self.elo > 0.0 {
            f.write_str("+inf")?;
        } else {
            f.write_str("-inf")?;
        }
        if self.error.is_finite() {
            write!(f, " ± {:.1}", self.error)
        } else {
            f.write_str(" ± inf")
        }
    }
}

/// The generalized SPRT's log-likelihood ratio (Michel Van den Bergh's,
/// as fishtest computes it): the results' distribution is fitted by maximum
/// likelihood under each hypothesis' mean score `s0` and `s1`, and the
/// ratio of the two likelihoods taken. Outcomes never seen count as seen a
/// thousandth of a time, so that a run of wins alone can conclude.
fn generalized_llr(frequencies: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let count: f64 = frequencies.iter().map(|&(_, n)| n).sum();
    if count == 0.0 {
        return 0.0;
    }
    let regularized: Vec<(f64, f64)> = frequencies
        .iter()
        .map(|&(x, n)| (x, if n == 0.0 { 1e-3 } else { n }))
        .collect();
    let total: f64 = regularized.iter().map(|&(_, n)| n).sum();
    let sample: Vec<(f64, f64)> = regularized.iter().map(|&(x, n)| (x, n / total)).collect();
    // Under mean `s` the fitted probabilities are p / (1 + λ(x − s)), with
    // λ the root of Σ p (x − s) / (1 + λ(x − s)) = 0, which decreases in λ
    // over the interval where every denominator is positive.
    let multiplier = |s: f64| {
        let spread = |(x, _): &(f64, f64)| x - s;
        let high = sample.iter().map(spread).fold(f64::NEG_INFINITY, f64::max);
        let low = sample.iter().map(spread).fold(f64::INFINITY, f64::min);
        let (mut below, mut above) = (-1.0 / high, -1.0 / low);
        for _ in 0..100 {
            let middle = (below + above) / 2.0;
            let value: f64 = sample
                .iter()
                .map(|&(x, p)| p * (x - s) / (1.0 + middle * (x - s)))
                .sum();
            if value > 0.0 {
                below = middle;
            } else {
                above = middle;
            }
        }
        (below + above) / 2.0
    };
    let (lambda0, lambda1) = (multiplier(s0), multiplier(s1));
    count
        * sample
            .iter()
            .map(|&(x, p)| p * ((1.0 + lambda0 * (x - s0)).ln() - (1.0 + lambda1 * (x - s1)).ln()))
            .sum::<f64>()
}

/// The Elo difference that gives `score` (0 to 1) in the logistic model.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    // Written so that an even score gives +0, not -0.
    400.0 * (score / (1.0 - score)).log10()
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to 1.2e-7 (Numerical Recipes' `erfc` by Chebyshev
/// fitting): plenty for a percentage printed with one decimal.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let polynomial = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let complement = t * polynomial.exp();
    if x >= 0.0 {
        1.0 - complement
    } else {
        complement - 1.0
    }
}

/// A sequential probability ratio test: is engine 1 `elo1` stronger (H1)
/// rather than `elo0` (H0)? It stops a match once the evidence crosses a
/// bound, at the error rates `alpha` (accepting H1 wrongly) and `beta`
/// (accepting H0 wrongly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What an SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound crossed: play on.
    Continue,
    /// The lower bound crossed: H0 (`elo0`) accepted.
    AcceptH0,
    /// The upper bound crossed: H1 (`elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any order; missing
    /// alpha and beta are 0.05).
    pub fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word.split_once('=').ok_or_else(|| SprtError::NotKeyValue {
                word: word.to_owned(),
            })?;
            let number: f64 = value.parse().map_err(|_| SprtError::NotANumber {
                key: key.to_owned(),
                value: value.to_owned(),
            })?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => {
                    return Err(SprtError::UnknownKey {
                        key: key.to_owned(),
                    })
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err(SprtError::MissingElo);
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(SprtError::EloOrder);
        }
        let rate = 0.0..0.5;
        if !rate.contains(&sprt.alpha)
            || !rate.contains(&sprt.beta)
            || sprt.alpha == 0.0
            || sprt.beta == 0.0
        {
            return Err(SprtError::ErrorRate);
        }
        Ok(sprt)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 given game pairs when there
    /// are any, else single games.
    pub fn llr(&self, tally: &Tally, pairs: &Pentanomial) -> f64 {
        let frequencies = if pairs.pairs() > 0 {
            pairs.frequencies()
        } else {
            tally.frequencies()
        };
        generalized_llr(
            &frequencies,
            score_from_elo(self.elo0),
            score_from_elo(self.elo1),
        )
    }

    /// Whether `llr` crossed a bound.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(elo_from_score(0.6), 70.4365, 1e-3));
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        assert!(close(score_from_elo(70.4365), 0.6, 1e-6));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn error_function_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265, 2e-7));
    }

    /// 50 wins, 30 losses, 20 draws: a 60 % score. The values are those of
    /// cutechess-cli's formulas, worked out independently.
    #[test]
    fn trinomial_estimate_of_a_sixty_percent_score() {
        let tally = Tally {
            wins: 50,
            losses: 30,
            draws: 20,
        };
        let estimate = tally.estimate().unwrap();
        assert!(close(estimate.score, 0.6, 1e-12));
        assert!(close(estimate.elo, 70.44, 0.01));
        assert!(close(estimate.error, 62.59, 0.01));
        assert!(close(
            tally.likelihood_of_superiority().unwrap(),
            0.98733,
            1e-4
        ));
        assert_eq!(estimate.to_string(), "+70.4 ± 62.6");
    }

    #[test]
    fn pentanomial_estimate() {
        let pairs = Pentanomial([2, 5, 20, 15, 8]);
        let estimate = pairs.estimate().unwrap();
        assert!(close(estimate.score, 0.61, 1e-12));
        assert!(close(estimate.elo, 77.71, 0.01));
        assert!(close(estimate.error, 51.18, 0.01));
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let mut pairs = Pentanomial::default();
        pairs.add(GameScore::Win, GameScore::Win);
        pairs.add(GameScore::Win, GameScore::Loss);
        pairs.add(GameScore::Draw, GameScore::Loss);
        pairs.add(GameScore::Draw, GameScore::Win);
        assert_eq!(pairs.0, [0, 1, 1, 1, 1]);
    }

    #[test]
    fn sprt_log_likelihood_ratio() {
        let sprt = Sprt::parse(&["elo0=0 elo1=10".to_owned(), "alpha=0.05".to_owned()]).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_44, 1e-4));
        assert!(close(upper, 2.944_44, 1e-4));
        let tally = Tally {
            wins: 50,
            losses: 30,
            draws: 20,
        };
        let none = Pentanomial::default();
        // Worked out independently (Python, the same method).
        assert!(close(sprt.llr(&tally, &none), 0.66837, 1e-4));
        let pairs = Pentanomial([2, 5, 20, 15, 8]);
        assert!(close(sprt.llr(&tally, &pairs), 0.94762, 1e-4));
        let one_loss = Tally {
            losses: 1,
            ..Tally::default()
        };
        assert!(close(sprt.llr(&one_loss, &none), -0.02914, 1e-4));
        assert_eq!(sprt.decide(1.2), SprtDecision::Continue);
        assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
    }

    /// Shogi's network against the classical evaluation, 150 pairs: far
    /// above both hypotheses, where the normal approximation (LLR about 3.9)
    /// overstates the evidence. The exact value was found independently by
    /// maximising each hypothesis' constrained likelihood directly
    /// (coordinate search over the simplex, Python), not by its multiplier.
    #[test]
    fn sprt_far_above_both_hypotheses_is_not_the_normal_approximation() {
        let sprt = Sprt::parse(&["elo0=0 elo1=10".to_owned()]).unwrap();
        let pairs = Pentanomial([13, 0, 67, 0, 70]);
        let llr = sprt.llr(&Tally::default(), &pairs);
        assert!(close(llr, 2.875_35, 1e-4), "{llr}");
        assert_eq!(sprt.decide(llr), SprtDecision::Continue);
    }

    #[test]
    fn sprt_concludes_on_wins_alone() {
        let sprt = Sprt::parse(&["elo0=0 elo1=10".to_owned()]).unwrap();
        let mut pairs = Pentanomial::default();
        let tally = Tally {
            wins: 4,
            ..Tally::default()
        };
        pairs.add(GameScore::Win, GameScore::Win);
        pairs.add(GameScore::Win, GameScore::Win);
        // Two pairs won are not yet enough; two hundred are.
        assert!(close(sprt.llr(&tally, &pairs), 0.05668, 1e-4));
        assert_eq!(
            sprt.decide(sprt.llr(&tally, &pairs)),
            SprtDecision::Continue
        );
        let many = Pentanomial([0, 0, 0, 0, 200]);
        assert!(close(sprt.llr(&tally, &many), 5.67357, 1e-3));
        assert_eq!(sprt.decide(sprt.llr(&tally, &many)), SprtDecision::AcceptH1);
        assert_eq!(sprt.llr(&Tally::default(), &Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_arguments_are_checked() {
        let words = |text: &str| vec![text.to_owned()];
        assert_eq!(Sprt::parse(&words("elo0=0")), Err(SprtError::MissingElo));
        assert_eq!(
            Sprt::parse(&words("elo0=5 elo1=0")),
            Err(SprtError::EloOrder)
        );
        assert_eq!(
            Sprt::parse(&words("elo0=0 elo1=5 alpha=0.7")),
            Err(SprtError::ErrorRate)
        );
        assert!(matches!(
            Sprt::parse(&words("elo0=0 elo1=5 gamma=1")),
            Err(SprtError::UnknownKey { key }) if key == "gamma"
        ));
        let not_a_number = Sprt::parse(&words("elo0=0 elo1=x")).unwrap_err();
        assert!(matches!(not_a_number, SprtError::NotANumber { .. }));
        assert_eq!(
            not_a_number.to_string(),
            "--sprt: elo1 must be a number, not \"x\""
        );
    }

    #[test]
    fn an_empty_match_has_no_estimate() {
        assert_eq!(Tally::default().estimate(), None);
        assert_eq!(Tally::default().likelihood_of_superiority(), None);
        assert_eq!(Pentanomial::default().estimate(), None);
        let one_pair = Pentanomial([1, 0, 0, 0, 0]).estimate().unwrap();
        assert!(one_pair.error.is_infinite(), "{one_pair}");
    }
}
