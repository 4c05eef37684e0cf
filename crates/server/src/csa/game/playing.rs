//! The game once started: each command of the side to move applied
//! through `Games` with its seat's token, moves sent ahead of their turn
//! kept for it, the side to move's flag watched, and the ending told to
//! both players (see the parent module).

use super::{blocking, outcome_of, status_error, CsaGame, Event, FromPlayer};
use crate::csa::turned::turned_code;
use crate::csa::words::{self, MAX_MOVES};
use crate::games::names;
use crate::games::refusal::Refusal;
use crate::games::service::Games;
use crate::games::state::GameState;
use koma_csa::message::ClientCommand;
use koma_records::csa::move_code;
use koma_rules::{Color, EndReason, Outcome, Position, StandardShogiPosition, Variant};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Moves a player may send ahead of its turn; more are dropped.
const MAX_DEFERRED: usize = 8;

/// The game as it is played.
pub(super) struct Play {
    id: String,
    tokens: [String; 2],
    ply: u64,
    position: StandardShogiPosition,
    /// When the side to move's flag falls (checked with the store then).
    deadline: Instant,
    /// A mated player, whose answer is awaited.
    mated: Option<Color>,
    /// The last move played, as its CSA code.
    last_code: Option<String>,
    /// The last move as it was sent to both (`+7776FU,T3`), for `%%SHOW`.
    last_move: String,
    /// Whether the players' moves are turned round (see `csa::turned`).
    turned: bool,
}

/// Whether the game goes on.
enum Flow {
    Continue,
    Over,
}

impl CsaGame {
    /// What a change for `color` needs: the games, the id, the ply the
    /// game is at and `color`'s token.
    fn args(&self, play: &Play, color: Color) -> (Arc<Games>, String, u64, String) {
        (
            self.games.clone(),
            play.id.clone(),
            play.ply,
            play.tokens[color.index()].clone(),
        )
    }

    pub(super) async fn play(&mut self, mut play: Play) {
        let mut deferred: [VecDeque<ClientCommand>; 2] = Default::default();
        loop {
            let turn = play.position.turn();
            let next = match deferred[turn.index()].pop_front() {
                Some(command) => Some(FromPlayer {
                    color: turn,
                    event: Event::Command(command),
                }),
                None => tokio::select! {
                    received = self.inbox.recv() => received,
                    _ = tokio::time::sleep_until(play.deadline) => {
                        match self.flag(&mut play).await {
                            Flow::Continue => continue,
                            Flow::Over => return,
                        }
                    }
                },
            };
            let Some(FromPlayer { color, event }) = next else {
                // Both sessions are gone: the side to move lost its connection last.
                self.gone(&play, turn).await;
                return;
            };
            let command = match event {
                Event::Gone => {
                    self.gone(&play, color).await;
                    return;
                }
                Event::Command(command) => command,
            };
            if let ClientCommand::Move { code, .. } = &command {
                // The last move played, sent again (a client that resends
                // what it did not see acknowledged): ignored, as shogi-server
                // ignores two identical moves in a row.
                if play.last_code.as_deref() == Some(code.as_str()) {
                    continue;
                }
            }
            let flow = match command {
                command @ (ClientCommand::Agree | ClientCommand::Reject) => {
                    self.tell(color, status_error("game", &command));
                    Flow::Continue
                }
                command @ (ClientCommand::Move { .. }
                | ClientCommand::Resign
                | ClientCommand::Declare)
                    if color != turn =>
                {
                    if deferred[color.index()].len() < MAX_DEFERRED {
                        deferred[color.index()].push_back(command);
                    }
                    Flow::Continue
                }
                ClientCommand::Move { code, comment } => {
                    self.on_move(&mut play, &code, comment).await
                }
                ClientCommand::Resign => self.resign(&play, turn).await,
                ClientCommand::Declare => self.declare(&mut play).await,
                _ => Flow::Continue,
            };
            if let Flow::Over = flow {
                return;
            }
        }
    }

    /// Sends each side its ending.
    fn end(&self, outcome: Outcome) -> Flow {
        // Over before anyone is told: `%%LIST` and `%%SHOW` no longer
        // name it once a player knows.
        if let Some(id) = &self.listed {
            self.lobby.game_closed(id);
        }
        for color in Color::ALL {
            self.tell(color, words::ending(outcome, color));
        }
        Flow::Over
    }

