//! `koma`: Spear Shogi, shogi, minishogi and Pawns-Only Chess.

mod bench;
mod convert;
mod engine_protocol;
mod load;
mod match_runner;
mod pawns_console;
mod perft;
mod record_file;
mod serve;
mod shogi_console;
mod spear_console;
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
    /// Spear Shogi over the seed's line protocol (standard input to output).
    Spear(spear_console::SpearArgs),
    /// Shogi (or minishogi, Spear) for two players at one terminal.
    Shogi(shogi_console::ShogiArgs),
    /// Pawns-Only Chess for two players at one terminal.
    Pawns(pawns_console::PawnsArgs),
    /// Convert a game record between formats (KIF, CSA, USI, PGN...).
    Convert(convert::ConvertArgs),
    /// The engine over USI, for shogi GUIs (Spear, minishogi, shogi).
    Usi(engine_protocol::ProtocolArgs),
    /// The engine over UCI, for chess GUIs (Pawns-Only Chess).
    Uci(engine_protocol::ProtocolArgs),
    /// Engine-vs-engine matches between two USI or UCI engines.
    Match(Box<match_runner::MatchArgs>),
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(bench::BenchArgs),
    /// Count move sequences of a given length (move generator check).
    Perft(perft::PerftArgs),
    /// The board in the browser: serve the page and its API on 127.0.0.1.
    Serve(serve::ServeArgs),
    /// Load a local `koma serve` with games of random moves; report its speed.
    Load(load::LoadArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Spear(args) => spear_console::run(args),
        Command::Shogi(args) => shogi_console::run(args),
        Command::Pawns(args) => pawns_console::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Usi(args) => engine_protocol::run(engine_protocol::Dialect::Usi, args),
        Command::Uci(args) => engine_protocol::run(engine_protocol::Dialect::Uci, args),
        Command::Match(args) => match_runner::run(*args),
        Command::Convert(args) => convert::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Load(args) => load::run(args),
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
