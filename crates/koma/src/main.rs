//! `koma`: Spear Shogi, shogi, minishogi and Pawns-Only Chess.

//!
//! A thin binary: each subcommand's work lives in a library crate
//! (`koma-usi`, `koma-match`, `koma-server`, `koma-load`, `koma-csa`, with the rules,
//! records and engine below them); this crate holds the command line and
//! the console programs.

mod analyze;
mod bench;
mod check;
mod closed_pipe;
mod console_engine;
mod convert;
mod machine;
mod mate;
mod mate_suite;
mod pawns_console;
mod perft;
mod selfplay;
mod shogi_console;
mod solve;
mod spear_console;
mod thousands;
mod train;
mod verify_proof;

use clap::{Parser, Subcommand};
use koma_rules::Variant;
use koma_usi::Dialect;
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
    Usi(ProtocolArgs),
    /// The engine over UCI, for chess GUIs (Pawns-Only Chess).
    Uci(ProtocolArgs),
    /// Engine-vs-engine matches between two USI or UCI engines.
    Match(Box<koma_match::MatchArgs>),
    /// Pool one match played in parts (journals of `koma match`, counts of pairs): Elo, SPRT.
    Pool(koma_match::pool::PoolArgs),
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(bench::BenchArgs),
    /// Review a game record with the engine: evaluations, mistakes, annotated record.
    Analyze(analyze::AnalyzeArgs),
    /// Solve a mate problem (tsume): the shortest mate, in Japanese and USI.
    Mate(mate::MateArgs),
    /// Count move sequences of a given length (move generator check).
    Perft(perft::PerftArgs),
    /// Prove the value of a Pawns-Only Chess position (win, draw or loss), with a certificate.
    Solve(solve::SolveArgs),
    /// Check a certificate written by `koma solve pawns --proof`, with rules of its own.
    VerifyProof(verify_proof::VerifyProofArgs),
    /// Self-play training data: quiet positions with the search's value and the game's result.
    Selfplay(selfplay::SelfplayArgs),
    /// Train a network from self-play data; resumes from its checkpoint.
    Train(train::TrainArgs),
    /// The board in the browser: serve the page and its API on 127.0.0.1.
    Serve(koma_server::ServeArgs),
    /// Load a local `koma serve` with games of random moves; report its speed.
    Load(koma_load::LoadArgs),
    /// Check a games file of `koma serve` without changing it: lists damaged games.
    Check(check::CheckArgs),
    /// Play shogi on a CSA server (floodgate, shogi-server) with Koma's or any USI engine.
    Csa(koma_csa::CsaArgs),
    /// Review games for a `koma serve` on another machine (docs/WORKERS.md).
    Worker(koma_worker::WorkerArgs),
}

impl Command {
    /// Whether the command writes nowhere but its own standard output,
    /// error and files: a filter, which may die of SIGPIPE when a pipe's
    /// reader leaves (`closed_pipe`). Not `check`, whose database may be
    /// PostgreSQL's, behind a socket.
    fn is_a_filter(&self) -> bool {
        match self {
            Command::Perft(_)
            | Command::Bench(_)
            | Command::Pool(_)
            | Command::Convert(_)
            | Command::Analyze(_)
            | Command::Solve(_)
            | Command::VerifyProof(_) => true,
            // With --against it talks to another solver's process.
            Command::Mate(args) => !args.asks_another_engine(),
            _ => false,
        }
    }
}

/// Options of `koma usi` / `koma uci`.
#[derive(clap::Args)]
struct ProtocolArgs {
    /// The game to start with (the GUI may change it with USI_Variant or
    /// UCI_Variant).
    #[arg(long)]
    variant: Option<Variant>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.command.is_a_filter() {
        closed_pipe::die_quietly_when_the_reader_leaves();
    }
    let result = match cli.command {
        Command::Spear(args) => spear_console::run(args),
        Command::Shogi(args) => shogi_console::run(args),
        Command::Pawns(args) => pawns_console::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Solve(args) => solve::run(args),
        Command::VerifyProof(args) => verify_proof::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Usi(args) => {
            koma_usi::engine::run(Dialect::Usi, args.variant).map_err(|e| e.to_string())
        }
        Command::Uci(args) => {
            koma_usi::engine::run(Dialect::Uci, args.variant).map_err(|e| e.to_string())
        }
        Command::Match(args) => koma_match::run(*args).map_err(|e| e.to_string()),
        Command::Pool(args) => koma_match::pool::run(args).map_err(|e| e.to_string()),
        Command::Convert(args) => convert::run(args),
        Command::Mate(args) => mate::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Train(args) => train::run(args),
        Command::Serve(args) => koma_server::run(args).map_err(|e| e.to_string()),
        Command::Load(args) => koma_load::run(args).map_err(|e| e.to_string()),
        Command::Check(args) => check::run(args),
        Command::Csa(args) => koma_csa::run(args).map_err(|e| e.to_string()),
        Command::Worker(args) => koma_worker::run(args).map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("koma: {message}");
            ExitCode::FAILURE
        }
    }
}
