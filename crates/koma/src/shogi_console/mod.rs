//! `koma shogi`: a shogi-family game for two people at a terminal.
//!
//! Commands are words; anything else is read as a USI move. A game is a
//! record one can save, load and step through. The computer may play one
//! side (`--computer`), and `hint` asks it for advice ([`opponent`]).

mod board_view;
mod history;
mod opponent;
mod seed_view;

use board_view::{draw, side_name, status, Style};
use clap::{Args, ValueEnum};
use history::{History, Undone};
use koma_engine::Evaluate;
use koma_records::file::{self as record_file, parse_format};
use koma_records::{AnyRecord, Format, Record};
use koma_rules::{
    with_shogi_game, Color, EndReason, GameError, Handicap, ImpasseRule, Move, Outcome, Position,
    ShogiPosition, ShogiVariant, Variant,
};
use opponent::Opponent;
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
        say, you are asked. Type `help` for the commands: undo, resign, moves, board, new, \
        save, next/back/start/end/goto to step through a game, quit.\n\n\
        --load opens a record (KIF, KI2, CSA, USI, whatever the extension) at its start to \
        replay it; playing a move part-way continues from there. --record FILE saves the game \
        after every move, and resumes it if FILE already holds one.\n\n\
        --computer sente (or gote) lets Koma's engine play that side at --level 1 to 20 \
        (within a second a move); undo then takes back its reply and your move. `hint` asks \
        the engine for the best move in the position shown, in any game."
)]
pub struct ShogiArgs {
    /// The game: shogi (the default), minishogi or spear; a loaded record says its own.
    #[arg(long, value_parser = parse_shogi_family)]
    variant: Option<Variant>,
    /// Draw pieces as SFEN letters instead of kanji.
    #[arg(long)]
    ascii: bool,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Start from this SFEN instead of the start position.
    #[arg(long, conflicts_with = "load")]
    position: Option<String>,
    /// A handicap game of shogi: lance, right-lance, bishop, rook,
    /// rook-lance, two-piece, three-piece, four-piece, five-piece,
    /// left-five-piece, six-piece, left-seven-piece, right-seven-piece,
    /// eight-piece or ten-piece (or the Japanese name). The giver (上手)
    /// plays Gote and moves first.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["load", "position"])]
    handicap: Option<Handicap>,
    /// The impasse rule that judges `declare` in shogi: 27 (the CSA rule of
    /// computer shogi: 28 points for Sente, 27 for Gote) or 24 (the JSA's
    /// for amateurs: 31 points win, 24 to 30 draw).
    #[arg(long, value_name = "POINTS", default_value = "27")]
    impasse: ImpasseRule,
    /// Open this record (KIF, KIFU, KI2, CSA, USI) to replay or continue it.
    #[arg(long, value_name = "FILE")]
    load: Option<String>,
    /// Save the game to FILE after every move (format from the extension);
    /// if FILE holds a game already, continue it.
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// Spear as its seed draws it: White at the bottom, columns 1-5 left
    /// to right, rows 1-5 bottom to top, and moves `L FF TT` (K 11 12; 00
    /// to drop) beside USI.
    #[arg(long)]
    seed_view: bool,
    /// Let Koma's engine play this side: sente (the first mover) or gote.
    #[arg(long, value_name = "SIDE", value_parser = parse_side)]
    computer: Option<Color>,
    /// The computer's strength: 1 (weakest) to 20 (full strength).
    #[arg(long, value_name = "N", default_value_t = crate::console_engine::DEFAULT_LEVEL,
          value_parser = clap::value_parser!(u8).range(1..=20))]
    level: u8,
}

fn parse_side(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "sente" | "black" | "b" | "先手" => Ok(Color::Sente),
        "gote" | "white" | "w" | "後手" => Ok(Color::Gote),
        _ => Err(format!("{text:?} is not a side: sente or gote")),
    }
}

