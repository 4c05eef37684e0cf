//! Labels training data with another USI engine's values, for the
//! classical evaluation's tuner (`crates/train/examples/tune.rs`) or the
//! networks' trainer:
//!
//! ```text
//! cargo run --release -p koma-match --example label -- VARIANT ENGINE NODES IN_DIR OUT_DIR
//! cargo run --release -p koma-match --example label -- minishogi "cmd=/tmp/fsf/src/stockfish option.VariantPath=variants.ini" 6000 ~/.cache/koma/data/mini ~/.cache/koma/data/mini-fsf
//! ```
//!
//! IN_DIR is a data directory that `koma selfplay` filled; OUT_DIR gets the
//! same positions, games' results and plies, with the value ENGINE gives
//! each after NODES nodes in place of the search's (a new directory: one
//! with data already is refused). ENGINE is a command line or `KEY=VALUE`
//! words as `koma match --engine1` takes them, in one argument.

use koma_rules::{with_shogi_game, ShogiVariant, Variant};
use koma_usi::client::EngineConfig;
use std::path::Path;

fn main() {
    if let Err(error) = run() {
        eprintln!("label: {error}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, engine, nodes, input, output] = args.as_slice() else {
        return Err("usage: label VARIANT ENGINE NODES IN_DIR OUT_DIR".into());
    };
    let config = EngineConfig::parse(&split_words(engine)).map_err(|e| e.to_string())?;
    let nodes: u64 = nodes.parse().map_err(|e| format!("{nodes}: {e}"))?;
    let (input, output) = (Path::new(input), Path::new(output));
    let variant = variant.parse::<Variant>().map_err(|e| e.to_string())?;
    with_shogi_game!(variant, V => label::<V>(&config, nodes, input, output),
        pawns => Err("Pawns-Only Chess has no training data".into()))
}

fn label<V: ShogiVariant>(
    config: &EngineConfig,
    nodes: u64,
    input: &Path,
    output: &Path,
) -> Result<(), String> {
    let samples = koma_selfplay::read_dir::<V>(input).map_err(|e| e.to_string())?;
    let total = samples.len();
    let mut shown = |done: usize| {
        if done % 1000 == 0 || done == total {
            eprintln!("{done} of {total} positions labelled");
        }
    };
    let labelled = koma_match::label::label_samples(config, nodes, &samples, &mut shown)
        .map_err(|e| e.to_string())?;
    koma_selfplay::write_dir(output, &labelled).map_err(|e| e.to_string())
}

/// The engine argument as `KEY=VALUE` words: a plain command line is one
/// `cmd=` word, which the configuration splits as a shell would.
fn split_words(engine: &str) -> Vec<String> {
    if engine
        .split_whitespace()
        .next()
        .is_some_and(|w| w.contains('='))
    {
        engine.split_whitespace().map(str::to_owned).collect()
    } else {
        vec![format!("cmd={engine}")]
    }
}
