//! The USI position command as a record: `position startpos moves 7g7f 3c3d`
//! or `position sfen <SFEN> moves …` (for Pawns-Only Chess, a FEN and UCI
//! moves in the same shape). The word `position` is optional.

use crate::record::{Record, RecordedMove, ReplayError};
use crate::start_error::StartPositionError;
use koma_rules::Position;
use std::fmt;

/// Why a text is not a USI position command of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiError {
    /// Neither `startpos` nor `sfen …` where the position should be.
    MissingPosition,
    /// Something other than `moves` after the position.
    Unexpected(String),
    /// The SFEN (or FEN) is not valid for the game.
    Position(StartPositionError),
    /// A move that is malformed or illegal.
    Move(ReplayError),
}

impl fmt::Display for UsiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiError::MissingPosition => {
                f.write_str("expected `startpos` or `sfen <position>` after `position`")
            }
            UsiError::Unexpected(word) => {
                write!(
                    f,
                    "expected `moves` after the position, found {}",
                    crate::Excerpt(word)
                )
            }
            UsiError::Position(error) => write!(f, "bad position: {error}"),
            UsiError::Move(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for UsiError {}

/// Reads `position startpos|sfen … [moves …]`.
pub fn read<P: Position>(text: &str) -> Result<Record<P>, UsiError> {
    let mut words = text.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let start = match words.next() {
        Some("startpos") => P::start(),
        Some("sfen") | Some("fen") => {
            let mut fields = Vec::new();
            while let Some(&word) = words.peek() {
                if word == "moves" {
                    break;
                }
                fields.push(word);
                words.next();
            }
            P::from_text(&fields.join(" "))
                .map_err(|e| UsiError::Position(StartPositionError::of::<P>(e)))?
        }
        _ => return Err(UsiError::MissingPosition),
    };
    let mut record = Record::new(start);
    match words.next() {
        None => return Ok(record),
        Some("moves") => {}
        Some(other) => return Err(UsiError::Unexpected(other.to_owned())),
    }
    let mut position = record.start.clone();
    for (index, word) in words.enumerate() {
        let m = position.parse_move(word).map_err(|error| {
            UsiError::Move(ReplayError {
                move_number: index + 1,
                text: word.to_owned(),
                reason: error.to_string(),
            })
        })?;
        position.play_unchecked(m);
        record.moves.push(RecordedMove::new(m));
    }
    Ok(record)
}

/// Writes the record as one `position …` line (`startpos` when it starts
/// from the game's start position).
pub fn write<P: Position>(record: &Record<P>) -> String {
    let start = record.start.to_text();
    let mut out = if start == P::start().to_text() {
        "position startpos".to_owned()
    } else {
        let keyword = if P::VARIANT == koma_rules::Variant::Pawns {
            "fen"
        } else {
            "sfen"
        };
        format!("position {keyword} {start}")
    };
    if !record.moves.is_empty() {
        out.push_str(" moves");
        for recorded in &record.moves {
            out.push(' ');
            out.push_str(&P::move_to_text(recorded.m));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{PawnsPosition, SpearPosition, StandardShogiPosition};

    #[test]
    fn reads_and_writes_both_forms() {
        let text = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f";
        let record: Record<StandardShogiPosition> = read(text).unwrap();
        assert_eq!(write(&record), "position startpos moves 7g7f");
        let record: Record<SpearPosition> =
            read("sfen lbsgk/4p/5/P4/KGSBL w - 1 moves 1b1c").unwrap();
        assert_eq!(
            write(&record),
            "position sfen lbsgk/4p/5/P4/KGSBL w - 1 moves 1b1c"
        );
        let record: Record<PawnsPosition> = read("startpos moves e2e4 d7d5 e4d5").unwrap();
        assert_eq!(record.moves.len(), 3);
    }

    #[test]
    fn errors_name_the_move() {
        let error = read::<StandardShogiPosition>("position startpos moves 7g7f 7g7f").unwrap_err();
        assert_eq!(
            error,
            UsiError::Move(ReplayError {
                move_number: 2,
                text: "7g7f".into(),
                reason: "there is no piece on the starting square".into()
            })
        );
        assert_eq!(
            read::<StandardShogiPosition>("position").unwrap_err(),
            UsiError::MissingPosition
        );
        assert!(matches!(
            read::<StandardShogiPosition>("startpos 7g7f"),
            Err(UsiError::Unexpected(_))
        ));
        assert!(matches!(
            read::<StandardShogiPosition>("sfen 9/9 b - 1"),
            Err(UsiError::Position(_))
        ));
    }
}
