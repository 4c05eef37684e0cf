//! `koma analyze`: reviews a game record with the engine, prints a table
//! of every move (its evaluation, the engine's move, the loss and the
//! label) and each side's summary, and writes the annotated record.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use koma_analysis::annotate::{annotate, Annotate, Style};
use koma_analysis::review::{review, Review};
use koma_analysis::{Evaluation, Label};
use koma_engine::{Limits, SearchControl};
use koma_records::file::{load, output_format, parse_format, save};
use koma_records::{AnyRecord, Format, Record};
use koma_rules::{each_game, Color, Variant};
use std::io::IsTerminal;
use std::time::Duration;

/// The nodes searched per position by default: about a third of a second
/// on these machines, a 120-move game in under a minute.
const DEFAULT_NODES: u64 = 150_000;

/// Arguments of `koma analyze`.
#[derive(Args)]
#[command(
    about = "Review a game record with the engine: every move's evaluation and loss, the mistakes",
    long_about = "Review a game record with the engine.\n\n\
        Every position of the record is searched at a fixed budget (--nodes, by default 150000, \
        or --movetime). For every move the table gives the evaluation after it (from the first \
        player's view, in centipawns; M for a forced mate in so many plies), the engine's move \
        where it differs, the expected score the move gave up against it, and its label: \
        inaccuracy (5 % or more), mistake (10 %), blunder (15 %). Then each side's accuracy and \
        counts.\n\n\
        --out writes the record with the review as comments: KIF as ShogiHome writes analyses \
        (`*#評価値=`, `*#読み筋=`), CSA as floodgate (`'** 123 +7776FU`), PGN as lichess \
        (`{ [%eval 0.35] }`). Its format comes from its extension or --to.\n\n\
        With a node budget the review is the same on every run. A progress bar shows on a \
        terminal, nothing in a pipe."
)]
pub struct AnalyzeArgs {
    /// The record to review (KIF, KI2, CSA, USI, SFEN, PGN; `-` for
    /// standard input).
    record: String,
    /// Nodes searched per position.
    #[arg(long, conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Milliseconds per position instead of a node budget.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search threads per position, with --movetime (a node budget is
    /// searched on one thread, so that the review is the same every run).
    #[arg(long, default_value_t = 1, requires = "movetime", value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// Write the annotated record here (`-` for standard output, which
    /// then holds the record alone).
    #[arg(long)]
    out: Option<String>,
    /// The format of --out (default: its extension).
    #[arg(long, value_parser = parse_format)]
    to: Option<Format>,
    /// The game, where the record does not say.
    #[arg(long)]
    variant: Option<Variant>,
}

/// Runs `koma analyze`.
pub fn run(args: AnalyzeArgs) -> Result<(), String> {
    let limits = match (args.nodes, args.movetime) {
        (_, Some(0)) | (Some(0), _) => return Err("the budget must be more than 0".into()),
        (_, Some(ms)) => Limits::move_time(Duration::from_millis(ms)),
        (nodes, None) => Limits::nodes(nodes.unwrap_or(DEFAULT_NODES)),
    };
    let out = match &args.out {
        Some(path) => {
            let format = output_format(path, args.to).map_err(|e| e.to_string())?;
            if !format.writable() || Style::of(format).is_none() {
                return Err(format!(
                    "{}: {} records hold no comments; write KIF, CSA or PGN",
                    path,
                    format.name()
                ));
            }
            Some((path.as_str(), format))
        }
        None => None,
    };
    let record = load(&args.record, None, args.variant).map_err(|e| e.to_string())?;
    let quiet = out.is_some_and(|(path, _)| path == "-");
    let annotated = each_game!(AnyRecord, record, record => {
        analyze(record, &limits, args.threads as usize, out, quiet)?
    });
    if let (Some((path, format)), Some(annotated)) = (out, annotated) {
        save(&annotated, path, format).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Reviews `record`, prints the table unless `quiet`, and gives the
/// annotated record when `out` asks for one.
fn analyze<P: Annotate>(
    mut record: Record<P>,
    limits: &Limits,
    threads: usize,
    out: Option<(&str, Format)>,
    quiet: bool,
) -> Result<Option<AnyRecord>, String> {
    let game = record.to_game().map_err(|e| e.to_string())?;
    let moves = game.moves().to_vec();
    let bar = progress_bar(moves.len() as u64 + 1);
    let shown = bar.clone();
    let reviewed = review(
        &record.start,
        &moves,
        limits,
        threads,
        &SearchControl::default(),
        &mut |done, _| shown.set_position(done as u64),
    );
    bar.finish_and_clear();
    if !quiet {
        print!("{}", table(&record, &reviewed));
    }
    Ok(out.map(|(_, format)| {
        if let Some(style) = Style::of(format) {
            annotate(&mut record, &reviewed, style);
        }
        AnyRecord::wrap(record)
    }))
}

fn progress_bar(positions: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(positions);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} (eta {eta})")
            .expect("valid template"),
    );
    bar
}

