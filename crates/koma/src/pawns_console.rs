//! `koma pawns`: Pawns-Only Chess at the terminal, the conversation of
//! `shared/rules/pawns.md` ("The console"), to the letter.

use clap::Args;
use koma_rules::pawns::{parse_square, square_name, BOARD};
use koma_rules::{Color, Move, PawnsPosition, Position, Square};
use std::io::{self, BufRead, Write};

/// `koma pawns`: two players at one terminal.
#[derive(Args)]
#[command(
    about = "Pawns-Only Chess for two players at one terminal",
    long_about = "Pawns-Only Chess for two players at one terminal.\n\n\
        The program asks for the two players' names (the first plays White), then for moves \
        such as e2e4: from-square then to-square. Pawns move as in chess, en passant included; \
        reaching the last rank or capturing the last enemy pawn wins, and a player without a \
        move draws. `exit` (or the end of input) ends the program."
)]
pub struct PawnsArgs {}

/// Runs the conversation on standard input and output.
pub fn run(_args: PawnsArgs) -> Result<(), String> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    match play(stdin.lock(), stdout.lock()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(error.to_string()),
        _ => Ok(()),
    }
}

/// Reads one line without its line ending; `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).trim().to_owned()))
}

/// Plays one game from `input` to `output`.
pub fn play(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    writeln!(output, "Pawns-Only Chess")?;
    let mut names = Vec::new();
    for prompt in ["First Player's name:", "Second Player's name:"] {
        writeln!(output, "{prompt}")?;
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
        let Some(line) = read_line(&mut input)? else {
            return bye(&mut output);
        };
        if line == "exit" {
            return bye(&mut output);
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