fn parse_shogi_family(text: &str) -> Result<Variant, String> {
    match text
        .parse()
        .map_err(|e: koma_rules::UnknownVariant| e.to_string())?
    {
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
        seed_view: args.seed_view,
    };
    let recording = match &args.record {
        Some(path) => Some((
            path.clone(),
            record_file::output_format(path, None).map_err(|e| e.to_string())?,
        )),
        None => None,
    };
    // A record file that exists is a game to continue, never one to overwrite.
    let resumed = match &args.record {
        Some(path) if args.load.is_none() && std::path::Path::new(path).exists() => {
            Some(record_file::load(path, None, args.variant).map_err(|e| e.to_string())?)
        }
        _ => None,
    };
    let loaded = match &args.load {
        Some(path) => Some(record_file::load(path, None, args.variant).map_err(|e| e.to_string())?),
        None => None,
    };
    let opened = loaded
        .as_ref()
        .map(|r| (r, Opened::Replay))
        .or(resumed.as_ref().map(|r| (r, Opened::Resume)));
    let variant = match (opened, args.variant) {
        (Some((record, _)), Some(asked)) if record.variant() != asked => {
            return Err(format!(
                "the record is {}, not {}",
                record.variant().name(),
                asked.name()
            ))
        }
        (Some((record, _)), _) => record.variant(),
        (None, asked) => asked.unwrap_or(Variant::Shogi),
    };
    if args.seed_view && variant != Variant::Spear {
        return Err(format!(
            "--seed-view draws Spear as its seed does; this game is {variant}"
        ));
    }
    if let Some(handicap) = args.handicap {
        if variant != Variant::Shogi || args.record.is_some() && opened.is_some() {
            return Err(match opened {
                Some(_) => format!(
                    "--handicap {handicap}: the record file already holds a game; choose another file"
                ),
                None => format!("--handicap {handicap}: handicaps are shogi's, not {variant}'s"),
            });
        }
    }
    let position = match args.handicap {
        Some(handicap) => Some(handicap.position().to_text()),
        None => args.position.clone(),
    };
    let setup = Setup {
        computer: args.computer.map(|color| Opponent {
            color,
            level: args.level,
        }),
        impasse: args.impasse,
        position,
        opened: opened.map(|(record, how)| (record.clone(), how)),
        recording,
        style,
    };
    let result = with_shogi_game!(
        variant,
        V => Console::<V>::new(setup).and_then(Console::run_on_stdio),
        pawns => {
            return Err(
                "this is a Pawns-Only Chess record; koma shogi plays the shogi family".into(),
            )
        }
    );
    match result {
        Err(ConsoleError::Io(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(error) => Err(error.to_string()),
        Ok(()) => Ok(()),
    }
}

/// How a record came to be opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opened {
    /// `--load`: shown from its start, to replay.
    Replay,
    /// `--record` of an existing file: shown at its end, to continue.
    Resume,
}

/// What the console starts from.
struct Setup {
    computer: Option<Opponent>,
    impasse: ImpasseRule,
    position: Option<String>,
    opened: Option<(AnyRecord, Opened)>,
    recording: Option<(String, Format)>,
    style: Style,
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
    Declare,
    Moves,
    Board,
    New,
    Next,
    Previous,
    First,
    Last,
    Goto(usize),
    Save(String, Option<Format>),
    Hint,
    Help,
    Quit,
    Unknown(String),
}

fn parse_command(line: &str) -> Option<Command> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let word = *words.first()?;
    let command = match (word.to_ascii_lowercase().as_str(), &words[1..]) {
        ("undo" | "u", []) => Command::Undo,
        ("resign", []) => Command::Resign,
        ("declare", []) => Command::Declare,
        ("moves", []) => Command::Moves,
        ("board" | "b", []) => Command::Board,
        ("new", []) => Command::New,
        ("next" | "forward" | "f", []) => Command::Next,
        ("back" | "prev" | "previous", []) => Command::Previous,
        ("start" | "first", []) => Command::First,
        ("end" | "last", []) => Command::Last,
        ("goto" | "go", [n]) => match n.parse() {
            Ok(n) => Command::Goto(n),
            Err(_) => Command::Unknown(line.trim().to_owned()),
        },
        ("save", [path]) => Command::Save((*path).to_owned(), None),
        ("save", [path, "--format", name] | ["--format", name, path]) => match parse_format(name) {
            Ok(format) => Command::Save((*path).to_owned(), Some(format)),
            Err(_) => Command::Unknown(line.trim().to_owned()),
        },
        ("hint", []) => Command::Hint,
        ("help" | "h" | "?", []) => Command::Help,
        ("quit" | "exit" | "q", []) => Command::Quit,
        (_, []) if looks_like_a_move(word) => Command::Move(word.to_owned()),
        _ => Command::Unknown(line.trim().to_owned()),
    };
    Some(command)
}

