//! Why training cannot start or go on, at the crate's boundary: the
//! checkpoint cannot be read, is damaged or is of another run
//! ([`CheckpointError`]), the network to start from does not fit
//! ([`TrainError::NetworkGame`], [`TrainError::NetworkInputs`]), or a file
//! cannot be written ([`TrainError::Write`]).

use koma_rules::Variant;
use std::path::PathBuf;

/// Why a run cannot start or go on ([`crate::start`], [`crate::train`]).
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The checkpoint to go on from cannot be used.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The network to start from (`--init`) is of another game.
    #[error("the network to start from is for {network}, not {game}")]
    NetworkGame {
        /// The network's game.
        network: Variant,
        /// The run's game.
        game: Variant,
    },
    /// The network to start from has another number of inputs.
    #[error("the network has {network} inputs; the model {model}")]
    NetworkInputs {
        /// The network's inputs.
        network: usize,
        /// The model's.
        model: usize,
    },
    /// A checkpoint or `best.nnue` cannot be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// Why `checkpoint.bin` cannot be gone on from ([`crate::load`]).
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file exists but cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The checkpoint.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a whole checkpoint.
    #[error("{}: {damage}", path.display())]
    Damaged {
        /// The checkpoint.
        path: PathBuf,
        /// What is wrong with it.
        damage: CheckpointDamage,
    },
    /// A whole checkpoint, but of another run than this one: going on
    /// from it would train another network.
    #[error("{}: {mismatch}", path.display())]
    OtherRun {
        /// The checkpoint.
        path: PathBuf,
        /// What differs.
        mismatch: CheckpointMismatch,
    },
}

/// What is wrong with a damaged checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointDamage {
    /// It ends before its numbers do.
    #[error("cut short")]
    CutShort,
    /// It goes on after its numbers.
    #[error("longer than its numbers")]
    TooLong,
    /// It does not start as a checkpoint does.
    #[error("not a Koma trainer checkpoint")]
    NotACheckpoint,
    /// A head deeper than any network has.
    #[error("a head of {layers} layers")]
    HeadTooDeep {
        /// The layers it says.
        layers: usize,
    },
}

/// How a checkpoint differs from the run asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointMismatch {
    /// Written by the first trainer, whose model had no shared rows.
    #[error(
        "a checkpoint of an earlier trainer, which this one cannot go on from: \
         give another --state, or remove it to start afresh"
    )]
    EarlierTrainer,
    /// Of another game.
    #[error("a checkpoint of {found}, not {expected}")]
    Game {
        /// The game it names.
        found: String,
        /// The run's game.
        expected: Variant,
    },
    /// A model of another number of inputs.
    #[error("a model of {stored} inputs; {variant}'s has {now} now")]
    Inputs {
        /// The checkpoint's.
        stored: usize,
        /// The game's layout's now.
        now: usize,
        /// The game.
        variant: Variant,
    },
    /// Shared rows where the run asks for none, or the other way round.
    #[error("a model {}; this run trains one {} (--shared-rows)", shared_rows(*stored), shared_rows(*now))]
    SharedRows {
        /// The checkpoint's shared rows.
        stored: usize,
        /// The run's.
        now: usize,
    },
    /// Another head.
    #[error(
        "a model whose head is {}; this run trains one whose head is {} (--layers)",
        joined(stored),
        joined(now)
    )]
    Head {
        /// The checkpoint's head widths.
        stored: Vec<usize>,
        /// The run's.
        now: Vec<usize>,
    },
}

/// Head widths as `--layers` writes them, with the output: `16,1`.
fn joined(widths: &[usize]) -> String {
    let widths: Vec<String> = widths.iter().map(usize::to_string).collect();
    widths.join(",")
}

/// "with N shared rows" or "without shared rows".
fn shared_rows(factors: usize) -> String {
    match factors {
        0 => "without shared rows".to_string(),
        n => format!("with {n} shared rows"),
    }
}
