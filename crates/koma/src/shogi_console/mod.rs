//! `koma shogi`: a shogi-family game for two people at a terminal.
//!
//! Commands are words; anything else is read as a USI move. Records (save,
//! load, replay) and the computer opponent join this command set later.

mod board_view;

use board_view::{draw, side_name, status, Style};
use clap::{Args, ValueEnum};
use koma_rules::{
    Color, EndReason, Game, GameError, Minishogi, Move, Outcome, Position, Shogi, ShogiPosition,
    ShogiVariant, Spear, Variant,
};
use std::io::{self, BufRead, IsTerminal, Write};

/// When to colour the output.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ColorChoice {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// `koma shogi`: play at the terminal.
#[derive(Args)]
#[command(
    about = "Shogi (or minishogi, Spear) for two players at one terminal",
    long_about = "Shogi for two players at one terminal.\n\n\
        The board is drawn with kanji (Gote's pieces marked v; --ascii for SFEN letters), \
        files 9..1 across the top and ranks a..i down the side. Enter moves in USI notation: \
        7g7f, 8h2b+ (the + promotes), P*5e (a drop). When a move may promote and does not \
        say, you are asked. Type `help` for the commands: undo, resign, moves, board, new, quit."
)]
pub struct ShogiArgs {
    /// The game: shogi, minishogi or spear.
    #[arg(long, default_value = "shogi", value_parser = parse_shogi_family)]
    variant: Variant,
    /// Draw pieces as SFEN letters instead of kanji.
    #[arg(long)]
    ascii: bool,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Start from this SFEN instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

fn parse_shogi_family(text: &str) -> Result<Variant, String> {
    match crate::parse_variant(text)? {
        Variant::Pawns => {
            Err("koma shogi plays the shogi family; use `koma pawns` for Pawns-Only Chess".into())
        }
        variant => Ok(variant),
    }
}

/// Runs the console on standard input and output.
pub fn run(args: ShogiArgs) -> Result<(), String> {
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let style = Style {
        ascii: args.ascii,
        color,
    };
    fn console<V: ShogiVariant>(args: &ShogiArgs, style: Style) -> Result<(), ConsoleError> {
        Console::<V>::new(args, style)?.run(io::stdin().lock(), io::stdout().lock())
    }
    let result = match args.variant {
        Variant::Spear => console::<Spear>(&args, style),
        Variant::Minishogi => console::<Minishogi>(&args, style),
        // Pawns-Only Chess is refused when the arguments are parsed.
        Variant::Shogi | Variant::Pawns => console::<Shogi>(&args, style),
    };
    match result {
        Err(ConsoleError::Io(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(error) => Err(error.to_string()),
        Ok(()) => Ok(()),
    }
}

/// What stops the console.
#[derive(Debug)]
enum ConsoleError {
    Setup(String),
    Io(io::Error),
}

impl std::fmt::Display for ConsoleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConsoleError::Setup(message) => f.write_str(message),
            ConsoleError::Io(error) => error.fmt(f),
        }
    }
}

impl From<io::Error> for ConsoleError {
    fn from(error: io::Error) -> Self {
        ConsoleError::Io(error)
    }
}

/// A line of input, understood.
enum Command {
    Move(String),
    Undo,
    Resign,
    Moves,
    Board,
    New,
    Help,
    Quit,
    Unknown(String),
}

fn parse_command(line: &str) -> Option<Command> {
    let word = line.split_whitespace().next()?;
    let command = match word.to_ascii_lowercase().as_str() {
        "undo" | "u" | "back" => Command::Undo,
        "resign" => Command::Resign,
        "moves" => Command::Moves,
        "board" | "b" => Command::Board,
        "new" => Command::New,
        "help" | "h" | "?" => Command::Help,
        "quit" | "exit" | "q" => Command::Quit,
        _ if line.split_whitespace().count() == 1 && looks_like_a_move(word) => {
            Command::Move(word.to_owned())
        }
        _ => Command::Unknown(line.trim().to_owned()),
    };
    Some(command)
}

