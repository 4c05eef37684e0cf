//! The match's standing as games finish, and the final result as text or
//! JSON.

use super::stats::{GameScore, Pentanomial, Sprt, SprtDecision, Tally};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Duration;

/// Everything counted so far.
#[derive(Clone, Debug)]
pub struct Standing {
    /// Engine 1's name.
    pub engine1: String,
    /// Engine 2's name.
    pub engine2: String,
    /// Engine 1's wins, losses and draws.
    pub tally: Tally,
    /// Finished pairs.
    pub pairs: Pentanomial,
    /// The first game of each pair whose second game is still to come.
    unpaired: HashMap<usize, GameScore>,
    /// How many games ended each way.
    pub endings: BTreeMap<String, u64>,
    /// The SPRT, if one was asked for.
    pub sprt: Option<Sprt>,
}

impl Standing {
    /// An empty standing.
    pub fn new(engine1: String, engine2: String, sprt: Option<Sprt>) -> Standing {
        Standing {
            engine1,
            engine2,
            tally: Tally::default(),
            pairs: Pentanomial::default(),
            unpaired: HashMap::new(),
            endings: BTreeMap::new(),
            sprt,
        }
    }

    /// Counts a finished game of pair `pair`.
    pub fn add(&mut self, pair: usize, score: GameScore, ending: &str) {
        self.tally.add(score);
        *self.endings.entry(ending.to_owned()).or_default() += 1;
        match self.unpaired.remove(&pair) {
            Some(first) => self.pairs.add(first, score),
            None => {
                self.unpaired.insert(pair, score);
            }
        }
    }

    /// The SPRT's log-likelihood ratio and decision so far.
    pub fn sprt_state(&self) -> Option<(f64, SprtDecision)> {
        self.sprt.map(|sprt| {
            let llr = sprt.llr(&self.tally, &self.pairs);
            (llr, sprt.decide(llr))
        })
    }

    /// The SPRT's test and state, `SPRT (elo0 0, elo1 10, alpha 0.05, beta
    /// 0.05): LLR 1.20 [-2.94, 2.94], continue`, if one was asked for.
    pub fn sprt_line(&self) -> Option<String> {
        let (sprt, (llr, decision)) = (self.sprt?, self.sprt_state()?);
        let (lower, upper) = sprt.bounds();
        Some(format!(
            "SPRT (elo0 {}, elo1 {}, alpha {}, beta {}): LLR {llr:.2} [{lower:.2}, {upper:.2}], {decision}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ))
    }

    /// `W-L-D 4-3-3, Elo +34.9 ± 180.2` for the progress display.
    pub fn brief(&self) -> String {
        let t = &self.tally;
        let mut text = format!("W-L-D {}-{}-{}", t.wins, t.losses, t.draws);
        if let Some(estimate) = self.tally.estimate() {
            let _ = write!(text, ", Elo {estimate}");
        }
        if let Some((llr, _)) = self.sprt_state() {
            let _ = write!(text, ", LLR {llr:.2}");
        }
        text
    }

    /// The final result, as text.
    pub fn summary(&self) -> String {
        let t = &self.tally;
        let games = t.games();
        let mut out = String::new();
        let score = t.score().unwrap_or(0.5);
        let _ = writeln!(
            out,
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {games}",
            self.engine1, self.engine2, t.wins, t.losses, t.draws, score
        );
        if games == 0 {
            return out;
        }
        let _ = write!(out, "Games: {games}, score {:.1} %", score * 100.0);
        if let Some(estimate) = t.estimate() {
            let _ = write!(out, ", Elo difference {estimate} (95 %)");
        }
        if let Some(los) = t.likelihood_of_superiority() {
            let _ = write!(out, ", LOS {:.1} %", los * 100.0);
        }
        let _ = writeln!(
            out,
            ", draw ratio {:.1} %",
            t.draws as f64 * 100.0 / games as f64
        );
        if self.pairs.pairs() > 0 {
            let p = self.pairs.0;
            let _ = write!(
                out,
                "Pairs (0, 0.5, 1, 1.5, 2 points): [{}, {}, {}, {}, {}]",
                p[0], p[1], p[2], p[3], p[4]
            );
            if let Some(estimate) = self.pairs.estimate() {
                let _ = write!(out, ", Elo {estimate} (95 %)");
            }
            out.push('\n');
        }
        if let Some(line) = self.sprt_line() {
            let _ = writeln!(out, "{line}");
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(reason, count)| format!("{reason} {count}"))
            .collect();
        let _ = writeln!(out, "Endings: {}", endings.join(", "));
        out
    }

    /// The final result as one line of JSON.
    pub fn json(&self) -> String {
        let t = &self.tally;
        let estimate = t.estimate();
        let pairs = self.pairs.estimate();
        let mut fields = vec![
            format!("\"engine1\":{}", string(&self.engine1)),
            format!("\"engine2\":{}", string(&self.engine2)),
            format!("\"games\":{}", t.games()),
            format!("\"wins\":{}", t.wins),
            format!("\"losses\":{}", t.losses),
            format!("\"draws\":{}", t.draws),
            format!("\"score\":{}", number(t.score())),
            format!("\"elo\":{}", number(estimate.map(|e| e.elo))),
            format!("\"elo_error\":{}", number(estimate.map(|e| e.error))),
            format!("\"los\":{}", number(t.likelihood_of_superiority())),
            format!("\"pentanomial\":{:?}", self.pairs.0),
            format!("\"pair_elo\":{}", number(pairs.map(|e| e.elo))),
            format!("\"pair_elo_error\":{}", number(pairs.map(|e| e.error))),
        ];
        if let (Some(sprt), Some((llr, decision))) = (self.sprt, self.sprt_state()) {
            let (lower, upper) = sprt.bounds();
            fields.push(format!(
                "\"sprt\":{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{},\"lower\":{},\"upper\":{},\"result\":{}}}",
                number(Some(sprt.elo0)),
                number(Some(sprt.elo1)),
                number(Some(sprt.alpha)),
                number(Some(sprt.beta)),
                number(Some(llr)),
                number(Some(lower)),
                number(Some(upper)),
                string(&decision.to_string())
            ));
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(reason, count)| format!("{}:{count}", string(reason)))
            .collect();
        fields.push(format!("\"endings\":{{{}}}", endings.join(",")));
        format!("{{{}}}", fields.join(","))
    }
}

/// A JSON number; `null` for none, infinity or NaN (which JSON lacks).
fn number(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => {
            let rounded = (v * 10_000.0).round() / 10_000.0;
            format!("{rounded}")
        }
        _ => "null".to_owned(),
    }
}

/// A JSON string.
fn string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The display of finished games: a progress bar on a terminal, else one
/// line a game on standard error.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// A display for a match of `games` games.
    pub fn new(games: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(games);
            let style = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, {elapsed_precise} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        Progress { bar }
    }

