//! `koma bench`: searches a fixed set of positions of each game to a fixed
//! depth and prints the node count (a signature of the search) and the
//! speed.

use koma_engine::bench::{self, BenchLine};
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
    #[arg(long)]
    depth: Option<u32>,
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
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for variant in variants {
        let (positions, default_depth) = suite(variant);
        let depth = args.depth.unwrap_or(default_depth);
        let mut print = |line: &BenchLine| {
            println!(
                "{:<10} depth {:>2} {:>12} nodes {:>8} ms  {}",
                variant.name(),
                depth,
                line.nodes,
                line.time.as_millis(),
                line.position
            );
        };
        let lines = with_position!(variant, P => bench::run::<P>(positions, depth, &mut print));
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
