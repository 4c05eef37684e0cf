//! `koma mate --suite FILE [--against ENGINE]`: solves every problem of a
//! suite, checks the answers, and with `--against` asks another USI mate
//! solver the same problems in the same run, one after the other, so that
//! their times compare on one machine under one load.

use crate::thousands::thousands;
use indicatif::{ProgressBar, ProgressStyle};
use koma_mate::suite::{counted_length, parse_suite, Expected, SuiteProblem};
use koma_mate::{MateAnswer, MateLimits, MateReport, Solver};
use koma_rules::{Minishogi, Position, Shogi, ShogiPosition, ShogiVariant, Variant};
use koma_usi::client::{Engine, EngineConfig, MateReply};
use std::io::IsTerminal;
use std::time::Duration;

/// How long a problem may take when `--time` is not given.
const DEFAULT_TIME: Duration = Duration::from_secs(60);

/// What a suite's mate lengths are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Labels {
    /// The shortest mates (a problem collection's answers): only a mate of
    /// that length, proven the shortest, is right.
    Shortest,
    /// Mates found by another solver (an oracle's set), which may be
    /// longer than the shortest: a mate no longer is right.
    UpperBounds,
}

impl Labels {
    /// Whether a mate of `length`, proven the shortest, answers a label of
    /// `label` plies.
    fn accept(self, length: usize, label: u16) -> bool {
        match self {
            Labels::Shortest => length == usize::from(label),
            Labels::UpperBounds => length <= usize::from(label),
        }
    }
}

/// One solver's results over the suite.
#[derive(Default)]
struct Tally {
    right: usize,
    wrong: Vec<String>,
    other_length: Vec<String>,
    /// Mates found whose shortening the time cut off (an oracle's set).
    not_shortest: Vec<String>,
    unsolved: Vec<usize>,
    time: Duration,
    nodes: u64,
    /// Time over the problems both solvers solved.
    time_on_common: Duration,
}

/// How one solver did on one problem.
enum Verdict {
    Right,
    Wrong(String),
    /// A mate, but of another length than the suite's: for another
    /// solver, whose conventions may differ (one that counts useless
    /// interpositions shows them as the longest defence).
    OtherLength(String),
    /// A mate, right as far as it goes, but not proven the shortest: the
    /// limits ran out while shortening it (counted so with an oracle's
    /// set, whose lengths cannot say whether a shorter one exists).
    NotShortest(String),
    Unsolved,
}

/// Runs the suite in `path` with `limits` per problem, its lengths read as
/// `labels` says.
pub fn run(
    path: &str,
    limits: &MateLimits,
    against: Option<&str>,
    labels: Labels,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let problems = parse_suite(&text).map_err(|e| format!("{path}: {e}"))?;
    if problems.is_empty() {
        return Err(format!("{path}: no problems"));
    }
    let limits = MateLimits {
        time: Some(limits.time.unwrap_or(DEFAULT_TIME)),
        ..*limits
    };
    let mut peer = match against {
        Some(words) => Some(start_peer(words, limits.table_megabytes)?),
        None => None,
    };
    let bar = progress_bar(problems.len());
    let mut solver = Solver::new(limits.table_megabytes);
    let (mut ours, mut theirs) = (Tally::default(), Tally::default());
    for problem in &problems {
        let (verdict, time, nodes) = solve_ours(&mut solver, problem, &limits, labels)?;
        ours.time += time;
        ours.nodes += nodes;
        let ours_solved = !matches!(verdict, Verdict::Unsolved);
        record(&mut ours, problem, verdict);
        if let Some((engine, _)) = peer.as_mut() {
            let (verdict, peer_time, nodes) = solve_theirs(engine, problem, &limits, labels)?;
            theirs.time += peer_time;
            theirs.nodes += nodes;
            if ours_solved && !matches!(verdict, Verdict::Unsolved) {
                ours.time_on_common += time;
                theirs.time_on_common += peer_time;
            }
            record(&mut theirs, problem, verdict);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mates = problems
        .iter()
        .filter(|p| matches!(p.expected, Expected::Mate(_)))
        .count();
    let labelled = match labels {
        Labels::Shortest => "",
        Labels::UpperBounds => ", lengths at most the labels'",
    };
    println!(
        "{path}: {} problems ({mates} mates, {} without{labelled}), at most {:.0} s each",
        problems.len(),
        problems.len() - mates,
        limits.time.unwrap_or(DEFAULT_TIME).as_secs_f64()
    );
    print_tally("koma", &ours, problems.len());
    if let Some((engine, name)) = peer {
        print_tally(&name, &theirs, problems.len());
        let ratio =
            ours.time_on_common.as_secs_f64() / theirs.time_on_common.as_secs_f64().max(1e-9);
        println!("time on the problems both solved, koma / {name}: {ratio:.2}");
        engine.quit();
    }
    if ours.wrong.is_empty() && ours.unsolved.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "koma got {} wrong and left {} unsolved",
            ours.wrong.len(),
            ours.unsolved.len()
        ))
    }
}

