//! A network: its numbers, its file, and its output.
//!
//! The network is `inputs → HIDDEN` per side (the same weights for both
//! sides, each through its own view), the two sides' values clipped to
//! `[0, 1]` and joined (the side to move's first), then the head
//! ([`crate::head`]): hidden layers, if any, and one output. In the file and
//! in the engine the numbers are integers: the first layer scaled by
//! [`QA`], the head's weights by [`QB`], its biases by `QA · QB`; the
//! output times [`SCALE`] is centipawns.
//!
//! The file, all numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `KOMANNUE` |
//! | 4 | version, 1 or 2 (`u32`) |
//! | 1 + n | the game's name (`shogi`, `minishogi`, `spear`), its length first |
//! | 4 | `HIDDEN` (`u32`) |
//! | 4 | inputs, as [`crate::Layout::inputs`] gives for the game (`u32`) |
//! | 4 · 3 | `SCALE`, `QA`, `QB` (`i32`) |
//! | 4 + 4 · n | version 2 only: the head's layers `n` (`u32`, 1 to 4), then each layer's outputs (`u32`; the last is 1) |
//! | 2 · inputs · HIDDEN | the first layer's weights, input by input (`i16`) |
//! | 2 · HIDDEN | its biases (`i16`) |
//! | per head layer | its weights, output by output, each over the layer's inputs (`i16`), then its biases (`i32`) |
//! | 2 · 2 · HIDDEN | version 2 only: the skip's weights (`i16`), the side to move's half first |
//!
//! Version 1 is the head of one output and nothing more (`2 · HIDDEN`
//! weights, the side to move's half first, and one bias), which is how
//! such a network is written still.

use crate::head::{self, Layer, MAX_LAYERS, MAX_WIDTH};
use crate::layout::Layout;
use crate::shape::{HIDDEN, QA, QB, SCALE};
use crate::simd;
use koma_rules::Variant;
use std::fmt;

const MAGIC: &[u8; 8] = b"KOMANNUE";
/// The version written for a head with hidden layers; one without is
/// written as version 1, which Koma read before heads had layers.
const VERSION: u32 = 2;

/// A network ready to evaluate.
#[derive(Clone)]
pub struct Network {
    layout: Layout,
    /// `inputs · HIDDEN`, the row of input `i` at `i · HIDDEN`.
    weights: Vec<i16>,
    bias: [i16; HIDDEN],
    head: Vec<Layer>,
    /// The skip's `2 · HIDDEN` weights beside hidden layers; empty for a
    /// head of one output.
    skip: Vec<i16>,
    avx2: bool,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("variant", &self.layout.variant)
            .field("inputs", &self.layout.inputs())
            .field("head", &self.head_widths())
            .finish()
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// Reads the file's numbers in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], NetworkError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| {
            NetworkError(format!(
                "the network file ends in its {what} (at byte {} of {})",
                self.at,
                self.bytes.len()
            ))
        })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self, what: &str) -> Result<u32, NetworkError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }

    fn i32(&mut self, what: &str) -> Result<i32, NetworkError> {
        Ok(i32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }

    fn i32s(&mut self, out: &mut [i32], what: &str) -> Result<(), NetworkError> {
        let bytes = self.take(4 * out.len(), what)?;
        for (value, quad) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *value = i32::from_le_bytes(quad.try_into().unwrap());
        }
        Ok(())
    }

    fn i16s(&mut self, out: &mut [i16], what: &str) -> Result<(), NetworkError> {
        let bytes = self.take(2 * out.len(), what)?;
        for (value, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *value = i16::from_le_bytes([pair[0], pair[1]]);
        }
        Ok(())
    }
}

