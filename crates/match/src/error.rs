//! Why a match cannot be played, at the crate's boundary: settings that
//! cannot work ([`SettingsError`], and the engines' own
//! [`koma_usi::ConfigError`]), an openings file that cannot be used
//! ([`OpeningsError`]), an engine that fails ([`EngineError`]), the
//! journal ([`JournalError`]) and the records ([`RecordsError`]); and why
//! `koma pool` cannot pool ([`PoolError`]).

use koma_records::{DecodeError, FileError, Format, LoadError};
use koma_rules::{Handicap, Variant};
use koma_usi::{Failure, StartError};
use std::path::PathBuf;

/// A rules error of whichever game is played (`P::SetupError`, the
/// error of a USI line…), kept as the error it is.
pub type RulesError = Box<dyn std::error::Error + Send + Sync>;

/// Why `koma match` stopped before or instead of playing.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The match's own settings cannot work.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// An engine's `KEY=VALUE` words cannot be read.
    #[error(transparent)]
    EngineSettings(#[from] koma_usi::ConfigError),
    /// The openings file cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An engine does not start.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The journal of the match cannot be read or started.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The records cannot be written as asked.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// A thread playing games stopped by a panic (a bug): its games are
    /// missing from the result.
    #[error("a game thread failed")]
    GameThread,
    /// The traffic log (`--log`) cannot be created.
    #[error("{}: {source}", path.display())]
    Log {
        /// The path given.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// Settings of `koma match` that cannot work together or cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// `--engine1` or `--engine2` missing.
    #[error("give both engines: --engine1 cmd=... --engine2 cmd=...")]
    MissingEngine,
    /// An engine without `cmd=` (and no `--each cmd=`).
    #[error("an engine has no command: give cmd=...")]
    NoCommand,
    /// No limit on the engines' thinking.
    #[error(
        "give a time control: --tc, --byoyomi, --movetime, --depth or --nodes \
         (or nodes=, depth= or tc= to each engine)"
    )]
    NoTimeControl,
    /// An engine's `nodes=`, `depth=` or `tc=` word whose value cannot be
    /// read.
    #[error(
        "{word}: give a whole number of nodes or plies, or a time control, \
         e.g. nodes=10000, depth=8, tc=10+0.1"
    )]
    EngineLimit {
        /// The word as given.
        word: String,
    },
    /// `--tc 0+…` without byoyomi: the first move would have no time.
    #[error("--tc needs a base time above 0 (or give --byoyomi)")]
    NoBaseTime,
    /// Both byoyomi and an increment.
    #[error("give byoyomi or an increment, not both (USI's go takes one)")]
    ByoyomiAndIncrement,
    /// Byoyomi for a UCI engine.
    #[error("UCI has no byoyomi; use --tc with an increment")]
    ByoyomiOverUci,
    /// `--games 0`.
    #[error("--games must be at least 1")]
    NoGames,
    /// `--handicap` in a game other than shogi.
    #[error("--handicap {handicap}: handicaps are shogi's; this match is {variant}")]
    HandicapOutsideShogi {
        /// The handicap asked for.
        handicap: Handicap,
        /// The game of the match.
        variant: Variant,
    },
    /// The handicap's position is refused by the game's rules.
    #[error("--handicap {handicap}: {source}")]
    HandicapPosition {
        /// The handicap asked for.
        handicap: Handicap,
        /// The rules' reason.
        source: RulesError,
    },
    /// `--records DIR` holds a match and `--resume` was not given.
    #[error(
        "{dir} already holds a match ({games} games played): give --resume to go on with it, \
         or another directory"
    )]
    MatchInDirectory {
        /// The directory.
        dir: String,
        /// The games its journal holds.
        games: usize,
    },
    /// `--resume` with settings other than the journal's.
    #[error("{}: that match was played with other settings; {}", journal.display(), differences.join("; "))]
    OtherSettings {
        /// The journal.
        journal: PathBuf,
        /// Each setting that differs, as `name: was X, now Y`.
        differences: Vec<String>,
    },
    /// `--engine1-side` naming no side.
    #[error("{text:?} is not a side: expected sente, gote, first, second, black or white")]
    Side {
        /// What was given.
        text: String,
    },
    /// A time (`--tc`, `--byoyomi`, `--movetime`) that cannot be read.
    #[error(transparent)]
    Time(#[from] TimeError),
    /// `--sprt` settings that cannot be read or used.
    #[error(transparent)]
    Sprt(#[from] SprtError),
}

/// A time (`--tc`, `--byoyomi`, `--movetime`) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    /// Not a number.
    #[error("{text:?} is not a number of seconds")]
    NotSeconds {
        /// What was given.
        text: String,
    },
    /// A number of seconds no clock can hold (negative, infinite).
    #[error("{text:?} is not a usable time")]
    Unusable {
        /// What was given.
        text: String,
    },
}

/// `--sprt` words that cannot be read or make no test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// A word without `=`.
    #[error("--sprt: expected KEY=VALUE, found {word:?}")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A value that is not a number.
    #[error("--sprt: {key} must be a number, not {value:?}")]
    NotANumber {
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// A key other than elo0, elo1, alpha, beta.
    #[error("--sprt: unknown key {key:?} (elo0, elo1, alpha, beta)")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// elo0 or elo1 not given.
    #[error("--sprt needs elo0=... and elo1=...")]
    MissingElo,
    /// elo0 not below elo1.
    #[error("--sprt: elo0 must be less than elo1")]
    EloOrder,
    /// alpha or beta outside (0, 0.5).
    #[error("--sprt: alpha and beta must lie between 0 and 0.5")]
    ErrorRate,
}

