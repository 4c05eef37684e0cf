//! `koma pool`: one match played in parts, pooled. A long SPRT outlives
//! sessions and machines: when a journal is lost, the test goes on in a
//! new one (another seed, the same two searches), and the pairs written
//! down from the lost part still count. This pools the finished pairs of
//! journals and counts given by hand and says what they mean, by the
//! formulas `koma match` itself uses ([`crate::stats`]): the score, the
//! Elo by pairs with its 95 % interval and, with `--sprt`, the
//! log-likelihood ratio and its decision.

use crate::error::PoolError;
use crate::journal::{self, Identity, JournalGame};
use crate::report::Standing;
use crate::stats::{GameScore, Pentanomial, Sprt};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `koma pool`.
#[derive(Args, Debug)]
#[command(after_help = "\
Pool only parts that played the same two searches (scripts/tree-size.py's node counts tell \
whether two builds search alike). Journals of another game, clock or handicap are refused; \
their other differences in settings but the seed are shown.

Example (a test continued in a new journal, with the lost one's pairs):
  koma pool records/part2 --pairs 110,4,253,4,129 --sprt elo0=0 elo1=10")]
pub struct PoolArgs {
    /// Records directories of `koma match --records` (or their
    /// `match.jsonl`): their finished pairs count.
    #[arg(value_name = "DIR")]
    journals: Vec<PathBuf>,
    /// Pairs counted elsewhere, by engine 1's points in the pair: how
    /// many scored 0, ½, 1, 1½ and 2 (may be given more than once).
    #[arg(long, value_name = "L,LD,D,WD,W", value_parser = parse_pairs)]
    pairs: Vec<Pentanomial>,
    /// An SPRT to decide: elo0=E elo1=E [alpha=A beta=B], as `koma match`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
}

/// Settings of a journal that make another test, not another part of
/// one: the game, its clock and its handicap. (The engines' commands may
/// change between parts, as a build is made again on a new machine; the
/// difference is shown.)
const DECISIVE: [&str; 3] = ["variant", "time control", "handicap"];

/// The parts pooled, counted.
struct Pooled {
    /// Every finished pair (the journals' and the counts given), the
    /// journals' games of finished pairs, and the SPRT asked for.
    standing: Standing,
    /// Games of the journals left out: the first of a pair never finished.
    unpaired: u64,
    /// Pairs numbered so far: a journal's pairs are counted after the
    /// earlier journals', so that pair 0 of one never meets pair 0 of
    /// another.
    pairs_seen: usize,
}

impl Pooled {
    fn new(sprt: Option<Sprt>) -> Pooled {
        Pooled {
            standing: Standing::new(String::new(), String::new(), sprt),
            unpaired: 0,
            pairs_seen: 0,
        }
    }
}

/// Runs `koma pool`: prints the pooled result on standard output, and the
/// journals' differences in settings on standard error.
pub fn run(args: PoolArgs) -> Result<(), PoolError> {
    if args.journals.is_empty() && args.pairs.is_empty() {
        return Err(PoolError::Nothing);
    }
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(Sprt::parse(&args.sprt)?)
    };
    let mut pooled = Pooled::new(sprt);
    let mut first: Option<(PathBuf, Identity)> = None;
    for path in &args.journals {
        let dir = directory_of(path);
        let previous =
            journal::read(&dir.to_string_lossy())?.ok_or_else(|| PoolError::NoJournal {
                path: journal::path_in(&dir.to_string_lossy()),
            })?;
        let mut identity = previous.identity.clone();
        identity.remove("seed");
        match &first {
            None => first = Some((dir.clone(), identity)),
            Some((first_dir, first_identity)) => {
                for name in DECISIVE {
                    if first_identity.get(name) != identity.get(name) {
                        return Err(PoolError::OtherGame {
                            first: first_dir.clone(),
                            other: dir,
                            setting: name,
                        });
                    }
                }
                for difference in journal::differences(first_identity, &identity) {
                    eprintln!(
                        "koma pool: {} differs from {}: {difference}",
                        dir.display(),
                        first_dir.display()
                    );
                }
            }
        }
        add_games(&mut pooled, &previous.games);
    }
    for counts in &args.pairs {
        for (kind, count) in counts.0.iter().enumerate() {
            pooled.standing.pairs.0[kind] += count;
        }
    }
    if pooled.standing.pairs.pairs() == 0 {
        return Err(PoolError::NoPairs);
    }
    print!("{}", report(&pooled));
    Ok(())
}

/// The directory of a journal given as its directory or its file.
fn directory_of(path: &Path) -> PathBuf {
    if path
        .file_name()
        .is_some_and(|name| name == journal::FILE_NAME)
    {
        path.parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    } else {
        path.to_path_buf()
    }
}

/// Counts a journal's finished pairs (a pair's two games, whatever their
/// order in the journal), as `koma match --resume` counts them.
fn add_games(pooled: &mut Pooled, games: &[JournalGame]) {
    // Every pair of a match of unbounded length: only pairs of two games.
    let finished = journal::finished_pairs(games, usize::MAX);
    pooled.unpaired += (games.len() - finished.len()) as u64;
    let offset = pooled.pairs_seen;
    for game in &finished {
        let score = GameScore::of(game.winner_color(), game.engine1_color());
        pooled.standing.add(offset + game.pair, score, &game.ending);
        pooled.pairs_seen = pooled.pairs_seen.max(offset + game.pair + 1);
    }
}

/// The pooled result as text.
fn report(pooled: &Pooled) -> String {
    let mut out = String::new();
    let pairs = &pooled.standing.pairs;
    let p = pairs.0;
    let _ = write!(
        out,
        "Pairs: {} (0, 0.5, 1, 1.5, 2 points: [{}, {}, {}, {}, {}])",
        pairs.pairs(),
        p[0],
        p[1],
        p[2],
        p[3],
        p[4]
    );
    if let Some(estimate) = pairs.estimate() {
        let _ = write!(
            out,
            ", score {:.1} %, Elo {estimate} (95 %)",
            estimate.score * 100.0
        );
    }
    out.push('\n');
    let t = &pooled.standing.tally;
    if t.games() > 0 {
        let _ = write!(
            out,
            "Journals' games in finished pairs: W-L-D {}-{}-{}",
            t.wins, t.losses, t.draws
        );
        if pooled.unpaired > 0 {
            let _ = write!(
                out,
                " ({} more left out: their pairs never finished)",
                pooled.unpaired
            );
        }
        out.push('\n');
    }
    if let Some(line) = pooled.standing.sprt_line() {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// Reads `--pairs L,LD,D,WD,W`: five whole numbers.
fn parse_pairs(text: &str) -> Result<Pentanomial, String> {
    let counts: Vec<u64> = text
        .split(',')
        .map(|word| word.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{text:?}: give five whole numbers, like 110,4,253,4,129"))?;
    let counts: [u64; 5] = counts
        .try_into()
        .map_err(|_| format!("{text:?}: give five counts (pairs scoring 0, ½, 1, 1½, 2)"))?;
    Ok(Pentanomial(counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: usize, engine1: &str, winner: Option<&str>) -> JournalGame {
        JournalGame {
            round,
            pair: (round - 1) / 2,
            engine1: engine1.to_owned(),
            winner: winner.map(str::to_owned),
            ending: "checkmate".to_owned(),
            plies: 100,
        }
    }

    /// A journal's pairs are counted by engine 1's points, whatever the
    /// order its games finished in; a pair cut short is left out.
    #[test]
    fn finished_pairs_are_counted_by_engine_1s_points() {
        let games = [
            game(2, "gote", Some("gote")),   // pair 0: engine 1 wins twice
            game(1, "sente", Some("sente")), //
            game(3, "sente", Some("gote")),  // pair 1: a loss and a draw
            game(4, "gote", None),           //
            game(5, "sente", Some("sente")), // pair 2: not finished
        ];
        let mut pooled = Pooled::new(None);
        add_games(&mut pooled, &games);
        let standing = &pooled.standing;
        assert_eq!(standing.pairs, Pentanomial([0, 1, 0, 0, 1]));
        assert_eq!((standing.tally.wins, standing.tally.losses), (2, 1));
        assert_eq!(standing.tally.draws, 1);
        assert_eq!(pooled.unpaired, 1);
        // A second journal's pair 0 is a pair of its own.
        add_games(&mut pooled, &games[..2]);
        assert_eq!(pooled.standing.pairs, Pentanomial([0, 1, 0, 0, 2]));
        assert_eq!(pooled.unpaired, 1);
    }

    /// The counts of search.md's first reduced-depth test give what `koma
    /// match` printed for them: +13.2 ± 21.2, LLR 0.71.
    #[test]
    fn counts_alone_give_koma_matchs_figures() {
        let sprt = Sprt::parse(&["elo0=0".to_owned(), "elo1=10".to_owned()]).unwrap();
        let mut pooled = Pooled::new(Some(sprt));
        pooled.standing.pairs = parse_pairs("110,4,253,4,129").unwrap();
        let text = report(&pooled);
        assert!(text.contains("Pairs: 500 "), "{text}");
        assert!(text.contains("score 51.9 %, Elo +13.2 ± 21.2"), "{text}");
        assert!(text.contains("LLR 0.71 [-2.94, 2.94], continue"), "{text}");
        assert!(!text.contains("Journals' games"), "{text}");
    }

    #[test]
    fn pairs_that_are_not_five_counts_are_refused() {
        assert!(parse_pairs("1,2,3,4").unwrap_err().contains("five counts"));
        assert!(parse_pairs("1,2,x,4,5")
            .unwrap_err()
            .contains("whole numbers"));
        assert_eq!(
            parse_pairs(" 1, 2,3,4,5").unwrap(),
            Pentanomial([1, 2, 3, 4, 5])
        );
    }

    #[test]
    fn a_journal_is_found_by_its_directory_or_its_file() {
        let dir = Path::new("/tmp/records");
        assert_eq!(directory_of(dir), dir);
        assert_eq!(directory_of(&dir.join(journal::FILE_NAME)), dir);
        assert_eq!(directory_of(Path::new(journal::FILE_NAME)), Path::new(""));
    }
}