/// Digits and a star suggest a move attempt (to explain it), not a command.
fn looks_like_a_move(word: &str) -> bool {
    word.contains('*') || word.chars().next().is_some_and(|c| c.is_ascii_digit())
}

const SEED_HELP: &str = "\
In the seed's view moves may also be written as the seed writes them: L FF TT,
the piece letter (upper case White, lower case Black), the column and row it
stands on (00 to drop from the hand) and the target: p 54 53, K 11 12, b 00 33.
Columns are numbered 1..5 from left to right, rows 1..5 from bottom to top.
";

const HELP: &str = "\
Moves are USI: 7g7f (from 7g to 7f), 8h2b+ (move and promote), P*5e (drop a pawn).
Files are numbered 9..1 from left to right, ranks a..i from top to bottom.
Commands:
  undo          take back the last move (repeat to go further back)
  resign        the side to move gives up
  declare       the side to move declares impasse (入玉宣言; shogi, see --impasse)
  moves         list the legal moves
  board         draw the board again
  next, back    step forwards or backwards through the game
  start, end    go to the first or the last position
  goto N        show the position after move N
  save FILE     save the game (KIF .kif/.kifu, CSA .csa, USI .usi; --format to force)
  new           start a new game
  hint          ask the engine for the best move here
  help          this text
  quit          leave
A move played while looking at an earlier position continues the game from there
(after asking, the later moves are dropped).
";

struct Console<V: ShogiVariant> {
    history: History<ShogiPosition<V>>,
    style: Style,
    /// Save after every change, here, in this format.
    recording: Option<(String, Format)>,
    /// Repeat each input line after its prompt, so that a session read from a
    /// pipe or file shows what was typed.
    echo: bool,
    /// What to say before the first board.
    greeting: Option<String>,
    /// The rule that judges `declare`.
    impasse: ImpasseRule,
    /// The computer's side, if it plays one.
    computer: Option<Opponent>,
}

