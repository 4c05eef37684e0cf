//! `koma solve pawns`: the exact value of a Pawns-Only Chess position
//! (`koma-solve`), on the 8×8 board or a smaller one, with a certificate
//! that `koma verify-proof` checks.

use indicatif::{ProgressBar, ProgressStyle};
use koma_rules::pawns_board::PawnsBoard;
use koma_solve::{Certificate, Solver};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Arguments of `koma solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The game: only `pawns` (Pawns-Only Chess).
    game: String,
    /// The position, in FEN; its ranks give the board's size (default: the
    /// start position of --size).
    #[arg(long)]
    position: Option<String>,
    /// The board's size for the start position: N files, N ranks, N pawns
    /// a side (4 to 8).
    #[arg(long, default_value_t = 8)]
    size: usize,
    /// Write the certificate of the value to this file (check it with
    /// `koma verify-proof FILE`).
    #[arg(long)]
    proof: Option<String>,
}

pub fn run(args: SolveArgs) -> Result<(), String> {
    if args.game != "pawns" {
        return Err(format!(
            "{}: only pawns (Pawns-Only Chess) can be solved",
            args.game
        ));
    }
    let size = match &args.position {
        Some(fen) => fen
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('/')
            .count(),
        None => args.size,
    };
    match size {
        4 => solve::<4>(&args),
        5 => solve::<5>(&args),
        6 => solve::<6>(&args),
        7 => solve::<7>(&args),
        8 => solve::<8>(&args),
        _ => Err(format!("boards of 4 to 8 files and ranks, not {size}")),
    }
}

fn solve<const N: usize>(args: &SolveArgs) -> Result<(), String> {
    let root = match &args.position {
        Some(fen) => PawnsBoard::<N>::from_fen(fen).map_err(|e| e.to_string())?,
        None => PawnsBoard::<N>::start(),
    };
    let started = Instant::now();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut solver = Solver::<N>::new();
    let shown = bar.clone();
    solver.on_progress(move |nodes, positions| {
        let seconds = started.elapsed().as_secs_f64().max(1e-3);
        let memory = resident_mebibytes().map_or(String::new(), |m| format!(", {m} MiB"));
        shown.set_message(format!(
            "{} nodes, {} positions in the table, {:.0} k nodes/s{memory}",
            crate::thousands::thousands(nodes),
            crate::thousands::thousands(positions as u64),
            nodes as f64 / seconds / 1000.0,
        ))
    });
    let certificate = args
        .proof
        .is_some()
        .then(|| Certificate::prove(&mut solver, &root));
    let value = match &certificate {
        Some(certificate) => certificate.value,
        None => solver.value(&root),
    };
    bar.finish_and_clear();
    println!("position: {}", root.to_fen());
    println!(
        "nodes: {}, table: {} positions, time: {:.2} s",
        crate::thousands::thousands(solver.nodes),
        crate::thousands::thousands(solver.table_len() as u64),
        started.elapsed().as_secs_f64()
    );
    if let (Some(path), Some(certificate)) = (&args.proof, &certificate) {
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?,
        );
        certificate
            .write(&mut file)
            .and_then(|()| file.flush())
            .map_err(|e| format!("{path}: {e}"))?;
        println!(
            "proof: {path}, {} positions",
            crate::thousands::thousands(certificate.len() as u64)
        );
    }
    println!("{value}");
    Ok(())
}

/// The process's resident memory in MiB, where the system tells it
/// (Linux's `/proc/self/statm`, in pages of 4 KiB).
fn resident_mebibytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some((pages * 4096) >> 20)
}
