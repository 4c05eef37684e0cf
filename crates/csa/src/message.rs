//! The lines of the CSA protocol (1.2.1, with shogi-server's extensions):
//! what the server says, read into [`ServerMessage`], and what the client
//! says, written from [`ClientCommand`]. The `Game_Summary` block is read
//! by [`crate::summary`].

use std::fmt;

/// A line from the server that is not part of a `Game_Summary` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `LOGIN:name OK`.
    LoginOk {
        /// The name the server knows us by.
        user: String,
    },
    /// `LOGIN:incorrect`: a wrong name or password, or the name is in use.
    LoginIncorrect,
    /// `LOGOUT:completed`.
    LogoutCompleted,
    /// `BEGIN Game_Summary`: a game is offered; its block follows.
    SummaryBegins,
    /// `START:id`: both sides agreed, the clock runs.
    Start {
        /// The game's `Game_ID`.
        game_id: String,
    },
    /// `REJECT:id by name`: the offer is withdrawn.
    Reject {
        /// The game's `Game_ID`.
        game_id: String,
    },
    /// A move as the server plays it back to both sides: `+7776FU,T3`.
    Move(MoveLine),
    /// `%TORYO` or `%KACHI` played back before the result.
    Special(Special),
    /// Why the game ended: `#RESIGN`, `#TIME_UP`, …
    Reason(EndReason),
    /// How it ended for us: `#WIN`, `#LOSE`, …
    Result(GameResult),
    /// An empty line: the server's keep-alive, or its answer to ours.
    KeepAlive,
    /// A line of shogi-server's extended mode (`##[LOGIN] +OK x1`,
    /// `##[ERROR] …`): worth showing, nothing to act on.
    Notice(String),
    /// A line the client does not know; shown and ignored.
    Unknown(String),
}

/// A move the server played back, with the time it charged for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move in CSA form, `+7776FU`.
    pub code: String,
    /// The time the server charged, in its `Time_Unit`s (`T3`).
    pub time: Option<u64>,
}

/// The `%` statements that end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `%TORYO`: the side to move resigned.
    Resign,
    /// `%KACHI`: the side to move declared a win by impasse (入玉宣言).
    Declare,
}

/// Why a game ended, as the server says it (`#…` before the result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `#RESIGN`.
    Resign,
    /// `#TIME_UP`.
    TimeUp,
    /// `#ILLEGAL_MOVE` (a false `%KACHI` too).
    IllegalMove,
    /// `#SENNICHITE`: fourfold repetition, a draw.
    Sennichite,
    /// `#OUTE_SENNICHITE`: perpetual check, a loss for the checker.
    OuteSennichite,
    /// `#JISHOGI`: a valid impasse declaration.
    Jishogi,
    /// `#MAX_MOVES`: the move limit, a draw.
    MaxMoves,
}

/// How a game ended for this client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `#WIN`.
    Win,
    /// `#LOSE`.
    Lose,
    /// `#DRAW`.
    Draw,
    /// `#CENSORED`: stopped at the move limit.
    Censored,
    /// `#CHUDAN`: broken off.
    Chudan,
}

impl EndReason {
    /// The reason's CSA word, without the `#`.
    pub fn word(self) -> &'static str {
        match self {
            EndReason::Resign => "RESIGN",
            EndReason::TimeUp => "TIME_UP",
            EndReason::IllegalMove => "ILLEGAL_MOVE",
            EndReason::Sennichite => "SENNICHITE",
            EndReason::OuteSennichite => "OUTE_SENNICHITE",
            EndReason::Jishogi => "JISHOGI",
            EndReason::MaxMoves => "MAX_MOVES",
        }
    }
}

impl GameResult {
    /// The result's word, lower case: `win`, `lose`, …
    pub fn word(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Lose => "lose",
            GameResult::Draw => "draw",
            GameResult::Censored => "censored (draw at the move limit)",
            GameResult::Chudan => "broken off",
        }
    }
}

/// A line that has the shape of a known message but not its content.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the server sent {line:?}, which is not {expected}")]
pub struct MalformedLine {
    /// The line as received.
    pub line: String,
    /// What a line of that shape should have been.
    pub expected: &'static str,
}

