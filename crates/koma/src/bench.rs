//! `koma bench`: searches a fixed set of positions of each game to a fixed
//! depth (or for a fixed time) and prints the node count (a signature of
//! the search) and the speed.

use koma_engine::bench::{self, BenchEvaluation, BenchLimit, BenchLine};
use koma_rules::with_position;
use koma_rules::Variant;
use std::time::Duration;

/// Options of `koma bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// One game only (default: every game).
    #[arg(long)]
    variant: Option<Variant>,
    /// Search depth (default: a depth per game that takes a few seconds).
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position this many milliseconds instead of to a depth
    /// (nodes in the same time: the speed of several threads).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search threads (1: the node counts are the search's signature).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// Evaluate with this network file (of the game benched; give
    /// --variant) instead of the embedded one.
    #[arg(long, conflicts_with = "classical", requires = "variant")]
    eval_file: Option<String>,
    /// Evaluate classically, as with UseNNUE false.
    #[arg(long)]
    classical: bool,
}

/// The bench positions and default depth of a game.
fn suite(variant: Variant) -> (&'static [&'static str], u32) {
    match variant {
        Variant::Spear => (bench::SPEAR, 13),
        Variant::Minishogi => (bench::MINISHOGI, 12),
        Variant::Shogi => (bench::SHOGI, 9),
        Variant::Pawns => (bench::PAWNS, 16),
    }
}

/// Runs the bench and prints its lines, then the total.
pub fn run(args: BenchArgs) -> Result<(), String> {
    let variants = match args.variant {
        Some(variant) => vec![variant],
        None => vec![
            Variant::Spear,
            Variant::Minishogi,
            Variant::Shogi,
            Variant::Pawns,
        ],
    };
    let evaluation = match (&args.eval_file, args.classical) {
        (Some(path), _) => {
            let network = koma_engine::Network::from_file(std::path::Path::new(path))
                .map_err(|e| format!("{path}: {e}"))?;
            BenchEvaluation::Network(std::sync::Arc::new(network))
        }
        (None, true) => BenchEvaluation::Classical,
        (None, false) => BenchEvaluation::Default,
    };
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for variant in variants {
        let (positions, default_depth) = suite(variant);
        let depth = args.depth.unwrap_or(default_depth);
        let (limit, label) = match args.movetime {
            Some(ms) => (
                BenchLimit::Time(Duration::from_millis(ms)),
                format!("{ms} ms"),
            ),
            None => (BenchLimit::Depth(depth), format!("depth {depth:>2}")),
        };
        let mut print = |line: &BenchLine| {
            println!(
                "{:<10} {label} {:>12} nodes {:>8} ms  {}",
                variant.name(),
                line.nodes,
                line.time.as_millis(),
                line.position
            );
        };
        let threads = args.threads as usize;
        let lines = with_position!(variant, P => bench::run::<P>(positions, limit, threads, &evaluation, &mut print))
            .map_err(|error| error.to_string())?;
        if lines.len() != positions.len() {
            return Err(format!(
                "a {} bench position does not parse",
                variant.name()
            ));
        }
        nodes += lines.iter().map(|l| l.nodes).sum::<u64>();
        time += lines.iter().map(|l| l.time).sum::<Duration>();
    }
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    println!("===========================");
    println!("Total time (ms) : {}", time.as_millis());
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {nps}");
    Ok(())
}
