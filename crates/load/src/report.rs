//! What a run shows: a progress line on a terminal while it runs, and the
//! report at the end, as a table or as JSON.

use super::stats::{Counters, ErrorKind, Summary};
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The figures of a finished run.
#[derive(Debug)]
pub struct Report {
    /// The server.
    pub url: String,
    /// The game played.
    pub variant: &'static str,
    /// Games played at once.
    pub concurrent: u32,
    /// The random moves' seed.
    pub seed: u64,
    /// From the first game to the stop.
    pub elapsed: Duration,
    /// Whether the move cap (rather than the time) stopped the run.
    pub capped: bool,
    /// Games that ended or reached the move limit.
    pub games_completed: u64,
    /// Moves seen played by their mover.
    pub moves: u64,
    /// Latencies seen by the mover.
    pub mover: Summary,
    /// Latencies seen by the opponent.
    pub opponent: Summary,
    /// Errors by kind, in [`ErrorKind::ALL`]'s order.
    pub errors: Vec<(ErrorKind, u64)>,
    /// The first error's sentence.
    pub first_error: Option<String>,
}

impl Report {
    /// All errors.
    pub fn error_count(&self) -> u64 {
        self.errors.iter().map(|&(_, count)| count).sum()
    }

    fn per_second(&self, count: u64) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            count as f64 / seconds
        } else {
            0.0
        }
    }

    /// The report as JSON.
    pub fn json(&self) -> Value {
        let summary = |s: &Summary| json!({ "count": s.count, "median": s.median, "p90": s.p90, "p99": s.p99, "max": s.max });
        let mut errors = serde_json::Map::new();
        errors.insert("total".into(), self.error_count().into());
        for &(kind, count) in &self.errors {
            errors.insert(kind.word().into(), count.into());
        }
        errors.insert("first".into(), self.first_error.clone().into());
        json!({
            "url": self.url,
            "variant": self.variant,
            "concurrentGames": self.concurrent,
            "seed": self.seed,
            "durationSeconds": round3(self.elapsed.as_secs_f64()),
            "stoppedBy": if self.capped { "moves" } else { "duration" },
            "gamesCompleted": self.games_completed,
            "gamesPerSecond": round3(self.per_second(self.games_completed)),
            "moves": self.moves,
            "movesPerSecond": round3(self.per_second(self.moves)),
            "latencyMs": { "mover": summary(&self.mover), "opponent": summary(&self.opponent) },
            "errors": errors,
        })
    }

    /// The report as a table for people.
    pub fn table(&self) -> String {
        let stopped = if self.capped {
            "the move cap"
        } else {
            "the duration"
        };
        let ms = |value: Option<f64>| value.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"));
        let row = |name: &str, s: &Summary| {
            format!(
                "  {name:<10}{:>9}{:>9}{:>9}{:>9}{:>10}\n",
                ms(s.median),
                ms(s.p90),
                ms(s.p99),
                ms(s.max),
                s.count
            )
        };
        let mut out = format!(
            "Load of {} ({} games of {} at once, seed {})\n",
            self.url, self.concurrent, self.variant, self.seed
        );
        out += &format!(
            "duration         {:.1} s (stopped by {stopped})\n",
            self.elapsed.as_secs_f64()
        );
        out += &format!(
            "games completed  {} ({:.2}/s)\n",
            self.games_completed,
            self.per_second(self.games_completed)
        );
        out += &format!(
            "moves            {} ({:.1}/s)\n",
            self.moves,
            self.per_second(self.moves)
        );
        out += &format!(
            "latency (ms)  {:>9}{:>9}{:>9}{:>9}{:>10}\n",
            "median", "p90", "p99", "max", "moves"
        );
        out += &row("mover", &self.mover);
        out += &row("opponent", &self.opponent);
        let kinds: Vec<String> = self
            .errors
            .iter()
            .filter(|&&(_, count)| count > 0)
            .map(|&(kind, count)| format!("{} {count}", kind.word()))
            .collect();
        out += &format!("errors           {}", self.error_count());
        if !kinds.is_empty() {
            out += &format!(" ({})", kinds.join(", "));
        }
        out += "\n";
        if let Some(first) = &self.first_error {
            out += &format!("first error      {first}\n");
        }
        out
    }
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// A progress bar on standard error while the run goes on, when that is a
/// terminal; nothing in a pipe.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// A bar for a run of `seconds`.
    pub fn new(seconds: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(seconds);
            let style = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} s {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        });
        Progress { bar }
    }

    /// Shows the counts after `elapsed`.
    pub fn update(&self, elapsed: Duration, counters: &Counters) {
        if let Some(bar) = &self.bar {
            let seconds = elapsed.as_secs_f64().max(0.001);
            let moves = counters.moves.load(Ordering::Relaxed);
            bar.set_position(elapsed.as_secs());
            bar.set_message(format!(
                "{moves} moves ({:.0}/s), {} games, {} errors",
                moves as f64 / seconds,
                counters.games.load(Ordering::Relaxed),
                counters.errors()
            ));
        }
    }

    /// Clears the bar before the report is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_in_both_forms() {
        let report = Report {
            url: "http://127.0.0.1:1/".into(),
            variant: "spear",
            concurrent: 2,
            seed: 1,
            elapsed: Duration::from_secs(2),
            capped: false,
            games_completed: 3,
            moves: 100,
            mover: Summary::of(&mut [1000, 2000, 4000]),
            opponent: Summary::of(&mut []),
            errors: ErrorKind::ALL
                .iter()
                .map(|&kind| (kind, u64::from(kind == ErrorKind::TimedOut)))
                .collect(),
            first_error: Some("slow".into()),
        };
        let json = report.json();
        assert_eq!(json["movesPerSecond"], 50.0);
        assert_eq!(json["gamesPerSecond"], 1.5);
        assert_eq!(json["latencyMs"]["mover"]["median"], 2.0);
        assert_eq!(json["latencyMs"]["mover"]["max"], 4.0);
        assert!(json["latencyMs"]["opponent"]["median"].is_null());
        assert_eq!(json["errors"]["total"], 1);
        assert_eq!(json["errors"]["timedOut"], 1);
        assert_eq!(json["stoppedBy"], "duration");
        let table = report.table();
        assert!(table.contains("moves            100 (50.0/s)"), "{table}");
        assert!(table.contains("errors           1 (timedOut 1)"), "{table}");
    }
}
