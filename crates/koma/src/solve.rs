//! `koma solve pawns`: the exact value of a Pawns-Only Chess position
//! (`koma-solve`), on the 8×8 board or a smaller one, with a certificate
//! that `koma verify-proof` checks; each move valued on request; its
//! state kept in a directory to resume a solve of many hours.

use indicatif::{ProgressBar, ProgressStyle};
use koma_rules::pawns_board::{After, PawnsBoard};
use koma_solve::{default_table_bytes, Certificate, Progress, Solver, Value, Written};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::{Arc, Mutex};
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
    /// Write to --proof the mirror image (files a↔h) of the certificate
    /// FILE, instead of solving: the proof of the mirrored position, which
    /// `koma verify-proof` checks like any other.
    #[arg(long, value_name = "FILE", requires = "proof",
          conflicts_with_all = ["position", "moves", "state", "memory", "table"])]
    mirror: Option<String>,
    /// Value each move of the position too (a line `MOVE VALUE` for each,
    /// the value for the side that plays it).
    #[arg(long)]
    moves: bool,
    /// Keep the solve's state in this directory and resume from it: what
    /// was proven, and each move's value once settled.
    #[arg(long)]
    state: Option<String>,
    /// The table's memory in GiB (when full, positions that were cheap to
    /// prove give way; default: 0.25 up to 6×6, 2 on 7×7 and 8×8; 4 or
    /// more asks Linux for huge pages).
    #[arg(long)]
    memory: Option<f64>,
    /// After the solve, write the compact table of the state's costliest
    /// proven positions to this file (needs --state): what the perfect
    /// player ships with (crates/solve/data/pawns8.table).
    #[arg(long, requires = "state")]
    table: Option<String>,
    /// The positions a compact table keeps: those whose proof took at
    /// least 2^WORK nodes.
    #[arg(long, value_name = "WORK", default_value_t = koma_solve::TABLE_WORK, requires = "table")]
    table_work: u64,
}

pub fn run(args: SolveArgs) -> Result<(), String> {
    if args.game != "pawns" {
        return Err(format!(
            "{}: only pawns (Pawns-Only Chess) can be solved",
            args.game
        ));
    }
    if let (Some(input), Some(output)) = (&args.mirror, &args.proof) {
        let mirrored = koma_solve::mirror_certificate(Path::new(input), Path::new(output))
            .map_err(|e| format!("--mirror {input}: {e}"))?;
        println!("position: {}", mirrored.root);
        println!(
            "proof: {output}, {} positions, the mirror image of {input}",
            crate::thousands::thousands(mirrored.positions)
        );
        println!("{}", mirrored.claim);
        return Ok(());
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
        Some(fen) => PawnsBoard::<N>::from_fen(fen).map_err(|e| format!("{fen:?}: {e}"))?,
        None => PawnsBoard::<N>::start(),
    };
    let bytes = match args.memory {
        Some(gib) if gib.is_finite() && gib > 0.0 => (gib * (1u64 << 30) as f64) as usize,
        Some(gib) => return Err(format!("--memory {gib}: a size in GiB above 0")),
        None => default_table_bytes(N),
    };
    if let Some(total) = crate::machine::physical_memory() {
        if bytes as u64 > total {
            return Err(format!(
                "--memory: {:.1} GiB is more than this machine's {:.1} GiB",
                bytes as f64 / (1u64 << 30) as f64,
                total as f64 / (1u64 << 30) as f64
            ));
        }
    }
    let started = Instant::now();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut solver = Solver::<N>::with_memory(bytes);
    let mut settled = Vec::new();
    if let Some(dir) = &args.state {
        settled = solver
            .keep_state(Path::new(dir), &root)
            .map_err(|e| format!("--state {dir}: {e}"))?;
    }
    let question = Arc::new(Mutex::new(String::new()));
    let shown = (bar.clone(), question.clone());
    let nodes_before = solver.total_nodes();
    solver.on_progress(move |p: Progress| {
        let seconds = started.elapsed().as_secs_f64().max(1e-3);
        let memory = resident_memory_note();
        let journal = if p.journal > 0 {
            format!(", {} kept on disk", crate::thousands::thousands(p.journal))
        } else {
            String::new()
        };
        shown.0.set_message(format!(
            "{}: {} nodes, {} positions proven ({:.0} % of the table), {:.0} k nodes/s{memory}{journal}",
            lock(&shown.1),
            crate::thousands::thousands(p.nodes),
            crate::thousands::thousands(p.positions as u64),
            100.0 * p.positions as f64 / p.capacity as f64,
            (p.nodes - nodes_before) as f64 / seconds / 1000.0,
        ))
    });
    println!("position: {}", root.to_fen());
    let mut value = None;
    if args.moves {
        value = Some(value_each_move(&mut solver, &root, &settled, &question)?);
    }
    *lock(&question) = "the position".to_string();
    let certificate = match &args.proof {
        Some(path) => {
            let shown = (bar.clone(), question.clone());
            let written = move |w: Written| {
                let what = format!(
                    "the certificate: {} positions written, {} race leaves",
                    crate::thousands::thousands(w.positions),
                    crate::thousands::thousands(w.race_leaves)
                );
                let memory = resident_memory_note();
                shown.0.set_message(format!("{what}{memory}"));
                *lock(&shown.1) = what;
            };
            Some(
                Certificate::write(&mut solver, &root, Path::new(path), written)
                    .map_err(|e| format!("{path}: {e}"))?,
            )
        }
        None => None,
    };
    let root_fen = root.to_fen();
    let settled_root = settled.iter().find(|(fen, _)| *fen == root_fen);
    let value = match (&certificate, value, settled_root) {
        (Some(certificate), _, _) => certificate.value,
        (None, Some(value), _) => value,
        (None, None, Some((_, value))) => *value,
        (None, None, None) => solver.value(&root),
    };
    if settled_root.is_none() {
        solver
            .record_answer(&root, value)
            .map_err(|e| format!("--state: {e}"))?;
    }
    solver.flush_state().map_err(|e| format!("--state: {e}"))?;
    bar.finish_and_clear();
    println!(
        "nodes: {}, table: {} positions, time: {:.2} s",
        crate::thousands::thousands(solver.nodes),
        crate::thousands::thousands(solver.table_len() as u64),
        started.elapsed().as_secs_f64()
    );
    if args.state.is_some() {
        println!(
            "over all runs: {} nodes, {:.0} s",
            crate::thousands::thousands(solver.total_nodes()),
            solver.total_seconds()
        );
    }
    if let (Some(path), Some(certificate)) = (&args.proof, &certificate) {
        println!(
            "proof: {path}, {} positions, {} race leaves",
            crate::thousands::thousands(certificate.len()),
            crate::thousands::thousands(certificate.race_leaves())
        );
    }
    if let (Some(path), Some(dir)) = (&args.table, &args.state) {
        let size = solver
            .write_table(Path::new(dir), args.table_work, Path::new(path))
            .map_err(|e| format!("--table {path}: {e}"))?;
        println!(
            "table: {path}, {} positions of at least 2^{} nodes, {} bytes",
            crate::thousands::thousands(size.positions as u64),
            args.table_work,
            crate::thousands::thousands(size.bytes)
        );
    }
    println!("{value}");
    Ok(())
}