impl Network {
    /// A network of `variant` from its parts, its head one output: the
    /// first networks' shape. `weights` holds `inputs · HIDDEN` numbers;
    /// `None` if a length is wrong or the game has no network.
    pub fn from_parts(
        variant: Variant,
        weights: Vec<i16>,
        bias: [i16; HIDDEN],
        out_weights: [i16; 2 * HIDDEN],
        out_bias: i32,
    ) -> Option<Network> {
        let output = Layer::new(2 * HIDDEN, out_weights.to_vec(), vec![out_bias])?;
        Network::with_head(variant, weights, bias, vec![output], Vec::new())
    }

    /// A network of `variant` from its first layer and its head (see
    /// [`crate::head`]): its layers and, with hidden layers, the skip's
    /// `2 · HIDDEN` weights (empty for a head of one output). `None` if a
    /// length is wrong, the layers do not make a head, or the game has no
    /// network.
    pub fn with_head(
        variant: Variant,
        weights: Vec<i16>,
        bias: [i16; HIDDEN],
        head: Vec<Layer>,
        skip: Vec<i16>,
    ) -> Option<Network> {
        let layout = Layout::for_variant(variant)?;
        let skip_fits = skip.len() == head::skip_len(head.len());
        let fits = weights.len() == layout.inputs() * HIDDEN && head::is_head(&head) && skip_fits;
        fits.then(|| Network {
            layout,
            weights,
            bias,
            head,
            skip,
            avx2: simd::has_avx2(),
        })
    }

