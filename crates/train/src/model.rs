//! The network in floating point, as it is trained: its numbers in one
//! flat vector, its output, its gradient, and its quantised file.

use crate::data::Dataset;
use koma_nnue::{Network, HIDDEN, QA, QB, SCALE};
use koma_rules::Variant;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The first layer's weights and biases stay within this, so that a
/// quantised weight (times [`QA`]) and a position's sum of a few dozen
/// stay far from the 16-bit limit.
pub const FIRST_LAYER_LIMIT: f32 = 1.98;

/// The float network: `inputs · HIDDEN` first-layer weights, `factors ·
/// HIDDEN` shared weights, `HIDDEN` biases, `2 · HIDDEN` output weights,
/// one output bias, in that order.
///
/// **Shared weights (a factoriser).** With `factors` set to the layout's
/// inputs per king bucket, each input `i` also adds the shared row `i %
/// factors`, the same for every bucket: a piece on a square counts much
/// the same wherever the king stands, and the shared row learns that from
/// every position while each bucket's own row learns only from its own.
/// The network the engine runs has no shared rows: [`Model::quantise`]
/// adds each to its buckets' rows, so the file and the engine are the
/// same with or without them.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The game.
    pub variant: Variant,
    /// Inputs of the first layer.
    pub inputs: usize,
    /// Shared rows: the inputs per king bucket, or 0 for none.
    pub factors: usize,
    /// Every number, in the order above.
    pub params: Vec<f32>,
}

/// The first layer's values of one position, before and after clipping.
struct Forward {
    sums: [[f32; HIDDEN]; 2],
    output: f32,
}

impl Model {
    /// A model with small random weights and no shared rows.
    pub fn new(variant: Variant, inputs: usize, seed: u64) -> Model {
        Model::with_factors(variant, inputs, 0, seed)
    }

