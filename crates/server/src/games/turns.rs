//! What players do to a game: move, take back (at once, or by asking the
//! other player in a shared game), declare impasse and resign, each for
//! the seat whose token came with the request.

use super::live::{AnyGame, Undone, MAX_MOVES};
use super::names;
use super::refusal::Refusal;
use super::seats::Mode;
use super::service::{sentence, Actor, Games, Seated};
use super::state::GameState;
use koma_rules::{Color, EndReason, GameError, Variant};
use std::sync::Arc;

impl Games {
    /// `POST /api/games/{id}/moves`.
    pub fn play(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        text: &str,
        token: Option<&str>,
    ) -> Result<GameState, Refusal> {
        self.play_at(id, ply, None, text, Actor::Player(token))
    }

    /// Plays `text` for the seat `token` holds, with `comment` kept as the
    /// move's comment in the game's record: a CSA player's move with the
    /// comment floodgate's clients send after it (`'* 30 -3334FU`), which
    /// shogi-server keeps in its record and the board shows.
    pub(crate) fn play_commented(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        text: &str,
        token: &str,
        comment: &str,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, None, Actor::Player(Some(token)), &mut |seated| {
            Self::play_on(seated, text)?;
            seated.stored.notes.add_comment(ply as usize, comment);
            Ok(())
        })
    }

    /// Plays `text` for `actor` if the game is at `ply` (and at `version`,
    /// if given).
    pub(super) fn play_at(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        version: Option<u64>,
        text: &str,
        actor: Actor<'_>,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, version, actor, &mut |seated| {
            Self::play_on(seated, text)
        })
    }

    /// Plays `text` in the seated game, for its seat if it has one.
    fn play_on(seated: &mut Seated<'_>, text: &str) -> Result<(), Refusal> {
        let game = &mut *seated.game;
        let variant = game.variant();
        if let Some(seat) = seated.seat.filter(|&seat| seat != game.turn()) {
            if game.outcome().is_none() {
                return Err(Refusal::forbidden(
                    "not-your-turn",
                    format!(
                        "It is {}'s turn, and this seat plays {}.",
                        names::color_title(variant, game.turn()),
                        names::color_title(variant, seat)
                    ),
                ));
            }
        }
        let example = if variant == Variant::Pawns {
            "UCI notation, like e2e4"
        } else {
            "USI notation, like 7g7f, 8h2b+ or P*5e"
        };
        // No move is longer than 5 characters: echo nothing longer.
        let text = text.trim();
        if text.is_empty() || text.len() > 8 {
            return Err(Refusal::unprocessable(format!(
                "That is not a move in {example}."
            )));
        }
        if game.ply() >= MAX_MOVES {
            return Err(Refusal::unprocessable(format!(
                "The game has reached Koma's limit of {MAX_MOVES} moves."
            )));
        }
        game.play_text(text).map_err(|error| {
            Refusal::unprocessable(match error {
                GameError::Finished(outcome) => format!(
                    "The game is over. {}",
                    names::outcome_message(variant, outcome, game.turn())
                ),
                GameError::Syntax(_) => {
                    format!("{text:?} is not a move in {example}.")
                }
                GameError::Illegal(illegal) => {
                    format!("{text} cannot be played: {}.", illegal.reason)
                }
                other @ GameError::InvalidDeclaration(_) => sentence(&other.to_string()),
            })
        })
    }

    /// `POST /api/games/{id}/undo`.
    ///
    /// In a local game an undo takes back at once. Against the computer, a
    /// move taken back gives the turn to the computer, which would only play
    /// again: the computer's reply is taken back with it, so the player is to
    /// move, as on lishogi. In a shared game it is a request to take back
    /// one's last move, which the other player accepts by asking too (or
    /// declines); see [`Games::shared_takeback`].
    pub fn undo(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        token: Option<&str>,
        decline: bool,
    ) -> Result<GameState, Refusal> {
        self.change(id, ply, Actor::Player(token), &mut |seated| {
            if seated.stored.mode == Mode::Shared {
                return Self::shared_takeback(seated, decline);
            }
            if decline {
                return Err(Refusal::unprocessable(
                    "There is no request to take back to decline.",
                ));
            }
            let computer = Self::computer_color(seated.stored.variant, &seated.stored.opponent);
            let game = &mut *seated.game;
            if game
                .declared()
                .is_some_and(|o| o.reason == EndReason::Timeout)
            {
                // The clock would fall again at once: the time is spent.
                return Err(Refusal::unprocessable(
                    "A loss on time cannot be taken back: the time is spent.",
                ));
            }
            let declared = game.declared().map(|outcome| outcome.reason);
            match game.undo() {
                Some(Undone::Move) if computer == Some(game.turn()) && game.ply() > 0 => {
                    game.undo();
                    Ok(())
                }
                // The computer's impasse declaration: it would only declare
                // again, so the person's move before it goes too.
                Some(Undone::Ending)
                    if declared == Some(EndReason::Impasse)
                        && computer == Some(game.turn())
                        && game.ply() > 0 =>
                {
                    game.undo();
                    Ok(())
                }
                Some(Undone::Ending | Undone::Move) => Ok(()),
                None => Err(Refusal::unprocessable("There is no move to take back.")),
            }
        })
    }

    /// A takeback between two players: the first to ask is recorded (and
    /// every page shows the request); when the other asks too, the asker's
    /// last move is taken back (with the reply after it, if any), so that
    /// the asker is to move. Declining, or any move, drops the request.
    pub(super) fn shared_takeback(seated: &mut Seated<'_>, decline: bool) -> Result<(), Refusal> {
        let Some(me) = seated.seat else {
            return Err(Refusal::forbidden(
                "spectator",
                "Only the players can ask to take a move back.",
            ));
        };
        let variant = seated.stored.variant;
        let game = &mut *seated.game;
        if game.outcome().is_some() {
            return Err(Refusal::unprocessable(
                "The game is over: its moves cannot be taken back.",
            ));
        }
        let asker = seated
            .stored
            .takeback
            .as_deref()
            .and_then(|name| names::parse_color(variant, name));
        match (decline, asker) {
            (true, Some(asker)) if asker != me => {
                seated.stored.takeback = None;
                Ok(())
            }
            (true, _) => Err(Refusal::unprocessable(
                "There is no request to take back to decline.",
            )),
            (false, Some(asker)) if asker != me => {
                Self::take_back_for(game, asker)
                    .ok_or_else(|| Refusal::unprocessable("There is no move to take back."))?;
                seated.stored.takeback = None;
                Ok(())
            }
            (false, Some(_)) => Err(Refusal::unprocessable(format!(
                "You have asked to take back already; {} has not answered yet.",
                names::color_title(variant, !me)
            ))),
            (false, None) => {
                let mut trial = game.clone();
                Self::take_back_for(&mut trial, me)
                    .ok_or_else(|| Refusal::unprocessable("You have no move to take back yet."))?;
                seated.stored.takeback = Some(names::color_name(variant, me).to_owned());
                Ok(())
            }
        }
    }

    /// Takes back `side`'s last move and anything after it; `None` (with
    /// the game unchanged) if `side` has no move to take back.
    pub(super) fn take_back_for(game: &mut AnyGame, side: Color) -> Option<()> {
        let mut trial = game.clone();
        loop {
            match trial.undo()? {
                Undone::Move if trial.turn() == side => break,
                _ => {}
            }
        }
        *game = trial;
        Some(())
    }

    /// `POST /api/games/{id}/declare`: the side to move declares impasse
    /// (入玉宣言) under the game's rule. A valid declaration ends the game
    /// (a win, or a draw under the 24-point rule); an invalid one is
    /// refused with its reason and changes nothing, as lishogi does for
    /// people (only an engine's `bestmove win` loses when invalid).
    pub fn declare(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        token: Option<&str>,
    ) -> Result<GameState, Refusal> {
        self.declare_at(id, ply, None, Actor::Player(token))
    }

    /// Declares for `actor` if the game is at `ply` (and at `version`, if
    /// given): the computer declares through here too.
    pub(super) fn declare_at(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        version: Option<u64>,
        actor: Actor<'_>,
    ) -> Result<GameState, Refusal> {
        self.change_version(id, ply, version, actor, &mut |seated| {
            let variant = seated.stored.variant;
            let Some(rule) = seated.stored.impasse_rule() else {
                return Err(Refusal::unprocessable(format!(
                    "{} has no impasse declaration.",
                    names::variant_title(variant)
                )));
            };
            let game = &mut *seated.game;
            if let Some(outcome) = game.outcome() {
                return Err(Refusal::unprocessable(format!(
                    "The game is over. {}",
                    names::outcome_message(variant, outcome, game.turn())
                )));
            }
            if let Some(seat) = seated.seat.filter(|&seat| seat != game.turn()) {
                return Err(Refusal::forbidden(
                    "not-your-turn",
                    format!(
                        "Only the side to move may declare: it is {}'s turn, and this seat plays {}.",
                        names::color_title(variant, game.turn()),
                        names::color_title(variant, seat)
                    ),
                ));
            }
            game.declare_impasse(rule).map(|_| ()).map_err(|error| {
                Refusal::unprocessable(match error {
                    GameError::InvalidDeclaration(why) => format!(
                        "{} cannot declare under the {rule}-point rule: {why}.",
                        names::color_title(variant, game.turn())
                    ),
                    other => sentence(&other.to_string()),
                })
            })
        })
    }

    /// Ends the game with `outcome(seat)`, the seat being the side whose
    /// token came, if the game is at `ply`: for CSA players, whose illegal
    /// move or false `%KACHI` loses the game as shogi-server has it (where
    /// the board only refuses them), and whose game ends at the move limit
    /// the summary announced.
    pub(crate) fn conclude(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        token: &str,
        outcome: &dyn Fn(Color) -> koma_rules::Outcome,
    ) -> Result<GameState, Refusal> {
        self.change(id, ply, Actor::Player(Some(token)), &mut |seated| {
            let Some(seat) = seated.seat else {
                return Err(Refusal::forbidden(
                    "spectator",
                    "Only a player can end the game.",
                ));
            };
            seated
                .game
                .declare(outcome(seat))
                .map_err(|error| Refusal::unprocessable(sentence(&error.to_string())))
        })
    }

    /// `POST /api/games/{id}/resign`: the seat's side resigns (in a game
    /// from before seats, `color`, by default the side to move).
    pub fn resign(
        self: &Arc<Self>,
        id: &str,
        ply: u64,
        color: Option<&str>,
        token: Option<&str>,
    ) -> Result<GameState, Refusal> {
        self.change(id, ply, Actor::Player(token), &mut |seated| {
            let game = &mut *seated.game;
            let variant = game.variant();
            let asked = match color {
                None => None,
                Some(name) => Some(names::parse_color(variant, name).ok_or_else(|| {
                    Refusal::unprocessable(format!(
                        "The side that resigns must be {} or {}.",
                        names::color_name(variant, Color::Sente),
                        names::color_name(variant, Color::Gote)
                    ))
                })?),
            };
            let color = match (seated.seat, asked) {
                (Some(seat), Some(asked)) if asked != seat => {
                    return Err(Refusal::forbidden(
                        "wrong-side",
                        format!(
                            "This seat plays {}: it cannot resign for {}.",
                            names::color_title(variant, seat),
                            names::color_title(variant, asked)
                        ),
                    ))
                }
                (Some(seat), _) => seat,
                (None, asked) => asked.unwrap_or(game.turn()),
            };
            game.resign(color).map_err(|error| match error {
                GameError::Finished(outcome) => Refusal::unprocessable(format!(
                    "The game is already over. {}",
                    names::outcome_message(variant, outcome, game.turn())
                )),
                other => Refusal::unprocessable(sentence(&other.to_string())),
            })
        })
    }
}
