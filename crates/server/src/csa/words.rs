//! What the server says, word for word as shogi-server says it
//! (`game.rb`'s `propose_message`, `game_result.rb`): the `Game_Summary`
//! that offers a game, and the lines that end one.

use crate::games::clock::TimeControl;
use koma_records::csa::write_position;
use koma_rules::{Color, EndReason, Outcome, StandardShogiPosition};

/// The moves after which a game ends drawn (`#MAX_MOVES`): Koma's own
/// limit on a game's length, announced as `Max_Moves`.
pub const MAX_MOVES: usize = crate::games::live::MAX_MOVES;

/// What a game offered is: the `Game_Summary`'s contents.
#[derive(Clone, Debug)]
pub struct Offer {
    /// `Game_ID`.
    pub game_id: String,
    /// `Name+`.
    pub sente: String,
    /// `Name-`.
    pub gote: String,
    /// The clock.
    pub control: TimeControl,
    /// The start, as the players see it (shogi-server's handicaps have
    /// the giver as sente).
    pub start: StandardShogiPosition,
}

/// Where a game stands, as `%%SHOW` tells it: everything as the players
/// see it (`+` first).
pub struct Standing<'a> {
    /// The position now.
    pub position: &'a StandardShogiPosition,
    /// Each side's main time left, whole seconds, `+`'s first.
    pub remaining_seconds: [u64; 2],
    /// The last move as it was sent to both (`+7776FU,T3`), or nothing.
    pub last_move: &'a str,
    /// The moves played.
    pub moves: u64,
}

