//! Every game of a match as a record: engine names, times per move, the
//! engines' scores, the result and why; saved one file a game and/or all in
//! one file.

use super::play::{PlayedGame, Termination};
use crate::error::{MatchError, RecordsError};
use koma_records::{
    write_any, AnyRecord, Ending, Format, Headers, LoadError, Record, RecordedMove,
};
use koma_rules::{Color, Outcome, Position, Variant};
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// What a record says besides the game itself.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// Sente's (White's in Pawns-Only Chess) engine.
    pub sente: String,
    /// Gote's (Black's) engine.
    pub gote: String,
    /// The event's name.
    pub event: String,
    /// The game's number in the match, from 1.
    pub round: usize,
    /// The time control, as [`super::clock::Limits::describe`] writes it.
    pub time_control: String,
    /// When the game started and ended, seconds since 1970.
    pub started: u64,
    /// See `started`.
    pub ended: u64,
}

/// Seconds since 1970, now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `(year, month, day, hour, minute, second)` in UTC (the epoch for a
/// time past what a calendar date can say).
fn civil(seconds: u64) -> (i32, u8, u8, u8, u8, u8) {
    let utc = i64::try_from(seconds)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    (
        utc.year(),
        u8::from(utc.month()),
        utc.day(),
        utc.hour(),
        utc.minute(),
        utc.second(),
    )
}

/// `2026/11/21 21:30:05` (KIF's form) or `2026.11.21` (PGN's date).
fn date_text(seconds: u64, variant: Variant) -> String {
    let (y, mo, d, h, mi, s) = civil(seconds);
    if variant == Variant::Pawns {
        format!("{y:04}.{mo:02}.{d:02}")
    } else {
        format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}")
    }
}

/// How the record states the ending. Faults (crash, illegal move) name the
/// faulty side, which need not be the side to move.
fn ending<P: Position>(game: &PlayedGame<P>) -> Ending {
    let faulty = game.faulty.unwrap_or(game.final_turn);
    let fault = match faulty {
        Color::Sente => Ending::SenteIllegalAction,
        Color::Gote => Ending::GoteIllegalAction,
    };
    match &game.termination {
        Termination::Rules(reason) => Ending::from_outcome(
            Outcome {
                winner: game.winner,
                reason: *reason,
            },
            game.final_turn,
        ),
        Termination::Resignation | Termination::AdjudicatedResignation => Ending::Resignation,
        Termination::Declaration => Ending::ImpasseWin,
        Termination::Timeout => Ending::Timeout,
        Termination::MaxPlies | Termination::AdjudicatedDraw => Ending::Draw,
        Termination::FalseDeclaration
        | Termination::IllegalMove(_)
        | Termination::NoMove
        | Termination::Crash => fault,
    }
}

/// The record of a played game.
pub fn record<P: Position>(game: &PlayedGame<P>, info: &GameInfo) -> AnyRecord {
    let variant = P::VARIANT;
    let mut other = vec![("Round".to_owned(), info.round.to_string())];
    if variant == Variant::Pawns && game.termination.is_adjudication() {
        other.push(("Termination".to_owned(), "adjudication".to_owned()));
    }
    let headers = Headers {
        sente: Some(info.sente.clone()),
        gote: Some(info.gote.clone()),
        event: Some(info.event.clone()),
        start_time: Some(date_text(info.started, variant)),
        end_time: (variant != Variant::Pawns).then(|| date_text(info.ended, variant)),
        time_control: (!info.time_control.is_empty()).then(|| info.time_control.clone()),
        other,
        ..Headers::default()
    };
    let mut record = Record::new(game.start.clone());
    record.headers = headers;
    let opening = game
        .moves
        .iter()
        .take_while(|m| m.elapsed.is_none())
        .count();
    if opening > 0 {
        record.comments.push(format!("opening: {opening} plies"));
    }
    record.moves = game
        .moves
        .iter()
        .map(|played| RecordedMove {
            m: played.m,
            // Milliseconds are precision enough, and keep PGN's %emt short.
            time: played
                .elapsed
                .map(|d| std::time::Duration::from_millis(d.as_millis() as u64)),
            comments: played.comment.iter().cloned().collect(),
        })
        .collect();
    record.ending = Some(ending(game));
    if let Some(note) = &game.note {
        match record.moves.last_mut() {
            Some(last) => last.comments.push(note.clone()),
            None => record.comments.push(note.clone()),
        }
    }
    AnyRecord::wrap(record)
}

