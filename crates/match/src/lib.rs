//! `koma match`: games between two USI or UCI engines, with clocks kept by
//! the runner, openings played with both colours, adjudication, the result
//! with its Elo difference and error bar, an optional SPRT, and every game
//! saved as a record.
//!
//! The engines are driven by [`koma_usi::client`]. One file per concern:
//! [`clock`]
//! keeps time, [`openings`] chooses starts, [`adjudication`] ends endless
//! games, [`play`] plays one game, [`schedule`] shares the games out among
//! threads, [`records_out`] saves them, [`journal`] keeps the finished
//! games so that an interrupted match resumes, [`stats`] and [`report`] say
//! what the results mean; [`error`] says why a match cannot be played.
//! [`pool`] is `koma pool`, one match played in parts, pooled.

mod adjudication;
mod clock;
pub mod error;
mod journal;
pub mod label;
mod openings;
mod play;
pub mod pool;
mod records_out;
mod report;
mod schedule;
mod stats;

use adjudication::Rules;
use clap::Args;
use clock::{Limits, OwnLimits};
pub use error::MatchError;
use error::{EngineError, SettingsError};
use koma_records::Format;
use koma_rules::{with_position, Color, Handicap, Position, Variant};
use koma_usi::client::{Engine, EngineConfig, TrafficLog};
use koma_usi::Dialect;
use play::{Player, Settings};
use report::{Progress, Standing};
use schedule::{OpeningSource, Shared};
use stats::{GameScore, SprtDecision};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arguments of `koma match`.
#[derive(Args, Debug)]
#[command(after_help = "\
Engines: --engine1 and --engine2 take KEY=VALUE words: cmd=COMMAND (split like a shell \
line; a first word without '=' is the command), name=NAME, proto=usi|uci (default: usi for \
the shogi games, uci for pawns), dir=DIR, arg=ARG, option.NAME=VALUE (sent with setoption, in \
order), and nodes=N, depth=N and tc=SECONDS[+INC], the engine's own limits, which replace \
--nodes, --depth and --tc for its moves (an engine at fixed nodes against a playing level, or \
time odds: tc=4+0.1 against --tc 2+0.05 gives one engine twice the time). --each gives \
settings to both. USI engines are told USI_Variant (UCI engines \
UCI_Variant) after their other options unless the game is shogi.

Example (Fairy-Stockfish against itself, Spear, 10 games at 1 s + 0.05 s):
  koma match --variant spear --games 10 --tc 1+0.05 \\
    --each cmd=/tmp/fsf/src/stockfish option.VariantPath=testdata/fsf/variants.ini \\
    --engine1 name=A --engine2 name=B --random-plies 4 --records games/")]
