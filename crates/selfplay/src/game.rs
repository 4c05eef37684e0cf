//! One self-play game: a random balanced opening, then the engine against
//! itself at a fixed number of nodes a move, its quiet positions kept with
//! the search's value and, once the game is over, its result.

use crate::record::{clamp_value, Sample};
use koma_engine::{Engine, Evaluate, Limits, Network, Score, SearchControl};
use koma_rules::{Color, Game, Position, ShogiPosition, ShogiVariant};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes the engine searches for each move.
    pub nodes: u64,
    /// Random moves played from the start position, at the least and at
    /// the most.
    pub opening_plies: (usize, usize),
    /// An opening is kept only if the search values it within this many
    /// centipawns of even; otherwise another is drawn.
    pub balance: i32,
    /// A game this long is a draw.
    pub max_plies: usize,
    /// A game in which the search has said at least this much for one side
    /// on [`Settings::adjudication_plies`] plies in a row is scored as won
    /// by that side (as is one where it sees a mate).
    pub adjudication_value: i32,
    /// See [`Settings::adjudication_value`].
    pub adjudication_plies: usize,
    /// The network the engine plays with; `None`: the game's embedded
    /// one (or the classical evaluation where there is none). A new
    /// generation of data is played with the last generation's network.
    pub network: Option<Arc<Network>>,
    /// Play with the classical evaluation, whatever network the game has:
    /// the first generation's data, made from nothing.
    pub classical: bool,
}

impl Settings {
    /// Defaults for `nodes` nodes a move: 4 to 8 random plies (the
    /// 9×9 board gets 6 to 12), balanced within 300 centipawns, 512 plies
    /// at most, a game decided once the search says 3,000 for 8 plies.
    pub fn new<V: ShogiVariant>(nodes: u64) -> Settings {
        let big = V::SPEC.files > 5;
        Settings {
            nodes,
            opening_plies: if big { (6, 12) } else { (4, 8) },
            balance: 300,
            max_plies: 512,
            adjudication_value: 3000,
            adjudication_plies: 8,
            network: None,
            classical: false,
        }
    }
}

/// Tries at a balanced opening before the last one drawn is taken anyway.
const OPENING_TRIES: usize = 20;

/// A random opening that the search values near even, as a game: random
/// legal moves from the start position.
fn balanced_opening<V: ShogiVariant>(
    engine: &mut Engine<ShogiPosition<V>>,
    settings: &Settings,
    random: &mut ChaCha8Rng,
) -> Game<ShogiPosition<V>> {
    let mut game = Game::new(ShogiPosition::<V>::start());
    for _ in 0..OPENING_TRIES {
        game = Game::new(ShogiPosition::<V>::start());
        let plies = random.random_range(settings.opening_plies.0..=settings.opening_plies.1);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let m = moves[random.random_range(0..moves.len())];
            game.play(m).expect("a legal move plays");
        }
        if game.outcome().is_some() {
            continue;
        }
        engine.clear();
        let result = engine.search(
            game.positions(),
            &Limits::nodes(settings.nodes),
            &SearchControl::default(),
            &mut |_| {},
        );
        if matches!(result.score, Score::Centipawns(v) if v.abs() <= settings.balance) {
            break;
        }
    }
    game
}

/// Plays one game and returns its quiet positions with their values and
/// results: positions in danger (check, or a king that can be taken),
/// with a capture that wins material, or where the search chose a
/// capture, are left out, as are those of the random opening.
pub fn play_game<V: ShogiVariant>(
    engine: &mut Engine<ShogiPosition<V>>,
    settings: &Settings,
    random: &mut ChaCha8Rng,
) -> Vec<Sample<V>> {
    let mut game = balanced_opening(engine, settings, random);
    engine.clear();
    let mut kept = Vec::new();
    // The winner when the game ends, `None` for a draw.
    let mut winner = None;
    // Plies in a row on which the search said the side to move or the
    // other was winning big: (which, how many).
    let mut decisive: (Option<Color>, usize) = (None, 0);
    loop {
        if let Some(outcome) = game.outcome() {
            winner = outcome.winner;
            break;
        }
        if game.moves().len() >= settings.max_plies {
            break;
        }
        let position = *game.position();
        let us = position.turn();
        if engine.options.winning_declaration(&position).is_some() {
            winner = Some(us);
            break;
        }
        let result = engine.search(
            game.positions(),
            &Limits::nodes(settings.nodes),
            &SearchControl::default(),
            &mut |_| {},
        );
        let Some(m) = result.best_move else {
            // No legal move (the rules' outcome says so first in shogi).
            winner = Some(!us);
            break;
        };
        match result.score {
            Score::MatePlies(plies) => {
                winner = Some(if plies > 0 { us } else { !us });
                break;
            }
            Score::Centipawns(value) => {
                let ahead = if value >= settings.adjudication_value {
                    Some(us)
                } else if value <= -settings.adjudication_value {
                    Some(!us)
                } else {
                    None
                };
                decisive = match (ahead, decisive) {
                    (Some(side), (Some(before), n)) if side == before => (ahead, n + 1),
                    (Some(_), _) => (ahead, 1),
                    (None, _) => (None, 0),
                };
                if decisive.1 >= settings.adjudication_plies {
                    winner = decisive.0;
                    break;
                }
                let captures = m.from().is_some() && position.piece_at(m.to()).is_some();
                if !captures && position.is_quiet() {
                    kept.push(Sample {
                        position,
                        value: clamp_value(value),
                        result: 0,
                        ply: game.moves().len().min(u16::MAX as usize) as u16,
                    });
                }
            }
        }
        game.play(m).expect("the engine plays legal moves");
    }
    for sample in &mut kept {
        sample.result = match winner {
            None => 0,
            Some(side) if side == sample.position.turn() => 1,
            Some(_) => -1,
        };
    }
    kept
}
