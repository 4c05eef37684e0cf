//! `koma`: Spear Shogi, shogi, minishogi and Pawns-Only Chess.

mod perft;
mod variant_dispatch;

use clap::{Parser, Subcommand};
use koma_rules::Variant;
use std::process::ExitCode;

/// Koma plays Spear Shogi, shogi, minishogi and Pawns-Only Chess.
#[derive(Parser)]
#[command(name = "koma", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences of a given length (move generator check).
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("koma: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Parses a game name for clap.
fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse()
        .map_err(|e: koma_rules::UnknownVariant| e.to_string())
}