/// `+` or `-`.
pub fn sign(color: Color) -> char {
    match color {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

impl Offer {
    /// The `Game_Summary` block for the player of `your_turn`.
    pub fn summary(&self, your_turn: Color) -> String {
        self.block(Some(your_turn), "", &self.start)
    }

    /// shogi-server's answer to `%%SHOW id` for this game at `standing`:
    /// its summary without `Your_Turn`, with the clocks, the last move and
    /// the moves played in its time block and the position now, each line
    /// after `##[SHOW] `, then `##[SHOW] +OK`.
    pub fn show(&self, standing: &Standing<'_>) -> String {
        let [plus, minus] = standing.remaining_seconds;
        let times = format!(
            "Remaining_Time+:{plus}\n\
             Remaining_Time-:{minus}\n\
             Last_Move:{}\n\
             Current_Turn:{}\n",
            standing.last_move, standing.moves
        );
        let block = self.block(None, &times, standing.position);
        let mut text: String = block
            .lines()
            .map(|line| format!("##[SHOW] {line}\n"))
            .collect();
        text.push_str("##[SHOW] +OK\n");
        text
    }

    /// The summary block: `Your_Turn` if given, `time_extra` at the end of
    /// the time block, and `position`.
    fn block(
        &self,
        your_turn: Option<Color>,
        time_extra: &str,
        position: &StandardShogiPosition,
    ) -> String {
        let seconds = |ms: u64| ms / 1000;
        let your_turn =
            your_turn.map_or_else(String::new, |turn| format!("Your_Turn:{}\n", sign(turn)));
        format!(
            "BEGIN Game_Summary\n\
             Protocol_Version:1.2\n\
             Protocol_Mode:Server\n\
             Format:Shogi 1.0\n\
             Declaration:Jishogi 1.1\n\
             Game_ID:{id}\n\
             Name+:{sente}\n\
             Name-:{gote}\n\
             {your_turn}\
             Rematch_On_Draw:NO\n\
             To_Move:{to_move}\n\
             Max_Moves:{max}\n\
             BEGIN Time\n\
             Time_Unit:1sec\n\
             Total_Time:{total}\n\
             Byoyomi:{byoyomi}\n\
             Increment:{increment}\n\
             Least_Time_Per_Move:0\n\
             {time_extra}\
             END Time\n\
             BEGIN Position\n\
             {position}\
             END Position\n\
             END Game_Summary\n",
            id = self.game_id,
            sente = self.sente,
            gote = self.gote,
            to_move = sign(self.start.turn()),
            position = write_position(position),
            max = MAX_MOVES,
            total = seconds(self.control.initial_ms),
            byoyomi = seconds(self.control.byoyomi_ms),
            increment = seconds(self.control.increment_ms),
        )
    }
}

/// The lines that end a game, for the player of `side`: the statement
/// played (`%TORYO`, `%KACHI`) if any, the reason, and the result.
pub fn ending(outcome: Outcome, side: Color) -> String {
    let result = match outcome.winner {
        None => "#DRAW",
        Some(winner) if winner == side => "#WIN",
        Some(_) => "#LOSE",
    };
    let reason = match outcome.reason {
        EndReason::Resignation | EndReason::Checkmate | EndReason::NoLegalMoves => {
            "%TORYO\n#RESIGN"
        }
        EndReason::Impasse => "%KACHI\n#JISHOGI",
        EndReason::Timeout => "#TIME_UP",
        EndReason::Repetition => "#SENNICHITE",
        EndReason::PerpetualCheck => "#OUTE_SENNICHITE",
        EndReason::Abandoned => return "#MAX_MOVES\n#CENSORED\n".to_owned(),
        _ => "#ILLEGAL_MOVE",
    };
    format!("{reason}\n{result}\n")
}

/// The lines that end a game lost by a false `%KACHI`.
pub fn false_declaration(loser: Color, side: Color) -> String {
    let result = if loser == side { "#LOSE" } else { "#WIN" };
    format!("%KACHI\n#ILLEGAL_MOVE\n{result}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_csa::message::{EndReason as Reason, GameResult, ServerMessage, Special};
    use koma_csa::summary::GameSummary;

    #[test]
    fn the_summary_reads_as_koma_csa_reads_it() {
        let offer = Offer {
            game_id: "0123456789abcdef".into(),
            sente: "alice".into(),
            gote: "bob".into(),
            control: TimeControl {
                initial_ms: 300_000,
                increment_ms: 10_000,
                byoyomi_ms: 0,
            },
            start: koma_rules::StandardShogiPosition::start(),
        };
        let text = offer.summary(Color::Gote);
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        assert_eq!(
            lines.first().map(String::as_str),
            Some("BEGIN Game_Summary")
        );
        assert_eq!(lines.last().map(String::as_str), Some("END Game_Summary"));
        let summary = GameSummary::parse(&lines[1..lines.len() - 1]).unwrap();
        assert_eq!(summary.game_id, "0123456789abcdef");
        assert_eq!(
            (summary.sente.as_str(), summary.gote.as_str()),
            ("alice", "bob")
        );
        assert_eq!(summary.your_turn, Color::Gote);
        assert_eq!((summary.time.total, summary.time.increment), (300, 10));
        assert_eq!(summary.start, koma_rules::StandardShogiPosition::start());
        assert!(summary.moves.is_empty());
        assert!(summary.allows_comments());
    }

    #[test]
    fn endings_are_shogi_servers_and_read_back() {
        let read = |text: String| -> Vec<ServerMessage> {
            text.lines()
                .map(|l| ServerMessage::parse(l).unwrap())
                .collect()
        };
        let resigned = Outcome::win(Color::Sente, EndReason::Resignation);
        assert_eq!(
            read(ending(resigned, Color::Gote)),
            [
                ServerMessage::Special(Special::Resign),
                ServerMessage::Reason(Reason::Resign),
                ServerMessage::Result(GameResult::Lose)
            ]
        );
        let timeout = Outcome::win(Color::Gote, EndReason::Timeout);
        assert_eq!(ending(timeout, Color::Gote), "#TIME_UP\n#WIN\n");
        let draw = Outcome::draw(EndReason::Repetition);
        assert_eq!(ending(draw, Color::Sente), "#SENNICHITE\n#DRAW\n");
        let illegal = Outcome::win(Color::Sente, EndReason::IllegalMove);
        assert_eq!(ending(illegal, Color::Gote), "#ILLEGAL_MOVE\n#LOSE\n");
        let kachi = Outcome::win(Color::Gote, EndReason::Impasse);
        assert_eq!(ending(kachi, Color::Gote), "%KACHI\n#JISHOGI\n#WIN\n");
        let limit = Outcome::draw(EndReason::Abandoned);
        assert_eq!(ending(limit, Color::Gote), "#MAX_MOVES\n#CENSORED\n");
        assert_eq!(
            false_declaration(Color::Sente, Color::Gote),
            "%KACHI\n#ILLEGAL_MOVE\n#WIN\n"
        );
        assert_eq!(
            read(ending(
                Outcome::win(Color::Sente, EndReason::PerpetualCheck),
                Color::Sente
            )),
            [
                ServerMessage::Reason(Reason::OuteSennichite),
                ServerMessage::Result(GameResult::Win)
            ]
        );
    }
}
