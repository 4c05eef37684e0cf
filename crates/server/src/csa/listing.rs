//! What a game tells whoever lists the games and players (the lobby, for
//! `%%LIST`, `%%WHO` and `%%SHOW`): its id once offered, each player's
//! progress, where it stands, and its end. A trait of its own, so that the game, which the lobby starts,
//! does not need the lobby.

/// How far a game offered has gone, for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Offered, not agreed to yet (`agree_waiting`).
    Offered,
    /// Agreed to, the other's `AGREE` awaited (`start_waiting`).
    Agreed,
    /// Started (`game`).
    Started,
}

/// Told of the games' progress.
pub trait Listing: Send + Sync {
    /// `name`'s game has gone as far as `phase` (for `%%WHO`).
    fn reached(&self, name: &str, phase: Phase);
    /// The game `id` is offered (for `%%LIST`).
    fn game_opened(&self, id: &str);
    /// What `%%SHOW id` answers for the game `id` now.
    fn shown(&self, id: &str, show: String);
    /// The game `id` is over or withdrawn.
    fn game_closed(&self, id: &str);
}