/// The format records are saved in unless told: KIF for the shogi games,
/// PGN for Pawns-Only Chess.
pub fn default_format(variant: Variant) -> Format {
    if variant == Variant::Pawns {
        Format::Pgn
    } else {
        Format::Kif
    }
}

/// The bytes of `record` in `format`; a KIF whose names Shift_JIS cannot
/// hold is written as UTF-8 KIFU instead. Returns the format used.
pub fn encode(record: &AnyRecord, format: Format) -> Result<(Vec<u8>, Format), LoadError> {
    match write_any(record, format) {
        Err(LoadError::Encode(_)) if format == Format::Kif => {
            write_any(record, Format::Kifu).map(|bytes| (bytes, Format::Kifu))
        }
        other => other.map(|bytes| (bytes, format)),
    }
}

/// Saves a game as `DIR/game-0001.kif` (the extension the format's).
fn save_in(
    dir: &str,
    round: usize,
    record: &AnyRecord,
    format: Format,
) -> Result<String, RecordsError> {
    let (_, used) =
        encode(record, format).map_err(|source| RecordsError::Format { format, source })?;
    let path = std::path::Path::new(dir).join(format!("game-{round:04}.{}", used.name()));
    let path = path.to_string_lossy().into_owned();
    koma_records::file::save(record, &path, used)?;
    Ok(path)
}

/// Appends a game to the combined file (PGN games one after another, or
/// one USI line a game).
fn append(path: &str, record: &AnyRecord, format: Format) -> Result<(), RecordsError> {
    let (mut bytes, _) = encode(record, format).map_err(|source| RecordsError::Encode {
        path: path.to_owned(),
        source,
    })?;
    if format == Format::Pgn {
        bytes.push(b'\n');
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(&bytes))
        .map_err(|source| RecordsError::Append {
            path: path.to_owned(),
            source,
        })
}

/// Where finished games go: one file each in a directory, and/or all in
/// one file; what could not be written is kept to report at the end.
pub struct RecordSink {
    dir: Option<String>,
    file: Option<String>,
    format: Format,
    combined: Format,
    /// Games saved in the directory.
    pub saved: usize,
    /// Writes that failed, and the journal's, reported at the end.
    pub problems: Vec<MatchError>,
}

impl RecordSink {
    /// A sink for games of `P`; fails at once if `format` cannot hold the
    /// game or the directory cannot be made.
    pub fn new<P: Position>(
        dir: Option<String>,
        file: Option<String>,
        format: Option<Format>,
    ) -> Result<RecordSink, RecordsError> {
        let format = format.unwrap_or_else(|| default_format(P::VARIANT));
        let empty = AnyRecord::wrap(Record::new(P::start()));
        encode(&empty, format).map_err(|source| RecordsError::Format { format, source })?;
        if let Some(dir) = &dir {
            std::fs::create_dir_all(dir).map_err(|source| RecordsError::Directory {
                dir: dir.clone(),
                source,
            })?;
        }
        let combined = if P::VARIANT == Variant::Pawns {
            Format::Pgn
        } else {
            Format::Usi
        };
        Ok(RecordSink {
            dir,
            file,
            format,
            combined,
            saved: 0,
            problems: Vec::new(),
        })
    }

    /// Writes game number `round`.
    pub fn save(&mut self, round: usize, record: &AnyRecord) {
        if let Some(dir) = &self.dir {
            match save_in(dir, round, record, self.format) {
                Ok(_) => self.saved += 1,
                Err(error) => self.problems.push(error.into()),
            }
        }
        if let Some(path) = &self.file {
            if let Err(error) = append(path, record, self.combined) {
                self.problems.push(error.into());
            }
        }
    }

