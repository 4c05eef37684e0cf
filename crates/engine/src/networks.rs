//! The networks built into Koma, one per game that has earned one: a
//! game's network is embedded only once it beats the classical
//! evaluation in self-play (docs/strength/networks.md has the generations, and
//! docs/TRAINING.md the commands that make each file).

use koma_nnue::Network;
use koma_rules::Variant;
use std::io::Read;
use std::sync::{Arc, OnceLock};

/// Minishogi's network, generation 2, compressed by `zstd -19` (the file
/// `koma train` wrote has sha256 378eb656…ffc98f92; docs/strength/networks.md).
static MINISHOGI_ZSTD: &[u8] = include_bytes!("../nets/minishogi.nnue.zst");

/// Shogi's network, generation 7, compressed by `zstd -19` (the file
/// `koma train` wrote has sha256 c9df53b5…388ecc5d; docs/strength/networks.md).
static SHOGI_ZSTD: &[u8] = include_bytes!("../nets/shogi.nnue.zst");

/// Spear's network, generation 1 with shared rows, compressed by `zstd
/// -19` (the file `koma train` wrote has sha256 4772256a…c8f5079;
/// docs/strength/networks.md).
static SPEAR_ZSTD: &[u8] = include_bytes!("../nets/spear.nnue.zst");

/// The embedded network file of `variant`, if it has one, as `koma train`
/// wrote it.
pub fn embedded_file(variant: Variant) -> Option<Vec<u8>> {
    match variant {
        Variant::Minishogi => Some(decompress(MINISHOGI_ZSTD)),
        Variant::Shogi => Some(decompress(SHOGI_ZSTD)),
        Variant::Spear => Some(decompress(SPEAR_ZSTD)),
        Variant::Pawns => None,
    }
}

/// An embedded network's file from its zstd frame. A fault here is in the
/// build, not in anything a user gave: the tests decompress each file and
/// check its sha256.
fn decompress(frame: &[u8]) -> Vec<u8> {
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(frame)
        .expect("an embedded network is a zstd frame");
    let mut bytes = Vec::new();
    decoder
        .read_to_end(&mut bytes)
        .expect("an embedded network decompresses");
    bytes
}

/// The embedded network of `variant`, read once.
pub fn embedded(variant: Variant) -> Option<Arc<Network>> {
    static NETWORKS: [OnceLock<Option<Arc<Network>>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let index = Variant::ALL.iter().position(|&v| v == variant)?;
    NETWORKS[index]
        .get_or_init(|| {
            embedded_file(variant).map(|bytes| {
                Arc::new(Network::from_bytes(&bytes).expect("an embedded network is well formed"))
            })
        })
        .clone()
}
