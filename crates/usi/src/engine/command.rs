//! The commands a GUI sends to an engine over USI or UCI, parsed from one
//! line each. Unknown words are skipped, as both protocols ask.

use std::str::FromStr;
use std::time::Duration;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `usi` or `uci`: identify and list options.
    Hello,
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// The option's name, as given.
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// `usinewgame` / `ucinewgame`.
    NewGame,
    /// `position startpos|sfen …|fen … [moves …]`.
    Position {
        /// `None` for `startpos`.
        setup: Option<String>,
        /// The moves played since.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(GoParams),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `gameover win|lose|draw` (USI).
    GameOver,
    /// `quit`.
    Quit,
    /// An empty line.
    Nothing,
}

/// The parameters of `go`. Times are as sent: `b`/`w` mean the first and
/// second player of the protocol (USI: b = sente; UCI: w = white = sente).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoParams {
    /// Time left of the side that moves first (USI `btime`, UCI `wtime`).
    pub first_time: Option<Duration>,
    /// Time left of the side that moves second.
    pub second_time: Option<Duration>,
    /// Increment of the first player.
    pub first_increment: Option<Duration>,
    /// Increment of the second player.
    pub second_increment: Option<Duration>,
    /// Byoyomi (USI).
    pub byoyomi: Option<Duration>,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `movetime`.
    pub move_time: Option<Duration>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `mate <ms>|infinite` (USI): solve for mate instead of searching,
    /// within the time given (`None` inside: no limit).
    pub mate: Option<Option<Duration>>,
    /// `searchmoves m1 m2 …`: search only these root moves (as sent; the
    /// illegal ones are left out when the search starts).
    pub search_moves: Vec<String>,
}

/// A line that is not a command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCommand(pub String);

impl std::fmt::Display for UnknownCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown command: {}", super::shorten(&self.0))
    }
}

impl FromStr for Command {
    type Err = UnknownCommand;

    fn from_str(line: &str) -> Result<Command, UnknownCommand> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(Command::Nothing);
        };
        let rest: Vec<&str> = words.collect();
        Ok(match first {
            "usi" | "uci" => Command::Hello,
            "isready" => Command::IsReady,
            "setoption" => parse_setoption(&rest),
            "usinewgame" | "ucinewgame" => Command::NewGame,
            "position" => parse_position(&rest).ok_or_else(|| UnknownCommand(line.to_string()))?,
            "go" => Command::Go(parse_go(&rest)),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "gameover" => Command::GameOver,
            "quit" => Command::Quit,
            _ => return Err(UnknownCommand(line.to_string())),
        })
    }
}

fn parse_setoption(words: &[&str]) -> Command {
    let name_at = words.iter().position(|&w| w == "name").map_or(0, |i| i + 1);
    let value_at = words.iter().position(|&w| w == "value");
    let name_end = value_at.unwrap_or(words.len()).max(name_at);
    Command::SetOption {
        name: words[name_at..name_end].join(" "),
        value: value_at.map(|i| words[i + 1..].join(" ")),
    }
}

fn parse_position(words: &[&str]) -> Option<Command> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let setup_words = &words[..moves_at.unwrap_or(words.len())];
    let setup = match setup_words.first()? {
        &"startpos" => None,
        &"sfen" | &"fen" => Some(setup_words[1..].join(" ")),
        _ => return None,
    };
    let moves = moves_at.map_or_else(Vec::new, |i| {
        words[i + 1..].iter().map(|w| w.to_string()).collect()
    });
    Some(Command::Position { setup, moves })
}

/// The words of `go` that end a `searchmoves` list.
const GO_WORDS: [&str; 13] = [
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

fn parse_go(words: &[&str]) -> GoParams {
    let mut params = GoParams::default();
    let mut words = words.iter().peekable();
    let millis = |word: Option<&&str>| {
        word.and_then(|w| w.parse::<i64>().ok())
            .map(|ms| Duration::from_millis(ms.max(0) as u64))
    };
    while let Some(&word) = words.next() {
        match word {
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime" => {
                let value = millis(words.peek().copied());
                if value.is_some() {
                    words.next();
                }
                let slot = match word {
                    "btime" => &mut params.first_time,
                    "wtime" => &mut params.second_time,
                    "binc" => &mut params.first_increment,
                    "winc" => &mut params.second_increment,
                    "byoyomi" => &mut params.byoyomi,
                    _ => &mut params.move_time,
                };
                *slot = value;
            }
            "movestogo" => params.moves_to_go = words.next().and_then(|w| w.parse().ok()),
            "depth" => params.depth = words.next().and_then(|w| w.parse().ok()),
            "nodes" => params.nodes = words.next().and_then(|w| w.parse().ok()),
            "mate" => {
                params.mate = match words.peek().copied() {
                    Some(&"infinite") => {
                        words.next();
                        Some(None)
                    }
                    next => {
                        let time = millis(next);
                        if time.is_some() {
                            words.next();
                        }
                        Some(time)
                    }
                }
            }
            "infinite" => params.infinite = true,
            "ponder" => params.ponder = true,
            "searchmoves" => {
                // The moves run to the next word of `go` or the line's end.
                while let Some(&&next) = words.peek() {
                    if GO_WORDS.contains(&next) {
                        break;
                    }
                    params.search_moves.push(next.to_string());
                    words.next();
                }
            }
            _ => {}
        }
    }
    params
}

