//! Where an analysis thinks: on the server's own engines
//! ([`super::analysis`]), or, with `--worker-keys`, on a worker's
//! ([`super::worker_analysis`]) when Koma's own engine is asked for and
//! none of the server's is free (or the server keeps none for it,
//! `--analysis-engines 0`), rather than wait behind them.

use super::analysis::{self, Analyses, EngineJob};
use super::analysis_target::Target;
use super::worker_analysis;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Starts analysing `target`, here or on a worker, sending its messages
/// on `out`; dropping the job stops it.
pub fn start(
    analyses: Arc<Analyses>,
    target: Target,
    out: mpsc::UnboundedSender<String>,
) -> EngineJob {
    if target.engine.is_none() {
        if let Some(workers) = analyses.workers.get() {
            if !analyses.limits.local || !analyses.engine_free() {
                return worker_analysis::start(workers.clone(), analyses.clone(), target, out);
            }
        }
    }
    analysis::start_here(analyses, target, out)
}
