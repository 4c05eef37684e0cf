//! Games made for the CSA protocol's players (`crate::csa`): created only
//! once both players agreed to the offer, under the `Game_ID` they were
//! offered, with shogi-server's clock.

use super::clock::{Clock, TimeControl};
use super::live::AnyGame;
use super::names::Opponent;
use super::record_notes::RecordNotes;
use super::refusal::Refusal;
use super::seats::Mode;
use super::service::{Games, Setup};
use super::state::{GameState, HeadersView};
use crate::store::GameId;
use koma_rules::{Handicap, ImpasseRule, Position, Variant};
use std::sync::Arc;

impl Games {
    /// A shogi game between two players of the CSA protocol
    /// (`crate::csa`), kept under `id`, the `Game_ID` they agreed to: two
    /// seats (both tokens in the answer, for the connection that holds
    /// them), the 27-point impasse rule of CSA's `%KACHI`, and the clock
    /// under shogi-server's rule, running from now. A `handicap` game
    /// starts from Koma's handicap (the giver gote, to move).
    pub(crate) fn create_csa(
        self: &Arc<Self>,
        id: GameId,
        headers: HeadersView,
        control: TimeControl,
        handicap: Option<Handicap>,
    ) -> Result<GameState, Refusal> {
        let start = handicap.map(|handicap| handicap.position().to_text());
        let game = AnyGame::new(Variant::Shogi, start.as_deref()).map_err(Refusal::internal)?;
        let mut stored = Self::new_stored(
            &game,
            Setup {
                headers,
                notes: RecordNotes::default(),
                opponent: Opponent::Human,
                mode: Mode::Shared,
                clock: Some(Clock::csa(control)),
                impasse: Some(ImpasseRule::TwentySeven),
            },
        )?;
        stored.id = id;
        self.keep(stored, &game, |_| true)
    }
}