impl ServerMessage {
    /// Reads one line (without its line break).
    ///
    /// ```
    /// use koma_csa::message::{MoveLine, ServerMessage};
    /// assert_eq!(
    ///     ServerMessage::parse("+7776FU,T3"),
    ///     Ok(ServerMessage::Move(MoveLine { code: "+7776FU".into(), time: Some(3) }))
    /// );
    /// assert!(ServerMessage::parse("+77,T3").is_err());
    /// ```
    pub fn parse(line: &str) -> Result<ServerMessage, MalformedLine> {
        let line = line.trim_end_matches(['\r', '\n']);
        let malformed = |expected| MalformedLine {
            line: line.to_owned(),
            expected,
        };
        if line.trim().is_empty() {
            return Ok(ServerMessage::KeepAlive);
        }
        if let Some(rest) = line.strip_prefix("LOGIN:") {
            return match rest.trim() {
                "incorrect" => Ok(ServerMessage::LoginIncorrect),
                rest => match rest.strip_suffix(" OK") {
                    Some(user) if !user.trim().is_empty() => Ok(ServerMessage::LoginOk {
                        user: user.trim().to_owned(),
                    }),
                    _ => Err(malformed("LOGIN:name OK or LOGIN:incorrect")),
                },
            };
        }
        if line.starts_with("LOGOUT:") {
            return Ok(ServerMessage::LogoutCompleted);
        }
        if line.trim() == "BEGIN Game_Summary" {
            return Ok(ServerMessage::SummaryBegins);
        }
        if let Some(id) = line.strip_prefix("START:") {
            let game_id = id.split_whitespace().next().unwrap_or("");
            return match game_id {
                "" => Err(malformed("START:game_id")),
                id => Ok(ServerMessage::Start {
                    game_id: id.to_owned(),
                }),
            };
        }
        if let Some(id) = line.strip_prefix("REJECT:") {
            let game_id = id.split_whitespace().next().unwrap_or("").to_owned();
            return Ok(ServerMessage::Reject { game_id });
        }
        if line.starts_with("##") {
            return Ok(ServerMessage::Notice(line.to_owned()));
        }
        if line.starts_with(['+', '-']) {
            return parse_move_line(line)
                .map(ServerMessage::Move)
                .ok_or_else(|| malformed("a move like +7776FU,T3"));
        }
        if let Some(special) = line.strip_prefix('%') {
            let word = special.split(',').next().unwrap_or("");
            return match word {
                "TORYO" => Ok(ServerMessage::Special(Special::Resign)),
                "KACHI" => Ok(ServerMessage::Special(Special::Declare)),
                _ => Ok(ServerMessage::Unknown(line.to_owned())),
            };
        }
        if let Some(word) = line.strip_prefix('#') {
            let reason = match word.trim() {
                "RESIGN" => EndReason::Resign,
                "TIME_UP" => EndReason::TimeUp,
                "ILLEGAL_MOVE" => EndReason::IllegalMove,
                "SENNICHITE" => EndReason::Sennichite,
                "OUTE_SENNICHITE" => EndReason::OuteSennichite,
                "JISHOGI" => EndReason::Jishogi,
                "MAX_MOVES" => EndReason::MaxMoves,
                "WIN" => return Ok(ServerMessage::Result(GameResult::Win)),
                "LOSE" => return Ok(ServerMessage::Result(GameResult::Lose)),
                "DRAW" => return Ok(ServerMessage::Result(GameResult::Draw)),
                "CENSORED" => return Ok(ServerMessage::Result(GameResult::Censored)),
                "CHUDAN" => return Ok(ServerMessage::Result(GameResult::Chudan)),
                _ => return Ok(ServerMessage::Unknown(line.to_owned())),
            };
            return Ok(ServerMessage::Reason(reason));
        }
        Ok(ServerMessage::Unknown(line.to_owned()))
    }
}

/// `+7776FU`, then `,T3` and perhaps more fields, which are ignored.
fn parse_move_line(line: &str) -> Option<MoveLine> {
    let mut fields = line.split(',');
    let code = fields.next()?.trim_end();
    if !is_move_code(code) {
        return None;
    }
    let mut time = None;
    for field in fields {
        if let Some(seconds) = field.strip_prefix('T') {
            time = Some(seconds.trim().parse().ok()?);
        }
    }
    Some(MoveLine {
        code: code.to_owned(),
        time,
    })
}

/// `+7776FU`: a sign, two squares (`00` for a drop), a piece code.
pub fn is_move_code(code: &str) -> bool {
    let bytes = code.as_bytes();
    bytes.len() == 7
        && matches!(bytes[0], b'+' | b'-')
        && bytes[1..5].iter().all(u8::is_ascii_digit)
        && bytes[5..7].iter().all(u8::is_ascii_uppercase)
}

