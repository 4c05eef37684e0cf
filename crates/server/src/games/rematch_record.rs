//! A finished game's rematch as it is kept with the game and shown in its
//! state, in a module of its own: the store keeps it and the state shows
//! it, and neither may depend on the other through it.

use super::game_id::GameId;
use serde::{Deserialize, Serialize};

/// A finished game's rematch, as kept with the game and shown in its
/// state: an offer waiting for the other player's answer, the last answer
/// that dropped one, and the new game once it is made. A game has at most
/// one rematch: once `game` is set it never changes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rematch {
    /// The side (its name) that offered a rematch, waiting for an answer.
    #[serde(default)]
    pub offered_by: Option<String>,
    /// The side that last dropped an offer: the other side's, declined,
    /// or its own, cancelled.
    #[serde(default)]
    pub declined_by: Option<String>,
    /// Whether that drop was the offerer cancelling its own offer.
    #[serde(default)]
    pub cancelled: bool,
    /// The new game, once the rematch is made.
    #[serde(default)]
    pub game: Option<GameId>,
}
