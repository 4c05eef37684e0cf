//! The `position` command: a game's start and its moves, as USI and UCI
//! write them.

use crate::Dialect;
use koma_rules::{Move, Position};

/// The USI/UCI `position` command for the game from `start` through
/// `moves`: `startpos` for the game's own start, else the position as
/// text (`sfen` in USI, `fen` in UCI).
///
/// ```
/// use koma_rules::{Position, SpearPosition};
/// use koma_usi::{client::position_command, Dialect};
///
/// let start = SpearPosition::start();
/// let m = start.parse_move("5d5c").unwrap();
/// assert_eq!(position_command(&start, &[m], Dialect::Usi), "position startpos moves 5d5c");
/// let after = start.play(m).unwrap();
/// assert_eq!(
///     position_command(&after, &[], Dialect::Usi),
///     "position sfen lbsgk/4p/P4/5/KGSBL w - 2"
/// );
/// ```
pub fn position_command<P: Position>(start: &P, moves: &[Move], dialect: Dialect) -> String {
    let mut command = if *start == P::start() {
        "position startpos".to_owned()
    } else {
        let keyword = match dialect {
            Dialect::Uci => "fen",
            Dialect::Usi => "sfen",
        };
        format!("position {keyword} {}", start.to_text())
    };
    if !moves.is_empty() {
        command.push_str(" moves");
        for &m in moves {
            command.push(' ');
            command.push_str(&P::move_to_text(m));
        }
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::PawnsPosition;

    #[test]
    fn chess_positions_are_fens() {
        let pawns = PawnsPosition::start();
        let e4 = pawns.parse_move("e2e4").unwrap();
        let after = pawns.play(e4).unwrap();
        assert!(position_command(&after, &[], Dialect::Uci).starts_with("position fen 8/"));
        assert_eq!(
            position_command(&pawns, &[e4], Dialect::Uci),
            "position startpos moves e2e4"
        );
    }
}
