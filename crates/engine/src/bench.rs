//! A fixed set of positions searched to a fixed depth: the total node count
//! is a signature of the search (it changes only when the search does), and
//! the speed in nodes per second is comparable between builds.

use crate::{Engine, Evaluate, Limits, NetworkForAnotherGame, SearchControl};
use std::time::Duration;

/// Spear positions: the start and middle games from Koma's self-play.
pub const SPEAR: &[&str] = &[
    "lbsgk/4p/5/P4/KGSBL b - 1",
    "lbsgk/5/4p/P4/KGSBL b - 3",
    "l1sgk/1b3/P3p/5/KGSBL b - 5",
    "lbsg1/3k1/p3G/5/K1SBL w P 10",
    "l1s1k/1g3/1pb2/5/KGS1L b Bp 12",
];

/// Minishogi positions.
pub const MINISHOGI: &[&str] = &[
    "rbsgk/4p/5/P4/KGSBR b - 1",
    "rbsgk/5/4p/P4/KGSBR b - 3",
    "r1sgk/1b2p/5/PS3/K1GBR w - 6",
    "rbs1k/3g1/4p/P1B2/KGS1R w - 6",
];

/// Shogi positions: the start, an opening, and middle games.
pub const SHOGI: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9",
    "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
    "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
];

/// Pawns-Only Chess positions.
pub const PAWNS: &[&str] = &[
    "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1",
    "8/pp4pp/2p2p2/3pp3/3PP3/2P2P2/PP4PP/8 w - - 0 1",
    "8/1p3p2/8/2P1p3/1P6/4P3/8/8 w - - 0 1",
    "8/2p5/8/1P1P4/8/8/6p1/8 w - - 0 1",
];

/// The search of one bench position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position searched.
    pub position: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// How each bench position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchLimit {
    /// To a fixed depth: the nodes are the search's signature (with one
    /// thread), the time says how fast it gets there.
    Depth(u32),
    /// For a fixed time: the nodes say how fast it searches.
    Time(Duration),
}

/// Which evaluation a bench searches with.
#[derive(Clone, Debug, Default)]
pub enum BenchEvaluation {
    /// The game's embedded network where it has one, else the classical
    /// evaluation (what the engine plays with).
    #[default]
    Default,
    /// The classical evaluation.
    Classical,
    /// This network (of the game benched).
    Network(std::sync::Arc<crate::Network>),
}

/// Searches each of `positions` within `limit`, with a fresh 16 MiB engine
/// of `threads` threads evaluating with `evaluation`, and calls `report`
/// after each. Positions that do not parse are skipped; a network of
/// another game is an error.
///
/// ```
/// use koma_engine::bench::{run, BenchEvaluation, BenchLimit, SPEAR};
/// use koma_rules::SpearPosition;
///
/// let classical = BenchEvaluation::Classical;
/// let first = run::<SpearPosition>(&SPEAR[..1], BenchLimit::Depth(6), 1, &classical, &mut |_| {}).unwrap();
/// let again = run::<SpearPosition>(&SPEAR[..1], BenchLimit::Depth(6), 1, &classical, &mut |_| {}).unwrap();
/// assert_eq!(first[0].nodes, again[0].nodes);
/// ```
pub fn run<P: Evaluate>(
    positions: &[&str],
    limit: BenchLimit,
    threads: usize,
    evaluation: &BenchEvaluation,
    report: &mut dyn FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, NetworkForAnotherGame> {
    let limits = match limit {
        BenchLimit::Depth(depth) => Limits::depth(depth),
        BenchLimit::Time(time) => Limits::move_time(time),
    };
    let mut lines = Vec::new();
    for text in positions {
        let Ok(position) = P::from_text(text) else {
            continue;
        };
        let mut engine = Engine::<P>::new(16);
        engine.options.threads = threads;
        match evaluation {
            BenchEvaluation::Default => {}
            BenchEvaluation::Classical => engine.options.use_nnue = false,
            BenchEvaluation::Network(network) => engine.set_network(Some(network.clone()))?,
        }
        // The time is the search's own: nothing kept back for a protocol.
        engine.options.move_overhead = Duration::ZERO;
        let result = engine.search(&[position], &limits, &SearchControl::default(), &mut |_| {});
        let line = BenchLine {
            position: text.to_string(),
            nodes: result.nodes,
            time: result.time,
        };
        report(&line);
        lines.push(line);
    }
    Ok(lines)
}
