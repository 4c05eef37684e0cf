//! `koma check --db PATH`: checks a games file of `koma serve` without
//! changing it, as fsck checks a file system (issue 53). The work is
//! `koma_server::sqlite_check`'s; this prints its report.

use crate::thousands::thousands;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use koma_server::sqlite_check::{self, Progress, Report};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

/// How long the check runs before a progress bar appears (on a terminal).
const QUIET_FOR: Duration = Duration::from_millis(500);

/// Options of `koma check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The games file (as `koma serve --db`); opened read-only.
    #[arg(long)]
    db: PathBuf,
}

/// Checks the file; an error (exit code 1) when anything is damaged or it
/// cannot be checked.
pub fn run(args: CheckArgs) -> Result<(), String> {
    let path = &args.db;
    if path
        .to_str()
        .is_some_and(|t| t.starts_with("postgres://") || t.starts_with("postgresql://"))
    {
        return Err("koma check reads a SQLite games file; PostgreSQL checks its own pages".into());
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    let (done, finished) = mpsc::channel::<()>();
    if std::io::stderr().is_terminal() {
        // Shown only when the check takes more than a moment.
        let shown = bar.clone();
        std::thread::spawn(move || {
            if finished.recv_timeout(QUIET_FOR) == Err(mpsc::RecvTimeoutError::Timeout) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
    }
    let told = bar.clone();
    let mut progress = move |p: Progress| match p {
        Progress::Integrity => {
            told.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} SQLite's integrity check")
                    .expect("valid template"),
            );
        }
        Progress::Games { done, total } => {
            if told.length() != Some(total) {
                told.set_style(
                    ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} games, {elapsed} (eta {eta})",
                    )
                    .expect("valid template"),
                );
                told.set_length(total);
            }
            told.set_position(done);
        }
    };
    let checked = sqlite_check::check(path, &mut progress);
    let _ = done.send(());
    bar.finish_and_clear();
    let report = checked.map_err(|e| e.to_string())?;
    print!("{}", describe(&path.display().to_string(), &report));
    if report.is_whole() {
        Ok(())
    } else {
        Err(format!(
            "{} is damaged: {}",
            path.display(),
            summary(&report)
        ))
    }
}

/// The report for people: what is wrong with the file, each damaged game
/// with why, notes, then one line that sums it up.
fn describe(shown: &str, report: &Report) -> String {
    let mut text = String::new();
    for problem in &report.problems {
        text.push_str(&format!("{shown}: {problem}\n"));
    }
    for damaged in &report.damaged {
        text.push_str(&format!(
            "game {} is damaged: {}\n",
            damaged.game, damaged.why
        ));
    }
    for note in &report.notes {
        text.push_str(&format!("{shown}: {note}\n"));
    }
    let state = if report.is_whole() {
        "whole"
    } else {
        "damaged"
    };
    text.push_str(&format!("{shown}: {state}: {}\n", summary(report)));
    text
}

/// `1,200 games, 1 damaged; 2 problems with the file; schema 6`.
fn summary(report: &Report) -> String {
    let plural = |n: u64, one: &str, many: &str| {
        format!("{} {}", thousands(n), if n == 1 { one } else { many })
    };
    let mut parts = vec![format!(
        "{}, {} damaged",
        plural(report.games, "game", "games"),
        thousands(report.damaged.len() as u64)
    )];
    if !report.problems.is_empty() {
        parts.push(plural(
            report.problems.len() as u64,
            "problem with the file",
            "problems with the file",
        ));
    }
    if let Some(schema) = report.schema {
        parts.push(format!("schema {schema}"));
    }
    parts.join("; ")
}
