//! A training run: epochs of shuffled batches over the training data,
//! the gradient of each batch shared out over threads, the held-out loss
//! after each epoch, and a checkpoint after each.

use crate::adam::Adam;
use crate::checkpoint::{self, State};
use crate::data::Dataset;
use crate::model::{sigmoid, target, Model, Shape};
use crate::TrainError;
use koma_nnue::Network;
use koma_rules::Variant;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::Instant;

/// How a run trains.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the training data.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's rate at the start; it falls to 0.3 of it after 60 % of the
    /// epochs and to 0.09 after 85 %.
    pub rate: f32,
    /// How much of the target is the search's value (the rest is the
    /// game's result).
    pub lambda: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Chooses the first weights and the order of the positions.
    pub seed: u64,
    /// Trains the head alone, the first layer (and its shared rows) kept
    /// as it starts: a new head over a trained network's first layer
    /// learns from less data than the whole network would need.
    pub freeze_first_layer: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epochs: 40,
            batch: 16384,
            rate: 1e-3,
            lambda: 0.5,
            threads: 2,
            seed: 1,
            freeze_first_layer: false,
        }
    }
}

/// What one finished epoch reports.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Epochs finished, of `epochs`.
    pub epoch: u32,
    /// Epochs in the run.
    pub epochs: u32,
    /// The mean loss over the epoch's batches.
    pub train_loss: f64,
    /// The loss on the held-out positions after it.
    pub held_out_loss: f64,
    /// Whether that is the lowest yet (its network is then `best.nnue`).
    pub best: bool,
    /// Training positions a second.
    pub rate: f64,
}

/// What a run tells its caller as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Report {
    /// A batch of epoch `epoch` (counted from 1) is done: `positions` of
    /// the epoch's `of`.
    Batch {
        /// The epoch under way.
        epoch: u32,
        /// Positions done in it.
        positions: usize,
        /// Positions in an epoch.
        of: usize,
    },
    /// An epoch is done.
    Epoch(Epoch),
}

/// The rate for `epoch` (0-based) of `epochs`.
pub fn rate_at(settings: &Settings, epoch: u32) -> f32 {
    let done = f64::from(epoch) / f64::from(settings.epochs.max(1));
    if done < 0.6 {
        settings.rate
    } else if done < 0.85 {
        settings.rate * 0.3
    } else {
        settings.rate * 0.09
    }
}

