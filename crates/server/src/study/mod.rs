//! The study tools on the board: `analysis` (the engine's lines over a
//! game's WebSocket, bounded in engines and time), `review` (game review,
//! kept with the game as `review_kept`) and `mate` (Find mate, the mate
//! solver on a position).

pub(crate) mod analysis;
pub(crate) mod analysis_start;
pub(crate) mod analysis_target;
mod external_analysis;
pub(crate) mod external_mate;
mod external_review;
pub(crate) mod mate;
pub(crate) mod review;
pub(crate) mod review_kept;
mod worker_analysis;
