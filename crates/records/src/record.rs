//! What every record format holds.

use koma_rules::{
    Color, EndReason, Game, GameError, IllegalReason, Move, Outcome, Position, Variant,
};
use std::fmt;
use std::time::Duration;

/// The usual headers of a game record; anything else is kept in `other`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    /// The first player's name (先手, `N+`).
    pub sente: Option<String>,
    /// The second player's name (後手, `N-`).
    pub gote: Option<String>,
    /// The event (棋戦, `$EVENT`).
    pub event: Option<String>,
    /// Where it was played (場所, `$SITE`).
    pub site: Option<String>,
    /// When it started (開始日時, `$START_TIME`), as written.
    pub start_time: Option<String>,
    /// When it ended (終了日時, `$END_TIME`), as written.
    pub end_time: Option<String>,
    /// The time control (持ち時間, `$TIME_LIMIT`), as written.
    pub time_control: Option<String>,
    /// The opening (戦型, `$OPENING`).
    pub opening: Option<String>,
    /// Other headers in the order read, key and value as written.
    pub other: Vec<(String, String)>,
}

impl Headers {
    /// Every header, keys of `other` too, as [`crate::text::header`]
    /// keeps it: hidden characters escaped, one line, no blanks around.
    pub fn clean(&mut self) {
        let fields = [
            &mut self.sente,
            &mut self.gote,
            &mut self.event,
            &mut self.site,
            &mut self.start_time,
            &mut self.end_time,
            &mut self.time_control,
            &mut self.opening,
        ];
        for value in fields.into_iter().flatten() {
            clean_with(value, crate::text::header);
        }
        for (key, value) in &mut self.other {
            clean_with(key, crate::text::header);
            clean_with(value, crate::text::header);
        }
    }
}

/// Replaces `text` by `clean(text)` when that differs.
fn clean_with(text: &mut String, clean: fn(&str) -> std::borrow::Cow<'_, str>) {
    let cleaned = clean(text);
    if cleaned != text.as_str() {
        let cleaned = cleaned.into_owned();
        *text = cleaned;
    }
}

fn clean_comments(comments: &mut [String]) {
    for comment in comments {
        clean_with(comment, crate::text::comment);
    }
}

fn clean_moves(moves: &mut [RecordedMove], variations: &mut [Variation]) {
    for recorded in moves {
        clean_comments(&mut recorded.comments);
    }
    for variation in variations {
        clean_moves(&mut variation.moves, &mut variation.variations);
    }
}

/// A move of a record, with what the record says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedMove {
    /// The move.
    pub m: Move,
    /// Time the player spent on it.
    pub time: Option<Duration>,
    /// Comments written after it.
    pub comments: Vec<String>,
}

impl RecordedMove {
    /// A move without time or comments.
    pub fn new(m: Move) -> RecordedMove {
        RecordedMove {
            m,
            time: None,
            comments: Vec::new(),
        }
    }
}

/// How a recorded game ended, as records write it. Each is said by or of
/// the side to move after the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move resigned (投了, `%TORYO`).
    Resignation,
    /// The side to move is checkmated (詰み, `%TSUMI`).
    Checkmate,
    /// Fourfold repetition (千日手, `%SENNICHITE`): a draw, but a loss for
    /// sente in minishogi.
    Repetition,
    /// Perpetual check by the side that just moved, which loses (連続王手の千日手).
    PerpetualCheck,
    /// Impasse agreed or judged a draw (持将棋, `%JISHOGI`).
    Impasse,
    /// The side to move declared a win by impasse (入玉勝ち, `%KACHI`).
    ImpasseWin,
    /// The game was broken off (中断, `%CHUDAN`).
    Abandoned,
    /// The side to move ran out of time (切れ負け, `%TIME_UP`).
    Timeout,
    /// The side to move made an illegal move and lost (反則負け, `%ILLEGAL_MOVE`).
    IllegalMove,
    /// The side to move wins: the opponent's last move was illegal (反則勝ち).
    IllegalMoveWin,
    /// Sente lost by an illegal action (`%+ILLEGAL_ACTION`).
    SenteIllegalAction,
    /// Gote lost by an illegal action (`%-ILLEGAL_ACTION`).
    GoteIllegalAction,
    /// A draw for another reason (`%HIKIWAKE`).
    Draw,
    /// A mate problem's solution found no mate (不詰).
    NoMate,
}

impl Ending {
    /// The result in `variant`, given who was to move when the game ended
    /// (a repetition loses for sente in minishogi, and draws elsewhere).
    pub fn outcome(self, variant: Variant, to_move: Color) -> Option<Outcome> {
        let loss = |reason| Some(Outcome::win(!to_move, reason));
        match self {
            Ending::Resignation => loss(EndReason::Resignation),
            Ending::Checkmate => loss(EndReason::Checkmate),
            Ending::Timeout => loss(EndReason::Timeout),
            Ending::IllegalMove => loss(EndReason::IllegalMove),
            Ending::IllegalMoveWin => Some(Outcome::win(to_move, EndReason::IllegalMove)),
            Ending::SenteIllegalAction => Some(Outcome::win(Color::Gote, EndReason::IllegalMove)),
            Ending::GoteIllegalAction => Some(Outcome::win(Color::Sente, EndReason::IllegalMove)),
            Ending::ImpasseWin => Some(Outcome::win(to_move, EndReason::Impasse)),
            Ending::PerpetualCheck => Some(Outcome::win(to_move, EndReason::PerpetualCheck)),
            Ending::Repetition if variant == Variant::Minishogi => {
                Some(Outcome::win(Color::Gote, EndReason::Repetition))
            }
            Ending::Repetition => Some(Outcome::draw(EndReason::Repetition)),
            Ending::Impasse | Ending::Draw => Some(Outcome::draw(EndReason::Impasse)),
            Ending::Abandoned | Ending::NoMate => None,
        }
    }