pub struct MatchArgs {
    /// The game: spear, minishogi, shogi or pawns.
    #[arg(long)]
    variant: Variant,
    /// The first engine (results are given for it): KEY=VALUE words (none
    /// if --each says it all).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    engine1: Option<Vec<String>>,
    /// The second engine: KEY=VALUE words.
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    engine2: Option<Vec<String>>,
    /// Settings for both engines (each engine's own win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Number of games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Games played at once, each with its own two engine processes.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Time control: SECONDS[+INCREMENT] per game, e.g. 10+0.1.
    #[arg(long, value_name = "SECONDS[+INC]", value_parser = clock::parse_time_control)]
    tc: Option<(Duration, Duration)>,
    /// Byoyomi in seconds (USI), after the --tc base time (0 without --tc).
    #[arg(long, value_name = "SECONDS", value_parser = clock::parse_seconds)]
    byoyomi: Option<Duration>,
    /// Fixed time per move, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = clock::parse_seconds)]
    movetime: Option<Duration>,
    /// Fixed search depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed number of nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds an engine may overrun its time before it loses on time:
    /// covers the pipes and the scheduler of a busy machine.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    timemargin: u64,
    /// Seconds to wait for a move when there is no time limit (--depth or
    /// --nodes only) before the engine counts as hung and loses.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    hang_timeout: u64,
    /// Openings: SFEN/FEN or USI `position` lines, or a record file (KIF,
    /// CSA, PGN...). Used in order, each for two games.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<String>,
    /// Random openings of this many plies, kept only when engine 1 finds
    /// them balanced.
    #[arg(long, value_name = "N")]
    random_plies: Option<usize>,
    /// A random opening is discarded when engine 1 scores it beyond this
    /// (centipawns) or finds a mate; 0 keeps every opening.
    #[arg(long, value_name = "CP", default_value_t = 300)]
    balance_cp: i32,
    /// Depth of engine 1's search that judges a random opening.
    #[arg(long, value_name = "N", default_value_t = 6)]
    balance_depth: u32,
    /// Shogi only: every game starts from this handicap (lance, bishop,
    /// two-piece... or 二枚落ち); random openings start there too and are
    /// not balanced, a handicap being unbalanced by design.
    #[arg(long, value_name = "NAME", conflicts_with = "openings")]
    handicap: Option<Handicap>,
    /// Engine 1 plays this side in every game, each game from an opening
    /// of its own; by default each opening is played twice, colours
    /// swapped. Sides: sente or gote, first or second, or the game's own
    /// colours (in the shogi games Black is sente, the first player; in
    /// Pawns-Only Chess White moves first). In a handicap game Gote is the
    /// giver (上手).
    #[arg(long, value_name = "SIDE", value_parser = parse_side)]
    engine1_side: Option<Side>,
    /// Play the openings of --openings in random order.
    #[arg(long, requires = "openings")]
    shuffle: bool,
    /// Seed of the random openings and of --shuffle (default: from the
    /// clock).
    #[arg(long)]
    seed: Option<u64>,
    /// A game this long (plies) is a draw [default: spear, minishogi 300,
    /// shogi 320, pawns 200].
    #[arg(long, value_name = "PLIES")]
    max_plies: Option<usize>,
    /// Adjudicate a loss when both engines agree for this many moves each
    /// (see --resign-score); 0: never.
    #[arg(long, value_name = "N", default_value_t = 0)]
    resign_moves: usize,
    /// The score (centipawns) beyond which a game counts as lost.
    #[arg(long, value_name = "CP", default_value_t = 1000)]
    resign_score: i32,
    /// Adjudicate a draw when both engines score within --draw-score for
    /// this many moves each; 0: never.
    #[arg(long, value_name = "N", default_value_t = 0)]
    draw_moves: usize,
    /// The score (centipawns) within which a game counts as even.
    #[arg(long, value_name = "CP", default_value_t = 10)]
    draw_score: i32,
    /// No draw adjudication before this ply.
    #[arg(long, value_name = "PLY", default_value_t = 80)]
    draw_after: usize,
    /// SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05 (logistic Elo, the
    /// generalized SPRT of fishtest, on game pairs); the match stops when a
    /// bound is crossed.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    /// Save every game in this directory (game-0001.kif, ...), with the
    /// match's journal, match.jsonl: its settings and every finished game.
    #[arg(long, value_name = "DIR")]
    records: Option<String>,
    /// Go on with the match whose journal is in --records DIR (or start it
    /// if there is none): its finished pairs count and are not played
    /// again. The settings that decide the games must be the same; --games
    /// may grow; the seed is the journal's unless given.
    #[arg(long, requires = "records")]
    resume: bool,
    /// Append every game to this file (PGN for pawns, USI lines otherwise).
    #[arg(long, value_name = "FILE")]
    records_file: Option<String>,
    /// Format of the files in --records: kif, kifu, csa, usi, pgn [default:
    /// kif for the shogi games, pgn for pawns].
    #[arg(long, value_name = "FORMAT", value_parser = koma_records::file::parse_format)]
    records_format: Option<Format>,
    /// The event named in the records.
    #[arg(long, default_value = "Koma match")]
    event: String,
    /// Copy every line sent to and received from the engines, and what
    /// they print on standard error, to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Print the final result as one line of JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `koma match`.
pub fn run(args: MatchArgs) -> Result<(), MatchError> {
    with_position!(args.variant, P => run_generic::<P>(args))
}

fn run_generic<P: Position>(args: MatchArgs) -> Result<(), MatchError> {
    let variant = args.variant;
    let (Some(words1), Some(words2)) = (&args.engine1, &args.engine2) else {
        return Err(SettingsError::MissingEngine.into());
    };
    let take = |words: &[String]| {
        OwnLimits::take_from(words).map_err(|word| SettingsError::EngineLimit { word })
    };
    let (each_limits, each_words) = take(&args.each)?;
    let each = EngineConfig::parse(&each_words)?;
    let (own1, words1) = take(words1)?;
    let (own2, words2) = take(words2)?;
    let own = [own1.or(each_limits), own2.or(each_limits)];
    let config1 = EngineConfig::parse(&words1)?.with_defaults(&each);
    let config2 = EngineConfig::parse(&words2)?.with_defaults(&each);
    for config in [&config1, &config2] {
        if config.program.is_empty() {
            return Err(SettingsError::NoCommand.into());
        }
    }
    let limits = limits(&args, [&config1, &config2], variant, own)?;
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(stats::Sprt::parse(&args.sprt).map_err(SettingsError::from)?)
    };
    if args.games == 0 {
        return Err(SettingsError::NoGames.into());
    }
    let previous = match &args.records {
        Some(dir) => journal::read(dir)?,
        None => None,
    };
    if let (Some(previous), Some(dir), false) = (&previous, &args.records, args.resume) {
        return Err(SettingsError::MatchInDirectory {
            dir: dir.clone(),
            games: previous.games.len(),
        }
        .into());
    }
    let seed = args
        .seed
        .or_else(|| previous.as_ref()?.identity.get("seed")?.parse().ok())
        .unwrap_or_else(records_out::now);
    let identity = identity(&args, seed, &limits);
    let journal_path = journal::path_in(args.records.as_deref().unwrap_or_default());
    if let Some(previous) = &previous {
        let differences = journal::differences(&previous.identity, &identity);
        if !differences.is_empty() {
            return Err(SettingsError::OtherSettings {
                journal: journal_path,
                differences,
            }
            .into());
        }
    }
    let resumed = previous
        .as_ref()
        .map(|previous| journal::finished_pairs(&previous.games, args.games))
        .unwrap_or_default();
    let finished: std::collections::HashSet<usize> = resumed.iter().map(|g| g.pair).collect();
    let pending: Vec<usize> = (0..args.games.div_ceil(2))
        .filter(|pair| !finished.contains(pair))
        .collect();
    let concurrency = args.concurrency.clamp(1, pending.len().max(1));
    let start = match args.handicap {
        Some(handicap) if variant != Variant::Shogi => {
            return Err(SettingsError::HandicapOutsideShogi { handicap, variant }.into())
        }
        Some(handicap) => P::from_text(&handicap.position().to_text()).map_err(|e| {
            SettingsError::HandicapPosition {
                handicap,
                source: e.into(),
            }
        })?,
        None => P::start(),
    };
    let balance_cp = if args.handicap.is_some() {
        0
    } else {
        args.balance_cp
    };
    let source: OpeningSource<P> = match (&args.openings, args.random_plies) {
        (Some(path), _) => {
            let mut list = openings::load::<P>(path)?;
            if args.shuffle {
                openings::shuffle(&mut list, &mut openings::Rng::new(seed));
            }
            OpeningSource::List(Arc::new(list))
        }
        (None, Some(plies)) if plies > 0 => OpeningSource::Random {
            start,
            plies,
            seed,
            balance_cp,
            balance_depth: args.balance_depth.max(1),
        },
        _ => OpeningSource::Start(start),
    };
    let mut sink = records_out::RecordSink::new::<P>(
        args.records.clone(),
        args.records_file.clone(),
        args.records_format,
    )?;
    let log: Option<TrafficLog> = match &args.log {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|source| MatchError::Log {
                path: path.into(),
                source,
            })?;
            Some(Arc::new(Mutex::new(Box::new(file))))
        }
        None => None,
    };

    // Start each engine once: a wrong command fails here, not as a
    // forfeit in every game, and the engines' own names are learnt.
    let mut names = Vec::new();
    for (config, label) in [(&config1, "engine1"), (&config2, "engine2")] {
        let engine =
            Engine::start(config, variant, label, log.clone()).map_err(EngineError::from)?;
        let name = config
            .name
            .clone()
            .or_else(|| engine.id_name.clone())
            .unwrap_or_else(|| label.to_owned());
        engine.quit();
        names.push(name);
    }
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    let (name1, name2) = (names[0].clone(), names[1].clone());
    // The journal starts once the engines are known to start, so that a
    // mistyped command leaves no match behind to resume.
    let mut journal = match (&args.records, &previous) {
        (Some(dir), Some(previous)) => Some(journal::Journal::resume(dir, previous)?),
        (Some(dir), None) => Some(journal::Journal::create(dir, &identity)?),
        (None, _) => None,
    };

    let settings = Settings {
        variant,
        limits,
        margin: Duration::from_millis(args.timemargin),
        hang_timeout: Duration::from_secs(args.hang_timeout.max(1)),
        rules: Rules {
            max_plies: args
                .max_plies
                .unwrap_or_else(|| Rules::default_max_plies(variant)),
            resign_moves: args.resign_moves,
            resign_score: args.resign_score,
            draw_moves: args.draw_moves,
            draw_score: args.draw_score,
            draw_after: args.draw_after,
        },
    };
    let shared = Arc::new(Shared {
        settings,
        games: args.games,
        pending,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        event: args.event.clone(),
        time_control: clock::describe_match(&limits, [(&name1, own[0]), (&name2, own[1])]),
        engine1_color: args.engine1_side.map(|side| side.color(variant)),
    });
    let make = |config: &EngineConfig, name: &str, label: &str, limits: OwnLimits| Player {
        config: config.clone(),
        name: name.to_owned(),
        label: label.to_owned(),
        limits,
        log: log.clone(),
        engine: None,
    };
    let players = || {
        [
            make(&config1, &name1, "engine1", own[0]),
            make(&config2, &name2, "engine2", own[1]),
        ]
    };
    let mut standing = Standing::new(name1.clone(), name2.clone(), sprt);
    // The resumed games' records are in the directory already.
    sink.saved = resumed.len();
    for game in &resumed {
        let score = GameScore::of(game.winner_color(), game.engine1_color());
        standing.add(game.pair, score, &game.ending);
    }
    if let Some((_, decision)) = standing.sprt_state() {
        if decision != SprtDecision::Continue {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }
    let progress = Progress::new(args.games as u64);
    if !resumed.is_empty() {
        progress.resumed(
            resumed.len() as u64,
            &format!(
                "Resumed: {} games already played, in {}",
                resumed.len(),
                journal_path.display()
            ),
            &standing.brief(),
        );
    }
    let (workers, reports) = schedule::spawn(&shared, concurrency, &source, players);
    for report in reports {
        let score = GameScore::of(report.winner, report.engine1_color);
        standing.add(report.pair, score, &report.termination.key());
        sink.save(report.round, &report.record);
        if let Some(journal) = &mut journal {
            let game = journal::JournalGame {
                round: report.round,
                pair: report.pair,
                engine1: journal::JournalGame::side_name(report.engine1_color),
                winner: report.winner.map(journal::JournalGame::side_name),
                ending: report.termination.key(),
                plies: report.plies,
            };
            if let Err(error) = journal.add(&game) {
                sink.problems.push(error.into());
            }
        }
        let result = match report.winner {
            None => "1/2-1/2",
            Some(Color::Sente) => "1-0",
            Some(Color::Gote) => "0-1",
        };
        let (sente, gote) = match report.engine1_color {
            Color::Sente => (&standing.engine1, &standing.engine2),
            Color::Gote => (&standing.engine2, &standing.engine1),
        };
        progress.game(
            &format!(
                "Game {} ({sente} vs {gote}): {result} {{{} after {} plies}}",
                report.round, report.termination, report.plies
            ),
            &standing.brief(),
        );
        if let Some((_, decision)) = standing.sprt_state() {
            if decision != SprtDecision::Continue {
                shared.stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
    shared.stop.store(true, Ordering::Relaxed);
    for worker in workers {
        if worker.join().is_err() {
            sink.problems.push(MatchError::GameThread);
        }
    }
    progress.finish();
    for problem in sink.problems.iter().take(10) {
        eprintln!("koma: {problem}");
    }
    if args.json {
        println!("{}", standing.json());
    } else {
        print!("{}", standing.summary());
        if let Some(records) = sink.describe() {
            println!("{records}");
        }
    }
    Ok(())
}

/// The settings that decide a match's games, which a resumed match must
/// share with the journal's.
fn identity(args: &MatchArgs, seed: u64, limits: &Limits) -> journal::Identity {
    let words = |words: &Option<Vec<String>>| words.as_deref().unwrap_or_default().join(" ");
    let openings = match (&args.openings, args.random_plies) {
        (Some(path), _) if args.shuffle => format!("{path}, shuffled"),
        (Some(path), _) => path.clone(),
        (None, Some(plies)) if plies > 0 => format!(
            "{plies} random plies, balanced within {} cp at depth {}",
            args.balance_cp, args.balance_depth
        ),
        _ => "the start".to_owned(),
    };
    let adjudication = format!(
        "max plies {:?}; resign {} moves beyond {} cp; draw {} moves within {} cp after ply {}",
        args.max_plies,
        args.resign_moves,
        args.resign_score,
        args.draw_moves,
        args.draw_score,
        args.draw_after
    );
    [
        ("variant", args.variant.to_string()),
        ("engine1", words(&args.engine1)),
        ("engine2", words(&args.engine2)),
        ("each", args.each.join(" ")),
        ("time control", limits.describe()),
        ("openings", openings),
        ("seed", seed.to_string()),
        (
            "handicap",
            args.handicap.map(|h| h.to_string()).unwrap_or_default(),
        ),
        ("engine1 side", format!("{:?}", args.engine1_side)),
        ("adjudication", adjudication),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect()
}

/// A side as `--engine1-side` names it: by turn, or by a colour whose
/// meaning depends on the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// The side that moves first (`sente`, `first`).
    First,
    /// The side that moves second (`gote`, `second`).
    Second,
    /// Black: the first player in the shogi games, the second in chess.
    Black,
    /// White: the second player in the shogi games, the first in chess.
    White,
}

impl Side {
    /// The side's colour in `variant`.
    fn color(self, variant: Variant) -> Color {
        let chess = variant == Variant::Pawns;
        match self {
            Side::First => Color::Sente,
            Side::Second => Color::Gote,
            Side::Black if chess => Color::Gote,
            Side::Black => Color::Sente,
            Side::White if chess => Color::Sente,
            Side::White => Color::Gote,
        }
    }
}

/// `sente`/`first`, `gote`/`second`, or the colours `black` and `white`.
fn parse_side(text: &str) -> Result<Side, SettingsError> {
    match text.to_lowercase().as_str() {
        "sente" | "first" => Ok(Side::First),
        "gote" | "second" => Ok(Side::Second),
        "black" => Ok(Side::Black),
        "white" => Ok(Side::White),
        _ => Err(SettingsError::Side {
            text: text.to_owned(),
        }),
    }
}

/// The time limits from the arguments, checked against the protocols and
/// the engines' `own` limits.
fn limits(
    args: &MatchArgs,
    configs: [&EngineConfig; 2],
    variant: Variant,
    own: [OwnLimits; 2],
) -> Result<Limits, SettingsError> {
    let (base, increment) = match (args.tc, args.byoyomi) {
        (Some((base, increment)), _) => (Some(base), increment),
        (None, Some(_)) => (Some(Duration::ZERO), Duration::ZERO),
        (None, None) => (None, Duration::ZERO),
    };
    let limits = Limits {
        base,
        increment,
        byoyomi: args.byoyomi.unwrap_or_default(),
        movetime: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
    };
    let unlimited = |own: OwnLimits| {
        !limits.has_clock()
            && limits.movetime.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && !own.is_some()
    };
    if own.into_iter().any(unlimited) {
        return Err(SettingsError::NoTimeControl);
    }
    // Each engine's clock, the match's or its own (`tc=`), must be playable.
    for side in own.map(|own| own.over(&limits)) {
        if side.has_clock() && side.base.unwrap_or_default().is_zero() && side.byoyomi.is_zero() {
            // The increment comes after a move: the first move would have none.
            return Err(SettingsError::NoBaseTime);
        }
        if !side.byoyomi.is_zero() && !side.increment.is_zero() {
            return Err(SettingsError::ByoyomiAndIncrement);
        }
    }
    let uci = configs
        .iter()
        .any(|c| c.protocol.unwrap_or_else(|| Dialect::default_for(variant)) == Dialect::Uci);
    if uci && !limits.byoyomi.is_zero() {
        return Err(SettingsError::ByoyomiOverUci);
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_name_the_games_own_sides() {
        let side = |text| parse_side(text).unwrap();
        // Shogi: Black (先手) moves first.
        assert_eq!(side("black").color(Variant::Shogi), Color::Sente);
        assert_eq!(side("White").color(Variant::Minishogi), Color::Gote);
        // Chess: White moves first.
        assert_eq!(side("white").color(Variant::Pawns), Color::Sente);
        assert_eq!(side("black").color(Variant::Pawns), Color::Gote);
        for variant in [Variant::Spear, Variant::Pawns] {
            assert_eq!(side("sente").color(variant), Color::Sente);
            assert_eq!(side("second").color(variant), Color::Gote);
        }
        assert!(matches!(
            parse_side("north"),
            Err(SettingsError::Side { text }) if text == "north"
        ));
    }
}