impl GoParams {
    /// Swaps the first and second player's clocks: UCI names White's clock
    /// `wtime` and White moves first, where USI's first player is `b`.
    pub fn swap_sides(&mut self) {
        std::mem::swap(&mut self.first_time, &mut self.second_time);
        std::mem::swap(&mut self.first_increment, &mut self.second_increment);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_positions() {
        assert_eq!(
            "position startpos moves 7g7f 3c3d".parse(),
            Ok(Command::Position {
                setup: None,
                moves: vec!["7g7f".into(), "3c3d".into()]
            })
        );
        assert_eq!(
            "position sfen lbsgk/4p/5/P4/KGSBL b - 1".parse(),
            Ok(Command::Position {
                setup: Some("lbsgk/4p/5/P4/KGSBL b - 1".into()),
                moves: vec![]
            })
        );
        assert!("position".parse::<Command>().is_err());
        assert!("position nonsense".parse::<Command>().is_err());
    }

    #[test]
    fn parses_go_mate() {
        let go = |line: &str| match line.parse() {
            Ok(Command::Go(params)) => params.mate,
            other => panic!("{other:?}"),
        };
        assert_eq!(go("go mate 5000"), Some(Some(Duration::from_millis(5000))));
        assert_eq!(go("go mate infinite"), Some(None));
        assert_eq!(go("go mate"), Some(None));
        assert_eq!(go("go btime 1000"), None);
    }

    #[test]
    fn parses_go() {
        let Ok(Command::Go(go)) =
            "go btime 1000 wtime 2000 byoyomi 100 binc 5 winc 6 depth 7".parse()
        else {
            panic!("go did not parse");
        };
        assert_eq!(go.first_time, Some(Duration::from_millis(1000)));
        assert_eq!(go.second_time, Some(Duration::from_millis(2000)));
        assert_eq!(go.byoyomi, Some(Duration::from_millis(100)));
        assert_eq!(go.first_increment, Some(Duration::from_millis(5)));
        assert_eq!(go.second_increment, Some(Duration::from_millis(6)));
        assert_eq!(go.depth, Some(7));
        // Negative and missing numbers are tolerated.
        let Ok(Command::Go(go)) = "go btime -5 wtime nodes 9 infinite".parse() else {
            panic!("go did not parse");
        };
        assert_eq!(go.first_time, Some(Duration::ZERO));
        assert_eq!(go.second_time, None);
        assert_eq!(go.nodes, Some(9));
        assert!(go.infinite);
    }

    #[test]
    fn parses_searchmoves_up_to_the_next_word() {
        let Ok(Command::Go(go)) = "go searchmoves 7g7f 2g2f depth 3".parse() else {
            panic!("go did not parse");
        };
        assert_eq!(go.search_moves, ["7g7f", "2g2f"]);
        assert_eq!(go.depth, Some(3));
        let Ok(Command::Go(go)) = "go nodes 10 searchmoves e2e4".parse() else {
            panic!("go did not parse");
        };
        assert_eq!(
            (go.nodes, go.search_moves),
            (Some(10), vec!["e2e4".to_string()])
        );
    }

    #[test]
    fn parses_options() {
        assert_eq!(
            "setoption name USI_Variant value spear".parse(),
            Ok(Command::SetOption {
                name: "USI_Variant".into(),
                value: Some("spear".into())
            })
        );
        assert_eq!(
            "setoption name Move Overhead value 10".parse(),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("10".into())
            })
        );
        assert_eq!(
            "setoption name Clear Hash".parse(),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!("".parse(), Ok(Command::Nothing));
        assert!("xyzzy".parse::<Command>().is_err());
    }
}
