//! The `BEGIN Game_Summary` … `END Game_Summary` block that offers a game:
//! its id, the players, which side we play, the clock and the position
//! (with any moves already played, as shogi-server's buoy games have).

use crate::clock::TimeControl;
use koma_records::csa;
use koma_records::RecordedMove;
use koma_rules::{Color, StandardShogiPosition};
use std::time::Duration;

/// A game as the server offers it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// `Protocol_Version`, `1.2` on shogi-server; empty if not given.
    pub protocol_version: String,
    /// `Game_ID`.
    pub game_id: String,
    /// `Name+`: sente's name.
    pub sente: String,
    /// `Name-`: gote's name.
    pub gote: String,
    /// `Your_Turn`: the side we play.
    pub your_turn: Color,
    /// `Max_Moves`, if the server has a move limit.
    pub max_moves: Option<u32>,
    /// The clock (`BEGIN Time` … `END Time`).
    pub time: TimeControl,
    /// The position before the moves of [`GameSummary::moves`].
    pub start: StandardShogiPosition,
    /// Moves already played when the game starts, with their times.
    pub moves: Vec<RecordedMove>,
}

/// Why a summary cannot be played (the client answers `REJECT`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SummaryError {
    /// A field the client needs is missing.
    #[error("the game summary has no {0}")]
    Missing(&'static str),
    /// A field holds something the client cannot read.
    #[error("the game summary's {field} is {value:?}, which Koma cannot read")]
    BadValue {
        /// The field.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// The position block is not a shogi position Koma can play.
    #[error("the game summary's position cannot be read: {0}")]
    Position(String),
}

impl GameSummary {
    /// Reads the lines between `BEGIN Game_Summary` and `END Game_Summary`.
    pub fn parse(lines: &[String]) -> Result<GameSummary, SummaryError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut position_lines: Option<Vec<String>> = None;
        let mut in_position = false;
        for line in lines {
            let line = line.trim_end_matches('\r');
            match line.trim() {
                "BEGIN Position" => {
                    in_position = true;
                    position_lines = Some(Vec::new());
                    continue;
                }
                "END Position" => {
                    in_position = false;
                    continue;
                }
                _ => {}
            }
            if in_position {
                position_lines
                    .get_or_insert_with(Vec::new)
                    .push(line.to_owned());
            } else if let Some((key, value)) = line.split_once(':') {
                fields.push((key.trim().to_owned(), value.trim().to_owned()));
            }
        }
        let field = |name: &str| {
            fields
                .iter()
                .rev()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.as_str())
        };
        if let Some(format) = field("Format") {
            if !format.starts_with("Shogi") {
                return Err(SummaryError::BadValue {
                    field: "Format",
                    value: format.to_owned(),
                });
            }
        }
        let color = |name: &'static str| -> Result<Color, SummaryError> {
            match field(name) {
                Some("+") => Ok(Color::Sente),
                Some("-") => Ok(Color::Gote),
                Some(other) => Err(SummaryError::BadValue {
                    field: name,
                    value: other.to_owned(),
                }),
                None => Err(SummaryError::Missing(name)),
            }
        };
        let your_turn = color("Your_Turn")?;
        let to_move = color("To_Move").unwrap_or(Color::Sente);
        let game_id = field("Game_ID")
            .filter(|id| !id.is_empty())
            .ok_or(SummaryError::Missing("Game_ID"))?
            .to_owned();
        let number = |name: &'static str| -> Result<Option<u64>, SummaryError> {
            field(name)
                .map(|value| {
                    value.parse().map_err(|_| SummaryError::BadValue {
                        field: name,
                        value: value.to_owned(),
                    })
                })
                .transpose()
        };
        let mut unit = match field("Time_Unit") {
            None => Duration::from_secs(1),
            Some(text) => parse_time_unit(text).ok_or_else(|| SummaryError::BadValue {
                field: "Time_Unit",
                value: text.to_owned(),
            })?,
        };
        // shogi-server's stop-watch says minutes and counts in seconds.
        let stop_watch = field("Time_Unit") == Some("1min") && is_stop_watch_game(&game_id);
        if stop_watch {
            unit = Duration::from_secs(1);
        }
        let time = TimeControl {
            unit,
            stop_watch,
            total: number("Total_Time")?.unwrap_or(0),
            byoyomi: number("Byoyomi")?.unwrap_or(0),
            increment: number("Increment")?.unwrap_or(0),
            least_per_move: number("Least_Time_Per_Move")?.unwrap_or(0),
        };
        let max_moves = number("Max_Moves")?
            .filter(|&n| n > 0)
            .map(|n| n.min(u64::from(u32::MAX)) as u32);
        let position_lines = position_lines.ok_or(SummaryError::Missing("BEGIN Position"))?;
        let (start, moves) = read_position(&position_lines, to_move)?;
        Ok(GameSummary {
            protocol_version: field("Protocol_Version").unwrap_or("").to_owned(),
            game_id,
            sente: field("Name+").unwrap_or("?").to_owned(),
            gote: field("Name-").unwrap_or("?").to_owned(),
            your_turn,
            max_moves,
            time,
            start,
            moves,
        })
    }

    /// The opponent's name.
    pub fn opponent(&self) -> &str {
        match self.your_turn {
            Color::Sente => &self.gote,
            Color::Gote => &self.sente,
        }
    }

    /// Whether the server takes floodgate's `'* score pv` comment after a
    /// move: protocol 1.2 and later (shogi-server logs it in the record;
    /// older servers may take the comma for part of the move).
    pub fn allows_comments(&self) -> bool {
        let mut parts = self.protocol_version.split('.');
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        let minor: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        (major, minor) >= (1, 2)
    }
}