    /// A model with small random weights and `factors` shared rows (see
    /// [`Model`]), which start at 0; `inputs` is a multiple of `factors`.
    pub fn with_factors(variant: Variant, inputs: usize, factors: usize, seed: u64) -> Model {
        assert!(factors == 0 || inputs % factors == 0, "whole buckets");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0f32; Self::len_for(inputs, factors)];
        // About 40 inputs are on in a position: a sum of that many weights
        // of ±0.05 starts near the clipping range [0, 1], not beyond it.
        for weight in &mut params[..inputs * HIDDEN] {
            *weight = rng.random_range(-0.05..0.05);
        }
        let mut model = Model {
            variant,
            inputs,
            factors,
            params,
        };
        let out = model.out_at();
        for weight in &mut model.params[out..out + 2 * HIDDEN] {
            *weight = rng.random_range(-0.05..0.05);
        }
        model
    }

    /// Numbers in a model of `inputs` inputs and `factors` shared rows.
    pub fn len_for(inputs: usize, factors: usize) -> usize {
        (inputs + factors) * HIDDEN + HIDDEN + 2 * HIDDEN + 1
    }

    fn bias_at(&self) -> usize {
        (self.inputs + self.factors) * HIDDEN
    }

    fn out_at(&self) -> usize {
        self.bias_at() + HIDDEN
    }

    /// The rows input `input` adds: its own and, with shared rows, its
    /// feature's.
    #[inline]
    fn rows_of(&self, input: u16) -> impl Iterator<Item = usize> {
        let input = usize::from(input);
        let shared = (self.factors > 0).then(|| self.inputs + input % self.factors);
        std::iter::once(input).chain(shared)
    }

    fn forward(&self, us: &[u16], them: &[u16]) -> Forward {
        let bias = &self.params[self.bias_at()..self.bias_at() + HIDDEN];
        let mut sums = [[0f32; HIDDEN]; 2];
        for (side, inputs) in [us, them].into_iter().enumerate() {
            sums[side].copy_from_slice(bias);
            for &input in inputs {
                for at in self.rows_of(input) {
                    let row = &self.params[at * HIDDEN..][..HIDDEN];
                    for (sum, weight) in sums[side].iter_mut().zip(row) {
                        *sum += weight;
                    }
                }
            }
        }
        let out = &self.params[self.out_at()..];
        let mut output = out[2 * HIDDEN];
        for side in 0..2 {
            for (sum, weight) in sums[side]
                .iter()
                .zip(&out[side * HIDDEN..(side + 1) * HIDDEN])
            {
                output += sum.clamp(0.0, 1.0) * weight;
            }
        }
        Forward { sums, output }
    }

    /// The value in centipawns for the side to move, whose inputs are `us`.
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> f32 {
        self.forward(us, them).output * SCALE as f32
    }

    /// Adds the gradient of one position's loss to `gradient`, the loss
    /// being `(σ(output · SCALE / k) − target)²` times `weight`; returns
    /// the loss.
    pub fn backward(
        &self,
        us: &[u16],
        them: &[u16],
        target: f32,
        k: f32,
        weight: f32,
        gradient: &mut [f32],
    ) -> f32 {
        let forward = self.forward(us, them);
        let scale = SCALE as f32 / k;
        let p = sigmoid(forward.output * scale);
        let error = p - target;
        let g = 2.0 * error * p * (1.0 - p) * scale * weight;
        let out_at = self.out_at();
        let bias_at = self.bias_at();
        gradient[out_at + 2 * HIDDEN] += g;
        let out = &self.params[out_at..out_at + 2 * HIDDEN];
        let mut through = [[0f32; HIDDEN]; 2];
        for side in 0..2 {
            for j in 0..HIDDEN {
                let sum = forward.sums[side][j];
                gradient[out_at + side * HIDDEN + j] += g * sum.clamp(0.0, 1.0);
                if sum > 0.0 && sum < 1.0 {
                    through[side][j] = g * out[side * HIDDEN + j];
                }
            }
        }
        for (side, inputs) in [us, them].into_iter().enumerate() {
            for (total, d) in gradient[bias_at..bias_at + HIDDEN]
                .iter_mut()
                .zip(&through[side])
            {
                *total += d;
            }
            for &input in inputs {
                for at in self.rows_of(input) {
                    let row = &mut gradient[at * HIDDEN..][..HIDDEN];
                    for (total, d) in row.iter_mut().zip(&through[side]) {
                        *total += d;
                    }
                }
            }
        }
        error * error * weight
    }

    /// The mean loss over `data` at blend `lambda` and scale `k`.
    pub fn loss(&self, data: &Dataset, lambda: f32, k: f32) -> f64 {
        let scale = SCALE as f32 / k;
        let total: f64 = (0..data.len())
            .map(|i| {
                let (us, them) = data.inputs(i);
                let p = sigmoid(self.forward(us, them).output * scale);
                let error = p - target(data, i, lambda, k);
                f64::from(error * error)
            })
            .sum();
        total / data.len().max(1) as f64
    }

    /// Keeps the first layer within [`FIRST_LAYER_LIMIT`]: each weight
    /// as the engine will see it (a bucket's row plus its shared row).
    pub fn clip(&mut self) {
        let limit = FIRST_LAYER_LIMIT;
        let (weights, rest) = self.params.split_at_mut(self.inputs * HIDDEN);
        let (shared, rest) = rest.split_at_mut(self.factors * HIDDEN);
        for weight in shared.iter_mut().chain(&mut rest[..HIDDEN]) {
            *weight = weight.clamp(-limit, limit);
        }
        if self.factors == 0 {
            for weight in weights {
                *weight = weight.clamp(-limit, limit);
            }
            return;
        }
        for (i, row) in weights.chunks_exact_mut(HIDDEN).enumerate() {
            let feature = &shared[(i % self.factors) * HIDDEN..][..HIDDEN];
            for (weight, s) in row.iter_mut().zip(feature) {
                *weight = weight.clamp(-limit - s, limit - s);
            }
        }
    }

    /// The network the engine runs: every number scaled and rounded.
    pub fn quantise(&self) -> Network {
        let round = |value: f32, scale: i32| -> i16 {
            (value * scale as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let weights = (0..self.inputs * HIDDEN)
            .map(|at| {
                let shared = match self.factors {
                    0 => 0.0,
                    factors => {
                        let (input, lane) = (at / HIDDEN, at % HIDDEN);
                        self.params[(self.inputs + input % factors) * HIDDEN + lane]
                    }
                };
                round(self.params[at] + shared, QA)
            })
            .collect();
        let bias = std::array::from_fn(|j| round(self.params[self.bias_at() + j], QA));
        let out_weights = std::array::from_fn(|j| round(self.params[self.out_at() + j], QB));
        let out_bias = (self.params[self.out_at() + 2 * HIDDEN] * (QA * QB) as f32).round() as i32;
        Network::from_parts(self.variant, weights, bias, out_weights, out_bias)
            .expect("the model has its game's shape")
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What position `i` is trained towards: `lambda` of the search's value
/// (as a win probability at scale `k`) and the rest of the game's result.
#[inline]
pub fn target(data: &Dataset, i: usize, lambda: f32, k: f32) -> f32 {
    let value = sigmoid(f32::from(data.values[i]) / k);
    let result = (f32::from(data.results[i]) + 1.0) / 2.0;
    lambda * value + (1.0 - lambda) * result
}