impl<V: ShogiVariant> Console<V>
where
    ShogiPosition<V>: Evaluate,
{
    fn new(setup: Setup) -> Result<Self, ConsoleError> {
        let (record, cursor, greeting) = match setup.opened {
            Some((any, how)) => {
                let record = any.into_inner::<ShogiPosition<V>>().ok_or_else(|| {
                    ConsoleError::Setup(format!("the record is not {}", V::VARIANT.name()))
                })?;
                let n = record.moves.len();
                let (cursor, greeting) = match how {
                    Opened::Replay => (
                        0,
                        format!("Loaded a game of {n} moves, shown from its start: next, back, goto N, end step through it."),
                    ),
                    Opened::Resume => (n, format!("Continuing the recorded game after move {n}.")),
                };
                (record, cursor, Some(greeting))
            }
            None => {
                let start = match &setup.position {
                    Some(text) => ShogiPosition::<V>::from_text(text)
                        .map_err(|e| ConsoleError::Setup(format!("bad position: {e}")))?,
                    None => ShogiPosition::<V>::start(),
                };
                let greeting = Handicap::of_position(&start).map(|handicap| {
                    format!(
                        "{} handicap ({}): Gote is the giver (上手) and moves first.",
                        handicap.title(),
                        handicap.japanese()
                    )
                });
                (Record::new(start), 0, greeting)
            }
        };
        let history = History::new(record, cursor).map_err(ConsoleError::Setup)?;
        let console = Console {
            history,
            style: setup.style,
            recording: setup.recording,
            echo: !io::stdin().is_terminal(),
            greeting,
            impasse: setup.impasse,
            computer: setup.computer,
        };
        console.autosave().map_err(ConsoleError::Setup)?;
        Ok(console)
    }

    fn run_on_stdio(self) -> Result<(), ConsoleError> {
        self.run(io::stdin().lock(), io::stdout().lock())
    }

    fn run(mut self, mut input: impl BufRead, mut output: impl Write) -> Result<(), ConsoleError> {
        writeln!(output, "Koma {}. Type help for the commands.", V::VARIANT)?;
        if let Some(greeting) = self.greeting.take() {
            writeln!(output, "{greeting}")?;
        }
        self.show(&mut output)?;
        // A start that is already a finished game (a side to move without
        // a legal move, a captured king) says so at once.
        self.announce_end(&mut output)?;
        self.computer_turns(&mut output)?;
        loop {
            self.prompt(&mut output)?;
            let Some(line) = self.read_line(&mut input, &mut output)? else {
                return Ok(());
            };
            let command = if self.style.seed_view && seed_view::is_seed_move_line(&line) {
                Some(Command::Move(line.trim().to_owned()))
            } else {
                parse_command(&line)
            };
            let Some(command) = command else {
                continue;
            };
            let keep_going = self.execute(command, &mut input, &mut output)?;
            if !keep_going {
                return Ok(());
            }
        }
    }

    /// Carries out a command; `false` to stop.
    fn execute(
        &mut self,
        command: Command,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> Result<bool, ConsoleError> {
        let history = &mut self.history;
        match command {
            Command::Quit => return Ok(false),
            Command::Help => {
                if self.style.seed_view {
                    write!(output, "{SEED_HELP}")?;
                }
                write!(output, "{HELP}")?;
            }
            Command::Board => self.show(output)?,
            Command::Moves => self.list_moves(output)?,
            Command::Next
            | Command::Previous
            | Command::First
            | Command::Last
            | Command::Goto(_) => {
                let target = match command {
                    Command::Next => history.cursor() + 1,
                    Command::Previous => history.cursor().saturating_sub(1),
                    Command::First => 0,
                    Command::Goto(n) => n,
                    _ => history.len(),
                };
                if target > history.len() {
                    writeln!(output, "The game has {} moves.", history.len())?;
                } else if target == history.cursor() && !matches!(command, Command::Goto(_)) {
                    let place = if target == 0 { "start" } else { "end" };
                    writeln!(output, "Already at the {place}.")?;
                } else {
                    history.goto(target);
                    self.show(output)?;
                    self.announce_end(output)?;
                    self.computer_turns(output)?;
                }
            }
            Command::New => {
                if self.recording.is_some()
                    && history.len() > 0
                    && !self.confirm(
                        "Start a new game in place of this one in the record file?",
                        input,
                        output,
                    )?
                {
                    return Ok(true);
                }
                self.history.restart();
                self.changed(output)?;
                self.show(output)?;
                self.computer_turns(output)?;
            }
            Command::Undo => {
                if history.is_browsing() {
                    writeln!(output, "Looking at move {} of {}: back steps through the game, end returns to its end.", history.cursor(), history.len())?;
                    return Ok(true);
                }
                match history.undo() {
                    Some(Undone::Ending(outcome)) if outcome.reason == EndReason::Resignation => {
                        writeln!(output, "Took back the resignation.")?
                    }
                    Some(Undone::Ending(outcome)) => writeln!(
                        output,
                        "Took back the end of the game ({}).",
                        describe(outcome, self.style)
                    )?,
                    Some(Undone::Move(m)) => writeln!(output, "Took back {m:?}.")?,
                    None => {
                        writeln!(output, "Nothing to take back.")?;
                        return Ok(true);
                    }
                }
                self.undo_to_player(output)?;
                self.changed(output)?;
                self.show(output)?;
                self.computer_turns(output)?;
            }
            Command::Resign => {
                if !self.continue_here(input, output)? {
                    return Ok(true);
                }
                match self.history.resign() {
                    Ok(()) => {
                        self.changed(output)?;
                        self.announce_end(output)?;
                    }
                    Err(error) => writeln!(output, "{error}.")?,
                }
            }
            Command::Declare => {
                if !self.continue_here(input, output)? {
                    return Ok(true);
                }
                match self.history.declare(self.impasse) {
                    Ok(_) => {
                        self.changed(output)?;
                        self.announce_end(output)?;
                    }
                    Err(GameError::InvalidDeclaration(shortfall)) => writeln!(
                        output,
                        "No impasse declaration under the {}-point rule: {shortfall}.",
                        self.impasse
                    )?,
                    Err(error) => writeln!(output, "{error}.")?,
                }
            }
            Command::Save(path, format) => {
                let saved = record_file::output_format(&path, format)
                    .map_err(|e| e.to_string())
                    .and_then(|format| self.save(&path, format).map(|()| format));
                match saved {
                    Ok(format) => writeln!(
                        output,
                        "Saved {} moves to {path} ({format}).",
                        self.history.len()
                    )?,
                    Err(error) => writeln!(output, "Not saved: {error}.")?,
                }
            }
            Command::Move(text) => {
                let keep_going = self.play(&text, input, output)?;
                self.computer_turns(output)?;
                return Ok(keep_going);
            }
            Command::Hint => self.hint(output)?,
            Command::Unknown(text) => writeln!(
                output,
                "Unknown command {text:?}. Type help for the commands, or a move like 7g7f."
            )?,
        }
        Ok(true)
    }

    fn save(&self, path: &str, format: Format) -> Result<(), String> {
        let any = AnyRecord::wrap(self.history.record().clone());
        record_file::save(&any, path, format).map_err(|e| e.to_string())
    }

    fn autosave(&self) -> Result<(), String> {
        match &self.recording {
            Some((path, format)) => self.save(path, *format),
            None => Ok(()),
        }
    }

    /// After a change to the game: saved to the record file, if any.
    fn changed(&self, output: &mut impl Write) -> io::Result<()> {
        if let Err(error) = self.autosave() {
            writeln!(output, "Warning: the game could not be recorded: {error}.")?;
        }
        Ok(())
    }

    /// Before changing the game while looking at an earlier position: asks
    /// to drop the later moves. `false` if the answer is no.
    fn continue_here(
        &mut self,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        if !self.history.is_browsing() {
            return Ok(true);
        }
        let later = self.history.len() - self.history.cursor();
        let question = format!(
            "Continue from move {}? The {later} later move{} will be dropped.",
            self.history.cursor(),
            if later == 1 { "" } else { "s" }
        );
        if self.confirm(&question, input, output)? {
            self.history.truncate();
            Ok(true)
        } else {
            writeln!(output, "Nothing changed.")?;
            Ok(false)
        }
    }

    /// Asks a yes/no question; no at the end of input.
    fn confirm(
        &self,
        question: &str,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        loop {
            write!(output, "{question} [y/n] ")?;
            output.flush()?;
            match self
                .read_line(input, output)?
                .as_deref()
                .map(str::to_ascii_lowercase)
                .as_deref()
            {
                Some("y" | "yes") => return Ok(true),
                Some("n" | "no") | None => return Ok(false),
                Some(_) => writeln!(output, "Please answer y or n.")?,
            }
        }
    }

    fn prompt(&self, output: &mut impl Write) -> io::Result<()> {
        let game = self.history.game();
        if game.outcome().is_some() {
            write!(output, "(game over) > ")?;
        } else {
            write!(
                output,
                "{}> ",
                side_name(game.position().turn(), self.style)
            )?;
        }
        output.flush()
    }

    fn show(&self, output: &mut impl Write) -> io::Result<()> {
        let game = self.history.game();
        let position = game.position();
        let last = game.moves().last().copied();
        if self.style.seed_view {
            write!(output, "{}", seed_view::draw(position, last, self.style))?;
        } else {
            write!(output, "{}", draw(position, last, self.style))?;
        }
        if game.outcome().is_none() {
            let last_text = last.map(|m| {
                if self.style.seed_view {
                    seed_view::last_move_text(position, m)
                } else {
                    format!("{m:?}")
                }
            });
            write!(
                output,
                "{}",
                status(position, game.moves().len(), last_text, self.style)
            )?;
        }
        if let Some(recorded) = self.history.current() {
            for comment in &recorded.comments {
                writeln!(output, "  * {comment}")?;
            }
        }
        if self.history.is_browsing() {
            writeln!(
                output,
                "Move {} of {}.",
                self.history.cursor(),
                self.history.len()
            )?;
        }
        Ok(())
    }

    fn list_moves(&self, output: &mut impl Write) -> io::Result<()> {
        let mut moves: Vec<String> = self
            .history
            .game()
            .position()
            .legal_moves()
            .iter()
            .map(|&m| {
                if self.style.seed_view {
                    seed_view::move_text(self.history.game().position(), m)
                } else {
                    format!("{m:?}")
                }
            })
            .collect();
        moves.sort();
        // The seed's moves have spaces inside: separate them by commas.
        let separator = if self.style.seed_view { ", " } else { " " };
        writeln!(
            output,
            "{} legal moves: {}",
            moves.len(),
            moves.join(separator)
        )
    }

    /// Plays a move typed by the user; `false` if input ended while asking.
    fn play(
        &mut self,
        text: &str,
        input: &mut impl BufRead,
        output: &mut impl Write,
    ) -> Result<bool, ConsoleError> {
        if let Some(outcome) = self.history.game().outcome() {
            if !self.history.is_browsing() {
                writeln!(
                    output,
                    "The game is over ({}). Type undo, new or quit.",
                    describe(outcome, self.style)
                )?;
                return Ok(true);
            }
        }
        let position = *self.history.game().position();
        let seed_line = self.style.seed_view && seed_view::is_seed_move_line(text);
        let parsed = if seed_line {
            seed_view::parse_move(&position, text).map_err(|e| e.to_string())
        } else {
            position.parse_move(text).map_err(|e| e.to_string())
        };
        let mut m = match parsed {
            Ok(m) => m,
            Err(error) => {
                let candidate = ShogiPosition::<V>::parse_move_syntax(text).ok();
                // A move that may promote but did not say is not an error: ask.
                match candidate.and_then(|m| promoted_twin(&position, m)) {
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
            if position.is_legal(promoted) && position.is_legal(m) {
                match self.ask_promotion(input, output)? {
                    Some(true) => m = promoted,
                    Some(false) => {}
                    None => return Ok(false),
                }
            }
        }
        // The recorded move itself: step forwards, nothing is dropped.
        if self.history.is_browsing() && self.history.record().moves[self.history.cursor()].m == m {
            self.history.goto(self.history.cursor() + 1);
            self.show(output)?;
            self.announce_end(output)?;
            return Ok(true);
        }
        if !self.continue_here(input, output)? {
            return Ok(true);
        }
        match self.history.play(m) {
            Ok(()) => {
                self.changed(output)?;
                self.show(output)?;
                if self.history.game().outcome().is_some() {
                    self.announce_end(output)?;
                }
            }
            Err(GameError::Illegal(illegal)) => writeln!(output, "Illegal: {}.", illegal.reason)?,
            Err(error) => writeln!(output, "{error}.")?,
        }
        Ok(true)
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
        if let Some(outcome) = self.history.game().outcome() {
            writeln!(output, "Game over: {}.", describe(outcome, self.style))?;
        }
        Ok(())
    }
}

/// For a move written without `+` that is only legal promoted (Spear's
/// compulsory promotion), nothing to ask: the promoted move.
fn promoted_twin<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move) -> Option<Move> {
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
            position.is_legal(promoted).then_some(promoted)
        }
        _ => None,
    }
}

/// "Sente wins by checkmate", "Draw by fourfold repetition".
/// How `outcome` came about, naming the sides as the view does (the seed
/// names Spear's sides Black and White).
fn describe(outcome: Outcome, style: Style) -> String {
    let (first, second) = if style.seed_view {
        ("Black", "White")
    } else {
        ("Sente", "Gote")
    };
    let reason = match outcome.reason {
        EndReason::NoLegalMoves => format!(
            "leaving {} no legal move",
            match outcome.winner {
                Some(Color::Sente) => second,
                _ => first,
            }
        ),
        EndReason::Resignation => "resignation".to_owned(),
        EndReason::Repetition => "fourfold repetition (sennichite)".to_owned(),
        EndReason::PerpetualCheck => "perpetual check (the checking side loses)".to_owned(),
        EndReason::Impasse if outcome.winner.is_some() => {
            "impasse declaration (入玉宣言)".to_owned()
        }
        EndReason::Impasse => "impasse (jishogi, 持将棋)".to_owned(),
        other => other.to_string(),
    };
    match outcome.winner {
        Some(Color::Sente) => format!("{first} wins by {reason}"),
        Some(Color::Gote) => format!("{second} wins by {reason}"),
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
