//! `koma pawns`: Pawns-Only Chess at the terminal, the conversation of
//! `docs/CONSOLES.md` ("koma pawns"), to the letter. With
//! `--computer`, Koma's engine plays one side in the same conversation, as
//! if it typed its name and moves; `hint` (with `--computer` or `--hints`)
//! asks it for advice.

use crate::console_engine::{self, Choice};
use clap::Args;
use koma_records::notation::Notation;
use koma_rules::pawns::{parse_square, square_name, BOARD};
use koma_rules::{Color, Move, PawnsPosition, Position, Square};
use std::io::{self, BufRead, Write};

/// `koma pawns`: two players at one terminal, or one against Koma.
#[derive(Args)]
#[command(
    about = "Pawns-Only Chess for two players at one terminal, or against Koma",
    long_about = "Pawns-Only Chess for two players at one terminal.\n\n\
        The program asks for the two players' names (the first plays White), then for moves \
        such as e2e4: from-square then to-square. Pawns move as in chess, en passant included; \
        reaching the last rank or capturing the last enemy pawn wins, and a player without a \
        move draws. `exit` (or the end of input) ends the program.\n\n\
        --computer white (or black) lets Koma's engine play that side at --level 1 to 20 \
        (within a second a move): it answers its name prompt and its turns itself. `hint` \
        then asks the engine for the best move; --hints allows it between two players too. \
        Without these options the conversation is exactly the seed's."
)]
pub struct PawnsArgs {
    /// Let Koma's engine play this side: white (the first player) or black.
    #[arg(long, value_name = "SIDE", value_parser = parse_side)]
    computer: Option<Color>,
    /// The computer's strength: 1 (weakest) to 20 (full strength).
    #[arg(long, value_name = "N", default_value_t = console_engine::DEFAULT_LEVEL,
          value_parser = clap::value_parser!(u8).range(1..=20))]
    level: u8,
    /// Allow `hint` (the engine's advice) between two players.
    #[arg(long)]
    hints: bool,
}

fn parse_side(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" | "first" => Ok(Color::Sente),
        "black" | "b" | "second" => Ok(Color::Gote),
        _ => Err(format!("{text:?} is not a side: white or black")),
    }
}

/// What the conversation adds to the seed's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras {
    /// The computer's side and level.
    pub computer: Option<(Color, u8)>,
    /// Whether `hint` is a command.
    pub hints: bool,
}

/// Runs the conversation on standard input and output.
pub fn run(args: PawnsArgs) -> Result<(), String> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let extras = Extras {
        computer: args.computer.map(|color| (color, args.level)),
        hints: args.hints || args.computer.is_some(),
    };
    match play(stdin.lock(), stdout.lock(), extras) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(error.to_string()),
        _ => Ok(()),
    }
}

/// The computer's name in the conversation.
const COMPUTER_NAME: &str = "Koma";

/// Reads one line without its line ending; `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).trim().to_owned()))
}

