//! The JSON state of a stored game: what the server sends after every
//! change, built from the game as kept and its replay. Apart from `state`
//! so that the answers' types do not depend on the store.

use super::clock;
use super::live::{AnyGame, MoveView, Served};
use super::names;
use super::service::sentence;
use super::state::{GameState, HandicapJson, ImpasseJson, MoveJson, OutcomeJson, ReviewJson};
use crate::store::StoredGame;
use koma_rules::{Color, Declaration, Handicap, Move, Position, StandardShogiPosition, Variant};

impl MoveJson {
    /// A move of a game of `variant`, as the API writes it.
    pub fn new(variant: Variant, view: MoveView) -> MoveJson {
        MoveJson {
            usi: view.usi,
            notation: view.notation,
            color: names::color_name(variant, view.color),
            position: view.position,
            check: view.check,
            seed: view.seed,
            notations: view.notations.map(Into::into),
            comments: Vec::new(),
            milliseconds: None,
        }
    }
}

impl MoveJson {
    /// `moves`, a line played from `root` after `previous`, each move with
    /// the position after it, as the page steps through a line (a mate,
    /// an analysis line) without changing the game.
    pub(crate) fn line<P: Served>(
        root: &P,
        moves: &[Move],
        previous: Option<Move>,
    ) -> Vec<MoveJson> {
        let mut position = root.clone();
        let mut previous = previous;
        moves
            .iter()
            .map(|&m| {
                let before = position.clone();
                position.play_unchecked(m);
                let view = MoveView::new(&before, m, previous, &position);
                previous = Some(m);
                MoveJson::new(P::VARIANT, view)
            })
            .collect()
    }
}

impl GameState {
    /// The state of `stored`, replayed as `game`.
    pub fn new(stored: &StoredGame, game: &AnyGame) -> GameState {
        let variant = stored.variant;
        let impasse = stored.impasse_rule().map(|rule| {
            let (declaration, shortfall) = match game.impasse_declaration(rule) {
                _ if game.outcome().is_some() => (None, None),
                Declaration::Win => (Some("win"), None),
                Declaration::Draw => (Some("draw"), None),
                Declaration::Invalid(why) => (None, Some(sentence(&why.to_string()))),
            };
            ImpasseJson {
                rule: rule.points(),
                declaration,
                shortfall,
            }
        });
        let view = game.view();
        let color = |c: Color| names::color_name(variant, c);
        let hands = view.hands.map(|hands| {
            Color::ALL
                .into_iter()
                .zip(hands)
                .map(|(side, pieces)| {
                    let counts = pieces
                        .into_iter()
                        .map(|(letter, count)| (letter.to_string(), count))
                        .collect();
                    (color(side), counts)
                })
                .collect()
        });
        let outcome = view.outcome.map(|outcome| OutcomeJson {
            winner: outcome.winner.map(color),
            reason: names::reason_word(outcome.reason),
            message: names::outcome_message(variant, outcome, view.turn),
        });
        let moves: Vec<MoveJson> = view
            .moves
            .into_iter()
            .enumerate()
            .map(|(index, m)| {
                let mut json = MoveJson::new(variant, m);
                if let Some(note) = stored.notes.of_move(index) {
                    json.comments.clone_from(&note.comments);
                    json.milliseconds = note.milliseconds;
                }
                json
            })
            .collect();
        GameState {
            id: stored.id.to_string(),
            variant: variant.name(),
            version: stored.version,
            ply: moves.len(),
            start: stored.start.clone(),
            handicap: (variant == Variant::Shogi)
                .then(|| StandardShogiPosition::from_text(&stored.start).ok())
                .flatten()
                .and_then(|start| Handicap::of_position(&start))
                .map(HandicapJson::from),
            impasse,
            position: view.position,
            turn: color(view.turn),
            check: view.check,
            hands,
            legal_moves: view.legal_moves,
            last_move: moves.last().map(|m| m.usi.clone()),
            moves,
            outcome,
            headers: stored.headers.clone(),
            opponent: stored.opponent.clone(),
            mode: stored.mode,
            guarded: stored.seats.is_some(),
            takeback: stored
                .takeback
                .as_deref()
                .and_then(|name| names::parse_color(variant, name))
                .map(color),
            clock: stored
                .clock
                .as_ref()
                .map(|c| c.view(variant, view.turn, clock::now_ms())),
            rematch: stored.rematch.clone(),
            seats: None,
            comments: stored.notes.comments.clone(),
            review: stored
                .review
                .as_ref()
                .and_then(|kept| ReviewJson::new(kept, game)),
            computer_waiting: None,
        }
    }
}