/// Which side the client asks for in `%%GAME` and `%%CHALLENGE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TurnPreference {
    /// `+`: sente (先手).
    Sente,
    /// `-`: gote (後手).
    Gote,
    /// `*`: either; floodgate's games accept only this.
    #[default]
    Either,
}

impl TurnPreference {
    /// `+`, `-` or `*`.
    pub fn sign(self) -> char {
        match self {
            TurnPreference::Sente => '+',
            TurnPreference::Gote => '-',
            TurnPreference::Either => '*',
        }
    }
}

impl std::str::FromStr for TurnPreference {
    type Err = String;

    /// `+`/`sente`/`black`, `-`/`gote`/`white`, `*`/`any`.
    fn from_str(text: &str) -> Result<TurnPreference, String> {
        match text {
            "+" | "sente" | "black" => Ok(TurnPreference::Sente),
            "-" | "gote" | "white" => Ok(TurnPreference::Gote),
            "*" | "any" | "either" => Ok(TurnPreference::Either),
            other => Err(format!(
                "{other:?} is not a side: expected + (sente), - (gote) or * (either)"
            )),
        }
    }
}

/// A line the client sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientCommand {
    /// `LOGIN name password`, with ` x1` for shogi-server's extended mode
    /// (needed for `%%GAME` and `%%CHALLENGE`).
    Login {
        /// The player's name.
        user: String,
        /// The password (shogi-server reads `game-name,password` too).
        password: String,
        /// Extended mode.
        extended: bool,
    },
    /// `LOGOUT`.
    Logout,
    /// `%%GAME name turn`: wait for an opponent in that game.
    Game {
        /// The game name, `floodgate-300-10F` or `koma-300-10`.
        name: String,
        /// The side wanted.
        turn: TurnPreference,
    },
    /// `%%CHALLENGE name turn`: join a player already waiting.
    Challenge {
        /// The game name.
        name: String,
        /// The side wanted.
        turn: TurnPreference,
    },
    /// `AGREE`: accept the offered game.
    Agree,
    /// `REJECT`: refuse it.
    Reject,
    /// A move, with floodgate's comment (`'* 30 -3334FU`) when allowed.
    Move {
        /// `+7776FU`.
        code: String,
        /// The comment, without the `'`.
        comment: Option<String>,
    },
    /// `%TORYO`.
    Resign,
    /// `%KACHI`.
    Declare,
    /// An empty line.
    KeepAlive,
}

impl ClientCommand {
    /// Reads a line a client sent (without its line break), as a CSA
    /// server reads it: the inverse of this type's `Display`, for Koma's
    /// own server. `None` for a line that is no command (the server answers
    /// shogi-server's `##[ERROR] unknown command`).
    ///
    /// A line that starts with `+` or `-` is a move whatever follows: the
    /// server judges it against the position (a malformed move is an
    /// illegal one, as shogi-server has it). `LOGIN` takes exactly a name
    /// and a password, and ` x1` for the extended mode; `AGREE` and
    /// `REJECT` may carry the game's id, which is not checked.
    ///
    /// ```
    /// use koma_csa::message::{ClientCommand, TurnPreference};
    /// assert_eq!(
    ///     ClientCommand::parse("%%GAME koma-60-5 *"),
    ///     Some(ClientCommand::Game { name: "koma-60-5".into(), turn: TurnPreference::Either })
    /// );
    /// assert_eq!(ClientCommand::parse("HELLO"), None);
    /// ```
    pub fn parse(line: &str) -> Option<ClientCommand> {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() || line == " " {
            return Some(ClientCommand::KeepAlive);
        }
        if line.starts_with(['+', '-']) {
            let (code, rest) = line.split_once(',').unwrap_or((line, ""));
            // shogi-server keeps what follows `'` up to the next comma.
            let comment = rest
                .strip_prefix('\'')
                .map(|text| text.split(',').next().unwrap_or("").to_owned());
            return Some(ClientCommand::Move {
                code: code.to_owned(),
                comment,
            });
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["LOGIN", user, password] => Some(ClientCommand::Login {
                user: (*user).to_owned(),
                password: (*password).to_owned(),
                extended: false,
            }),
            ["LOGIN", user, password, "x1"] => Some(ClientCommand::Login {
                user: (*user).to_owned(),
                password: (*password).to_owned(),
                extended: true,
            }),
            ["LOGOUT", ..] => Some(ClientCommand::Logout),
            ["AGREE", ..] => Some(ClientCommand::Agree),
            ["REJECT", ..] => Some(ClientCommand::Reject),
            ["%TORYO", ..] => Some(ClientCommand::Resign),
            ["%KACHI", ..] => Some(ClientCommand::Declare),
            [command @ ("%%GAME" | "%%CHALLENGE"), name, turn] => {
                let turn = match *turn {
                    "+" => TurnPreference::Sente,
                    "-" => TurnPreference::Gote,
                    "*" => TurnPreference::Either,
                    _ => return None,
                };
                let name = (*name).to_owned();
                Some(if *command == "%%GAME" {
                    ClientCommand::Game { name, turn }
                } else {
                    ClientCommand::Challenge { name, turn }
                })
            }
            _ => None,
        }
    }
}