    /// The ending `state` holds, told to both; `Continue` if it holds none.
    fn end_with(&self, state: &GameState) -> Flow {
        match outcome_of(state) {
            Some(outcome) => self.end(outcome),
            None => Flow::Continue,
        }
    }

    /// What a refused change leaves: a fallen flag ends the game; anything
    /// else (the store failed) breaks it off. The CSA protocol's word for
    /// that is `#CHUDAN` (shogi-server has no store to fail): both players
    /// are told, and the stored game is ended as broken off if the store
    /// takes it, so that it is not left running (its clock would flag it
    /// later) with nobody holding its seats. The failed change itself was
    /// one atomic step of the store: not written at all.
    async fn refused(&self, play: &Play, refusal: Refusal) -> Flow {
        if let Some(outcome) = refusal.state.as_deref().and_then(outcome_of) {
            return self.end(outcome);
        }
        let (games, id, ply, token) = self.args(play, play.position.turn());
        let broken_off = move |_| Outcome::draw(EndReason::Abandoned);
        let _ = blocking(move || games.conclude(&id, ply, &token, &broken_off)).await;
        self.tell_both(&format!("##[ERROR] {}\n#CHUDAN\n", refusal.message));
        Flow::Over
    }

    /// Plays the side to move's `code`, keeping its `comment` (what
    /// followed `'`) in the record as shogi-server does: `'*` and the
    /// comment, so that floodgate's `'* 30 -3334FU` is `'** 30 -3334FU`.
    async fn on_move(&self, play: &mut Play, code: &str, comment: Option<String>) -> Flow {
        let turn = play.position.turn();
        if let Some(loser) = play.mated {
            // The mated side can only resign; anything else is illegal.
            return self.end(Outcome::win(!loser, EndReason::IllegalMove));
        }
        // The move as Koma's board has it.
        let koma_code = if play.turned {
            turned_code(code)
        } else {
            code.to_owned()
        };
        let legal = play
            .position
            .legal_moves()
            .into_iter()
            .find(|&m| move_code(&play.position, m) == koma_code);
        let Some(legal) = legal else {
            return self.lose(play, turn, EndReason::IllegalMove, false).await;
        };
        let text = StandardShogiPosition::move_to_text(legal);
        let (games, id, ply, token) = self.args(play, turn);
        let played = blocking(move || match comment {
            Some(comment) => games.play_commented(&id, ply, &text, &token, &format!("*{comment}")),
            None => games.play(&id, ply, &text, Some(&token)),
        })
        .await;
        let state = match played {
            Ok(state) => state,
            Err(refusal) => return self.refused(play, refusal).await,
        };
        let seconds = state
            .clock
            .as_ref()
            .and_then(|c| c.last_charge_seconds())
            .unwrap_or(0);
        let sent = format!("{code},T{seconds}");
        play.position.play_unchecked(legal);
        play.ply += 1;
        play.last_code = Some(code.to_owned());
        play.last_move = sent.clone();
        play.follow(&state);
        // Shown before the players are told: a `%%SHOW` sent after the
        // echo sees this move.
        self.publish(play, &state);
        self.tell_both(&format!("{sent}\n"));
        match outcome_of(&state) {
            Some(outcome)
                if matches!(
                    outcome.reason,
                    EndReason::Checkmate | EndReason::NoLegalMoves
                ) =>
            {
                play.mated = Some(!turn);
                Flow::Continue
            }
            Some(outcome) => self.end(outcome),
            None if play.ply as usize >= MAX_MOVES => {
                let (games, id, ply, token) = self.args(play, !turn);
                let limit = move |_| Outcome::draw(EndReason::Abandoned);
                match blocking(move || games.conclude(&id, ply, &token, &limit)).await {
                    Ok(state) => self.end_with(&state),
                    Err(refusal) => self.refused(play, refusal).await,
                }
            }
            None => Flow::Continue,
        }
    }

