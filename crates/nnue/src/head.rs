//! The layers after the accumulator: the network's head.
//!
//! The head reads both sides' accumulators, clipped to `[0, QA]` and
//! joined (the side to move's first: `2 · HIDDEN` values), and ends in one
//! output. The first networks' head was that output alone; a head may also
//! have hidden layers between them, whose sums are clipped to `[0, 1]`
//! again: a sum of one side's values times another's cannot be written as
//! one output weight per value, and judging an attack against its defence
//! needs such sums.
//!
//! A head with hidden layers also has a **skip**: the first networks'
//! output, one weight per clipped value, added to its last layer's sum.
//! A head trained on top of a network of the first shape starts as that
//! network (its skip that network's output, its last layer at 0) and
//! learns only what the hidden layers add.
//!
//! In integers: a layer's weights are scaled by [`QB`] and its biases by
//! `QA · QB`, so that a layer's sums are at scale `QA · QB`. A hidden
//! layer's sums are divided by `QB` (rounding to nearest), which brings
//! them back to scale `QA`, and clipped to `[0, QA]`; the last layer's one
//! sum times [`SCALE`] over `QA · QB` is centipawns.

use crate::shape::{HIDDEN, QA, QB, SCALE};
use crate::simd;

/// The widest hidden layer a head may have (a file asking for more is
/// refused).
pub const MAX_WIDTH: usize = 2 * HIDDEN;

/// The most layers a head may have, its output counted.
pub const MAX_LAYERS: usize = 4;

/// One dense layer of the head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    inputs: usize,
    /// `outputs · inputs`: output `j`'s weights at `j · inputs`, times
    /// [`QB`].
    weights: Vec<i16>,
    /// One per output, times `QA · QB`.
    biases: Vec<i32>,
}

impl Layer {
    /// A layer of `inputs` inputs whose `biases.len()` outputs have the
    /// weights `weights` (output by output); `None` if the lengths do not
    /// agree or the layer is empty.
    pub fn new(inputs: usize, weights: Vec<i16>, biases: Vec<i32>) -> Option<Layer> {
        let fits = inputs > 0
            && !biases.is_empty()
            && biases.len() <= MAX_WIDTH
            && weights.len() == inputs * biases.len();
        fits.then_some(Layer {
            inputs,
            weights,
            biases,
        })
    }

    /// Values the layer reads.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Values the layer gives.
    pub fn outputs(&self) -> usize {
        self.biases.len()
    }

    /// Its weights, output by output (times [`QB`]).
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// Its biases (times `QA · QB`).
    pub fn biases(&self) -> &[i32] {
        &self.biases
    }

    /// Every output's sum over `input` (scale `QA · QB`) into `out`.
    #[inline]
    fn sums(&self, avx2: bool, input: &[i16], out: &mut [i32]) {
        simd::dots(avx2, input, &self.weights, &mut out[..self.outputs()]);
        for (sum, &bias) in out.iter_mut().zip(&self.biases) {
            *sum = sum.wrapping_add(bias);
        }
    }
}

/// How many skip weights a head of `layers` layers has: `2 · HIDDEN`
/// beside hidden layers, none for a head of one output.
pub fn skip_len(layers: usize) -> usize {
    if layers > 1 {
        2 * HIDDEN
    } else {
        0
    }
}

/// Whether `layers` make a head for `2 · HIDDEN` clipped values: each
/// reads what the one before gives, and the last gives one number.
pub fn is_head(layers: &[Layer]) -> bool {
    let mut width = 2 * HIDDEN;
    for layer in layers {
        if layer.inputs != width {
            return false;
        }
        width = layer.outputs();
    }
    !layers.is_empty() && layers.len() <= MAX_LAYERS && width == 1
}

/// A hidden layer's sum brought back to scale `QA` and clipped: the
/// rounding is to nearest, halves up, the same in every build.
#[inline]
pub fn activation(sum: i32) -> i16 {
    (sum.saturating_add(QB / 2) >> QB.trailing_zeros()).clamp(0, QA) as i16
}

