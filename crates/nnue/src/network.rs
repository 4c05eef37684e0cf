//! A network: its numbers, its file, and its output.
//!
//! The network is `inputs → HIDDEN` per side (the same weights for both
//! sides, each through its own view), the two sides' values clipped to
//! `[0, 1]` and joined (the side to move's first), then one output. In
//! the file and in the engine the numbers are integers: the first layer
//! scaled by [`QA`], the output weights by [`QB`], the output bias by
//! `QA · QB`; the output times [`SCALE`] is centipawns.
//!
//! The file, all numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `KOMANNUE` |
//! | 4 | version, 1 (`u32`) |
//! | 1 + n | the game's name (`shogi`, `minishogi`, `spear`), its length first |
//! | 4 | `HIDDEN` (`u32`) |
//! | 4 | inputs, as [`crate::Layout::inputs`] gives for the game (`u32`) |
//! | 4 · 3 | `SCALE`, `QA`, `QB` (`i32`) |
//! | 2 · inputs · HIDDEN | the first layer's weights, input by input (`i16`) |
//! | 2 · HIDDEN | its biases (`i16`) |
//! | 2 · 2 · HIDDEN | the output's weights, the side to move's half first (`i16`) |
//! | 4 | the output's bias (`i32`) |

use crate::layout::Layout;
use crate::shape::{HIDDEN, QA, QB, SCALE};
use crate::simd;
use koma_rules::Variant;
use std::fmt;

const MAGIC: &[u8; 8] = b"KOMANNUE";
const VERSION: u32 = 1;

/// A network ready to evaluate.
#[derive(Clone)]
pub struct Network {
    layout: Layout,
    /// `inputs · HIDDEN`, the row of input `i` at `i · HIDDEN`.
    weights: Vec<i16>,
    bias: [i16; HIDDEN],
    out_weights: [i16; 2 * HIDDEN],
    out_bias: i32,
    avx2: bool,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("variant", &self.layout.variant)
            .field("inputs", &self.layout.inputs())
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

    fn i16s(&mut self, out: &mut [i16], what: &str) -> Result<(), NetworkError> {
        let bytes = self.take(2 * out.len(), what)?;
        for (value, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *value = i16::from_le_bytes([pair[0], pair[1]]);
        }
        Ok(())
    }
}

impl Network {
    /// A network of `variant` from its parts (as the trainer makes them).
    /// `weights` holds `inputs · HIDDEN` numbers; `None` if a length is
    /// wrong or the game has no network.
    pub fn from_parts(
        variant: Variant,
        weights: Vec<i16>,
        bias: [i16; HIDDEN],
        out_weights: [i16; 2 * HIDDEN],
        out_bias: i32,
    ) -> Option<Network> {
        let layout = Layout::for_variant(variant)?;
        (weights.len() == layout.inputs() * HIDDEN).then(|| Network {
            layout,
            weights,
            bias,
            out_weights,
            out_bias,
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
        if version != VERSION {
            return Err(NetworkError(format!(
                "network file version {version}; this Koma reads version {VERSION}"
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
        let mut weights = vec![0i16; inputs * HIDDEN];
        reader.i16s(&mut weights, "first layer")?;
        let mut bias = [0i16; HIDDEN];
        reader.i16s(&mut bias, "first layer's biases")?;
        let mut out_weights = [0i16; 2 * HIDDEN];
        reader.i16s(&mut out_weights, "output weights")?;
        let out_bias = reader.i32("output bias")?;
        if reader.at != bytes.len() {
            return Err(NetworkError(format!(
                "the network file has {} bytes past its end",
                bytes.len() - reader.at
            )));
        }
        Ok(
            Network::from_parts(variant, weights, bias, out_weights, out_bias)
                .expect("the lengths were checked"),
        )
    }

    /// Reads the network file at `path` (see [`Network::from_bytes`]); the
    /// error does not repeat the path, which the caller names.
    pub fn from_file(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.layout.variant.name();
        let mut bytes = Vec::with_capacity(64 + 2 * self.weights.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.push(name.len() as u8);
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.layout.inputs() as u32).to_le_bytes());
        for number in [SCALE, QA, QB] {
            bytes.extend_from_slice(&number.to_le_bytes());
        }
        let values = self
            .weights
            .iter()
            .chain(&self.bias)
            .chain(&self.out_weights);
        for value in values {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&self.out_bias.to_le_bytes());
        bytes
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
        let sum = simd::output(self.avx2, us, them, &self.out_weights);
        let total = i64::from(sum) + i64::from(self.out_bias);
        (total * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}