fn progress_bar(length: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(length as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} problems, {elapsed}")
            .expect("valid template"),
    );
    bar
}

/// Starts the engine of `--against`, its table as big as ours.
fn start_peer(words: &str, megabytes: usize) -> Result<(Engine, String), String> {
    let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
    let mut config = EngineConfig::parse(&words).map_err(|e| e.to_string())?;
    if !config.options.iter().any(|(name, _)| name == "USI_Hash") {
        config
            .options
            .push(("USI_Hash".to_owned(), megabytes.to_string()));
    }
    let engine = Engine::start(&config, Variant::Shogi, "peer", None).map_err(|e| e.to_string())?;
    let name = config
        .name
        .clone()
        .or_else(|| engine.id_name.clone())
        .unwrap_or_else(|| config.program.clone());
    Ok((engine, name))
}

fn record(tally: &mut Tally, problem: &SuiteProblem, verdict: Verdict) {
    match verdict {
        Verdict::Right => tally.right += 1,
        Verdict::Wrong(why) => tally.wrong.push(format!("line {}: {why}", problem.line)),
        Verdict::OtherLength(why) => tally
            .other_length
            .push(format!("line {}: {why}", problem.line)),
        Verdict::NotShortest(why) => tally
            .not_shortest
            .push(format!("line {}: {why}", problem.line)),
        Verdict::Unsolved => tally.unsolved.push(problem.line),
    }
}

fn print_tally(name: &str, tally: &Tally, problems: usize) {
    let seconds = tally.time.as_secs_f64();
    let other_length = match tally.other_length.len() {
        0 => String::new(),
        n => format!(" ({n} more with a mate of another length)"),
    };
    let not_shortest = match tally.not_shortest.len() {
        0 => String::new(),
        n => format!(" ({n} more mates found, not proven the shortest)"),
    };
    println!(
        "{name}: {} right{other_length}{not_shortest}, {} wrong, {} unsolved ({:.1} %); \
         {seconds:.2} s, {} nodes, {} nodes/s",
        tally.right,
        tally.wrong.len(),
        tally.unsolved.len(),
        100.0 * tally.unsolved.len() as f64 / problems.max(1) as f64,
        thousands(tally.nodes),
        thousands((tally.nodes as f64 / seconds.max(1e-9)) as u64)
    );
    for wrong in &tally.wrong {
        println!("  wrong: {wrong}");
    }
    for other in &tally.other_length {
        println!("  another length: {other}");
    }
    for found in &tally.not_shortest {
        println!("  not proven the shortest: {found}");
    }
    if !tally.unsolved.is_empty() {
        let lines: Vec<String> = tally.unsolved.iter().map(usize::to_string).collect();
        println!("  unsolved: lines {}", lines.join(", "));
    }
}

/// Koma's answer to one problem: the verdict, the time and the nodes.
fn solve_ours(
    solver: &mut Solver,
    problem: &SuiteProblem,
    limits: &MateLimits,
    labels: Labels,
) -> Result<(Verdict, Duration, u64), String> {
    fn solve<V: ShogiVariant>(
        solver: &mut Solver,
        position: &ShogiPosition<V>,
        expected: Expected,
        limits: &MateLimits,
        labels: Labels,
    ) -> (Verdict, Duration, u64) {
        solver.clear();
        let report = solver.solve(position, limits, None, None);
        let verdict = judge(&report, expected, labels);
        (verdict, report.elapsed, report.nodes)
    }
    let sfen = problem.sfen.as_str();
    if let Ok(position) = ShogiPosition::<Shogi>::from_text(sfen) {
        Ok(solve(solver, &position, problem.expected, limits, labels))
    } else if let Ok(position) = ShogiPosition::<Minishogi>::from_text(sfen) {
        Ok(solve(solver, &position, problem.expected, limits, labels))
    } else {
        Err(format!("line {}: not a shogi SFEN: {sfen}", problem.line))
    }
}

/// Koma's verdict on one problem from its report, the suite's lengths read
/// as `labels` says.
fn judge(report: &MateReport, expected: Expected, labels: Labels) -> Verdict {
    match (&report.answer, expected) {
        (MateAnswer::Unknown, _) => Verdict::Unsolved,
        (MateAnswer::Mate(_), Expected::Mate(n))
            if report.shortest && labels.accept(usize::from(report.length), n) =>
        {
            Verdict::Right
        }
        (MateAnswer::Mate(_), Expected::Mate(n)) if labels == Labels::UpperBounds => {
            if report.shortest {
                Verdict::Wrong(format!(
                    "mate in {} proven the shortest, but the label's line has {n}",
                    report.length
                ))
            } else {
                Verdict::NotShortest(format!("mate in at most {}, label {n}", report.length))
            }
        }
        (MateAnswer::NoMate, Expected::NoMate) => Verdict::Right,
        (MateAnswer::Mate(_), _) => Verdict::Wrong(format!(
            "mate in {}{}, expected {expected:?}",
            report.length,
            if report.shortest {
                ""
            } else {
                " (not shortest)"
            }
        )),
        (MateAnswer::NoMate, _) => Verdict::Wrong(format!("no mate, expected {expected:?}")),
    }
}