/// The logistic scale that best turns the data's values into its results:
/// the `k` minimising `Σ (σ(value / k) − result)²`, by golden-section
/// search over `[20, 5000]` in log space.
pub fn fit_scale(data: &Dataset) -> f64 {
    let error = |k: f64| -> f64 {
        (0..data.len())
            .map(|i| {
                let p = f64::from(sigmoid(f32::from(data.values[i]) / k as f32));
                let r = (f64::from(data.results[i]) + 1.0) / 2.0;
                (p - r) * (p - r)
            })
            .sum()
    };
    let (mut low, mut high) = (20f64.ln(), 5000f64.ln());
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = high - golden * (high - low);
        let b = low + golden * (high - low);
        if error(a.exp()) < error(b.exp()) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// The state a run starts from: `dir`'s checkpoint if it has one, else a
/// fresh model of `shape` (see [`Model`]), from `init`'s numbers if given
/// (see [`Model::from_network`]), with the scale fitted to `train`.
pub fn start(
    dir: &Path,
    variant: Variant,
    shape: &Shape,
    train: &Dataset,
    settings: &Settings,
    init: Option<&Network>,
) -> Result<State, TrainError> {
    if let Some(state) = checkpoint::load(dir, variant, shape)? {
        return Ok(state);
    }
    let model = match init {
        Some(network) if network.variant() != variant => {
            return Err(TrainError::NetworkGame {
                network: network.variant(),
                game: variant,
            })
        }
        Some(network) => Model::from_network(network, shape, settings.seed)?,
        None => Model::with_shape(variant, shape, settings.seed),
    };
    let len = model.params.len();
    Ok(State {
        model,
        adam: Adam::new(len),
        epoch: 0,
        k: fit_scale(train),
        lambda: f64::from(settings.lambda),
        best_loss: f64::INFINITY,
    })
}

/// Trains `state` until `settings.epochs`, saving a checkpoint (and
/// `best.nnue` when the held-out loss is the lowest yet) in `dir` after
/// every epoch; `report` hears of each batch and each epoch.
pub fn train(
    state: &mut State,
    train: &Dataset,
    held_out: &Dataset,
    settings: &Settings,
    dir: &Path,
    mut report: impl FnMut(Report),
) -> Result<(), TrainError> {
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |source| TrainError::Write { path, source }
    };
    let threads = settings.threads.max(1);
    let len = state.model.params.len();
    let mut gradients: Vec<Vec<f32>> = (0..threads).map(|_| vec![0f32; len]).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let (k, lambda) = (state.k as f32, state.lambda as f32);
    // A frozen first layer gets no gradient: its part of each buffer stays
    // zero and is neither computed, cleared nor summed, and its weights,
    // which do not move, are not clipped.
    let from = if settings.freeze_first_layer {
        state.model.head_at()
    } else {
        0
    };
    while state.epoch < settings.epochs {
        let started = Instant::now();
        // The order of an epoch depends on the seed and the epoch alone,
        // so that a resumed run shuffles as the uncut one would have.
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed ^ (u64::from(state.epoch) << 32));
        order.sort_unstable();
        order.shuffle(&mut rng);
        let rate = rate_at(settings, state.epoch);
        let mut loss_sum = 0f64;
        for (done, batch) in order.chunks(settings.batch.max(1)).enumerate() {
            let weight = 1.0 / batch.len() as f32;
            let share = batch.len().div_ceil(threads);
            let model = &state.model;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = gradients
                    .iter_mut()
                    .zip(batch.chunks(share))
                    .map(|(gradient, part)| {
                        scope.spawn(move || {
                            gradient[from..].fill(0.0);
                            let mut loss = 0f64;
                            for &i in part {
                                let i = i as usize;
                                let (us, them) = train.inputs(i);
                                let t = target(train, i, lambda, k);
                                loss += f64::from(if from > 0 {
                                    model.backward_head(us, them, t, k, weight, gradient)
                                } else {
                                    model.backward(us, them, t, k, weight, gradient)
                                });
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a training thread panicked"))
                    .collect()
            });
            loss_sum += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(share);
            let (first, rest) = gradients.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (total, g) in first[0][from..].iter_mut().zip(&other[from..]) {
                    *total += g;
                }
            }
            state
                .adam
                .step_from(from, &mut state.model.params, &first[0], rate);
            state.model.clip_head();
            if !settings.freeze_first_layer {
                state.model.clip_first_layer();
            }
            report(Report::Batch {
                epoch: state.epoch + 1,
                positions: (done * settings.batch.max(1) + batch.len()).min(train.len()),
                of: train.len(),
            });
        }
        let batches = train.len().div_ceil(settings.batch.max(1)).max(1);
        let held = state.model.loss(held_out, lambda, k);
        state.epoch += 1;
        let best = held < state.best_loss;
        if best {
            state.best_loss = held;
            let bytes = state.model.quantise().to_bytes();
            std::fs::create_dir_all(dir).map_err(failed(dir))?;
            let part = dir.join("best.nnue.part");
            std::fs::write(&part, bytes).map_err(failed(&part))?;
            std::fs::rename(&part, dir.join("best.nnue")).map_err(failed(dir))?;
        }
        checkpoint::save(dir, state).map_err(failed(dir))?;
        report(Report::Epoch(Epoch {
            epoch: state.epoch,
            epochs: settings.epochs,
            train_loss: loss_sum / batches as f64,
            held_out_loss: held,
            best,
            rate: train.len() as f64 / started.elapsed().as_secs_f64().max(1e-9),
        }));
    }
    Ok(())
}
