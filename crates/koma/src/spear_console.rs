//! `koma spear`: the Spear line protocol of `shared/rules/spear.md`, to the byte.
//!
//! Input lines are moves in the seed's view (`L FF TT`); after each one the
//! state is printed as three lines. The seed's view is the rules library's
//! turned round: the seed's White (upper case, rows 1–2) is Gote, its Black is
//! Sente, and square `CR` is USI file `C`, rank `a + R − 1`.

use clap::Args;
use koma_rules::{Color, Move, Position, Role, SpearPosition, Square};
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

/// A parsed move line, before it is checked against the position.
struct MoveLine {
    color: Color,
    role: Role,
    from: Option<Square>,
    to: Square,
}

/// Whether a protocol line ends the program or carries a move.
enum Line {
    Blank,
    Quit,
    Move(MoveLine),
    Malformed,
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
            Line::Malformed => {}
            Line::Move(line) => {
                if let Some(m) = game.resolve(&line) {
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
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Line::Blank;
    }
    if trimmed == "0" {
        return Line::Quit;
    }
    let fields: Vec<&str> = trimmed
        .split([' ', '\t'])
        .filter(|field| !field.is_empty())
        .collect();
    let [letter, from, to] = fields[..] else {
        return Line::Malformed;
    };
    let mut letters = letter.chars();
    let (Some(letter), None) = (letters.next(), letters.next()) else {
        return Line::Malformed;
    };
    let Some(role) = role_of_letter(letter) else {
        return Line::Malformed;
    };
    let color = if letter.is_ascii_uppercase() {
        Color::Gote
    } else {
        Color::Sente
    };
    let from = match from {
        "00" => None,
        square => match parse_square(square) {
            Some(square) => Some(square),
            None => return Line::Malformed,
        },
    };
    match parse_square(to) {
        Some(to) => Line::Move(MoveLine {
            color,
            role,
            from,
            to,
        }),
        None => Line::Malformed,
    }
}

fn role_of_letter(letter: char) -> Option<Role> {
    match letter.to_ascii_uppercase() {
        'K' => Some(Role::King),
        'G' => Some(Role::Gold),
        'S' => Some(Role::Silver),
        'B' => Some(Role::Bishop),
        'L' => Some(Role::Lance),
        'P' => Some(Role::Pawn),
        _ => None,
    }
}

/// Square `CR` (column, row, each 1..5).
fn parse_square(text: &str) -> Option<Square> {
    match text.as_bytes() {
        [column @ b'1'..=b'5', row @ b'1'..=b'5'] => Square::from_coords(column - b'1', row - b'1'),
        _ => None,
    }
}

impl SpearGame {
    /// The legal move a line stands for, if any.
    fn resolve(&self, line: &MoveLine) -> Option<Move> {
        if line.color != self.position.turn() {
            return None;
        }
        match line.from {
            None => {
                let m = Move::Drop {
                    role: line.role,
                    to: line.to,
                };
                self.position.is_legal(m).then_some(m)
            }
            Some(from) => {
                let piece = self.position.piece_at(from)?;
                if piece.color != line.color || piece.role.unpromoted() != line.role {
                    return None;
                }
                // Promotion is compulsory and automatic: exactly one of the
                // two forms can be legal.
                [false, true]
                    .into_iter()
                    .map(|promote| Move::Board {
                        from,
                        to: line.to,
                        promote,
                    })
                    .find(|&m| self.position.is_legal(m))
            }
        }
    }

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
                Some(piece) => letter(piece.color, piece.role),
            });
        }
    }
    let hand = |color: Color| -> String {
        game.hands[color.index()]
            .iter()
            .map(|&role| letter(color, role))
            .collect()
    };
    writeln!(
        output,
        "{squares}\n{}\n{}",
        hand(Color::Sente),
        hand(Color::Gote)
    )
}

/// The seed's letter: upper case for White (Gote), base letter when promoted.
fn letter(color: Color, role: Role) -> char {
    let letter = role.letter();
    match color {
        Color::Gote => letter,
        Color::Sente => letter.to_ascii_lowercase(),
    }
}