/// Nodes a question gets in the first round of [`value_each_move`].
const FIRST_ROUND_NODES: u64 = 1 << 20;

/// A move of the root and what is known of its value for the side that
/// plays it.
struct MoveQuestion<const N: usize> {
    name: String,
    /// The position after it (`None`: the move wins at once).
    child: Option<PawnsBoard<N>>,
    value: Option<Value>,
    /// Known not to win (the first question answered no).
    not_a_win: bool,
}

/// Values each move of `root` for the side that plays it, printing a line
/// for each, and returns the root's value (the best of them).
///
/// Each move has two yes/no questions: "does it win?", then, if not,
/// "does it lose?". They are asked in rounds: each open question gets a
/// budget of nodes, doubled from round to round, so that the cheap
/// answers come first and no move's hard question holds up the others.
/// What a question proved before its budget ran out stays in the table.
/// Answers already settled in the state are taken as they are; new ones
/// are settled there as they come.
fn value_each_move<const N: usize>(
    solver: &mut Solver<N>,
    root: &PawnsBoard<N>,
    settled: &[(String, Value)],
    question: &Mutex<String>,
) -> Result<Value, String> {
    let mut moves: Vec<MoveQuestion<N>> = root
        .moves()
        .into_iter()
        .map(|m| {
            let child = match root.play(m) {
                After::Won => None,
                After::Continues(child) => Some(child),
            };
            // A value settled for the side to move after the move: the
            // mover's is its opposite.
            let known = match &child {
                None => Some(Value::Win),
                Some(child) => {
                    let fen = child.to_fen();
                    settled
                        .iter()
                        .find(|(f, _)| *f == fen)
                        .map(|(_, v)| v.for_the_other_side())
                }
            };
            MoveQuestion {
                name: root.move_name(m),
                child,
                value: known,
                not_a_win: false,
            }
        })
        .collect();
    let mut budget = FIRST_ROUND_NODES;
    for round in 1.. {
        if moves.iter().all(|m| m.value.is_some()) {
            break;
        }
        for m in moves.iter_mut().filter(|m| m.value.is_none()) {
            let child = m.child.expect("a move that does not win at once");
            let label = |what: &str| {
                format!(
                    "round {round} ({} nodes a question): does {} {what}?",
                    crate::thousands::thousands(budget),
                    m.name
                )
            };
            if !m.not_a_win {
                *lock(question) = label("win");
                match solver.loses_within(&child, budget) {
                    Some(true) => m.value = Some(Value::Win),
                    Some(false) => m.not_a_win = true,
                    None => continue,
                }
            }
            if m.value.is_none() {
                *lock(question) = label("lose");
                m.value = match solver.wins_within(&child, budget) {
                    Some(true) => Some(Value::Loss),
                    Some(false) => Some(Value::Draw),
                    None => None,
                };
            }
            if let Some(value) = m.value {
                solver
                    .record_answer(&child, value.for_the_other_side())
                    .map_err(|e| format!("--state: {e}"))?;
            }
        }
        budget = budget.saturating_mul(2);
    }
    for m in &moves {
        println!("{} {}", m.name, m.value.expect("every move valued"));
    }
    // No move at all: a stalemate.
    Ok(moves
        .iter()
        .filter_map(|m| m.value)
        .max()
        .unwrap_or(Value::Draw))
}

/// The process's resident memory in MiB, where the system tells it
/// (Linux's `/proc/self/statm`, in pages of 4 KiB).
fn resident_mebibytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some((pages * 4096) >> 20)
}

/// `, N MiB` of resident memory for a progress line, or nothing where
/// the system does not tell it.
fn resident_memory_note() -> String {
    resident_mebibytes().map_or(String::new(), |m| format!(", {m} MiB"))
}

/// The text behind `mutex`, even if a thread panicked holding it.
fn lock(mutex: &Mutex<String>) -> std::sync::MutexGuard<'_, String> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