/// Whether `game_id` names a game on shogi-server's stop-watch clock: its
/// game name (the id's second `+` field, `EVENT+NAME+SENTE+GOTE+TIME`)
/// ends in `-TOTAL-0BYOYOMI`, a byoyomi with a leading zero.
fn is_stop_watch_game(game_id: &str) -> bool {
    let Some(name) = game_id.split('+').nth(1) else {
        return false;
    };
    let mut fields = name.rsplit('-');
    let (Some(byoyomi), Some(total)) = (fields.next(), fields.next()) else {
        return false;
    };
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    fields.next().is_some()
        && digits(total)
        && digits(byoyomi)
        && byoyomi.len() >= 2
        && byoyomi.starts_with('0')
}

/// `1sec`, `1min`, `1msec`, `10sec`…
fn parse_time_unit(text: &str) -> Option<Duration> {
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let count: u64 = if digits == 0 {
        1
    } else {
        text[..digits].parse().ok()?
    };
    let unit = match text[digits..].trim() {
        "sec" | "s" => Duration::from_secs(1),
        "min" | "m" => Duration::from_secs(60),
        "msec" | "ms" => Duration::from_millis(1),
        _ => return None,
    };
    (count > 0).then(|| unit.saturating_mul(u32::try_from(count).unwrap_or(u32::MAX)))
}

