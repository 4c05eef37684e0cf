//! Self-play samples turned into what the trainer reads: each position's
//! active inputs for the side to move and for the other side.

use koma_nnue::Layout;
use koma_rules::ShogiVariant;
use koma_selfplay::Sample;

/// Training positions as inputs and labels.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Every position's inputs, the side to move's then the other side's.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs`, and where its
    /// other side's start; one more entry than positions.
    starts: Vec<(u32, u32)>,
    /// The search's value in centipawns, side to move's view.
    pub values: Vec<i16>,
    /// The game's result for the side to move: 1, 0, -1.
    pub results: Vec<i8>,
}

impl Dataset {
    /// The inputs of `samples` under `layout`.
    pub fn from_samples<V: ShogiVariant>(layout: &Layout, samples: &[Sample<V>]) -> Dataset {
        assert!(
            layout.inputs() <= usize::from(u16::MAX),
            "inputs fit in 16 bits"
        );
        let mut data = Dataset::default();
        let mut scratch = Vec::new();
        for sample in samples {
            let turn = sample.position.turn();
            let start = data.inputs.len() as u32;
            layout.active(&sample.position, turn, &mut scratch);
            data.inputs.extend(scratch.iter().map(|&i| i as u16));
            let other = data.inputs.len() as u32;
            layout.active(&sample.position, !turn, &mut scratch);
            data.inputs.extend(scratch.iter().map(|&i| i as u16));
            data.starts.push((start, other));
            data.values.push(sample.value);
            data.results.push(sample.result);
        }
        data.starts
            .push((data.inputs.len() as u32, data.inputs.len() as u32));
        data
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Position `i`'s inputs: the side to move's, then the other side's.
    #[inline]
    pub fn inputs(&self, i: usize) -> (&[u16], &[u16]) {
        let (start, other) = self.starts[i];
        let end = self.starts[i + 1].0;
        (
            &self.inputs[start as usize..other as usize],
            &self.inputs[other as usize..end as usize],
        )
    }
}

/// Splits samples into training and held-out ones by game: one game in
/// `every`, by the hash of its first position, so that a game stays on its
/// side as data grows.
///
/// Whole games, not positions, because the positions of one game share
/// its result: a network that can tell one game's positions apart (one
/// with hidden layers can) would otherwise learn a held-out position's
/// result from its neighbours in training and score a held-out loss that
/// says nothing. `koma selfplay` appends each game whole, its positions in
/// the order played, so a game starts wherever the ply does not grow.
pub fn split<V: ShogiVariant>(
    samples: Vec<Sample<V>>,
    every: u64,
) -> (Vec<Sample<V>>, Vec<Sample<V>>) {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut previous_ply = None;
    let mut held_game = false;
    for sample in samples {
        if previous_ply.is_none_or(|ply| sample.ply <= ply) {
            // The hash's high bits: the low ones also index the engine's
            // table.
            held_game = (sample.position.hash() >> 40) % every == 0;
        }
        previous_ply = Some(sample.ply);
        if held_game {
            held.push(sample);
        } else {
            train.push(sample);
        }
    }
    (train, held)
}
