//! `koma train`: a network from self-play data (`koma-train`), resumed
//! from its checkpoint, with a line per epoch and a bar within one.

use indicatif::{ProgressBar, ProgressStyle};
use koma_nnue::Layout;
use koma_rules::{with_shogi_game, ShogiVariant, Variant};
use koma_train::{split, Dataset, Report, Settings, Shape};
use sha2::{Digest, Sha256};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `koma train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// The game: shogi, minishogi or spear.
    variant: Variant,
    /// A data directory `koma selfplay` filled; give --data again to
    /// train on several (each checked to hold this game's data).
    #[arg(long, required = true)]
    data: Vec<String>,
    /// Where the network file goes (the best by held-out loss).
    #[arg(long)]
    out: String,
    /// The trainer's directory: its checkpoint (a run started again goes
    /// on from it) and `best.nnue` (default: `~/.cache/koma/train/GAME`).
    #[arg(long)]
    state: Option<String>,
    /// Passes over the data.
    #[arg(long, default_value_t = 40)]
    epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's rate at the start (0.3 of it after 60 % of the epochs, 0.09 after 85 %).
    #[arg(long, default_value_t = 1e-3)]
    rate: f32,
    /// How much of the target is the search's value, the rest the game's
    /// result (default: 1 for shogi, whose long self-play games at small
    /// budgets make the result a poor target early on; 0.5 otherwise).
    #[arg(long)]
    lambda: Option<f32>,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Chooses the first weights and the positions' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train with shared rows, one per piece on a square and hand count
    /// whatever the king's bucket, added into every bucket's rows in the
    /// network written (`false`: each bucket learns alone).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    shared_rows: bool,
    /// Hidden layers between the accumulators and the output, their
    /// widths in order (for example `16,32`); `none`, the default, is the
    /// first networks' head: one output over both accumulators.
    #[arg(long, default_value = "none", value_parser = parse_layers)]
    layers: Widths,
    /// A network file to start from rather than from random numbers: its
    /// first layer, and its head if it has the --layers asked for (a new
    /// run only; a checkpoint goes on from itself).
    #[arg(long)]
    init: Option<String>,
    /// Train the head alone, keeping the first layer as --init gives it.
    #[arg(long, requires = "init")]
    freeze_first_layer: bool,
}

/// The widths `--layers` gives.
#[derive(Clone, Debug)]
struct Widths(Vec<usize>);

/// `--layers`: `none`, or widths from 1 to 512 separated by commas, at
/// most three.
fn parse_layers(text: &str) -> Result<Widths, String> {
    if text == "none" {
        return Ok(Widths(Vec::new()));
    }
    let widths = text
        .split(',')
        .map(|w| match w.trim().parse::<usize>() {
            Ok(width) if (1..=koma_nnue::head::MAX_WIDTH).contains(&width) => Ok(width),
            _ => Err(format!(
                "`{w}`: a layer's width is a number from 1 to {}",
                koma_nnue::head::MAX_WIDTH
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if widths.len() >= koma_nnue::head::MAX_LAYERS {
        return Err(format!(
            "at most {} hidden layers",
            koma_nnue::head::MAX_LAYERS - 1
        ));
    }
    Ok(Widths(widths))
}

pub fn run(args: TrainArgs) -> Result<(), String> {
    with_shogi_game!(args.variant, V => train_with::<V>(&args), pawns => Err(
        "pawns: Pawns-Only Chess has no network; train shogi, minishogi or spear".to_string(),
    ))
}

/// Positions held out of training: one in this many.
const HELD_OUT_EVERY: u64 = 20;

fn train_with<V: ShogiVariant>(args: &TrainArgs) -> Result<(), String> {
    let lambda = args.lambda.unwrap_or(match V::VARIANT {
        Variant::Shogi => 1.0,
        _ => 0.5,
    });
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("--lambda {lambda}: between 0 and 1"));
    }
    if args.batch == 0 || args.epochs == 0 || args.rate.is_nan() || args.rate <= 0.0 {
        return Err("--batch, --epochs and --rate: more than 0".to_string());
    }
    let state_dir = match &args.state {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or("no HOME: give --state")?
            .join(".cache/koma/train")
            .join(V::VARIANT.name()),
    };
    let layout = Layout::of::<V>();
    let started = Instant::now();
    let mut samples = Vec::new();
    for dir in &args.data {
        samples.extend(koma_selfplay::read_dir::<V>(Path::new(dir)).map_err(|e| e.to_string())?);
    }
    if samples.len() < 100 {
        return Err(format!(
            "{}: {} positions; too few to train on",
            args.data.join(", "),
            samples.len()
        ));
    }
    let (train_samples, held_samples) = split(samples, HELD_OUT_EVERY);
    let train = Dataset::from_samples(&layout, &train_samples);
    let held = Dataset::from_samples(&layout, &held_samples);
    drop((train_samples, held_samples));
    let settings = Settings {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        lambda,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seed: args.seed,
        freeze_first_layer: args.freeze_first_layer,
    };
    let factors = if args.shared_rows {
        layout.bucket_inputs()
    } else {
        0
    };
    let shape = Shape {
        inputs: layout.inputs(),
        factors,
        head: args.layers.0.iter().copied().chain([1]).collect(),
    };
    let init = match &args.init {
        Some(path) => Some(
            koma_nnue::Network::from_file(Path::new(path)).map_err(|e| format!("{path}: {e}"))?,
        ),
        None => None,
    };
    let mut state = koma_train::start(
        &state_dir,
        V::VARIANT,
        &shape,
        &train,
        &settings,
        init.as_ref(),
    )
    .map_err(|e| e.to_string())?;
    println!(
        "{}: {} training and {} held-out positions ({:.0} s to read), k = {:.1}, lambda = {}, head {}, {}",
        V::VARIANT,
        train.len(),
        held.len(),
        started.elapsed().as_secs_f64(),
        state.k,
        // Kept as an f64 of the f32 given: printed as given.
        state.lambda as f32,
        koma_train::head_widths(&state.model.head, " → "),
        if state.epoch > 0 {
            format!(
                "resuming after epoch {} from {}",
                state.epoch,
                state_dir.display()
            )
        } else {
            format!("checkpoints in {}", state_dir.display())
        }
    );
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(train.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("epoch {msg} {bar:30} {pos}/{len} positions")
            .expect("valid template"),
    );
    koma_train::train(
        &mut state,
        &train,
        &held,
        &settings,
        &state_dir,
        |report| match report {
            Report::Batch {
                epoch, positions, ..
            } => {
                bar.set_message(format!("{epoch}/{}", settings.epochs));
                bar.set_position(positions as u64);
            }
            Report::Epoch(e) => {
                bar.suspend(|| {
                    println!(
                        "epoch {}/{}: training loss {:.5}, held-out {:.5}{}, {:.0} positions/s",
                        e.epoch,
                        e.epochs,
                        e.train_loss,
                        e.held_out_loss,
                        if e.best { " (best)" } else { "" },
                        e.rate
                    )
                });
                bar.reset();
            }
        },
    )
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let best = state_dir.join("best.nnue");
    let bytes = std::fs::read(&best).map_err(|e| format!("{}: {e}", best.display()))?;
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out))?;
    let digest = Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    println!(
        "{}: {} bytes, sha256 {hex}, held-out loss {:.5} ({:.0} s)",
        args.out,
        bytes.len(),
        state.best_loss,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