/// The head's value in centipawns over both sides' accumulators, `us`
/// the side to move's, with the skip's `2 · HIDDEN` weights (times [`QB`]).
pub fn evaluate(
    layers: &[Layer],
    skip: &[i16],
    avx2: bool,
    us: &[i16; HIDDEN],
    them: &[i16; HIDDEN],
) -> i32 {
    let mut values = [0i16; MAX_WIDTH];
    simd::clip(avx2, us, &mut values[..HIDDEN]);
    simd::clip(avx2, them, &mut values[HIDDEN..2 * HIDDEN]);
    let skipped = simd::dot(avx2, &values[..2 * HIDDEN], skip);
    let mut width = 2 * HIDDEN;
    let (last, hidden) = layers.split_last().expect("a head has an output");
    let mut sums = [0i32; MAX_WIDTH];
    for layer in hidden {
        layer.sums(avx2, &values[..width], &mut sums);
        width = layer.outputs();
        for (value, &sum) in values[..width].iter_mut().zip(&sums) {
            *value = activation(sum);
        }
    }
    last.sums(avx2, &values[..width], &mut sums);
    let sum = sums[0].wrapping_add(skipped);
    (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(inputs: usize, outputs: usize, weight: i16, bias: i32) -> Layer {
        Layer::new(inputs, vec![weight; inputs * outputs], vec![bias; outputs]).unwrap()
    }

    #[test]
    fn a_head_chains_its_widths_to_one_output() {
        assert!(is_head(&[layer(2 * HIDDEN, 1, 0, 0)]));
        assert!(is_head(&[
            layer(2 * HIDDEN, 16, 0, 0),
            layer(16, 32, 0, 0),
            layer(32, 1, 0, 0)
        ]));
        assert!(!is_head(&[]));
        assert!(!is_head(&[layer(2 * HIDDEN, 16, 0, 0)]));
        assert!(!is_head(&[layer(2 * HIDDEN, 16, 0, 0), layer(8, 1, 0, 0)]));
        assert!(Layer::new(4, vec![0; 7], vec![0; 2]).is_none());
    }

    #[test]
    fn activations_round_to_nearest_and_clip() {
        let qb = QB;
        assert_eq!(activation(10 * qb), 10);
        assert_eq!(activation(10 * qb + qb / 2), 11);
        assert_eq!(activation(10 * qb + qb / 2 - 1), 10);
        assert_eq!(activation(-5 * qb), 0);
        assert_eq!(activation(1000 * qb), QA as i16);
        assert_eq!(activation(i32::MAX), QA as i16);
    }

    #[test]
    fn a_hidden_layer_sums_clips_and_passes_on() {
        // Every accumulator value at 1.0 (QA, and above it clipped): each
        // of the 4 hidden sums is 512 · 1.0 · (1/512) = 1.0, minus a bias
        // of 0.2: 0.8 each (204 of 255). The output weighs them 1.0 each:
        // 3.2, that is 1,280 centipawns.
        let us = [QA as i16; HIDDEN];
        let them = [2 * QA as i16; HIDDEN];
        let hidden = layer(2 * HIDDEN, 4, 1, -QA * QB / 5);
        let output = layer(4, 1, QB as i16, 0);
        let no_skip = [0i16; 2 * HIDDEN];
        for avx2 in [false, simd::has_avx2()] {
            let head = [hidden.clone(), output.clone()];
            assert_eq!(evaluate(&head, &no_skip, avx2, &us, &them), 1280);
        }
        // A negative sum stops at 0: the hidden units then give nothing.
        let silent = layer(2 * HIDDEN, 4, -1, 0);
        assert_eq!(
            evaluate(
                &[silent.clone(), output.clone()],
                &no_skip,
                false,
                &us,
                &them
            ),
            0
        );
        // The skip adds its own sum: the side to move's values at 1.0
        // weighed 1/512 each, 0.5 in all, 200 centipawns.
        let mut skip = [0i16; 2 * HIDDEN];
        skip[..HIDDEN].fill(1);
        assert_eq!(evaluate(&[silent, output], &skip, false, &us, &them), 200);
    }
}