    /// `color` loses for `reason` (an illegal move; a false `%KACHI` when
    /// `declared`).
    async fn lose(&self, play: &Play, color: Color, reason: EndReason, declared: bool) -> Flow {
        let (games, id, ply, token) = self.args(play, color);
        let lost = move |seat: Color| Outcome::win(!seat, reason);
        match blocking(move || games.conclude(&id, ply, &token, &lost)).await {
            Ok(_) if declared => {
                for side in Color::ALL {
                    self.tell(side, words::false_declaration(color, side));
                }
                Flow::Over
            }
            Ok(state) => self.end_with(&state),
            Err(refusal) => self.refused(play, refusal).await,
        }
    }

    async fn resign(&self, play: &Play, color: Color) -> Flow {
        if let Some(loser) = play.mated {
            // The game ended at mate: the resignation only says so.
            return self.end(Outcome::win(!loser, EndReason::Resignation));
        }
        let (games, id, ply, token) = self.args(play, color);
        match blocking(move || games.resign(&id, ply, None, Some(&token))).await {
            Ok(state) => self.end_with(&state),
            Err(refusal) => self.refused(play, refusal).await,
        }
    }

    async fn declare(&self, play: &mut Play) -> Flow {
        let turn = play.position.turn();
        if let Some(loser) = play.mated {
            for side in Color::ALL {
                self.tell(side, words::false_declaration(loser, side));
            }
            return Flow::Over;
        }
        let (games, id, ply, token) = self.args(play, turn);
        match blocking(move || games.declare(&id, ply, Some(&token))).await {
            Ok(state) => self.end_with(&state),
            Err(refusal) if refusal.state.as_deref().and_then(outcome_of).is_some() => {
                self.refused(play, refusal).await
            }
            // The rule refuses it: the declarer loses, as in shogi-server.
            Err(_) => self.lose(play, turn, EndReason::IllegalMove, true).await,
        }
    }

    /// The side to move's deadline passed: the store declares the flag
    /// if it fell (or the board's timer did already).
    async fn flag(&self, play: &mut Play) -> Flow {
        let turn = play.position.turn();
        if play.mated.is_some() {
            return self.end(Outcome::win(!turn, EndReason::Timeout));
        }
        let (games, id) = (self.games.clone(), play.id.clone());
        match blocking(move || games.state(&id)).await {
            Ok(state) if outcome_of(&state).is_some() => self.end_with(&state),
            Ok(state) => {
                play.follow(&state);
                Flow::Continue
            }
            Err(refusal) => self.refused(play, refusal).await,
        }
    }

    /// `color`'s connection is gone: it resigns (shogi-server's abnormal
    /// end), and the other side is told.
    async fn gone(&self, play: &Play, color: Color) {
        if play.mated.is_none() {
            let (games, id, ply, token) = self.args(play, color);
            let _ = blocking(move || games.resign(&id, ply, None, Some(&token))).await;
        }
        self.tell(
            !color,
            words::ending(Outcome::win(!color, EndReason::Resignation), !color),
        );
    }
}

impl Play {
    /// The game `state` has just started, its moves `turned` round on
    /// their way in if the players see it so.
    pub(super) fn new(state: &GameState, turned: bool) -> Option<Play> {
        let seats = state.seats.as_ref()?;
        let token = |color| seats.get(names::color_name(Variant::Shogi, color)).cloned();
        let mut play = Play {
            id: state.id.clone(),
            tokens: [token(Color::Sente)?, token(Color::Gote)?],
            ply: 0,
            position: StandardShogiPosition::from_text(&state.position).ok()?,
            deadline: Instant::now(),
            mated: None,
            last_code: None,
            last_move: String::new(),
            turned,
        };
        play.follow(state);
        Some(play)
    }

    /// The position now, as Koma's board has it.
    pub(super) fn position(&self) -> &StandardShogiPosition {
        &self.position
    }

    /// The last move as it was sent to both, or nothing before the first.
    pub(super) fn last_move(&self) -> &str {
        &self.last_move
    }

    /// The moves played.
    pub(super) fn moves(&self) -> u64 {
        self.ply
    }

    /// The side to move's deadline, from `state`'s clock.
    fn follow(&mut self, state: &GameState) {
        let turn = self.position.turn();
        let left = state
            .clock
            .as_ref()
            .map_or(u64::MAX / 4, |c| c.left_ms(turn));
        // A little after, so that the flag has surely fallen when looked at.
        self.deadline = Instant::now() + Duration::from_millis(left.min(1 << 40) + 5);
    }
}
