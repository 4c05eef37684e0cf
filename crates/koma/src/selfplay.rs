//! `koma selfplay`: training data from the engine playing itself
//! (`koma-selfplay`), on every core, resumed where it stopped.

use indicatif::{ProgressBar, ProgressStyle};
use koma_rules::{with_shogi_game, ShogiVariant, Variant};
use koma_selfplay::{fill, Progress, Settings, RECORD_BYTES};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

/// Arguments of `koma selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// The game: shogi, minishogi or spear.
    variant: Variant,
    /// Nodes the engine searches for each move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// The data directory: its `positions.bin` grows, 48 bytes a position
    /// (the format is in koma-selfplay's documentation); run again to
    /// resume.
    #[arg(long)]
    out: String,
    /// Stop when the directory holds this many positions.
    #[arg(long, default_value_t = 1_000_000)]
    positions: u64,
    /// Threads, one game each (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Chooses the games (default: from the clock, so that a resumed run
    /// plays new ones).
    #[arg(long)]
    seed: Option<u64>,
    /// Play with this network file (the last generation's) instead of the
    /// game's embedded evaluation.
    #[arg(long)]
    eval_file: Option<String>,
    /// Play with the classical evaluation, not the game's network: the
    /// data of a first generation, made from nothing.
    #[arg(long, conflicts_with = "eval_file")]
    classical: bool,
}

pub fn run(args: SelfplayArgs) -> Result<(), String> {
    with_shogi_game!(args.variant, V => fill_with::<V>(&args), pawns => Err(
        "pawns: no network is trained for Pawns-Only Chess; selfplay plays shogi, minishogi or spear"
            .to_string(),
    ))
}

fn fill_with<V: ShogiVariant>(args: &SelfplayArgs) -> Result<(), String> {
    if args.nodes == 0 {
        return Err("--nodes: at least 1".to_string());
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(args.positions)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions, {msg}")
            .expect("valid template"),
    );
    let started = Instant::now();
    let show = |p: Progress| {
        bar.set_position(p.positions);
        bar.set_message(format!(
            "{} games, {:.1} games/s, {} duplicates dropped",
            p.games,
            p.games as f64 / started.elapsed().as_secs_f64().max(1e-3),
            p.duplicates
        ));
    };
    let mut settings = Settings::new::<V>(args.nodes);
    settings.classical = args.classical;
    if let Some(path) = &args.eval_file {
        let network =
            koma_engine::Network::from_file(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
        settings.network = Some(std::sync::Arc::new(network));
    }
    let done = fill::<V>(
        Path::new(&args.out),
        &settings,
        args.positions,
        threads,
        seed,
        &show,
    )
    .map_err(|e| format!("{}: {e}", args.out))?;
    bar.finish_and_clear();
    println!(
        "{}: {} positions ({:.1} MB), {} games in this run ({:.0} s, {threads} threads), {} duplicates dropped",
        args.out,
        done.positions,
        (done.positions * RECORD_BYTES as u64) as f64 / 1e6,
        done.games,
        started.elapsed().as_secs_f64(),
        done.duplicates
    );
    Ok(())
}