/// Why `koma pool` cannot pool.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Neither a journal nor counts.
    #[error("give records directories of koma match (--records DIR), or --pairs")]
    Nothing,
    /// A directory without a journal.
    #[error("{}: no journal there (koma match --records DIR writes one)", path.display())]
    NoJournal {
        /// Where the journal was looked for.
        path: PathBuf,
    },
    /// A journal of another game, clock or handicap than the first.
    #[error(
        "{} is another test than {}: its {setting} differs (pool parts of one test only)",
        other.display(),
        first.display()
    )]
    OtherGame {
        /// The first journal's directory.
        first: PathBuf,
        /// The other's.
        other: PathBuf,
        /// The setting that differs.
        setting: &'static str,
    },
    /// Journals and counts without a finished pair.
    #[error("no finished pairs to pool")]
    NoPairs,
    /// A journal that cannot be read.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// `--sprt` words that make no test.
    #[error(transparent)]
    Sprt(#[from] SprtError),
}

/// Why the openings file (`--openings`) cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The path given.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The bytes are not text.
    #[error("{path}: {source}")]
    Decode {
        /// The path given.
        path: String,
        /// Where the bytes go wrong.
        source: DecodeError,
    },
    /// A record file (KIF, CSA, PGN…) that is not a valid record.
    #[error("{path}: {source}")]
    Record {
        /// The path given.
        path: String,
        /// What is wrong with it.
        source: LoadError,
    },
    /// A PGN file of openings that is not valid PGN.
    #[error("{path}: {source}")]
    Pgn {
        /// The path given.
        path: String,
        /// Where and why it is not PGN.
        source: koma_records::pgn::PgnError,
    },
    /// A record of another game than the match's.
    #[error("{path}: not a record of {variant}")]
    WrongGame {
        /// The path given.
        path: String,
        /// The match's game.
        variant: Variant,
    },
    /// A line of a file of positions that is no opening of the game.
    #[error("{path}: line {line}: {problem}")]
    Line {
        /// The path given.
        path: String,
        /// 1-based line.
        line: usize,
        /// What is wrong with it.
        problem: OpeningLineError,
    },
    /// No opening in the file.
    #[error("{path}: no openings in it")]
    Empty {
        /// The path given.
        path: String,
    },
}

/// Why a line of an openings file is not an opening.
#[derive(Debug, thiserror::Error)]
pub enum OpeningLineError {
    /// A USI `position` line that cannot be read or played.
    #[error(transparent)]
    Usi(#[from] koma_records::usi::UsiError),
    /// A bare SFEN or FEN that is not a position of the game.
    #[error(transparent)]
    Position(RulesError),
    /// The position is already won, lost or drawn.
    #[error("the game is already over")]
    GameOver,
}

/// Why an engine cannot play a game.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// It did not start, or broke off its handshake.
    #[error(transparent)]
    Start(#[from] StartError),
    /// It failed to get ready for a new game (`usinewgame`, `isready`).
    #[error("{label} on a new game: {failure:?}")]
    NewGame {
        /// The engine's label (`engine1`, `engine2`).
        label: String,
        /// It exited or did not answer.
        failure: Failure,
    },
}

/// Why the match's journal (`match.jsonl` in `--records DIR`) cannot be
/// read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file cannot be read, opened or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The journal.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is damaged: a line other than a last one cut short.
    #[error("{}: {damage}", path.display())]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// What is wrong, and on which line.
        damage: JournalDamage,
    },
}

/// What is wrong in a damaged journal.
#[derive(Debug, thiserror::Error)]
pub enum JournalDamage {
    /// Not one whole line.
    #[error("empty journal")]
    Empty,
    /// The first line is not the match's settings.
    #[error("line 1 is not a match: {0}")]
    NotAMatch(#[source] serde_json::Error),
    /// A line that is not JSON of a game.
    #[error("line {line}: {source}")]
    Unreadable {
        /// 1-based line.
        line: usize,
        /// Why it cannot be read.
        source: serde_json::Error,
    },
    /// A game whose fields make no sense (round 0, an unknown side).
    #[error("line {line}: not a game of this match")]
    NotAGame {
        /// 1-based line.
        line: usize,
    },
}

/// Why games cannot be saved as asked.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// `--records-format` cannot hold the match's game.
    #[error("--records-format: {source}")]
    Format {
        /// The format asked for.
        format: Format,
        /// Why it cannot hold the game.
        source: LoadError,
    },
    /// The directory of `--records` cannot be made.
    #[error("{dir}: {source}")]
    Directory {
        /// The directory.
        dir: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A game's record file cannot be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A game cannot be encoded for the combined file.
    #[error("{path}: {source}")]
    Encode {
        /// The combined file (`--records-file`).
        path: String,
        /// Why.
        source: LoadError,
    },
    /// The combined file cannot be written.
    #[error("{path}: {source}")]
    Append {
        /// The combined file (`--records-file`).
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// Why labelling positions with an engine stopped
/// ([`crate::label::label_samples`]).
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// The engine did not start.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The engine exited or hung during a search.
    #[error("{program}: {failure:?} while searching")]
    Search {
        /// The engine's program.
        program: String,
        /// It exited or did not answer.
        failure: Failure,
    },
    /// The engine answered without a score.
    #[error("the engine gave no score for {0}")]
    NoScore(String),
}