/// The other engine's answer to one problem, its line checked with Koma's
/// rules and its length counted as Koma counts it.
fn solve_theirs(
    engine: &mut Engine,
    problem: &SuiteProblem,
    limits: &MateLimits,
    labels: Labels,
) -> Result<(Verdict, Duration, u64), String> {
    let failed = |e| format!("the other engine, line {}: {e:?}", problem.line);
    engine.new_game().map_err(failed)?;
    let limit = limits.time.unwrap_or(DEFAULT_TIME);
    let thought = engine
        .solve_mate(
            &format!("position sfen {}", problem.sfen),
            Some(limit),
            limit + Duration::from_secs(5),
        )
        .map_err(failed)?;
    let position = ShogiPosition::<Shogi>::from_text(&problem.sfen)
        .map_err(|e| format!("line {}: {e}", problem.line))?;
    let verdict = match (thought.reply, problem.expected) {
        (MateReply::Timeout | MateReply::NotImplemented, _) => Verdict::Unsolved,
        (MateReply::NoMate, Expected::NoMate) => Verdict::Right,
        (MateReply::NoMate, expected) => Verdict::Wrong(format!("no mate, expected {expected:?}")),
        (MateReply::Mate(moves), expected) => {
            let line: Option<Vec<_>> = moves
                .iter()
                .map(|m| ShogiPosition::<Shogi>::parse_move_syntax(m).ok())
                .collect();
            match line {
                Some(line) if koma_mate::is_mate_line(&position, &line) => {
                    let length = counted_length(&position, &line);
                    let right = match expected {
                        Expected::Mate(n) => labels.accept(length, n),
                        Expected::NoMate => false,
                    };
                    if right {
                        Verdict::Right
                    } else if expected == Expected::NoMate {
                        Verdict::Wrong(format!("a mate, expected none: {}", moves.join(" ")))
                    } else {
                        Verdict::OtherLength(format!(
                            "mate in {} plies, {length} counted, expected {expected:?}: {}",
                            line.len(),
                            moves.join(" ")
                        ))
                    }
                }
                _ => Verdict::Wrong(format!("not a mate line: {}", moves.join(" "))),
            }
        }
    };
    Ok((verdict, thought.elapsed, thought.nodes.unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(answer: MateAnswer, length: u16, shortest: bool) -> MateReport {
        MateReport {
            answer,
            length,
            shortest,
            nodes: 0,
            elapsed: Duration::ZERO,
        }
    }

    fn mate(length: u16, shortest: bool) -> MateReport {
        report(MateAnswer::Mate(Vec::new()), length, shortest)
    }

    #[test]
    fn a_problem_collection_wants_the_shortest_mate_and_its_length() {
        let shortest = Labels::Shortest;
        assert!(matches!(
            judge(&mate(7, true), Expected::Mate(7), shortest),
            Verdict::Right
        ));
        for found in [mate(5, true), mate(9, true), mate(7, false)] {
            assert!(matches!(
                judge(&found, Expected::Mate(7), shortest),
                Verdict::Wrong(_)
            ));
        }
    }

    #[test]
    fn an_oracles_lengths_are_upper_bounds() {
        let oracle = Labels::UpperBounds;
        for right in [mate(7, true), mate(5, true)] {
            assert!(matches!(
                judge(&right, Expected::Mate(7), oracle),
                Verdict::Right
            ));
        }
        match judge(&mate(9, true), Expected::Mate(7), oracle) {
            Verdict::Wrong(why) => assert!(why.contains("the label's line has 7"), "{why}"),
            _ => panic!("a proven shortest mate longer than the oracle's line is wrong"),
        }
        // A mate whose shortening the time cut off is neither right nor wrong.
        for cut in [mate(5, false), mate(11, false)] {
            assert!(matches!(
                judge(&cut, Expected::Mate(7), oracle),
                Verdict::NotShortest(_)
            ));
        }
    }

    #[test]
    fn false_answers_and_unknowns_are_told_whatever_the_labels() {
        for labels in [Labels::Shortest, Labels::UpperBounds] {
            assert!(matches!(
                judge(&mate(3, true), Expected::NoMate, labels),
                Verdict::Wrong(_)
            ));
            let none = report(MateAnswer::NoMate, 0, false);
            assert!(matches!(
                judge(&none, Expected::Mate(3), labels),
                Verdict::Wrong(_)
            ));
            assert!(matches!(
                judge(&none, Expected::NoMate, labels),
                Verdict::Right
            ));
            let unknown = report(MateAnswer::Unknown, 0, false);
            assert!(matches!(
                judge(&unknown, Expected::Mate(3), labels),
                Verdict::Unsolved
            ));
        }
    }
}
