//! `koma perft`: counts move sequences, the standard check of a move generator.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use koma_rules::with_position;
use koma_rules::{Position, Variant};
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// The deepest perft taken. Shogi's counts pass 10^18 by about depth 12
/// and no run that deep ends; the recursion keeps a position a ply on the
/// stack, and a depth in the thousands would overflow it rather than run.
const MAX_DEPTH: u32 = 32;

/// Arguments of `koma perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// The game: spear, minishogi, shogi or pawns.
    variant: Variant,
    /// Number of plies (0 to 32).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    depth: u32,
    /// Start from this SFEN (FEN for pawns) instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// List each root move (USI/UCI) with its count before the total.
    #[arg(long)]
    divide: bool,
}

/// Runs `koma perft`: the total is the last line of standard output.
pub fn run(args: PerftArgs) -> Result<(), String> {
    with_position!(args.variant, P => perft::<P>(&args))
}

fn perft<P: Position>(args: &PerftArgs) -> Result<(), String> {
    let position = match &args.position {
        Some(text) => P::from_text(text).map_err(|e| format!("bad position: {e}"))?,
        None => P::start(),
    };
    let started = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = if args.depth == 0 {
        1
    } else {
        let moves = position.legal_moves();
        let progress = if std::io::stderr().is_terminal() && args.depth >= 4 {
            let bar = ProgressBar::new(moves.len() as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} root moves, {elapsed} {msg}")
                    .expect("valid template"),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        let mut total = 0;
        for &m in &moves {
            let mut next = position.clone();
            next.play_unchecked(m);
            let count = next.perft(args.depth - 1);
            total += count;
            if args.divide {
                progress
                    .suspend(|| writeln!(out, "{} {count}", P::move_to_text(m)))
                    .map_err(|e| e.to_string())?;
            }
            progress.inc(1);
        }
        progress.finish_and_clear();
        total
    };
    writeln!(out, "{total}").map_err(|e| e.to_string())?;
    if std::io::stderr().is_terminal() {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "{:.3} s, {:.1} M nodes/s",
            seconds,
            total as f64 / seconds / 1e6
        );
    }
    Ok(())
}