    /// The ending a finished game shows.
    pub fn from_outcome(outcome: Outcome, to_move: Color) -> Ending {
        match outcome.reason {
            EndReason::Checkmate | EndReason::NoLegalMoves | EndReason::KingCaptured => {
                Ending::Checkmate
            }
            EndReason::Repetition => Ending::Repetition,
            EndReason::PerpetualCheck => Ending::PerpetualCheck,
            EndReason::Resignation => Ending::Resignation,
            EndReason::Timeout => Ending::Timeout,
            EndReason::Impasse if outcome.winner == Some(to_move) => Ending::ImpasseWin,
            EndReason::Impasse => Ending::Impasse,
            EndReason::IllegalMove if outcome.winner == Some(to_move) => Ending::IllegalMoveWin,
            EndReason::IllegalMove => Ending::IllegalMove,
            EndReason::LastRankReached | EndReason::AllPawnsCaptured => Ending::Checkmate,
            EndReason::Stalemate => Ending::Draw,
            EndReason::Abandoned => Ending::Abandoned,
        }
    }
}

/// A game record: headers, start position, moves, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<P: Position> {
    /// Names, event, dates, time control...
    pub headers: Headers,
    /// Where the game started.
    pub start: P,
    /// The moves, each legal in its position.
    pub moves: Vec<RecordedMove>,
    /// How it ended, if the record says.
    pub ending: Option<Ending>,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// Alternatives to moves of the main line (KIF's 変化), each legal in
    /// its position; only the main line is played.
    pub variations: Vec<Variation>,
}

/// A line of play branching off another: it replaces the other line's move
/// number `ply` and what follows.
#[derive(Clone, Debug, PartialEq)]
pub struct Variation {
    /// The move number (1 for the record's first move) of its first move.
    pub ply: usize,
    /// The moves from there.
    pub moves: Vec<RecordedMove>,
    /// How this line ends, if it says.
    pub ending: Option<Ending>,
    /// Alternatives to its own moves, each branching at a later ply.
    pub variations: Vec<Variation>,
}

/// A record whose moves cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1 for the first move.
    pub move_number: usize,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played.
    pub reason: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}) cannot be played: {}",
            self.move_number,
            crate::shorten(&self.text, 40),
            crate::shorten(&self.reason, 200)
        )
    }
}

impl std::error::Error for ReplayError {}

impl ReplayError {
    /// The error for move `move_number` written `text`, illegal for `reason`.
    pub fn illegal(move_number: usize, text: &str, reason: IllegalReason) -> ReplayError {
        ReplayError {
            move_number,
            text: text.to_owned(),
            reason: reason.to_string(),
        }
    }
}

impl<P: Position> Record<P> {
    /// An empty record from `start`.
    pub fn new(start: P) -> Record<P> {
        Record {
            headers: Headers::default(),
            start,
            moves: Vec::new(),
            ending: None,
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// Cleans every header and comment as [`crate::text`] says: what the
    /// readers give and the writers write.
    pub fn clean_text(&mut self) {
        self.headers.clean();
        clean_comments(&mut self.comments);
        clean_moves(&mut self.moves, &mut self.variations);
    }

    /// The record of a game: its start, moves and ending.
    pub fn from_game(game: &Game<P>) -> Record<P> {
        let mut record = Record::new(game.start().clone());
        record.moves = game.moves().iter().map(|&m| RecordedMove::new(m)).collect();
        record.ending = game
            .outcome()
            .map(|outcome| Ending::from_outcome(outcome, game.position().turn()));
        record
    }

    /// Replays the record into a game, the recorded ending declared when the
    /// positions do not already show it.
    pub fn to_game(&self) -> Result<Game<P>, ReplayError> {
        let mut game = Game::new(self.start.clone());
        for (index, recorded) in self.moves.iter().enumerate() {
            game.play(recorded.m).map_err(|error| {
                let reason = match error {
                    GameError::Illegal(illegal) => illegal.reason.to_string(),
                    other => other.to_string(),
                };
                ReplayError {
                    move_number: index + 1,
                    text: P::move_to_text(recorded.m),
                    reason,
                }
            })?;
        }
        if game.outcome().is_none() {
            if let Some(outcome) = self
                .ending
                .and_then(|ending| ending.outcome(P::VARIANT, game.position().turn()))
            {
                game.declare(outcome).expect("the game was not over");
            }
        }
        Ok(game)
    }

    /// The position after all the moves.
    pub fn final_position(&self) -> P {
        let mut position = self.start.clone();
        for recorded in &self.moves {
            position.play_unchecked(recorded.m);
        }
        position
    }
}
