//! `koma spear`: the Spear line protocol of `docs/CONSOLES.md`, to the byte.
//!
//! Input lines are moves in the seed's view (`L FF TT`); after each one the
//! state is printed as three lines. The seed's view is the rules library's
//! turned round: the seed's White (upper case, rows 1–2) is Gote, its Black is
//! Sente, and square `CR` is USI file `C`, rank `a + R − 1`.

use clap::Args;
use koma_rules::{seed_letter, Color, Move, Position, Role, SpearPosition, Square};
use std::io::{self, BufRead, Write};

/// `koma spear` reads moves such as `p 54 53` from standard input and prints
/// the board and both hands after each, exactly as the seed's program did.
#[derive(Args)]
#[command(
    about = "Spear Shogi over the seed's line protocol (stdin to stdout)",
    long_about = "Spear Shogi over the seed's line protocol.\n\n\
        Each input line is a move `L FF TT`: the piece letter (upper case White, lower case \
        Black; K G S B L P), the square it stands on (column then row, 11..55, or 00 to drop \
        from the hand) and the target square. Black moves first. After every move line the \
        program prints the 25 squares (row 1 first), Black's hand and White's hand. An illegal \
        or malformed line prints the state unchanged. A king capture prints the state and \
        `white wins!` or `black wins!`, then ends. A line `0`, or the end of input, ends the \
        program; blank lines are skipped. Nothing else is ever printed."
)]
pub struct SpearArgs {}

/// The game as the protocol sees it: the position plus hands in capture order.
struct SpearGame {
    position: SpearPosition,
    /// Hand pieces by capturer, oldest capture first.
    hands: [Vec<Role>; 2],
}

/// Whether a protocol line ends the program or carries a move.
enum Line {
    Blank,
    Quit,
    /// A move line, read against the position when played.
    Move(String),
}

/// Runs the protocol on standard input and output.
pub fn run(_args: SpearArgs) -> Result<(), String> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    play(stdin.lock(), stdout.lock()).or_else(|error| {
        // A reader that went away (a closed pipe) is the end of the session.
        if error.kind() == io::ErrorKind::BrokenPipe {
            Ok(())
        } else {
            Err(error.to_string())
        }
    })
}

/// Plays the protocol from `input` to `output`.
pub fn play(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut game = SpearGame {
        position: SpearPosition::start(),
        hands: [Vec::new(), Vec::new()],
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&bytes);
        match parse_line(&text) {
            Line::Blank => continue,
            Line::Quit => return Ok(()),
            Line::Move(line) => {
                // Any line that is not a legal move leaves the state as it is.
                if let Ok(m) = game.position.parse_seed_move(&line) {
                    game.play(m);
                }
            }
        }
        write_state(&game, &mut output)?;
        if let Some(winner) = game.position.outcome().and_then(|outcome| outcome.winner) {
            let name = if winner == Color::Gote {
                "white"
            } else {
                "black"
            };
            writeln!(output, "{name} wins!")?;
            output.flush()?;
            return Ok(());
        }
        output.flush()?;
    }
}

fn parse_line(text: &str) -> Line {
    match text.trim() {
        "" => Line::Blank,
        "0" => Line::Quit,
        line => Line::Move(line.to_owned()),
    }
}

impl SpearGame {
    fn play(&mut self, m: Move) {
        let mover = self.position.turn();
        match m {
            Move::Board { to, .. } => {
                if let Some(captured) = self.position.piece_at(to) {
                    self.hands[mover.index()].push(captured.role.unpromoted());
                }
            }
            Move::Drop { role, .. } => {
                let hand = &mut self.hands[mover.index()];
                if let Some(index) = hand.iter().position(|&held| held == role) {
                    hand.remove(index);
                }
            }
        }
        self.position.play_unchecked(m);
    }
}

/// The three state lines: the squares row by row from 11, Black's hand,
/// White's hand.
fn write_state(game: &SpearGame, output: &mut impl Write) -> io::Result<()> {
    let mut squares = String::with_capacity(25);
    for row in 0..5 {
        for column in 0..5 {
            let square = Square::from_coords(column, row).expect("on the board");
            squares.push(match game.position.piece_at(square) {
                None => '-',
                Some(piece) => seed_letter(piece.color, piece.role),
            });
        }
    }
    let hand = |color: Color| -> String {
        game.hands[color.index()]
            .iter()
            .map(|&role| seed_letter(color, role))
            .collect()
    };
    writeln!(
        output,
        "{squares}\n{}\n{}",
        hand(Color::Sente),
        hand(Color::Gote)
    )
}
