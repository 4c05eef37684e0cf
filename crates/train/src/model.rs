//! The network in floating point, as it is trained: its numbers in one
//! flat vector, its output, its gradient, and its quantised file.

use crate::data::Dataset;
use crate::TrainError;
use koma_nnue::{Layer, Network, HIDDEN, QA, QB, SCALE};
use koma_rules::Variant;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The first layer's weights and biases stay within this, so that a
/// quantised weight (times [`QA`]) and a position's sum of a few dozen
/// stay far from the 16-bit limit.
pub const FIRST_LAYER_LIMIT: f32 = 1.98;

/// The head's weights and its hidden layers' biases stay within this, so
/// that a quantised weight (times [`QB`]) fits in 16 bits and a hidden
/// sum over `2 · HIDDEN` values of at most 1.0 fits in 32 (at most `512 ·
/// 255 · 16 · 512`, about 1.07 · 10⁹).
pub const HEAD_LIMIT: f32 = 16.0;

/// What a model is made of: its inputs, its shared rows and its head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Inputs of the first layer.
    pub inputs: usize,
    /// Shared rows: the inputs per king bucket, or 0 for none.
    pub factors: usize,
    /// The outputs of each of the head's layers, the last 1: `[1]` is
    /// the first networks' head, one output over both accumulators;
    /// `[16, 32, 1]` has two hidden layers.
    pub head: Vec<usize>,
}

impl Shape {
    /// Numbers in a model of this shape.
    pub fn len(&self) -> usize {
        (self.inputs + self.factors) * HIDDEN + HIDDEN + self.head_len() + self.skip_len()
    }

    /// The skip's weights: `2 · HIDDEN` beside hidden layers, else none
    /// (see [`koma_nnue::head`]).
    pub fn skip_len(&self) -> usize {
        koma_nnue::head::skip_len(self.head.len())
    }

    /// Whether the model has no numbers (never: it has biases).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn head_len(&self) -> usize {
        self.layers()
            .map(|(inputs, outputs)| (inputs + 1) * outputs)
            .sum()
    }

    /// Each head layer's inputs and outputs.
    fn layers(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let inputs = std::iter::once(2 * HIDDEN).chain(self.head.iter().copied());
        inputs.zip(self.head.iter().copied())
    }

    /// Whether the head is one the engine reads: each layer 1 to 512 wide,
    /// at most four, the last of one output.
    pub fn has_valid_head(&self) -> bool {
        !self.head.is_empty()
            && self.head.len() <= koma_nnue::head::MAX_LAYERS
            && self.head.last() == Some(&1)
            && self
                .head
                .iter()
                .all(|&w| (1..=koma_nnue::head::MAX_WIDTH).contains(&w))
    }
}

/// A head's widths joined by `separator`: "16,32,1" as `--layers` takes
/// them, "16 → 32 → 1" as a person reads them.
///
/// ```
/// assert_eq!(koma_train::head_widths(&[16, 32, 1], ","), "16,32,1");
/// ```
pub fn head_widths(head: &[usize], separator: &str) -> String {
    let widths: Vec<String> = head.iter().map(usize::to_string).collect();
    widths.join(separator)
}

/// The float network: `inputs · HIDDEN` first-layer weights, `factors ·
/// HIDDEN` shared weights, `HIDDEN` biases, then the head's layers, each
/// its weights output by output and its biases, then the skip's `2 ·
/// HIDDEN` weights beside hidden layers, in that order (with the head
/// `[1]`: `2 · HIDDEN` output weights and one output bias, no skip).
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
    /// The outputs of each of the head's layers (see [`Shape::head`]).
    pub head: Vec<usize>,
    /// Every number, in the order above.
    pub params: Vec<f32>,
}

/// One position's values on the way through: what each head layer reads
/// (both sides' first-layer sums, clipped, for the first; the layer
/// before's sums, clipped, for the others) and the output.
struct Forward {
    inputs: Vec<Vec<f32>>,
    output: f32,
}