    /// `Records: 10 games in DIR`, if there is a directory.
    pub fn describe(&self) -> Option<String> {
        let dir = self.dir.as_ref()?;
        Some(format!("Records: {} games in {dir}", self.saved))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::PlayedMove;
    use koma_records::read_any;
    use koma_rules::{PawnsPosition, SpearPosition};
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        // 2026-11-21 21:30:05 UTC.
        assert_eq!(civil(1_795_296_605), (2026, 11, 21, 21, 30, 5));
        assert_eq!(civil(951_782_400).1, 2, "2000-02-29");
        assert_eq!(civil(951_782_400).2, 29);
        assert_eq!(date_text(1_795_296_605, Variant::Pawns), "2026.11.21");
    }

    fn info() -> GameInfo {
        GameInfo {
            sente: "Alpha".to_owned(),
            gote: "Beta".to_owned(),
            event: "test".to_owned(),
            round: 3,
            time_control: "1+0.1".to_owned(),
            started: 1_795_296_605,
            ended: 1_795_296_665,
        }
    }

    #[test]
    fn spear_records_read_back_with_names_times_and_result() {
        let start = SpearPosition::start();
        let first = start.parse_move("5d5c").unwrap();
        let second = start.play(first).unwrap().parse_move("1b1c").unwrap();
        let game = PlayedGame {
            start,
            moves: vec![
                PlayedMove {
                    m: first,
                    elapsed: None,
                    comment: None,
                },
                PlayedMove {
                    m: second,
                    elapsed: Some(Duration::from_millis(2500)),
                    comment: Some("+0.35/12".to_owned()),
                },
            ],
            winner: Some(Color::Gote),
            final_turn: Color::Sente,
            faulty: None,
            termination: Termination::Timeout,
            note: Some("Alpha lost on time".to_owned()),
        };
        let any = record(&game, &info());
        let (bytes, format) = encode(&any, Format::Kif).unwrap();
        assert_eq!(format, Format::Kif);
        let back = read_any(&bytes, None, Some(Variant::Spear)).unwrap();
        let back: Record<SpearPosition> = back.into_inner().unwrap();
        assert_eq!(back.headers.sente.as_deref(), Some("Alpha"));
        assert_eq!(back.headers.gote.as_deref(), Some("Beta"));
        assert_eq!(back.moves.len(), 2);
        assert_eq!(back.moves[1].time, Some(Duration::from_secs(2)));
        assert!(back.moves[1]
            .comments
            .iter()
            .any(|c| c.contains("lost on time")));
        let outcome = back.to_game().unwrap().outcome().unwrap();
        assert_eq!(outcome.winner, Some(Color::Gote));
        // A name Shift_JIS cannot hold: UTF-8 KIFU instead.
        let mut odd = info();
        odd.sente = "Engine 🐉".to_owned();
        let (_, format) = encode(&record(&game, &odd), Format::Kif).unwrap();
        assert_eq!(format, Format::Kifu);
    }

    #[test]
    fn faults_are_charged_to_the_faulty_side() {
        let game = PlayedGame {
            start: PawnsPosition::start(),
            moves: Vec::new(),
            winner: Some(Color::Sente),
            final_turn: Color::Sente,
            faulty: Some(Color::Gote),
            termination: Termination::Crash,
            note: Some("Beta crashed".to_owned()),
        };
        let any = record(&game, &info());
        let bytes = write_any(&any, Format::Pgn).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains("[Result \"1-0\"]"), "{text}");
        let back: Record<PawnsPosition> =
            read_any(&bytes, None, None).unwrap().into_inner().unwrap();
        assert_eq!(
            back.to_game().unwrap().outcome().unwrap().winner,
            Some(Color::Sente)
        );
        let draw = PlayedGame {
            winner: None,
            faulty: None,
            termination: Termination::MaxPlies,
            ..game
        };
        let text =
            String::from_utf8(write_any(&record(&draw, &info()), Format::Pgn).unwrap()).unwrap();
        assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
        assert!(text.contains("[Termination \"adjudication\"]"), "{text}");
    }
}
