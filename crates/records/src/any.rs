//! Records of any of Koma's games in any format: the format told by a
//! file's name or its content, the game by the record itself.

use crate::error::{LoadError, ParseError};
use crate::format::Format;
use crate::record::Record;
use crate::{csa, decode, ki2, kif, pgn, usi};
use koma_rules::{each_game, each_shogi_game, with_position, with_shogi_game, Position, Variant};

koma_rules::game_enum! {
    /// A record of one of Koma's games.
    ///
    /// ```
    /// use koma_records::{AnyRecord, Record};
    /// use koma_rules::{Position, SpearPosition, Variant};
    ///
    /// let any = AnyRecord::wrap(Record::new(SpearPosition::start()));
    /// assert_eq!(any.variant(), Variant::Spear);
    /// assert!(any.clone().into_inner::<SpearPosition>().is_some());
    /// assert!(any.into_inner::<koma_rules::PawnsPosition>().is_none());
    /// ```
    #[derive(Clone, Debug, PartialEq)]
    pub enum AnyRecord of Record;
}

impl AnyRecord {
    /// Number of moves in the main line.
    pub fn len(&self) -> usize {
        each_game!(AnyRecord, self, r => r.moves.len())
    }

    /// Whether the main line has no moves.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The game a USI `position` line is of, when the caller does not say: an
/// SFEN's board size and pieces tell (a 5×5 board with a lance is Spear's,
/// any other minishogi's), `startpos` is shogi's.
fn usi_variant(text: &str) -> Variant {
    let mut words = text.split_whitespace().skip_while(|w| *w == "position");
    match words.next() {
        Some("fen") => Variant::Pawns,
        Some("sfen") => {
            let board = words.next().unwrap_or("");
            let hand = words.nth(1).unwrap_or("");
            match board.split('/').count() {
                8 => Variant::Pawns,
                5 if (board.contains(['l', 'L']) || hand.contains(['l', 'L'])) => Variant::Spear,
                5 => Variant::Minishogi,
                _ => Variant::Shogi,
            }
        }
        _ => Variant::Shogi,
    }
}

/// Reads a record file's bytes. `format` and `variant` force what is
/// otherwise told by the content.
pub fn read_any(
    bytes: &[u8],
    format: Option<Format>,
    variant: Option<Variant>,
) -> Result<AnyRecord, LoadError> {
    let text = decode(bytes)?;
    if text.trim().is_empty() {
        return Err(LoadError::Empty);
    }
    let format = format.unwrap_or_else(|| Format::sniff(&text));
    let parse = |error: ParseError| LoadError::Parse {
        format,
        source: error,
    };
    let variant = match format {
        // A game the caller names is the game, whatever the SFEN looks like:
        // a Spear position without a spear is still Spear's.
        Format::Usi => variant.unwrap_or_else(|| usi_variant(&text)),
        Format::Kif | Format::Kifu | Format::Ki2 => variant.unwrap_or_else(|| kif::variant(&text)),
        Format::Csa => variant.unwrap_or(Variant::Shogi),
        Format::Pgn => variant.unwrap_or(Variant::Pawns),
    };
    let unsupported = LoadError::Unsupported { format, variant };
    let text = text.as_str();
    match (format, variant) {
        (Format::Usi, _) => with_position!(variant, P => usi::read::<P>(text).map(AnyRecord::wrap)),
        (Format::Csa, Variant::Shogi) => {
            return csa::read(text)
                .map(AnyRecord::Shogi)
                .map_err(|e| parse(e.into()))
        }
        (Format::Pgn, Variant::Pawns) => {
            return pgn::read(text)
                .map(AnyRecord::Pawns)
                .map_err(|e| parse(e.into()))
        }
        (Format::Kif | Format::Kifu | Format::Ki2, _) => {
            return with_shogi_game!(variant, V => match format {
                Format::Ki2 => ki2::read::<V>(text).map(AnyRecord::wrap),
                _ => kif::read::<V>(text).map(AnyRecord::wrap),
            }
            .map_err(|e| parse(e.into())), pawns => Err(unsupported))
        }
        _ => return Err(unsupported),
    }
    .map_err(|e| parse(e.into()))
}

/// Writes a record in `format`, as the bytes of a file.
pub fn write_any(record: &AnyRecord, format: Format) -> Result<Vec<u8>, LoadError> {
    let unsupported = Err(LoadError::Unsupported {
        format,
        variant: record.variant(),
    });
    let text = match (format, record) {
        (Format::Usi, _) => each_game!(AnyRecord, record, r => usi_line(r)),
        (Format::Csa, AnyRecord::Shogi(r)) => csa::write(r),
        (Format::Pgn, AnyRecord::Pawns(r)) => pgn::write(r),
        (Format::Kifu, _) => each_shogi_game!(AnyRecord, record, r => kif::write(r),
            pawns => return unsupported),
        (Format::Kif, _) => {
            return each_shogi_game!(AnyRecord, record,
                r => kif::write_shift_jis(r).map_err(LoadError::Encode),
                pawns => unsupported)
        }
        _ => return unsupported,
    };
    Ok(text.into_bytes())
}

/// The USI line, with the start spelled out for games other than shogi so
/// that the file says which game it is.
fn usi_line<P: Position>(record: &Record<P>) -> String {
    let mut line = usi::write(record);
    if P::VARIANT != Variant::Shogi && line.starts_with("position startpos") {
        let keyword = if P::VARIANT == Variant::Pawns {
            "fen"
        } else {
            "sfen"
        };
        let start = format!("{keyword} {}", record.start.to_text());
        line = line.replacen("startpos", &start, 1);
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_name_and_by_look() {
        assert_eq!(Format::from_path("game.KIF"), Some(Format::Kif));
        assert_eq!(Format::from_path("a.b/game.kifu"), Some(Format::Kifu));
        assert_eq!(Format::from_path("game"), None);
        assert_eq!(Format::sniff("position startpos moves 7g7f"), Format::Usi);
        assert_eq!(Format::sniff("V2.2\nPI\n+\n"), Format::Csa);
        assert_eq!(Format::sniff("[Event \"x\"]\n"), Format::Pgn);
        assert_eq!(
            Format::sniff("手合割：平手\n   1 ７六歩(77)\n"),
            Format::Kifu
        );
        assert_eq!(Format::sniff("手合割：平手\n▲７六歩\n"), Format::Ki2);
    }

    #[test]
    fn games_are_told_by_the_record() {
        let spear = read_any(
            b"position sfen lbsgk/4p/5/P4/KGSBL b - 1 moves 5d5c",
            None,
            None,
        );
        assert_eq!(spear.unwrap().variant(), Variant::Spear);
        let mini = read_any(b"position sfen rbsgk/4p/5/P4/KGSBR b - 1", None, None).unwrap();
        assert_eq!(mini.variant(), Variant::Minishogi);
        let pawns = read_any(
            b"position fen 8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1 moves e2e4",
            None,
            None,
        );
        assert_eq!(pawns.unwrap().len(), 1);
        let forced = read_any(
            b"position startpos moves 5d5c",
            None,
            Some(Variant::Minishogi),
        );
        assert_eq!(forced.unwrap().variant(), Variant::Minishogi);
        let csa_mini = read_any(b"V2.2\nPI\n+\n", None, Some(Variant::Minishogi));
        assert!(matches!(csa_mini, Err(LoadError::Unsupported { .. })));
    }

    #[test]
    fn a_game_named_by_the_caller_is_the_game() {
        // No spear on the board: the look says minishogi, where a pawn on
        // the last rank could never move; Spear drops it there.
        let text = b"position sfen P4/5/5/5/K3k b - 1";
        let spear = read_any(text, Some(Format::Usi), Some(Variant::Spear)).unwrap();
        assert_eq!(spear.variant(), Variant::Spear);
        let guessed = read_any(text, Some(Format::Usi), None).unwrap_err();
        assert_eq!(
            guessed.to_string(),
            "usi: bad position: a pawn on 5a can never move"
        );
        let wrong = read_any(
            b"position sfen lbsgk/4p/5/P4/KGSBL b - 1",
            None,
            Some(Variant::Shogi),
        );
        assert!(matches!(wrong, Err(LoadError::Parse { .. })));
    }

    #[test]
    fn every_game_writes_to_every_format_that_holds_it() {
        let records = [
            read_any(b"position startpos moves 7g7f", None, Some(Variant::Shogi)).unwrap(),
            read_any(
                b"position startpos moves 5d5c",
                None,
                Some(Variant::Minishogi),
            )
            .unwrap(),
            read_any(b"position startpos moves 5d5c", None, Some(Variant::Spear)).unwrap(),
            read_any(b"position startpos moves e2e4", None, Some(Variant::Pawns)).unwrap(),
        ];
        for record in &records {
            for format in Format::ALL {
                match write_any(record, format) {
                    Ok(bytes) => {
                        let back = read_any(&bytes, Some(format), Some(record.variant()));
                        assert_eq!(back.as_ref().map(AnyRecord::len), Ok(1), "{format}");
                        let sniffed = read_any(&bytes, None, None).unwrap();
                        assert_eq!(sniffed.variant(), record.variant(), "{format}");
                    }
                    Err(LoadError::Unsupported { .. }) => {}
                    Err(error) => panic!("{format}: {error}"),
                }
            }
        }
    }
}
