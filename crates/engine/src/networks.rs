//! The networks built into Koma, one per game that has earned one: a
//! game's network is embedded only once it beats the classical
//! evaluation in self-play (docs/STRENGTH.md has the generations, and
//! docs/TRAINING.md the commands that make each file).

use koma_nnue::Network;
use koma_rules::Variant;
use std::sync::{Arc, OnceLock};

/// Minishogi's network, generation 1 (docs/TRAINING.md says how it was
/// made; sha256 aba93fa7…02398c).
static MINISHOGI: &[u8] = include_bytes!("../nets/minishogi.nnue");

/// The embedded network file of `variant`, if it has one.
fn embedded_bytes(variant: Variant) -> Option<&'static [u8]> {
    match variant {
        Variant::Minishogi => Some(MINISHOGI),
        Variant::Shogi | Variant::Spear | Variant::Pawns => None,
    }
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
            embedded_bytes(variant).map(|bytes| {
                Arc::new(Network::from_bytes(bytes).expect("an embedded network is well formed"))
            })
        })
        .clone()
}