/// Digits and a star suggest a move attempt (to explain it), not a command.
fn looks_like_a_move(word: &str) -> bool {
    word.contains('*') || word.chars().next().is_some_and(|c| c.is_ascii_digit())
}

const HELP: &str = "\
Moves are USI: 7g7f (from 7g to 7f), 8h2b+ (move and promote), P*5e (drop a pawn).
Files are numbered 9..1 from left to right, ranks a..i from top to bottom.
Commands:
  undo     take back the last move (repeat to go further back)
  resign   the side to move gives up
  moves    list the legal moves
  board    draw the board again
  new      start a new game
  help     this text
  quit     leave
";

struct Console<V: ShogiVariant> {
    game: Game<ShogiPosition<V>>,
    start: ShogiPosition<V>,
    style: Style,
    /// Repeat each input line after its prompt, so that a session read from a
    /// pipe or file shows what was typed.
    echo: bool,
}

impl<V: ShogiVariant> Console<V> {
    fn new(args: &ShogiArgs, style: Style) -> Result<Self, ConsoleError> {
        let start = match &args.position {
            Some(text) => ShogiPosition::<V>::from_text(text)
                .map_err(|e| ConsoleError::Setup(format!("bad position: {e}")))?,
            None => ShogiPosition::<V>::start(),
        };
        Ok(Console {
            game: Game::new(start),
            start,
            style,
            echo: !io::stdin().is_terminal(),
        })
    }

    fn run(mut self, mut input: impl BufRead, mut output: impl Write) -> Result<(), ConsoleError> {
        writeln!(output, "Koma {}. Type help for the commands.", V::VARIANT)?;
        self.show(&mut output)?;
        loop {
            self.prompt(&mut output)?;
            let Some(line) = self.read_line(&mut input, &mut output)? else {
                return Ok(());
            };
            let Some(command) = parse_command(&line) else {
                continue;
            };
            match command {
                Command::Quit => return Ok(()),
                Command::Help => write!(output, "{HELP}")?,
                Command::Board => self.show(&mut output)?,
                Command::Moves => self.list_moves(&mut output)?,
                Command::New => {
                    self.game = Game::new(self.start);
                    self.show(&mut output)?;
                }
                Command::Undo => {
                    if self.game.declared().is_some() {
                        self.game.undo();
                        writeln!(output, "Took back the resignation.")?;
                        self.show(&mut output)?;
                    } else if let Some(m) = self.game.undo() {
                        writeln!(output, "Took back {m:?}.")?;
                        self.show(&mut output)?;
                    } else {
                        writeln!(output, "Nothing to take back.")?;
                    }
                }
                Command::Resign => {
                    let side = self.game.position().turn();
                    match self.game.resign(side) {
                        Ok(()) => self.announce_end(&mut output)?,
                        Err(error) => writeln!(output, "{error}.")?,
                    }
                }
                Command::Move(text) => {
                    if !self.play(&text, &mut input, &mut output)? {
                        return Ok(());
                    }
                }
                Command::Unknown(text) => writeln!(
                    output,
                    "Unknown command {text:?}. Type help for the commands, or a move like 7g7f."
                )?,
            }
        }
    }

    fn prompt(&self, output: &mut impl Write) -> io::Result<()> {
        if self.game.outcome().is_some() {
            write!(output, "(game over) > ")?;
        } else {
            write!(
                output,
                "{}> ",
                side_name(self.game.position().turn(), self.style)
            )?;
        }
        output.flush()
    }

    fn show(&self, output: &mut impl Write) -> io::Result<()> {
        let position = self.game.position();
        let last = self.game.moves().last().copied();
        write!(output, "{}", draw(position, last, self.style))?;
        if self.game.outcome().is_none() {
            write!(
                output,
                "{}",
                status(position, self.game.moves().len(), last, self.style)
            )?;
        }
        Ok(())
    }

    fn list_moves(&self, output: &mut impl Write) -> io::Result<()> {
        let mut moves: Vec<String> = self
            .game
            .position()
            .legal_moves()
            .iter()
            .map(|&m| format!("{m:?}"))
            .collect();
        moves.sort();
        writeln!(output, "{} legal moves: {}", moves.len(), moves.join(" "))
    }

