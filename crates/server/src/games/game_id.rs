//! A game's id, in a module of its own so that what names a game (the
//! store, a rematch, the API's answers) need not depend on the store.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A game's id: 64 random bits from the operating system, written as 16
/// lower-case hex digits. Random so that one player cannot guess the
/// address of another's game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameId(u64);

impl GameId {
    /// A fresh random id.
    pub fn random() -> Result<GameId, String> {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("the operating system gave no random numbers: {e}"))?;
        Ok(GameId(u64::from_le_bytes(bytes)))
    }
}

#[cfg(test)]
impl GameId {
    /// The id numbered `number`, for tests that need a known one.
    pub(crate) fn for_tests(number: u64) -> GameId {
        GameId(number)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl FromStr for GameId {
    type Err = ();
    /// Exactly 16 hex digits; anything else names no game.
    fn from_str(text: &str) -> Result<GameId, ()> {
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(());
        }
        u64::from_str_radix(text, 16).map(GameId).map_err(|_| ())
    }
}

impl Serialize for GameId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameId, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|()| serde::de::Error::custom("a game id is 16 hex digits"))
    }
}
