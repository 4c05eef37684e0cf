//! The trainer's state on disk, so that a run cut off (a session ends
//! after three hours) goes on from its last finished epoch.
//!
//! `checkpoint.bin`, little-endian: `KOMATRN3`, the game's name (length
//! first), the inputs and the shared rows (`u32` each; see [`Model`]),
//! the head's layers and each one's outputs (`u32` each; see
//! [`Shape::head`]), the epoch reached (`u32`), the scale `k`,
//! the blend `λ` and the best held-out loss (`f64` each), Adam's steps
//! (`u64`), then the model's numbers, Adam's means and Adam's squares
//! (`f32` each, as many as [`Shape::len`] says). A `KOMATRN2` checkpoint
//! is the same without the head, which was one output. It is written to a
//! temporary file and renamed over the old one, so that a kill mid-write
//! leaves the previous checkpoint whole.

use crate::adam::Adam;
use crate::error::{CheckpointDamage, CheckpointError, CheckpointMismatch};
use crate::model::{Model, Shape};
use koma_rules::Variant;
use std::fs;
use std::io::{self, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"KOMATRN3";
/// The second trainer's checkpoints, whose head was one output.
const SECOND_MAGIC: &[u8; 8] = b"KOMATRN2";
/// The first trainer's checkpoints, which had no shared rows.
const FIRST_MAGIC: &[u8; 8] = b"KOMATRN1";

/// Everything a run needs to go on.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The model.
    pub model: Model,
    /// Its optimiser.
    pub adam: Adam,
    /// Epochs finished.
    pub epoch: u32,
    /// The logistic scale fitted to the data's values.
    pub k: f64,
    /// The blend of value and result.
    pub lambda: f64,
    /// The lowest held-out loss so far (its network is `best.nnue`).
    pub best_loss: f64,
}

/// Writes `state` to `dir/checkpoint.bin`.
pub fn save(dir: &Path, state: &State) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let temporary = dir.join("checkpoint.bin.part");
    {
        let mut out = io::BufWriter::new(fs::File::create(&temporary)?);
        out.write_all(MAGIC)?;
        let name = state.model.variant.name();
        out.write_all(&[name.len() as u8])?;
        out.write_all(name.as_bytes())?;
        out.write_all(&(state.model.inputs as u32).to_le_bytes())?;
        out.write_all(&(state.model.factors as u32).to_le_bytes())?;
        out.write_all(&(state.model.head.len() as u32).to_le_bytes())?;
        for &width in &state.model.head {
            out.write_all(&(width as u32).to_le_bytes())?;
        }
        out.write_all(&state.epoch.to_le_bytes())?;
        for number in [state.k, state.lambda, state.best_loss] {
            out.write_all(&number.to_le_bytes())?;
        }
        out.write_all(&state.adam.steps.to_le_bytes())?;
        for numbers in [&state.model.params, &state.adam.mean, &state.adam.square] {
            for number in numbers.iter() {
                out.write_all(&number.to_le_bytes())?;
            }
        }
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    }
    fs::rename(temporary, dir.join("checkpoint.bin"))
}

/// Reads `dir/checkpoint.bin`; `Ok(None)` if there is none. A checkpoint
/// of another game or shape, or one cut short, is an error, never a
/// silent fresh start.
pub fn load(dir: &Path, variant: Variant, shape: &Shape) -> Result<Option<State>, CheckpointError> {
    let path = dir.join("checkpoint.bin");
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(CheckpointError::Read { path, source }),
    };
    read(&bytes, variant, shape)
        .map(Some)
        .map_err(|problem| match problem {
            Problem::Damage(damage) => CheckpointError::Damaged { path, damage },
            Problem::Mismatch(mismatch) => CheckpointError::OtherRun { path, mismatch },
        })
}

/// What is wrong with a checkpoint's bytes, before the path is known.
enum Problem {
    Damage(CheckpointDamage),
    Mismatch(CheckpointMismatch),
}

impl From<CheckpointDamage> for Problem {
    fn from(damage: CheckpointDamage) -> Problem {
        Problem::Damage(damage)
    }
}

impl From<CheckpointMismatch> for Problem {
    fn from(mismatch: CheckpointMismatch) -> Problem {
        Problem::Mismatch(mismatch)
    }
}

/// The state in a checkpoint's bytes, for a run of `variant` and `shape`.
fn read(bytes: &[u8], variant: Variant, shape: &Shape) -> Result<State, Problem> {
    let (inputs, factors) = (shape.inputs, shape.factors);
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], Problem> {
        let slice = bytes
            .get(at..at + n)
            .ok_or(Problem::Damage(CheckpointDamage::CutShort))?;
        at += n;
        Ok(slice)
    };
    let has_head = match take(8)? {
        magic if magic == MAGIC => true,
        magic if magic == SECOND_MAGIC => false,
        magic if magic == FIRST_MAGIC => return Err(CheckpointMismatch::EarlierTrainer.into()),
        _ => return Err(CheckpointDamage::NotACheckpoint.into()),
    };
    let length = usize::from(take(1)?[0]);
    let name = String::from_utf8_lossy(take(length)?).into_owned();
    if name != variant.name() {
        return Err(CheckpointMismatch::Game {
            found: name,
            expected: variant,
        }
        .into());
    }
    let stored_inputs = u32::from_le_bytes(take(4)?.try_into().unwrap()) as usize;
    if stored_inputs != inputs {
        return Err(CheckpointMismatch::Inputs {
            stored: stored_inputs,
            now: inputs,
            variant,
        }
        .into());
    }
    let stored_factors = u32::from_le_bytes(take(4)?.try_into().unwrap()) as usize;
    if stored_factors != factors {
        return Err(CheckpointMismatch::SharedRows {
            stored: stored_factors,
            now: factors,
        }
        .into());
    }
    let mut number = || -> Result<usize, Problem> {
        Ok(u32::from_le_bytes(take(4)?.try_into().unwrap()) as usize)
    };
    let head = if has_head {
        let layers = number()?;
        if layers > koma_nnue::head::MAX_LAYERS {
            return Err(CheckpointDamage::HeadTooDeep { layers }.into());
        }
        (0..layers)
            .map(|_| number())
            .collect::<Result<Vec<_>, _>>()?
    } else {
        vec![1]
    };
    if head != shape.head {
        return Err(CheckpointMismatch::Head {
            stored: head,
            now: shape.head.clone(),
        }
        .into());
    }
    let epoch = u32::from_le_bytes(take(4)?.try_into().unwrap());
    let mut float =
        || -> Result<f64, Problem> { Ok(f64::from_le_bytes(take(8)?.try_into().unwrap())) };
    let (k, lambda, best_loss) = (float()?, float()?, float()?);
    let steps = u64::from_le_bytes(take(8)?.try_into().unwrap());
    let len = shape.len();
    let mut floats = || -> Result<Vec<f32>, Problem> {
        Ok(take(4 * len)?
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect())
    };
    let (params, mean, square) = (floats()?, floats()?, floats()?);
    if at != bytes.len() {
        return Err(CheckpointDamage::TooLong.into());
    }
    Ok(State {
        model: Model {
            variant,
            inputs,
            factors,
            head,
            params,
        },
        adam: Adam {
            mean,
            square,
            steps,
        },
        epoch,
        k,
        lambda,
        best_loss,
    })
}