/// Plays one game from `input` to `output`: the seed's conversation, with
/// `extras` (none: the seed's exactly).
pub fn play(mut input: impl BufRead, mut output: impl Write, extras: Extras) -> io::Result<()> {
    writeln!(output, "Pawns-Only Chess")?;
    let mut names = Vec::new();
    for (color, prompt) in [
        (Color::Sente, "First Player's name:"),
        (Color::Gote, "Second Player's name:"),
    ] {
        writeln!(output, "{prompt}")?;
        if extras.computer.is_some_and(|(side, _)| side == color) {
            writeln!(output, "{COMPUTER_NAME}")?;
            names.push(COMPUTER_NAME.to_owned());
            continue;
        }
        output.flush()?;
        match read_line(&mut input)? {
            Some(name) => names.push(name),
            None => return bye(&mut output),
        }
    }
    let mut position = PawnsPosition::start();
    write_board(&position, &mut output)?;
    loop {
        let name = &names[position.turn().index()];
        writeln!(output, "{name}'s turn:")?;
        output.flush()?;
        let computer = extras.computer.filter(|&(side, _)| side == position.turn());
        let line = match computer {
            // The computer "types" its move; without one it has none, which
            // the end of the game below already said.
            Some((_, level)) => {
                match console_engine::choose(&[position], level, None, console_engine::THINK) {
                    Some(Choice::Move(m)) => {
                        let text = PawnsPosition::move_to_text(m);
                        writeln!(output, "{text}")?;
                        text
                    }
                    _ => return bye(&mut output),
                }
            }
            None => match read_line(&mut input)? {
                Some(line) => line,
                None => return bye(&mut output),
            },
        };
        if line == "exit" {
            return bye(&mut output);
        }
        if extras.hints && line == "hint" {
            write_hint(&position, &mut output)?;
            continue;
        }
        let m = match read_move(&position, &line) {
            Ok(m) => m,
            Err(message) => {
                writeln!(output, "{message}")?;
                continue;
            }
        };
        position.play_unchecked(m);
        write_board(&position, &mut output)?;
        if let Some(outcome) = position.outcome() {
            let verdict = match outcome.winner {
                Some(Color::Sente) => "White won!",
                Some(Color::Gote) => "Black won!",
                None => "Stalemate, draw.",
            };
            writeln!(output, "{verdict}")?;
            return bye(&mut output);
        }
    }
}

/// The engine's advice to the side to move.
fn write_hint(position: &PawnsPosition, output: &mut impl Write) -> io::Result<()> {
    let Some(advice) = console_engine::hint(&[*position], console_engine::THINK) else {
        return writeln!(output, "No move to advise.");
    };
    let value = match advice.score {
        koma_engine::Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        mate => console_engine::score_text(mate),
    };
    writeln!(
        output,
        "Hint: {}, {value} at depth {}. Line: {}",
        PawnsPosition::move_to_text(advice.line[0]),
        advice.depth,
        PawnsPosition::line_text(position, &advice.line, None)
    )
}

fn bye(output: &mut impl Write) -> io::Result<()> {
    writeln!(output, "Bye!")?;
    output.flush()
}

/// The legal move a line names, or the message to print.
fn read_move(position: &PawnsPosition, line: &str) -> Result<Move, String> {
    const INVALID: &str = "Invalid Input";
    if line.len() != 4 || !line.is_ascii() {
        return Err(INVALID.into());
    }
    let (Some(from), Some(to)) = (parse_square(&line[..2]), parse_square(&line[2..])) else {
        return Err(INVALID.into());
    };
    let us = position.turn();
    if !position.pawns(us).contains(from) {
        let color = if us == Color::Sente { "white" } else { "black" };
        return Err(format!("No {color} pawn at {}", square_name(from)));
    }
    let m = Move::Board {
        from,
        to,
        promote: false,
    };
    if position.is_legal(m) {
        Ok(m)
    } else {
        Err(INVALID.into())
    }
}

/// The board as the seed draws it, then one empty line.
fn write_board(position: &PawnsPosition, output: &mut impl Write) -> io::Result<()> {
    const RULE: &str = "  +---+---+---+---+---+---+---+---+";
    writeln!(output, "{RULE}")?;
    for rank in (1..=8).rev() {
        let mut row = format!("{rank} |");
        for file in "abcdefgh".chars() {
            let square: Square = parse_square(&format!("{file}{rank}")).expect("on the board");
            debug_assert!(BOARD.contains(square));
            let cell = if position.pawns(Color::Sente).contains(square) {
                'W'
            } else if position.pawns(Color::Gote).contains(square) {
                'B'
            } else {
                ' '
            };
            row.push_str(&format!(" {cell} |"));
        }
        writeln!(output, "{row}")?;
        writeln!(output, "{RULE}")?;
    }
    writeln!(output, "    a   b   c   d   e   f   g   h")?;
    writeln!(output)
}