    /// Reads a network file, refusing one that is cut short, too long, of
    /// another format or of a shape this Koma does not have.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(8, "header")? != MAGIC {
            return Err(NetworkError(
                "not a Koma network file (no KOMANNUE at its start)".into(),
            ));
        }
        let version = reader.u32("header")?;
        if version != 1 && version != VERSION {
            return Err(NetworkError(format!(
                "network file version {version}; this Koma reads versions 1 and {VERSION}"
            )));
        }
        let length = usize::from(reader.take(1, "header")?[0]);
        let name = String::from_utf8_lossy(reader.take(length, "header")?).into_owned();
        let variant: Variant = name
            .parse()
            .map_err(|_| NetworkError(format!("the network is for an unknown game `{name}`")))?;
        let layout = Layout::for_variant(variant)
            .ok_or_else(|| NetworkError(format!("{variant} has no network")))?;
        let hidden = reader.u32("header")? as usize;
        let inputs = reader.u32("header")? as usize;
        let (scale, qa, qb) = (
            reader.i32("header")?,
            reader.i32("header")?,
            reader.i32("header")?,
        );
        if hidden != HIDDEN || inputs != layout.inputs() || (scale, qa, qb) != (SCALE, QA, QB) {
            return Err(NetworkError(format!(
                "the network's shape ({inputs} inputs, {hidden} hidden, scales {scale}/{qa}/{qb}) \
                 is not {variant}'s here ({} inputs, {HIDDEN} hidden, scales {SCALE}/{QA}/{QB})",
                layout.inputs()
            )));
        }
        let widths = if version == 1 {
            vec![1]
        } else {
            let layers = reader.u32("header")? as usize;
            if !(1..=MAX_LAYERS).contains(&layers) {
                return Err(NetworkError(format!(
                    "the network's head has {layers} layers; 1 to {MAX_LAYERS} are read"
                )));
            }
            let mut widths = Vec::with_capacity(layers);
            for _ in 0..layers {
                let width = reader.u32("header")? as usize;
                if !(1..=MAX_WIDTH).contains(&width) {
                    return Err(NetworkError(format!(
                        "a layer of the network's head has {width} outputs; 1 to {MAX_WIDTH} are read"
                    )));
                }
                widths.push(width);
            }
            if widths.last() != Some(&1) {
                return Err(NetworkError(
                    "the network's head does not end in one output".into(),
                ));
            }
            widths
        };
        let mut weights = vec![0i16; inputs * HIDDEN];
        reader.i16s(&mut weights, "first layer")?;
        let mut bias = [0i16; HIDDEN];
        reader.i16s(&mut bias, "first layer's biases")?;
        let mut head = Vec::with_capacity(widths.len());
        let mut inputs = 2 * HIDDEN;
        for &outputs in &widths {
            let mut layer_weights = vec![0i16; inputs * outputs];
            reader.i16s(&mut layer_weights, "head's weights")?;
            let mut biases = vec![0i32; outputs];
            reader.i32s(&mut biases, "head's biases")?;
            head.push(Layer::new(inputs, layer_weights, biases).expect("the lengths were read"));
            inputs = outputs;
        }
        let mut skip = vec![0i16; head::skip_len(widths.len())];
        reader.i16s(&mut skip, "skip's weights")?;
        if reader.at != bytes.len() {
            return Err(NetworkError(format!(
                "the network file has {} bytes past its end",
                bytes.len() - reader.at
            )));
        }
        Ok(Network::with_head(variant, weights, bias, head, skip)
            .expect("the lengths were checked"))
    }

    /// Reads the network file at `path` (see [`Network::from_bytes`]); the
    /// error does not repeat the path, which the caller names.
    pub fn from_file(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// The file's bytes: version 1 for a head of one output, else 2.
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.layout.variant.name();
        let version: u32 = if self.head.len() == 1 { 1 } else { VERSION };
        let mut bytes = Vec::with_capacity(64 + 2 * self.weights.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.push(name.len() as u8);
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.layout.inputs() as u32).to_le_bytes());
        for number in [SCALE, QA, QB] {
            bytes.extend_from_slice(&number.to_le_bytes());
        }
        if version != 1 {
            bytes.extend_from_slice(&(self.head.len() as u32).to_le_bytes());
            for layer in &self.head {
                bytes.extend_from_slice(&(layer.outputs() as u32).to_le_bytes());
            }
        }
        for value in self.weights.iter().chain(&self.bias) {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for layer in &self.head {
            for value in layer.weights() {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
            for value in layer.biases() {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        for value in &self.skip {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// The outputs of each of the head's layers (`[1]`: no hidden layer).
    pub fn head_widths(&self) -> Vec<usize> {
        self.head.iter().map(Layer::outputs).collect()
    }

    /// The head's layers.
    pub fn head(&self) -> &[Layer] {
        &self.head
    }

    /// The skip's weights beside hidden layers (empty without them).
    pub fn skip(&self) -> &[i16] {
        &self.skip
    }

    /// The first layer's weights, input by input (times [`QA`]).
    pub fn first_weights(&self) -> &[i16] {
        &self.weights
    }

    /// The first layer's biases (times [`QA`]).
    pub fn first_biases(&self) -> &[i16; HIDDEN] {
        &self.bias
    }

    /// Where the inputs sit.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The game.
    pub fn variant(&self) -> Variant {
        self.layout.variant
    }

    /// The first layer's row of `input`.
    #[inline]
    pub(crate) fn row(&self, input: usize) -> &[i16] {
        &self.weights[input * HIDDEN..(input + 1) * HIDDEN]
    }

    pub(crate) fn bias(&self) -> &[i16; HIDDEN] {
        &self.bias
    }

    pub(crate) fn avx2(&self) -> bool {
        self.avx2
    }

    /// Uses the plain loops even where AVX2 is there (to compare them).
    pub fn without_simd(mut self) -> Network {
        self.avx2 = false;
        self
    }

    /// The value in centipawns for the side whose accumulator is `us`.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        match self.head.as_slice() {
            [output] => {
                // One output: the clipping and the sum in one pass.
                let weights = output.weights().try_into().expect("2 · HIDDEN weights");
                let sum = simd::output(self.avx2, us, them, weights);
                let total = i64::from(sum) + i64::from(output.biases()[0]);
                (total * i64::from(SCALE) / i64::from(QA * QB)) as i32
            }
            layers => head::evaluate(layers, &self.skip, self.avx2, us, them),
        }
    }
}
