//! Where games start: openings from a file, or random openings of a few
//! plies from the start position.

use crate::error::{OpeningLineError, OpeningsError};
use koma_records::{read_any, AnyRecord, Format, Record};
use koma_rules::{Move, Position};

/// A start position and the moves played from it before the engines take
/// over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening<P: Position> {
    /// Where the game starts.
    pub start: P,
    /// Moves already played.
    pub moves: Vec<Move>,
}

impl<P: Position> Opening<P> {
    /// `start` with no moves.
    pub fn at(start: P) -> Opening<P> {
        Opening {
            start,
            moves: Vec::new(),
        }
    }

    /// The position after the opening's moves.
    pub fn position(&self) -> P {
        let mut position = self.start.clone();
        for &m in &self.moves {
            position.play_unchecked(m);
        }
        position
    }

    fn from_record(record: &Record<P>) -> Opening<P> {
        Opening {
            start: record.start.clone(),
            moves: record.moves.iter().map(|m| m.m).collect(),
        }
    }
}

/// Reads openings from `path`. A record file (KIF, KI2, CSA, PGN by its
/// extension or look) gives its games; any other file gives one opening a
/// line: an SFEN or FEN, or a USI `position` line (`startpos moves …`,
/// `sfen … moves …`). Blank lines and lines starting with `#` are skipped.
pub fn load<P: Position>(path: &str) -> Result<Vec<Opening<P>>, OpeningsError> {
    let path_owned = || path.to_owned();
    let bytes = std::fs::read(path).map_err(|source| OpeningsError::Read {
        path: path_owned(),
        source,
    })?;
    let text = koma_records::decode(&bytes).map_err(|source| OpeningsError::Decode {
        path: path_owned(),
        source,
    })?;
    let format = Format::from_path(path).unwrap_or_else(|| Format::sniff(&text));
    let openings = match format {
        Format::Usi => lines(&text).map_err(|(line, problem)| OpeningsError::Line {
            path: path_owned(),
            line,
            problem,
        })?,
        Format::Pgn => {
            let records =
                koma_records::pgn::read_all(&text).map_err(|source| OpeningsError::Pgn {
                    path: path_owned(),
                    source,
                })?;
            let mut openings = Vec::new();
            for record in records {
                let any = AnyRecord::Pawns(record);
                openings.push(of_variant::<P>(&any).ok_or_else(|| wrong_game::<P>(path))?);
            }
            openings
        }
        _ => {
            let record = read_any(&bytes, Some(format), Some(P::VARIANT)).map_err(|source| {
                OpeningsError::Record {
                    path: path_owned(),
                    source,
                }
            })?;
            vec![of_variant::<P>(&record).ok_or_else(|| wrong_game::<P>(path))?]
        }
    };
    if openings.is_empty() {
        return Err(OpeningsError::Empty { path: path_owned() });
    }
    Ok(openings)
}

fn wrong_game<P: Position>(path: &str) -> OpeningsError {
    OpeningsError::WrongGame {
        path: path.to_owned(),
        variant: P::VARIANT,
    }
}

/// The opening of a record, if it is of `P`'s game.
fn of_variant<P: Position>(record: &AnyRecord) -> Option<Opening<P>> {
    record
        .clone()
        .into_inner::<P>()
        .map(|r| Opening::from_record(&r))
}

/// One opening a line; an error names its 1-based line.
fn lines<P: Position>(text: &str) -> Result<Vec<Opening<P>>, (usize, OpeningLineError)> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let opening = if ["position", "startpos", "sfen", "fen"].contains(&first) {
            koma_records::usi::read::<P>(line)
                .map(|record| Opening::from_record(&record))
                .map_err(OpeningLineError::Usi)
        } else {
            // A bare SFEN or FEN; an EPD's extra fields after `;` are dropped.
            let position = line.split(';').next().unwrap_or(line).trim();
            P::from_text(position)
                .map(|start| Opening {
                    start,
                    moves: Vec::new(),
                })
                .map_err(|e| OpeningLineError::Position(e.into()))
        };
        let opening = opening.map_err(|problem| (number + 1, problem))?;
        if opening.position().outcome().is_some() {
            return Err((number + 1, OpeningLineError::GameOver));
        }
        openings.push(opening);
    }
    Ok(openings)
}

