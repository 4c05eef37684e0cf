//! The JSON of the workers' HTTP API (`docs/WORKERS.md`), shared by the
//! server's side (`http/worker_routes.rs`) and `koma worker`
//! (`crates/worker`), so that the two cannot drift apart.

/// The kinds of jobs, named in a job and in an acquire.
pub use super::queue::JobKind;
use crate::games::names;
use koma_analysis::Evaluation;
use koma_rules::Variant;
use serde::{Deserialize, Serialize};

/// The path of `POST /api/worker/acquire`.
pub const ACQUIRE_PATH: &str = "/api/worker/acquire";

/// The query of an acquire that names the kinds of jobs a worker does,
/// `kinds=review,mate`. A worker that names none (one from before mate
/// searches) is given reviews only; words a server does not know are
/// skipped, so that a newer worker may ask an older server.
pub const KINDS_PARAM: &str = "kinds";

/// The kinds `query`'s `kinds=…` names (reviews alone when it names none).
pub fn kinds_of(query: Option<&str>) -> Vec<JobKind> {
    let Some(words) = query
        .unwrap_or("")
        .split('&')
        .find_map(|pair| pair.strip_prefix("kinds="))
    else {
        return vec![JobKind::Review];
    };
    let mut kinds = Vec::new();
    for kind in words.split(',').filter_map(JobKind::from_word) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// The longest an acquire waits for a job (`?wait=SECONDS`), under the
/// server's idle and header timeouts.
pub const MAX_WAIT_SECONDS: u64 = 25;

/// A job handed to a worker (`200` of `POST /api/worker/acquire`): review
/// the game `moves` made from `position`, every position (the start's
/// first) at `nodes` nodes; or, `kind` `"mate"`, search `position` for a
/// mate for `seconds` (and at most `nodes` nodes, unless 0); or, `kind`
/// `"analysis"`, analyse the position after `moves` from `position` for
/// `seconds` (and at most `nodes` nodes, unless 0), reporting its best
/// `lines` as they deepen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobJson {
    /// `"review"`, `"mate"` or `"analysis"`.
    #[serde(default)]
    pub kind: JobKind,
    /// The job's id, in the paths of its progress and result.
    pub id: String,
    /// The lease's secret: sent back with each progress and the result,
    /// so that only the worker holding the job reports on it.
    pub lease: String,
    /// Seconds the lease lasts from now; each progress report renews it.
    pub lease_seconds: u64,
    /// The game's id on the server (for the worker's log).
    pub game: String,
    /// `spear`, `minishogi`, `shogi` or `pawns`.
    pub variant: String,
    /// The start position, SFEN (FEN in Pawns-Only Chess).
    pub position: String,
    /// The moves from it, USI (UCI), as the game played them.
    pub moves: Vec<String>,
    /// The engine's budget for each position, in nodes (a mate search's
    /// most nodes; 0 for no bound but the time).
    pub nodes: u64,
    /// A mate search's or an analysis's time, in seconds (0 in a review).
    #[serde(default)]
    pub seconds: u64,
    /// The best lines an analysis reports (MultiPV); 0 in other jobs.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lines: u32,
}

fn is_zero(lines: &u32) -> bool {
    *lines == 0
}

/// `POST /api/worker/jobs/{id}/progress`: positions judged so far (an
/// analysis's lines so far).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressJson {
    /// The lease's secret, from the job.
    pub lease: String,
    /// Positions judged (0 to one more than the moves; 0 in a mate
    /// search or an analysis).
    pub done: usize,
    /// An analysis's lines at the last depth completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<AnalysisResultJson>,
}

/// `POST /api/worker/jobs/{id}/result`: every position's judgement (a
/// review), or the mate search's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultJson {
    /// The lease's secret, from the job.
    pub lease: String,
    /// A review's: one per position, the start's first: one more than the
    /// moves.
    #[serde(default)]
    pub positions: Vec<PositionJson>,
    /// A mate search's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<MateResultJson>,
    /// An analysis's last lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<AnalysisResultJson>,
}

/// An analysis's best lines at the last depth it completed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisResultJson {
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time searched, milliseconds.
    pub milliseconds: u64,
    /// The best lines, the best first: at most the job's `lines`, each
    /// with a move; none where the game is over.
    pub lines: Vec<AnalysisLineJson>,
}

/// One of an analysis's best lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisLineJson {
    /// Its evaluation, from the first player's view.
    pub score: ScoreJson,
    /// Its moves, USI (UCI), from the position analysed.
    pub pv: Vec<String>,
}

/// What a mate search found, as the solver reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MateResultJson {
    /// `"mate"`, `"nomate"` or `"unknown"` (the time ran out).
    pub answer: String,
    /// A mate's length in plies as problems count it (useless
    /// interpositions not counted); 0 otherwise.
    #[serde(default)]
    pub length: u16,
    /// The mate line, USI, to checkmate on the board (longer than
    /// `length` by the useless interpositions and their captures); empty
    /// otherwise.
    #[serde(default)]
    pub line: Vec<String>,
    /// Nodes searched.
    #[serde(default)]
    pub nodes: u64,
    /// Time taken, milliseconds.
    #[serde(default)]
    pub milliseconds: u64,
}

/// The engine's judgement of one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionJson {
    /// The evaluation, from the first player's view.
    pub score: ScoreJson,
    /// The engine's move, USI (UCI); absent where the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The line it expects, its move first.
    #[serde(default)]
    pub pv: Vec<String>,
    /// The depth searched.
    #[serde(default)]
    pub depth: u32,
    /// The nodes searched.
    #[serde(default)]
    pub nodes: u64,
}

/// An evaluation: `{"cp": 35}` (centipawns, positive for the first
/// player) or `{"mate": {"winner": "gote", "plies": 3}}` (plies 0: the
/// game is won), as a kept review writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum ScoreJson {
    /// Centipawns, positive for the first player.
    Cp(i32),
    /// A forced win.
    Mate {
        /// The winner's side by name (`sente`/`gote`, `white`/`black`).
        winner: String,
        /// Plies to the end.
        plies: u32,
    },
}

impl ScoreJson {
    /// `evaluation` in `variant`'s game, as sent.
    pub fn new(variant: Variant, evaluation: Evaluation) -> ScoreJson {
        match evaluation {
            Evaluation::Centipawns(cp) => ScoreJson::Cp(cp),
            Evaluation::Mate { winner, plies } => ScoreJson::Mate {
                winner: names::color_name(variant, winner).to_owned(),
                plies,
            },
        }
    }

    /// The evaluation this names in `variant`'s game, `None` if its
    /// winner is no side of that game.
    pub fn read(&self, variant: Variant) -> Option<Evaluation> {
        Some(match self {
            ScoreJson::Cp(cp) => Evaluation::Centipawns(*cp),
            ScoreJson::Mate { winner, plies } => Evaluation::Mate {
                winner: names::parse_color(variant, winner)?,
                plies: *plies,
            },
        })
    }
}

/// The answer to a progress report or a result (`200`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptedJson {
    /// `"running"` after a progress report, `"kept"` after a result.
    pub status: String,
    /// Seconds the lease now lasts (after a progress report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_seconds: Option<u64>,
}
