//! What a hostile run shows: for each attack, what the server did and
//! whether it held, as a table for people or as JSON for scripts; and a
//! progress line on a terminal while it runs.

use serde_json::{json, Map, Value};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Whether the server held against an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It did what its limits promise.
    Held,
    /// It did not: the run fails.
    NotHeld,
    /// The run ended before the server's limit could be seen (its time,
    /// `--hostile-seconds`, was shorter): neither held nor failed.
    NotReached,
}

impl Verdict {
    /// The verdict's words in the reports.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::NotHeld => "NOT HELD",
            Verdict::NotReached => "not reached",
        }
    }

    /// Held when `held`, else not.
    pub fn of(held: bool) -> Verdict {
        if held {
            Verdict::Held
        } else {
            Verdict::NotHeld
        }
    }
}

/// One attack's result.
#[derive(Debug)]
pub struct Check {
    /// The attack's name in JSON (`slowloris`, `flood`, …).
    pub attack: &'static str,
    /// The attack for people: what the tool did.
    pub label: String,
    /// Whether the server held.
    pub verdict: Verdict,
    /// What the server did, in one sentence.
    pub result: String,
    /// The figures behind the sentence, for scripts.
    pub figures: Map<String, Value>,
}

impl Check {
    /// A check of `attack` with no figures yet.
    pub fn new(
        attack: &'static str,
        label: impl Into<String>,
        verdict: Verdict,
        result: impl Into<String>,
    ) -> Check {
        Check {
            attack,
            label: label.into(),
            verdict,
            result: result.into(),
            figures: Map::new(),
        }
    }

    /// Adds the figure `name`.
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Check {
        self.figures.insert(name.into(), value.into());
        self
    }
}

/// A finished hostile run.
#[derive(Debug)]
pub struct HostileReport {
    /// The server.
    pub url: String,
    /// From the first attack to the last result.
    pub elapsed: Duration,
    /// Each attack's result, in the order they are listed.
    pub checks: Vec<Check>,
}

impl HostileReport {
    /// The attacks the server did not hold against.
    pub fn failed(&self) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|check| check.verdict == Verdict::NotHeld)
            .map(|check| check.attack)
            .collect()
    }

    /// The report as JSON: `held` is true when no attack failed.
    pub fn json(&self) -> Value {
        let checks: Vec<Value> = self
            .checks
            .iter()
            .map(|check| {
                let mut entry = Map::new();
                entry.insert("attack".into(), check.attack.into());
                entry.insert(
                    "verdict".into(),
                    check.verdict.word().to_ascii_lowercase().into(),
                );
                entry.insert("held".into(), (check.verdict == Verdict::Held).into());
                entry.insert("result".into(), check.result.clone().into());
                entry.extend(check.figures.clone());
                Value::Object(entry)
            })
            .collect();
        json!({
            "url": self.url,
            "attacker": super::net::ATTACKER.to_string(),
            "innocent": super::net::INNOCENT.to_string(),
            "slow": super::net::SLOW.to_string(),
            "durationSeconds": round1(self.elapsed.as_secs_f64()),
            "held": self.failed().is_empty(),
            "checks": checks,
        })
    }

    /// The report as a table for people.
    pub fn table(&self) -> String {
        let mut out = format!(
            "Hostile clients against {} (attacker {}, innocent {}, slow connections {}), {:.0} s\n",
            self.url,
            super::net::ATTACKER,
            super::net::INNOCENT,
            super::net::SLOW,
            self.elapsed.as_secs_f64()
        );
        let width = self
            .checks
            .iter()
            .map(|c| c.label.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        out += &format!(
            "{:<width$}  {:<11}  what the server did\n",
            "attack", "verdict"
        );
        for check in &self.checks {
            out += &format!(
                "{:<width$}  {:<11}  {}\n",
                check.label,
                check.verdict.word(),
                check.result
            );
        }
        let failed = self.failed();
        let reached = self
            .checks
            .iter()
            .filter(|c| c.verdict != Verdict::NotReached)
            .count();
        out += &match failed.len() {
            0 => format!("held against all {reached} attacks whose limits were reached\n"),
            n => format!("NOT HELD against {n} of {reached}: {}\n", failed.join(", ")),
        };
        out
    }
}

/// `value` to one decimal.
pub fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// `value` to three decimals.
pub fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// A line on standard error saying which attack runs, when that is a
/// terminal; nothing in a pipe.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
}

impl Progress {
    /// A progress line for a run that starts now.
    pub fn new() -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
        }
    }

    /// Says that `attack` runs now.
    pub fn show(&self, attack: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{:>4.0} s  {attack}",
                self.start.elapsed().as_secs_f64()
            ));
        }
    }

    /// Clears the line before the report is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> HostileReport {
        HostileReport {
            url: "http://127.0.0.1:1/".into(),
            elapsed: Duration::from_millis(61_240),
            checks: vec![
                Check::new(
                    "slowloris",
                    "slowloris, 3 connections",
                    Verdict::Held,
                    "closed after 20.0 s",
                )
                .with("closedAfterSeconds", 20.0),
                Check::new(
                    "wsTooLarge",
                    "frame over 1 MiB",
                    Verdict::NotHeld,
                    "closed without a Close frame",
                ),
                Check::new(
                    "wsIgnoredPings",
                    "pings never answered",
                    Verdict::NotReached,
                    "still open after 5.0 s",
                ),
            ],
        }
    }

    #[test]
    fn the_json_names_each_attack_and_its_figures() {
        let json = report().json();
        assert_eq!(json["held"], false);
        assert_eq!(json["durationSeconds"], 61.2);
        assert_eq!(json["innocent"], "127.0.0.2");
        let checks = json["checks"].as_array().unwrap();
        assert_eq!(checks.len(), 3);
        assert_eq!(checks[0]["attack"], "slowloris");
        assert_eq!(checks[0]["verdict"], "held");
        assert_eq!(checks[0]["held"], true);
        assert_eq!(checks[0]["closedAfterSeconds"], 20.0);
        assert_eq!(checks[1]["verdict"], "not held");
        assert_eq!(checks[1]["held"], false);
        assert_eq!(checks[2]["verdict"], "not reached");
        assert_eq!(checks[2]["held"], false);
    }

    #[test]
    fn the_table_says_what_did_not_hold() {
        let report = report();
        assert_eq!(report.failed(), ["wsTooLarge"]);
        let table = report.table();
        assert!(
            table.contains("slowloris, 3 connections  held         closed after 20.0 s"),
            "{table}"
        );
        assert!(
            table.contains("NOT HELD     closed without a Close frame"),
            "{table}"
        );
        assert!(
            table.ends_with("NOT HELD against 1 of 2: wsTooLarge\n"),
            "{table}"
        );
        let all_held = HostileReport {
            checks: report
                .checks
                .into_iter()
                .filter(|c| c.verdict != Verdict::NotHeld)
                .collect(),
            ..report
        };
        assert!(all_held.failed().is_empty());
        assert!(all_held
            .table()
            .ends_with("held against all 1 attacks whose limits were reached\n"));
        assert_eq!(all_held.json()["held"], true);
    }
}
