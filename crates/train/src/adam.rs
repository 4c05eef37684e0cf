//! Adam: each number's step scaled by running averages of its gradient
//! and of its square.

/// Adam's running averages and step count.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// The gradient's running mean, one per number.
    pub mean: Vec<f32>,
    /// The squared gradient's running mean.
    pub square: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    /// Fresh averages for `len` numbers.
    pub fn new(len: usize) -> Adam {
        Adam {
            mean: vec![0.0; len],
            square: vec![0.0; len],
            steps: 0,
        }
    }

    /// One step of `params` down `gradient` at rate `rate`.
    pub fn step(&mut self, params: &mut [f32], gradient: &[f32], rate: f32) {
        self.step_from(0, params, gradient, rate);
    }

    /// One step of `params[from..]` only; the numbers before `from` stay
    /// as they are (frozen), and so do their averages.
    pub fn step_from(&mut self, from: usize, params: &mut [f32], gradient: &[f32], rate: f32) {
        self.steps += 1;
        let t = self.steps.min(1 << 30) as i32;
        let correct_mean = 1.0 - BETA1.powi(t);
        let correct_square = 1.0 - BETA2.powi(t);
        let step = rate * correct_square.sqrt() / correct_mean;
        for (((p, g), m), v) in params[from..]
            .iter_mut()
            .zip(&gradient[from..])
            .zip(&mut self.mean[from..])
            .zip(&mut self.square[from..])
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= step * *m / (v.sqrt() + EPSILON);
        }
    }
}