/// The evaluation as the table shows it: `+35`, `-120`, `+M7` (the first
/// player mates in 7 plies), `-M0` (the first player is mated).
fn evaluation_text(evaluation: Evaluation) -> String {
    match evaluation {
        Evaluation::Centipawns(cp) => format!("{cp:+}"),
        Evaluation::Mate { winner, plies } => match winner {
            Color::Sente => format!("+M{plies}"),
            Color::Gote => format!("-M{plies}"),
        },
    }
}

/// Display width: the board's Japanese is two columns a character.
fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(width(text))))
}

/// The per-move table and the two sides' summaries.
fn table<P: Annotate>(record: &Record<P>, reviewed: &Review) -> String {
    let mut out = format!(
        "{} {} {:>7}  {} {:>6}  label\n",
        pad("ply", 4),
        pad("move", 16),
        "eval",
        pad("best", 16),
        "loss"
    );
    let mut position = record.start;
    let mut previous = None;
    for (index, reviewed_move) in reviewed.moves.iter().enumerate() {
        let played = reviewed_move.played;
        let judgement = &reviewed.positions[index];
        let best = judgement
            .best
            .filter(|&best| best != played)
            .map(|best| P::line_text(&position, &[best], previous))
            .unwrap_or_default();
        out.push_str(&format!(
            "{} {} {:>7}  {} {:>5.1}%  {}\n",
            pad(&(index + 1).to_string(), 4),
            pad(&P::line_text(&position, &[played], previous), 16),
            evaluation_text(reviewed.positions[index + 1].evaluation),
            pad(&best, 16),
            reviewed_move.loss * 100.0,
            reviewed_move.label.map_or("", Label::name),
        ));
        position.play_unchecked(played);
        previous = Some(played);
    }
    let names = [&record.headers.sente, &record.headers.gote];
    for color in Color::ALL {
        let summary = reviewed.summary(color);
        let side = side_name(P::VARIANT, color);
        let name = names[color.index()]
            .as_deref()
            .map(|name| format!(" ({name})"))
            .unwrap_or_default();
        let [inaccuracies, mistakes, blunders] = summary.labelled;
        out.push_str(&format!(
            "{side}{name}: {} {}, accuracy {:.1} %, {inaccuracies} {}, {mistakes} {}, {blunders} {}, average loss {:.1} %\n",
            summary.moves,
            plural(summary.moves, "move", "moves"),
            summary.accuracy,
            plural(inaccuracies, "inaccuracy", "inaccuracies"),
            plural(mistakes, "mistake", "mistakes"),
            plural(blunders, "blunder", "blunders"),
            summary.average_loss * 100.0,
        ));
    }
    out
}

fn side_name(variant: Variant, color: Color) -> &'static str {
    match (variant, color) {
        (Variant::Pawns, Color::Sente) => "White",
        (Variant::Pawns, Color::Gote) => "Black",
        (_, Color::Sente) => "Sente",
        (_, Color::Gote) => "Gote",
    }
}

fn plural(count: usize, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 {
        one
    } else {
        many
    }
}