    /// Plays a move typed by the user; `false` if input ended while asking.
    fn play(
        &mut self,
        text: &str,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> Result<bool, ConsoleError> {
        if let Some(outcome) = self.game.outcome() {
            writeln!(
                output,
                "The game is over ({}). Type undo, new or quit.",
                describe(outcome)
            )?;
            return Ok(true);
        }
        let mut m = match self.game.position().parse_move(text) {
            Ok(m) => m,
            Err(error) => {
                let candidate = ShogiPosition::<V>::parse_move_syntax(text).ok();
                // A move that may promote but did not say is not an error: ask.
                match candidate.and_then(|m| self.promoted_twin(m)) {
                    Some(m) => m,
                    None => {
                        writeln!(output, "Illegal: {error}.")?;
                        return Ok(true);
                    }
                }
            }
        };
        if let Move::Board {
            from,
            to,
            promote: false,
        } = m
        {
            let promoted = Move::Board {
                from,
                to,
                promote: true,
            };
            if self.game.position().is_legal(promoted) && self.game.position().is_legal(m) {
                match self.ask_promotion(input, output)? {
                    Some(true) => m = promoted,
                    Some(false) => {}
                    None => return Ok(false),
                }
            }
        }
        match self.game.play(m) {
            Ok(()) => {
                self.show(output)?;
                if self.game.outcome().is_some() {
                    self.announce_end(output)?;
                }
            }
            Err(GameError::Illegal(illegal)) => writeln!(output, "Illegal: {}.", illegal.reason)?,
            Err(error) => writeln!(output, "{error}.")?,
        }
        Ok(true)
    }

    /// For a move written without `+` that is only legal promoted (Spear's
    /// compulsory promotion), nothing to ask: the promoted move.
    fn promoted_twin(&self, m: Move) -> Option<Move> {
        match m {
            Move::Board {
                from,
                to,
                promote: false,
            } if V::VARIANT == Variant::Spear => {
                let promoted = Move::Board {
                    from,
                    to,
                    promote: true,
                };
                self.game.position().is_legal(promoted).then_some(promoted)
            }
            _ => None,
        }
    }

    /// Asks whether to promote; `None` when input ends.
    fn ask_promotion(
        &self,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> io::Result<Option<bool>> {
        loop {
            write!(output, "Promote? [y/n] ")?;
            output.flush()?;
            let Some(answer) = self.read_line(input, output)? else {
                return Ok(None);
            };
            match answer.to_ascii_lowercase().as_str() {
                "y" | "yes" | "+" => return Ok(Some(true)),
                "n" | "no" | "=" => return Ok(Some(false)),
                _ => writeln!(output, "Please answer y (promote) or n (do not promote).")?,
            }
        }
    }

    /// Reads a line after a prompt (echoing it when not typed at a terminal);
    /// `None` at the end of input.
    fn read_line(
        &self,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> io::Result<Option<String>> {
        let line = read_line(input)?;
        match &line {
            Some(text) if self.echo => writeln!(output, "{text}")?,
            None => writeln!(output)?,
            Some(_) => {}
        }
        Ok(line)
    }

    fn announce_end(&self, output: &mut impl Write) -> io::Result<()> {
        if let Some(outcome) = self.game.outcome() {
            writeln!(output, "Game over: {}.", describe(outcome))?;
        }
        Ok(())
    }
}

/// "Sente wins by checkmate", "Draw by fourfold repetition".
fn describe(outcome: Outcome) -> String {
    let reason = match outcome.reason {
        EndReason::Resignation => "resignation".to_owned(),
        EndReason::Repetition => "fourfold repetition (sennichite)".to_owned(),
        EndReason::PerpetualCheck => "perpetual check (the checking side loses)".to_owned(),
        other => other.to_string(),
    };
    match outcome.winner {
        Some(Color::Sente) => format!("Sente wins by {reason}"),
        Some(Color::Gote) => format!("Gote wins by {reason}"),
        None => format!("draw by {reason}"),
    }
}

fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).trim().to_owned()))
}