/// A sum clipped to `[0, 1]`, as the next layer reads it.
#[inline]
fn clipped(sums: &[f32]) -> Vec<f32> {
    sums.iter().map(|s| s.clamp(0.0, 1.0)).collect()
}

/// Whether a clipped value passes the gradient through: strictly inside
/// `[0, 1]`, which the clipped value is exactly when its sum was.
#[inline]
fn passes(value: f32) -> bool {
    value > 0.0 && value < 1.0
}

impl Model {
    /// A model with small random weights, no shared rows and the head of
    /// one output.
    pub fn new(variant: Variant, inputs: usize, seed: u64) -> Model {
        Model::with_factors(variant, inputs, 0, seed)
    }

    /// A model with small random weights, `factors` shared rows (see
    /// [`Model`]), which start at 0, and the head of one output; `inputs`
    /// is a multiple of `factors`.
    pub fn with_factors(variant: Variant, inputs: usize, factors: usize, seed: u64) -> Model {
        let shape = Shape {
            inputs,
            factors,
            head: vec![1],
        };
        Model::with_shape(variant, &shape, seed)
    }

    /// A model of `shape` with small random weights; shared rows start at
    /// 0.
    pub fn with_shape(variant: Variant, shape: &Shape, seed: u64) -> Model {
        let (inputs, factors) = (shape.inputs, shape.factors);
        assert!(factors == 0 || inputs % factors == 0, "whole buckets");
        assert!(shape.has_valid_head(), "a head the engine reads");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0f32; shape.len()];
        // About 40 inputs are on in a position: a sum of that many weights
        // of ±0.05 starts near the clipping range [0, 1], not beyond it.
        for weight in &mut params[..inputs * HIDDEN] {
            *weight = rng.random_range(-0.05..0.05);
        }
        let mut model = Model {
            variant,
            inputs,
            factors,
            head: shape.head.clone(),
            params,
        };
        model.randomise_head(&mut rng);
        model
    }

    /// A model that starts from `network`: its first layer (shared rows at
    /// 0) and, if `shape`'s head is the network's, its head too, else a
    /// fresh random head. Further training then refines what the network
    /// knows rather than learning it again.
    pub fn from_network(network: &Network, shape: &Shape, seed: u64) -> Result<Model, TrainError> {
        let inputs = network.layout().inputs();
        if inputs != shape.inputs {
            return Err(TrainError::NetworkInputs {
                network: inputs,
                model: shape.inputs,
            });
        }
        let mut model = Model::with_shape(network.variant(), shape, seed);
        let qa = QA as f32;
        for (param, &weight) in model.params.iter_mut().zip(network.first_weights()) {
            *param = f32::from(weight) / qa;
        }
        let bias_at = model.bias_at();
        for (param, &bias) in model.params[bias_at..]
            .iter_mut()
            .zip(network.first_biases())
        {
            *param = f32::from(bias) / qa;
        }
        let qb = QB as f32;
        let bias_scale = (QA * QB) as f32;
        if network.head_widths() == shape.head {
            let mut at = model.head_at();
            for layer in network.head() {
                for &weight in layer.weights() {
                    model.params[at] = f32::from(weight) / qb;
                    at += 1;
                }
                for &bias in layer.biases() {
                    model.params[at] = bias as f32 / bias_scale;
                    at += 1;
                }
            }
            for &weight in network.skip() {
                model.params[at] = f32::from(weight) / qb;
                at += 1;
            }
        } else if let ([output], true) = (network.head(), shape.head.len() > 1) {
            // Hidden layers over a network of one output: the skip is that
            // output and the last layer starts at 0, so that the model
            // starts as the network and learns what the layers add.
            let skip_at = model.skip_at();
            for (param, &weight) in model.params[skip_at..].iter_mut().zip(output.weights()) {
                *param = f32::from(weight) / qb;
            }
            let last_at = skip_at - 1 - shape.head[shape.head.len() - 2];
            model.params[last_at..skip_at - 1].fill(0.0);
            model.params[skip_at - 1] = output.biases()[0] as f32 / bias_scale;
        }
        Ok(model)
    }

    /// Fresh random numbers for the head: hidden layers start with their
    /// sums near the middle of `[0, 1]`, the output small.
    fn randomise_head(&mut self, rng: &mut ChaCha8Rng) {
        let shape = self.shape();
        let mut at = self.head_at();
        let layers: Vec<_> = shape.layers().collect();
        for (l, &(inputs, outputs)) in layers.iter().enumerate() {
            let last = l + 1 == layers.len();
            // The first networks' output started at ±0.05; a hidden layer
            // at about 1.5 / √inputs, whose sums then spread by about 0.3.
            let spread = if layers.len() == 1 {
                0.05
            } else {
                let spread = 1.5 / (inputs as f32).sqrt();
                if last {
                    spread * 0.2
                } else {
                    spread
                }
            };
            for weight in &mut self.params[at..at + inputs * outputs] {
                *weight = rng.random_range(-spread..spread);
            }
            at += inputs * outputs;
            for bias in &mut self.params[at..at + outputs] {
                *bias = if last { 0.0 } else { 0.5 };
            }
            at += outputs;
        }
        for weight in &mut self.params[at..] {
            *weight = rng.random_range(-0.05..0.05);
        }
    }

    /// The model's shape.
    pub fn shape(&self) -> Shape {
        Shape {
            inputs: self.inputs,
            factors: self.factors,
            head: self.head.clone(),
        }
    }

    fn bias_at(&self) -> usize {
        (self.inputs + self.factors) * HIDDEN
    }

    /// Where the head's numbers start in [`Model::params`].
    pub fn head_at(&self) -> usize {
        self.bias_at() + HIDDEN
    }

    /// Where the skip's weights start (the end, without a skip).
    fn skip_at(&self) -> usize {
        self.params.len() - self.shape().skip_len()
    }

    /// Each head layer's inputs, outputs and where its numbers start.
    fn head_layers(&self) -> Vec<(usize, usize, usize)> {
        let mut at = self.head_at();
        self.shape()
            .layers()
            .map(|(inputs, outputs)| {
                let start = at;
                at += (inputs + 1) * outputs;
                (inputs, outputs, start)
            })
            .collect()
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
        let mut inputs = vec![clipped(sums.as_flattened())];
        let mut output = 0.0;
        let layers = self.head_layers();
        for (l, &(width, outputs, at)) in layers.iter().enumerate() {
            let input = inputs.last().expect("the first layer's");
            let weights = &self.params[at..at + width * outputs];
            let biases = &self.params[at + width * outputs..at + (width + 1) * outputs];
            let layer: Vec<f32> = weights
                .chunks_exact(width)
                .zip(biases)
                .map(|(row, bias)| bias + row.iter().zip(input).map(|(w, x)| w * x).sum::<f32>())
                .collect();
            if l + 1 == layers.len() {
                output = layer[0];
            } else {
                inputs.push(clipped(&layer));
            }
        }
        let skip = &self.params[self.skip_at()..];
        output += skip.iter().zip(&inputs[0]).map(|(w, x)| w * x).sum::<f32>();
        Forward { inputs, output }
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
        self.backward_from(us, them, target, k, weight, gradient, true)
    }

    /// [`Model::backward`] for the head alone: the gradient from
    /// [`Model::head_at`] on, the first layer's part left as it was (a
    /// frozen first layer needs no gradient, and it is most of the work).
    pub fn backward_head(
        &self,
        us: &[u16],
        them: &[u16],
        target: f32,
        k: f32,
        weight: f32,
        gradient: &mut [f32],
    ) -> f32 {
        self.backward_from(us, them, target, k, weight, gradient, false)
    }

    #[allow(clippy::too_many_arguments)]
    fn backward_from(
        &self,
        us: &[u16],
        them: &[u16],
        target: f32,
        k: f32,
        weight: f32,
        gradient: &mut [f32],
        first_layer: bool,
    ) -> f32 {
        let forward = self.forward(us, them);
        let scale = SCALE as f32 / k;
        let p = sigmoid(forward.output * scale);
        let error = p - target;
        // The loss's gradient at each sum of the layer at hand, from the
        // output back to the first head layer.
        let output_delta = 2.0 * error * p * (1.0 - p) * scale * weight;
        let mut deltas = vec![output_delta];
        let layers = self.head_layers();
        let skip_at = self.skip_at();
        for (l, &(inputs, outputs, at)) in layers.iter().enumerate().rev() {
            let input = &forward.inputs[l];
            let (weights_at, biases_at) = (at, at + inputs * outputs);
            let mut back = vec![0f32; inputs];
            for (j, &delta) in deltas.iter().enumerate() {
                if delta == 0.0 {
                    continue;
                }
                gradient[biases_at + j] += delta;
                let row = weights_at + j * inputs;
                for (total, x) in gradient[row..row + inputs].iter_mut().zip(input) {
                    *total += delta * x;
                }
                for (b, w) in back.iter_mut().zip(&self.params[row..row + inputs]) {
                    *b += delta * w;
                }
            }
            if l == 0 && skip_at < self.params.len() {
                // The skip reads what the first head layer reads.
                let skip = &self.params[skip_at..];
                for ((total, b), (x, w)) in gradient[skip_at..]
                    .iter_mut()
                    .zip(back.iter_mut())
                    .zip(input.iter().zip(skip))
                {
                    *total += output_delta * x;
                    *b += output_delta * w;
                }
            }
            // Through the clipping of what this layer read.
            for (b, &x) in back.iter_mut().zip(input) {
                if !passes(x) {
                    *b = 0.0;
                }
            }
            deltas = back;
        }
        if !first_layer {
            return error * error * weight;
        }
        let bias_at = self.bias_at();
        for (side, inputs) in [us, them].into_iter().enumerate() {
            let through = &deltas[side * HIDDEN..(side + 1) * HIDDEN];
            for (total, d) in gradient[bias_at..bias_at + HIDDEN].iter_mut().zip(through) {
                *total += d;
            }
            for &input in inputs {
                for at in self.rows_of(input) {
                    let row = &mut gradient[at * HIDDEN..][..HIDDEN];
                    for (total, d) in row.iter_mut().zip(through) {
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

    /// Keeps the head within [`HEAD_LIMIT`].
    pub fn clip_head(&mut self) {
        let head_at = self.head_at();
        for weight in &mut self.params[head_at..] {
            *weight = weight.clamp(-HEAD_LIMIT, HEAD_LIMIT);
        }
    }

    /// Keeps the first layer within [`FIRST_LAYER_LIMIT`], each weight as
    /// the engine will see it: a bucket's row plus its shared row.
    pub fn clip_first_layer(&mut self) {
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
        let head = self
            .head_layers()
            .into_iter()
            .map(|(inputs, outputs, at)| {
                let weights = self.params[at..at + inputs * outputs]
                    .iter()
                    .map(|&w| round(w, QB))
                    .collect();
                let biases = self.params[at + inputs * outputs..at + (inputs + 1) * outputs]
                    .iter()
                    .map(|&b| (b * (QA * QB) as f32).round() as i32)
                    .collect();
                Layer::new(inputs, weights, biases).expect("the head's lengths")
            })
            .collect();
        let skip = self.params[self.skip_at()..]
            .iter()
            .map(|&w| round(w, QB))
            .collect();
        Network::with_head(self.variant, weights, bias, head, skip)
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
