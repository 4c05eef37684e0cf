//! Labels a tuning file with another USI engine's values, for the
//! evaluation tuner (`crates/engine/examples/tune`):
//!
//! ```text
//! cargo run --release -p koma-match --example label -- VARIANT ENGINE NODES IN OUT
//! cargo run --release -p koma-match --example label -- minishogi /tmp/fsf/src/stockfish 6000 games.txt labelled.txt
//! ```
//!
//! ENGINE is a command line or `KEY=VALUE` words as `koma match --engine1`
//! takes them, in one argument (e.g. `"cmd=/tmp/fsf/src/stockfish
//! option.VariantPath=variants.ini"`). Each line `SFEN;RESULT` of IN goes
//! to OUT with `;` and the engine's value for Sente after NODES nodes.

use koma_usi::client::EngineConfig;
use std::io::{BufReader, BufWriter};

fn main() {
    if let Err(error) = run() {
        eprintln!("label: {error}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, engine, nodes, input, output] = args.as_slice() else {
        return Err("usage: label VARIANT ENGINE NODES IN OUT".into());
    };
    let variant = variant.parse().map_err(|e| format!("{e}"))?;
    let words: Vec<String> = split_words(engine);
    let config = EngineConfig::parse(&words).map_err(|e| e.to_string())?;
    let nodes: u64 = nodes.parse().map_err(|e| format!("{nodes}: {e}"))?;
    let reader = std::fs::File::open(input).map_err(|e| format!("{input}: {e}"))?;
    let writer = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    let labelled = koma_match::label::label_positions(
        variant,
        &config,
        nodes,
        BufReader::new(reader),
        BufWriter::new(writer),
    )
    .map_err(|e| e.to_string())?;
    eprintln!("{labelled} positions labelled");
    Ok(())
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