/// A small, fast, seedable random number generator (SplitMix64): the
/// openings need variety, not cryptography. Kept rather than rand's
/// generators because `--seed N` must go on giving the openings that the
/// measurements in docs/STRENGTH.md were played from.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `bound` (which must not be 0).
    pub fn below(&mut self, bound: usize) -> usize {
        // The bias of a plain modulo is below 2^-50 for the bounds used here.
        (self.next_u64() % bound as u64) as usize
    }
}

/// Puts `list` in a random order (Fisher–Yates).
pub fn shuffle<T>(list: &mut [T], rng: &mut Rng) {
    for last in (1..list.len()).rev() {
        list.swap(last, rng.below(last + 1));
    }
}

/// `plies` random legal moves from `start`; `None` if the game ended on
/// the way (the caller draws another).
pub fn random<P: Position>(rng: &mut Rng, start: &P, plies: usize) -> Option<Opening<P>> {
    let start = start.clone();
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal[rng.below(legal.len())];
        position.play_unchecked(m);
        moves.push(m);
        if position.outcome().is_some() {
            return None;
        }
    }
    Some(Opening { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{PawnsPosition, SpearPosition, Variant};

    fn temporary(name: &str, contents: &str) -> String {
        let dir = std::env::temp_dir().join(format!("koma-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn lines_of_every_kind() {
        let path = temporary(
            "spear.txt",
            "# Spear openings\n\nstartpos moves 5d5c\nposition sfen lbsgk/4p/5/P4/KGSBL b - 1 moves 5d5c 1b1c\nlbsgk/4p/5/P4/KGSBL w - 1\n",
        );
        let openings = load::<SpearPosition>(&path).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].moves.len(), 1);
        assert_eq!(openings[1].moves.len(), 2);
        assert_eq!(openings[2].moves.len(), 0);
        let bad = temporary("bad.txt", "startpos moves 5d5c\nstartpos moves 9z9z\n");
        let error = load::<SpearPosition>(&bad).unwrap_err();
        assert!(
            matches!(
                error,
                OpeningsError::Line {
                    line: 2,
                    problem: OpeningLineError::Usi(_),
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.to_string().starts_with(&format!("{bad}: line 2: ")));
        let over = temporary("over.txt", "lbsgk/4p/5/P4/KGSBL b - 1\n5/5/5/5/K4 b - 1\n");
        assert!(matches!(
            load::<SpearPosition>(&over),
            Err(OpeningsError::Line {
                line: 2,
                problem: OpeningLineError::Position(_),
                ..
            })
        ));
        let empty = temporary("empty.txt", "# nothing\n");
        assert!(matches!(
            load::<SpearPosition>(&empty),
            Err(OpeningsError::Empty { .. })
        ));
        let missing = format!("{bad}.missing");
        assert!(matches!(
            load::<SpearPosition>(&missing),
            Err(OpeningsError::Read { .. })
        ));
    }

    #[test]
    fn record_files() {
        let pgn = temporary(
            "pawns.pgn",
            "[White \"a\"]\n\n1. e4 d5 *\n\n[White \"b\"]\n\n1. d4 *\n",
        );
        let openings = load::<PawnsPosition>(&pgn).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].moves.len(), 1);
        assert!(matches!(
            load::<SpearPosition>(&pgn),
            Err(OpeningsError::WrongGame {
                variant: Variant::Spear,
                ..
            })
        ));
    }

    #[test]
    fn random_openings_are_legal_and_repeatable() {
        let mut rng = Rng::new(7);
        let opening = random::<SpearPosition>(&mut rng, &SpearPosition::start(), 6).unwrap();
        assert_eq!(opening.moves.len(), 6);
        let mut again = Rng::new(7);
        assert_eq!(
            random::<SpearPosition>(&mut again, &SpearPosition::start(), 6),
            Some(opening.clone())
        );
        let mut game = koma_rules::Game::new(opening.start);
        for m in opening.moves {
            game.play(m).unwrap();
        }
        let mut rng = Rng::new(1);
        assert!((0..1000).all(|_| rng.below(3) < 3));
        let mut list: Vec<u32> = (0..20).collect();
        shuffle(&mut list, &mut rng);
        assert_ne!(list, (0..20).collect::<Vec<_>>());
        list.sort();
        assert_eq!(list, (0..20).collect::<Vec<_>>());
    }
}
