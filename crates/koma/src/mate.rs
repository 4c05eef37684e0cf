//! `koma mate`: solves a mate problem (詰将棋) given as an SFEN or a record
//! file, and prints the solution in Japanese and in USI.

use crate::thousands::thousands;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use koma_mate::{MateAnswer, MateLimits, MateReport, Progress, Solver};
use koma_records::file::load;
use koma_records::kif::move_text;
use koma_rules::{
    parse_sfen_unchecked, with_shogi_game, Color, Minishogi, Position, SetupProblem, Shogi,
    ShogiPosition, ShogiVariant, Variant,
};
use std::io::IsTerminal;
use std::time::Duration;

/// Arguments of `koma mate`.
#[derive(Args)]
#[command(
    about = "Solve a mate problem: the shortest mate against the longest defence",
    long_about = "Solve a mate problem (tsume) for the side to move: the shortest mate \
        against the longest defence, useless interpositions not counted, uchifuzume illegal.\n\n\
        PROBLEM is an SFEN (`sfen …` or `position sfen …` too) or a record file (KIF, KI2, \
        CSA, USI), whose start position is solved: tsume records carry the problem there, and \
        CSA `P-00AL` or KIF's hands give the defender the remaining pieces.\n\n\
        Prints the solution in Japanese (KIF style) and in USI, its length, the nodes \
        searched and the time. The last line says `mate N`, `nomate` or `unknown`. N counts \
        as problems do, without useless interpositions; the line goes on to checkmate on \
        the board, each interposition the defender could still drop at the end played out \
        with its capture, so it may be longer than N. In Spear, kings are captured: the \
        mate ends with the capture."
)]
pub struct MateArgs {
    /// The problem: an SFEN, or a record file.
    #[arg(required_unless_present = "suite")]
    problem: Option<String>,
    /// Solve every problem of a suite file (`SFEN<TAB>mate N` or
    /// `SFEN<TAB>nomate` a line) and check the answers; --time is then per
    /// problem (default 60 s).
    #[arg(long, conflicts_with = "problem")]
    suite: Option<String>,
    /// With --suite: also ask this USI engine (`go mate`) in the same run,
    /// e.g. "cmd=/path/to/engine option.USI_Hash=512", and compare.
    #[arg(long, requires = "suite")]
    against: Option<String>,
    /// With --suite: the suite's lengths come from another solver (such as
    /// cshogi's df-pn) and may be longer than the shortest. A mate no
    /// longer than the label is right, a mate found but not proven the
    /// shortest is counted apart, and only a false mate or no-mate, or a
    /// "shortest" mate longer than the label, is wrong.
    #[arg(long, requires = "suite")]
    oracle: bool,
    /// The game of an SFEN (default: shogi for a 9×9 board, minishogi for 5×5).
    #[arg(long)]
    variant: Option<Variant>,
    /// Give up after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// The solver's table, in MiB: from 1 to the machine's memory.
    #[arg(long, default_value_t = 512, value_parser = parse_hash)]
    hash: usize,
}

/// The most `--hash` may ask for where the machine does not say its memory.
const MAX_HASH_UNKNOWN_MEMORY: u64 = 65_536;

/// Reads `--hash`: a whole number of MiB, at least 1 and at most the
/// machine's memory; anything else is refused with the range allowed.
fn parse_hash(text: &str) -> Result<usize, String> {
    let most = crate::machine::physical_memory().map_or(MAX_HASH_UNKNOWN_MEMORY, |b| b >> 20);
    let range = || format!("a table of 1 to {most} MiB (this machine's memory)");
    let megabytes: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a size in MiB: give {}", range()))?;
    if megabytes == 0 || megabytes > most {
        return Err(format!("{megabytes} MiB is out of range: give {}", range()));
    }
    usize::try_from(megabytes)
        .map_err(|_| format!("{megabytes} MiB is out of range: give {}", range()))
}

impl MateArgs {
    /// Whether the run starts another solver's process (`--against`).
    pub fn asks_another_engine(&self) -> bool {
        self.against.is_some()
    }
}

/// Runs `koma mate`.
pub fn run(args: MateArgs) -> Result<(), String> {
    let limits = MateLimits {
        time: match args.time {
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                Some(Duration::from_secs_f64(seconds.min(1e9)))
            }
            Some(_) => return Err("--time needs a positive number of seconds".into()),
            None => None,
        },
        nodes: None,
        table_megabytes: args.hash,
        short_first: true,
    };
    if let Some(suite) = &args.suite {
        let labels = if args.oracle {
            crate::mate_suite::Labels::UpperBounds
        } else {
            crate::mate_suite::Labels::Shortest
        };
        return crate::mate_suite::run(suite, &limits, args.against.as_deref(), labels);
    }
    solve_problem(
        args.problem.as_deref().unwrap_or_default(),
        args.variant,
        &limits,
    )
}

