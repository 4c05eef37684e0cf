//! The JSON of the workers' HTTP API (`docs/WORKERS.md`), shared by the
//! server's side (`http/worker_routes.rs`) and `koma worker`
//! (`crates/worker`), so that the two cannot drift apart.

use crate::games::names;
use koma_analysis::Evaluation;
use koma_rules::Variant;
use serde::{Deserialize, Serialize};

/// The path of `POST /api/worker/acquire`.
pub const ACQUIRE_PATH: &str = "/api/worker/acquire";

/// The longest an acquire waits for a job (`?wait=SECONDS`), under the
/// server's idle and header timeouts.
pub const MAX_WAIT_SECONDS: u64 = 25;

/// A job handed to a worker (`200` of `POST /api/worker/acquire`): review
/// the game `moves` made from `position`, every position (the start's
/// first) at `nodes` nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobJson {
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
    /// The engine's budget for each position, in nodes.
    pub nodes: u64,
}

/// `POST /api/worker/jobs/{id}/progress`: positions judged so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressJson {
    /// The lease's secret, from the job.
    pub lease: String,
    /// Positions judged (0 to one more than the moves).
    pub done: usize,
}

/// `POST /api/worker/jobs/{id}/result`: every position's judgement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultJson {
    /// The lease's secret, from the job.
    pub lease: String,
    /// One per position, the start's first: one more than the moves.
    pub positions: Vec<PositionJson>,
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
