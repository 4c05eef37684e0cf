//! The network's shape and scales, which the file, the loops and the
//! trainer share.

/// Values per side after the first layer.
pub const HIDDEN: usize = 256;
/// The first layer's scale: 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' scale: fine enough that rounding them moves the
/// output by about a centipawn (at 64, as some engines use, by about ten).
pub const QB: i32 = 512;
/// Centipawns per unit of the output.
pub const SCALE: i32 = 400;
