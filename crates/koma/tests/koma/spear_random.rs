//! Thousands of random Spear games through `koma spear`: legal, illegal and
//! malformed lines mixed. Every printed state is checked against the rules
//! library: the board square by square, the hands by content and capture
//! order, the side to move (an illegal line must change nothing).

use koma_rules::{Color, Move, Position, Role, SpearPosition, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::process::{Command, Stdio};

/// The seed's letter of a piece: upper case for White (Gote).
fn seed_letter(color: Color, role: Role) -> char {
    let letter = role.letter();
    if color == Color::Gote {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

/// Square `CR`: column and row from 1.
fn seed_square(square: Square) -> String {
    format!("{}{}", square.file() + 1, square.rank() + 1)
}

fn move_line(position: &SpearPosition, m: Move) -> String {
    let color = position.turn();
    match m {
        Move::Board { from, to, .. } => {
            let role = position.piece_at(from).unwrap().role.unpromoted();
            format!(
                "{} {} {}",
                seed_letter(color, role),
                seed_square(from),
                seed_square(to)
            )
        }
        Move::Drop { role, to } => format!("{} 00 {}", seed_letter(color, role), seed_square(to)),
    }
}

fn random_line(rng: &mut ChaCha8Rng) -> String {
    const LETTERS: &[char] = &[
        'K', 'G', 'S', 'B', 'L', 'P', 'k', 'g', 's', 'b', 'l', 'p', 'x', 'N',
    ];
    match rng.random_range(0..6) {
        0 => String::new(),
        1 => "  \t ".to_owned(),
        2 => [
            "p54 53",
            "p 54",
            "P 12 13 14",
            "@@",
            "p 5 53",
            "p 54 53 x",
            "k 55 60",
            "0 0",
        ][rng.random_range(0..8)]
        .to_owned(),
        _ => format!(
            "{} {}{} {}{}",
            LETTERS[rng.random_range(0..LETTERS.len())],
            rng.random_range(0..7),
            rng.random_range(0..7),
            rng.random_range(0..7),
            rng.random_range(0..7)
        ),
    }
}

fn expected_state(position: &SpearPosition, hands: &[Vec<Role>; 2]) -> String {
    let mut squares = String::new();
    for row in 0..5 {
        for column in 0..5 {
            let square = Square::from_coords(column, row).unwrap();
            squares.push(
                position
                    .piece_at(square)
                    .map_or('-', |p| seed_letter(p.color, p.role.unpromoted())),
            );
        }
    }
    let hand = |color: Color| {
        hands[color.index()]
            .iter()
            .map(|&r| seed_letter(color, r))
            .collect::<String>()
    };
    // The capture-order hands must hold what the library's hands hold.
    for color in Color::ALL {
        for role in Role::HAND {
            let held = hands[color.index()].iter().filter(|&&r| r == role).count();
            assert_eq!(
                held,
                position.hand(color).count(role) as usize,
                "{role:?} in {color:?}'s hand"
            );
        }
    }
    format!("{squares}\n{}\n{}\n", hand(Color::Sente), hand(Color::Gote))
}

/// One game: returns the input sent and the output expected, line by line.
fn random_game(rng: &mut ChaCha8Rng) -> (String, String) {
    let mut position = SpearPosition::start();
    let mut hands: [Vec<Role>; 2] = [Vec::new(), Vec::new()];
    let (mut input, mut expected) = (String::new(), String::new());
    for _ in 0..rng.random_range(0..160) {
        let moves = position.legal_moves();
        let line = if rng.random_range(0..4) == 0 {
            random_line(rng)
        } else {
            move_line(&position, moves[rng.random_range(0..moves.len())])
        };
        input.push_str(&line);
        input.push('\n');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed == "0" {
            return (input, expected);
        }
        // The one legal move this line can stand for, found independently
        // of the program by comparing texts.
        if let Some(&m) = moves.iter().find(|&&m| {
            move_line(&position, m)
                .split_whitespace()
                .eq(trimmed.split_whitespace())
        }) {
            let mover = position.turn();
            if let Move::Board { to, .. } = m {
                if let Some(captured) = position.piece_at(to) {
                    hands[mover.index()].push(captured.role.unpromoted());
                }
            } else if let Move::Drop { role, .. } = m {
                let hand = &mut hands[mover.index()];
                hand.remove(hand.iter().position(|&r| r == role).unwrap());
            }
            position = position.play(m).unwrap();
        }
        expected.push_str(&expected_state(&position, &hands));
        if let Some(winner) = position.outcome().and_then(|o| o.winner) {
            expected.push_str(if winner == Color::Gote {
                "white wins!\n"
            } else {
                "black wins!\n"
            });
            // Lines after the end are never read.
            input.push_str("p 54 53\n");
            return (input, expected);
        }
    }
    (input, expected)
}

#[test]
fn random_games_match_the_rules_library() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_5eed_1234_9876);
    let mut wins = 0;
    for game in 0..2000 {
        let (input, expected) = random_game(&mut rng);
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg("spear")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The program may stop reading at a win: a closed pipe is fine then.
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            stdout == expected,
            "game {game}\ninput:\n{input}\ngot:\n{stdout}\nexpected:\n{expected}"
        );
        assert!(
            output.stderr.is_empty() && output.status.success(),
            "game {game}"
        );
        wins += expected.ends_with("wins!\n") as usize;
    }
    assert!(wins > 100, "only {wins} games reached a king capture");
}