/// The `BEGIN Position` block, read as a CSA record: `PI` or `P1`..`P9`,
/// `P+`/`P-` pieces, the side to move, then any moves played already.
fn read_position(
    lines: &[String],
    to_move: Color,
) -> Result<(StandardShogiPosition, Vec<RecordedMove>), SummaryError> {
    let mut text = String::from("V2.2\n");
    let has_turn = lines.iter().any(|l| matches!(l.trim(), "+" | "-"));
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    if !has_turn {
        // A block without the side to move: the summary's To_Move says it.
        text.push_str(match to_move {
            Color::Sente => "+\n",
            Color::Gote => "-\n",
        });
    }
    let record = csa::read(&text).map_err(|e| SummaryError::Position(e.to_string()))?;
    Ok((record.start, record.moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Position;

    /// What shogi-server sends for a byoyomi game (Your_Turn `-`).
    pub(crate) const SHOGI_SERVER_SUMMARY: &str = "Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:koma+koma-60-5+alice+bob+20261128050000
Name+:alice
Name-:bob
Your_Turn:-
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:60
Byoyomi:5
Increment:0
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
P+
P-
+
END Position";

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn shogi_servers_summary_is_read() {
        let summary = GameSummary::parse(&lines(SHOGI_SERVER_SUMMARY)).unwrap();
        assert_eq!(summary.game_id, "koma+koma-60-5+alice+bob+20261128050000");
        assert_eq!(
            (summary.sente.as_str(), summary.gote.as_str()),
            ("alice", "bob")
        );
        assert_eq!(summary.your_turn, Color::Gote);
        assert_eq!(summary.opponent(), "alice");
        assert_eq!(summary.max_moves, Some(256));
        assert_eq!(summary.time.unit, Duration::from_secs(1));
        assert_eq!((summary.time.total, summary.time.byoyomi), (60, 5));
        assert_eq!(summary.time.increment, 0);
        assert_eq!(summary.start, StandardShogiPosition::start());
        assert!(summary.moves.is_empty());
        assert!(summary.allows_comments());
    }

    #[test]
    fn a_stop_watch_summary_is_read_in_seconds() {
        let text = SHOGI_SERVER_SUMMARY
            .replace("koma-60-5+", "koma-1500-060+")
            .replace("Time_Unit:1sec", "Time_Unit:1min")
            .replace("Total_Time:60", "Total_Time:1500")
            .replace("Byoyomi:5", "Byoyomi:60");
        let summary = GameSummary::parse(&lines(&text)).unwrap();
        let time = summary.time;
        assert!(time.stop_watch);
        assert_eq!(time.unit, Duration::from_secs(1));
        assert_eq!((time.total, time.byoyomi), (1500, 60));
        // A minute that is a minute, in a game of another name.
        let minutes = SHOGI_SERVER_SUMMARY.replace("Time_Unit:1sec", "Time_Unit:1min");
        let summary = GameSummary::parse(&lines(&minutes)).unwrap();
        assert!(!summary.time.stop_watch);
        assert_eq!(summary.time.unit, Duration::from_secs(60));
        for (id, stop_watch) in [
            ("floodgate+x-1500-060+a+b+1", true),
            ("floodgate+x-y-600-010+a+b+1", true),
            ("floodgate+x-1500-60+a+b+1", false),
            ("floodgate+x-300-010F+a+b+1", false),
            ("floodgate+1500-060+a+b+1", false),
            ("x-1500-060", false),
            ("", false),
        ] {
            assert_eq!(is_stop_watch_game(id), stop_watch, "{id}");
        }
    }

    #[test]
    fn handicap_fischer_and_moves_played_are_read() {
        let text = "Game_ID:g1\nYour_Turn:+\nTo_Move:+\nBEGIN Time\nTime_Unit:1sec\n\
                    Total_Time:300\nByoyomi:0\nIncrement:10\nEND Time\nBEGIN Position\n\
                    PI82HI22KA\n-\n-5142OU,T3\n+7776FU,T1\nEND Position";
        let summary = GameSummary::parse(&lines(text)).unwrap();
        assert_eq!(summary.time.increment, 10);
        assert_eq!(summary.start.turn(), Color::Gote);
        assert_eq!(
            summary.start.to_text(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(summary.moves.len(), 2);
        assert_eq!(summary.moves[0].time, Some(Duration::from_secs(3)));
        assert!(!summary.allows_comments());
    }

    #[test]
    fn bad_summaries_are_refused_with_a_reason() {
        let without = |field: &str| {
            lines(SHOGI_SERVER_SUMMARY)
                .into_iter()
                .filter(|line| !line.starts_with(field))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            GameSummary::parse(&without("Your_Turn")),
            Err(SummaryError::Missing("Your_Turn"))
        );
        assert_eq!(
            GameSummary::parse(&without("Game_ID")),
            Err(SummaryError::Missing("Game_ID"))
        );
        let bad_time = SHOGI_SERVER_SUMMARY.replace("Byoyomi:5", "Byoyomi:five");
        assert!(matches!(
            GameSummary::parse(&lines(&bad_time)),
            Err(SummaryError::BadValue {
                field: "Byoyomi",
                ..
            })
        ));
        let bad_unit = SHOGI_SERVER_SUMMARY.replace("1sec", "1fortnight");
        assert!(GameSummary::parse(&lines(&bad_unit)).is_err());
        let bad_board = SHOGI_SERVER_SUMMARY.replace("P5 *  *", "P5 * +XX");
        let error = GameSummary::parse(&lines(&bad_board)).unwrap_err();
        assert!(matches!(error, SummaryError::Position(_)), "{error}");
        let chess = SHOGI_SERVER_SUMMARY.replace("Format:Shogi 1.0", "Format:Chess");
        assert!(GameSummary::parse(&lines(&chess)).is_err());
    }

    #[test]
    fn time_units_are_read() {
        assert_eq!(parse_time_unit("1sec"), Some(Duration::from_secs(1)));
        assert_eq!(parse_time_unit("1min"), Some(Duration::from_secs(60)));
        assert_eq!(parse_time_unit("10msec"), Some(Duration::from_millis(10)));
        assert_eq!(parse_time_unit("0sec"), None);
        assert_eq!(parse_time_unit("sec"), Some(Duration::from_secs(1)));
        assert_eq!(parse_time_unit("99999999999999999999sec"), None);
    }
}