impl fmt::Display for ClientCommand {
    /// The line to send, without its line break.
    ///
    /// ```
    /// use koma_csa::message::ClientCommand;
    /// let m = ClientCommand::Move { code: "+7776FU".into(), comment: Some("* 30 -3334FU".into()) };
    /// assert_eq!(m.to_string(), "+7776FU,'* 30 -3334FU");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientCommand::Login {
                user,
                password,
                extended,
            } => {
                write!(f, "LOGIN {user} {password}")?;
                if *extended {
                    f.write_str(" x1")?;
                }
                Ok(())
            }
            ClientCommand::Logout => f.write_str("LOGOUT"),
            ClientCommand::Game { name, turn } => write!(f, "%%GAME {name} {}", turn.sign()),
            ClientCommand::Challenge { name, turn } => {
                write!(f, "%%CHALLENGE {name} {}", turn.sign())
            }
            ClientCommand::Agree => f.write_str("AGREE"),
            ClientCommand::Reject => f.write_str("REJECT"),
            ClientCommand::Move { code, comment } => {
                f.write_str(code)?;
                match comment {
                    // shogi-server cuts a comment at its first comma.
                    Some(comment) => write!(f, ",'{}", comment.replace(',', " ")),
                    None => Ok(()),
                }
            }
            ClientCommand::Resign => f.write_str("%TORYO"),
            ClientCommand::Declare => f.write_str("%KACHI"),
            ClientCommand::KeepAlive => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> ServerMessage {
        ServerMessage::parse(line).unwrap()
    }

    #[test]
    fn server_lines_are_read() {
        assert_eq!(
            parse("LOGIN:koma-a OK"),
            ServerMessage::LoginOk {
                user: "koma-a".into()
            }
        );
        assert_eq!(parse("LOGIN:incorrect"), ServerMessage::LoginIncorrect);
        assert_eq!(parse("LOGOUT:completed"), ServerMessage::LogoutCompleted);
        assert_eq!(parse("BEGIN Game_Summary"), ServerMessage::SummaryBegins);
        assert_eq!(
            parse("START:g+1"),
            ServerMessage::Start {
                game_id: "g+1".into()
            }
        );
        assert_eq!(
            parse("REJECT:g+1 by bob"),
            ServerMessage::Reject {
                game_id: "g+1".into()
            }
        );
        assert_eq!(
            parse("-0055KA,T12"),
            ServerMessage::Move(MoveLine {
                code: "-0055KA".into(),
                time: Some(12)
            })
        );
        assert_eq!(
            parse("+2726FU"),
            ServerMessage::Move(MoveLine {
                code: "+2726FU".into(),
                time: None
            })
        );
        assert_eq!(parse("%TORYO"), ServerMessage::Special(Special::Resign));
        assert_eq!(parse("%KACHI"), ServerMessage::Special(Special::Declare));
        assert_eq!(
            parse("#OUTE_SENNICHITE"),
            ServerMessage::Reason(EndReason::OuteSennichite)
        );
        assert_eq!(parse("#TIME_UP"), ServerMessage::Reason(EndReason::TimeUp));
        assert_eq!(parse("#LOSE"), ServerMessage::Result(GameResult::Lose));
        assert_eq!(
            parse("#CENSORED"),
            ServerMessage::Result(GameResult::Censored)
        );
        assert_eq!(parse("#CHUDAN"), ServerMessage::Result(GameResult::Chudan));
        assert_eq!(parse(""), ServerMessage::KeepAlive);
        assert_eq!(parse("\r"), ServerMessage::KeepAlive);
        assert_eq!(
            parse("##[LOGIN] +OK x1"),
            ServerMessage::Notice("##[LOGIN] +OK x1".into())
        );
        assert_eq!(parse("HELLO"), ServerMessage::Unknown("HELLO".into()));
        assert_eq!(parse("#BOGUS"), ServerMessage::Unknown("#BOGUS".into()));
    }

    #[test]
    fn malformed_lines_are_errors_not_panics() {
        for line in [
            "+77",
            "+7776fu,T1",
            "-7776FU,Tx",
            "+7776FUU",
            "START:",
            "LOGIN:",
            "+７７７６FU",
            "-0055KA,T99999999999999999999999",
        ] {
            let error = ServerMessage::parse(line).unwrap_err();
            assert_eq!(error.line, line);
            assert!(error.to_string().contains("which is not"), "{error}");
        }
    }

    #[test]
    fn client_lines_are_written() {
        let login = ClientCommand::Login {
            user: "koma".into(),
            password: "secret".into(),
            extended: false,
        };
        assert_eq!(login.to_string(), "LOGIN koma secret");
        let extended = ClientCommand::Login {
            user: "koma".into(),
            password: "secret".into(),
            extended: true,
        };
        assert_eq!(extended.to_string(), "LOGIN koma secret x1");
        let game = ClientCommand::Game {
            name: "floodgate-300-10F".into(),
            turn: TurnPreference::Either,
        };
        assert_eq!(game.to_string(), "%%GAME floodgate-300-10F *");
        let challenge = ClientCommand::Challenge {
            name: "koma-300-10".into(),
            turn: TurnPreference::Gote,
        };
        assert_eq!(challenge.to_string(), "%%CHALLENGE koma-300-10 -");
        assert_eq!(ClientCommand::Agree.to_string(), "AGREE");
        assert_eq!(ClientCommand::Resign.to_string(), "%TORYO");
        assert_eq!(ClientCommand::Declare.to_string(), "%KACHI");
        assert_eq!(ClientCommand::Logout.to_string(), "LOGOUT");
        assert_eq!(ClientCommand::KeepAlive.to_string(), "");
        let plain = ClientCommand::Move {
            code: "-3334FU".into(),
            comment: None,
        };
        assert_eq!(plain.to_string(), "-3334FU");
        let commas = ClientCommand::Move {
            code: "-3334FU".into(),
            comment: Some("* 1,2".into()),
        };
        assert_eq!(commas.to_string(), "-3334FU,'* 1 2");
        assert_eq!("+".parse(), Ok(TurnPreference::Sente));
        assert_eq!("gote".parse(), Ok(TurnPreference::Gote));
        assert!("x".parse::<TurnPreference>().is_err());
    }

    #[test]
    fn client_lines_read_back_as_written() {
        let commands = [
            ClientCommand::Login {
                user: "koma".into(),
                password: "koma-60-5,secret".into(),
                extended: false,
            },
            ClientCommand::Login {
                user: "koma".into(),
                password: "secret".into(),
                extended: true,
            },
            ClientCommand::Logout,
            ClientCommand::Game {
                name: "koma-300-10F".into(),
                turn: TurnPreference::Sente,
            },
            ClientCommand::Challenge {
                name: "koma-60-5".into(),
                turn: TurnPreference::Either,
            },
            ClientCommand::Agree,
            ClientCommand::Reject,
            ClientCommand::Move {
                code: "+7776FU".into(),
                comment: None,
            },
            ClientCommand::Move {
                code: "-3334FU".into(),
                comment: Some("* 30 +2726FU".into()),
            },
            ClientCommand::Resign,
            ClientCommand::Declare,
            ClientCommand::KeepAlive,
        ];
        for command in commands {
            let line = command.to_string();
            assert_eq!(ClientCommand::parse(&line), Some(command), "{line:?}");
        }
        assert_eq!(ClientCommand::parse("AGREE g1"), Some(ClientCommand::Agree));
        assert_eq!(ClientCommand::parse(" "), Some(ClientCommand::KeepAlive));
        assert_eq!(
            ClientCommand::parse("+77,T3"),
            Some(ClientCommand::Move {
                code: "+77".into(),
                comment: None
            }),
            "a malformed move is a move, judged (and lost) by the server"
        );
        for line in [
            "LOGIN koma",
            "LOGIN a b c d",
            "%%GAME koma-60-5",
            "%%GAME koma-60-5 x",
            "HELLO",
            "%%CHALLENGE",
            "%CHUDAN",
        ] {
            assert_eq!(ClientCommand::parse(line), None, "{line:?}");
        }
    }
}
