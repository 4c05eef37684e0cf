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

/// The float network: `inputs · HIDDEN` first-layer weights, `HIDDEN`
/// biases, `2 · HIDDEN` output weights, one output bias, in that order.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The game.
    pub variant: Variant,
    /// Inputs of the first layer.
    pub inputs: usize,
    /// Every number, in the order above.
    pub params: Vec<f32>,
}

/// The first layer's values of one position, before and after clipping.
struct Forward {
    sums: [[f32; HIDDEN]; 2],
    output: f32,
}

impl Model {
    /// A model with small random weights.
    pub fn new(variant: Variant, inputs: usize, seed: u64) -> Model {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0f32; Self::len_for(inputs)];
        // About 40 inputs are on in a position: a sum of that many weights
        // of ±0.05 starts near the clipping range [0, 1], not beyond it.
        for weight in &mut params[..inputs * HIDDEN] {
            *weight = rng.random_range(-0.05..0.05);
        }
        let out = inputs * HIDDEN + HIDDEN;
        for weight in &mut params[out..out + 2 * HIDDEN] {
            *weight = rng.random_range(-0.05..0.05);
        }
        Model {
            variant,
            inputs,
            params,
        }
    }

    /// Numbers in a model of `inputs` inputs.
    pub fn len_for(inputs: usize) -> usize {
        inputs * HIDDEN + HIDDEN + 2 * HIDDEN + 1
    }

    fn bias_at(&self) -> usize {
        self.inputs * HIDDEN
    }

    fn out_at(&self) -> usize {
        self.inputs * HIDDEN + HIDDEN
    }

    fn forward(&self, us: &[u16], them: &[u16]) -> Forward {
        let bias = &self.params[self.bias_at()..self.bias_at() + HIDDEN];
        let mut sums = [[0f32; HIDDEN]; 2];
        for (side, inputs) in [us, them].into_iter().enumerate() {
            sums[side].copy_from_slice(bias);
            for &input in inputs {
                let row = &self.params[usize::from(input) * HIDDEN..][..HIDDEN];
                for (sum, weight) in sums[side].iter_mut().zip(row) {
                    *sum += weight;
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
                let row = &mut gradient[usize::from(input) * HIDDEN..][..HIDDEN];
                for (total, d) in row.iter_mut().zip(&through[side]) {
                    *total += d;
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

    /// Keeps the first layer within [`FIRST_LAYER_LIMIT`].
    pub fn clip(&mut self) {
        let end = self.out_at();
        for weight in &mut self.params[..end] {
            *weight = weight.clamp(-FIRST_LAYER_LIMIT, FIRST_LAYER_LIMIT);
        }
    }

    /// The network the engine runs: every number scaled and rounded.
    pub fn quantise(&self) -> Network {
        let round = |value: f32, scale: i32| -> i16 {
            (value * scale as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let weights = self.params[..self.bias_at()]
            .iter()
            .map(|&w| round(w, QA))
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