    /// Shows a finished game's `line` and the `standing` after it.
    pub fn game(&self, line: &str, standing: &str) {
        self.resumed(1, line, standing);
    }

    /// Counts `games` played before a resumed match, saying so in `line`.
    pub fn resumed(&self, games: u64, line: &str, standing: &str) {
        match &self.bar {
            Some(bar) => {
                bar.println(line);
                bar.set_message(standing.to_owned());
                bar.inc(games);
            }
            None => eprintln!("{line}"),
        }
    }

    /// Clears the display before the result is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Termination;
    use koma_rules::EndReason;

    #[test]
    fn games_pair_up_and_summarise() {
        let sprt = Sprt::parse(&["elo0=0 elo1=10".to_owned()]).unwrap();
        let mut standing = Standing::new("A \"x\"".to_owned(), "B".to_owned(), Some(sprt));
        let king = Termination::Rules(EndReason::KingCaptured).key();
        standing.add(0, GameScore::Win, &king);
        standing.add(1, GameScore::Draw, &Termination::MaxPlies.key());
        standing.add(0, GameScore::Loss, &Termination::Timeout.key());
        standing.add(1, GameScore::Win, &king);
        assert_eq!(standing.pairs.0, [0, 0, 1, 1, 0]);
        assert_eq!(standing.tally.games(), 4);
        let summary = standing.summary();
        assert!(summary.contains("2 - 1 - 1  [0.625] 4"), "{summary}");
        assert!(summary.contains("king captured 2"), "{summary}");
        assert!(summary.contains("SPRT (elo0 0, elo1 10"), "{summary}");
        let json = standing.json();
        assert!(
            json.starts_with(
                "{\"engine1\":\"A \\\"x\\\"\",\"engine2\":\"B\",\"games\":4,\"wins\":2"
            ),
            "{json}"
        );
        assert!(json.contains("\"pentanomial\":[0, 0, 1, 1, 0]"), "{json}");
        assert!(json.contains("\"endings\":{\"king captured\":2,"), "{json}");
        assert!(
            standing.brief().starts_with("W-L-D 2-1-1, Elo +88.7"),
            "{}",
            standing.brief()
        );
    }

    #[test]
    fn json_numbers() {
        assert_eq!(number(None), "null");
        assert_eq!(number(Some(f64::INFINITY)), "null");
        assert_eq!(number(Some(1.234_567)), "1.2346");
        assert_eq!(string("a\u{1}"), "\"a\\u0001\"");
    }
}