/// Solves `text`: a record file if one is there, else an SFEN. A word with
/// no space that names no file is taken for a missing file (an SFEN has
/// three fields or four).
fn solve_problem(text: &str, variant: Option<Variant>, limits: &MateLimits) -> Result<(), String> {
    let path = std::path::Path::new(text);
    if path.is_file() {
        return solve_record(text, variant, limits);
    }
    if path.is_dir() {
        return Err(format!("{text}: a folder, not a record file nor an SFEN"));
    }
    let sfen = text.trim();
    let sfen = sfen.strip_prefix("position").map_or(sfen, str::trim_start);
    let sfen = sfen.strip_prefix("sfen").map_or(sfen, str::trim_start);
    if !sfen.is_empty() && !sfen.contains(char::is_whitespace) {
        return Err(format!("{text}: no such file (nor is it an SFEN)"));
    }
    match variant {
        Some(variant) => {
            with_shogi_game!(variant, V => solve_checked(read_sfen::<V>(sfen)?, limits),
            pawns => Err(no_mates()))
        }
        // A 5×5 board is minishogi's unless said otherwise; an SFEN that is
        // neither is refused with shogi's reason.
        None => match read_sfen::<Shogi>(sfen) {
            Ok(checked) => solve_checked(checked, limits),
            Err(error) => match read_sfen::<Minishogi>(sfen) {
                Ok(checked) => solve_checked(checked, limits),
                Err(_) => Err(error),
            },
        },
    }
}

/// Solves the start position of the record file `path`.
fn solve_record(path: &str, variant: Option<Variant>, limits: &MateLimits) -> Result<(), String> {
    let record = load(path, None, variant).map_err(|e| e.to_string())?;
    let variant = record.variant();
    let no_record = || format!("{path}: not a record of {}", variant.name());
    with_shogi_game!(variant, V => {
        let record = record.into_inner::<ShogiPosition<V>>().ok_or_else(no_record)?;
        solve::<V>(&record.start, limits)
    }, pawns => Err(no_mates()))
}

/// `sfen` as a position of the game `V`: the outer error if its syntax is
/// not that game's, the inner one if the rules refuse the position
/// (without the defender's king there is nothing to mate).
fn read_sfen<V: ShogiVariant>(sfen: &str) -> Result<Result<ShogiPosition<V>, String>, String> {
    let position = parse_sfen_unchecked::<V>(sfen)
        .map_err(|e| format!("not a record file nor an SFEN: {e}"))?;
    Ok(position
        .checked()
        .map_err(|refused| match refused.error().problem {
            SetupProblem::NoKings | SetupProblem::MissingKing(_) => {
                format!("the defender has no king to mate: {refused}")
            }
            _ => refused.to_string(),
        }))
}

/// Solves a position the rules accepted, or says why they refused it.
fn solve_checked<V: ShogiVariant>(
    checked: Result<ShogiPosition<V>, String>,
    limits: &MateLimits,
) -> Result<(), String> {
    let position = checked.map_err(|refusal| format!("not a mate problem: {refusal}"))?;
    solve(&position, limits)
}

fn no_mates() -> String {
    "Pawns-Only Chess has no kings, and so no mates to search".into()
}

fn solve<V: ShogiVariant>(position: &ShogiPosition<V>, limits: &MateLimits) -> Result<(), String> {
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    } else {
        ProgressBar::hidden()
    };
    let shown = bar.clone();
    let mut progress = move |p: Progress| {
        let rate = p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-3);
        shown.set_message(format!(
            "{} nodes, {} nodes/s",
            thousands(p.nodes),
            thousands(rate as u64)
        ));
    };
    let report =
        Solver::new(limits.table_megabytes).solve(position, limits, None, Some(&mut progress));
    bar.finish_and_clear();
    print!("{}", describe(position, &report));
    Ok(())
}

/// The report as `koma mate` prints it.
fn describe<V: ShogiVariant>(position: &ShogiPosition<V>, report: &MateReport) -> String {
    let cost = format!(
        "{} nodes, {:.2} s, {} nodes/s",
        thousands(report.nodes),
        report.elapsed.as_secs_f64(),
        thousands(report.nodes_per_second())
    );
    match &report.answer {
        MateAnswer::Mate(line) => {
            let length = report.length;
            let mut japanese = Vec::new();
            let mut current = *position;
            let mut previous_to = None;
            for &m in line {
                let mark = match current.turn() {
                    Color::Sente => '▲',
                    Color::Gote => '△',
                };
                japanese.push(format!("{mark}{}", move_text(&current, m, previous_to)));
                previous_to = Some(m.to());
                current.play_unchecked(m);
            }
            let usi: Vec<String> = line
                .iter()
                .map(|&m| ShogiPosition::<V>::move_to_text(m))
                .collect();
            let shortest = if report.shortest {
                "shortest"
            } else {
                "not proven shortest: the time ran out"
            };
            let uncounted = match line.len().saturating_sub(usize::from(length)) {
                0 => String::new(),
                plies => format!(
                    "; the line shows {plies} plies more, to checkmate on the board: \
                     useless interpositions and their captures, not counted"
                ),
            };
            format!(
                "{}　まで{length}手詰\nusi: {}\nmate in {length} ({shortest}{uncounted}), {cost}\nmate {length}\n",
                japanese.join("　"),
                usi.join(" "),
            )
        }
        MateAnswer::NoMate => format!("不詰: no mate, {cost}\nnomate\n"),
        MateAnswer::Unknown => format!("no answer within the time, {cost}\nunknown\n"),
    }
}
