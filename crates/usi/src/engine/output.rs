//! What the engine prints: `info` and `bestmove` lines in each dialect,
//! written whole and flushed so a GUI never sees half a line.

use crate::Dialect;
use koma_engine::{Bound, Evaluate, Info, Score, SearchResult};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Standard output shared by the protocol loop and the search thread.
#[derive(Clone, Default)]
pub struct Output {
    lock: Arc<Mutex<()>>,
}

impl Output {
    /// Prints one line and flushes it.
    pub fn line(&self, text: &str) {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut stdout = std::io::stdout().lock();
        // A closed pipe means the GUI is gone; the loop ends on its own.
        let _ = writeln!(stdout, "{text}");
        let _ = stdout.flush();
    }
}

/// An `info` line.
pub fn info_line<P: Evaluate>(info: &Info, dialect: Dialect) -> String {
    let score = match info.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::MatePlies(plies) => match dialect {
            Dialect::Usi => format!("mate {plies}"),
            Dialect::Uci => format!("mate {}", Score::mate_moves(plies)),
        },
    };
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = info.pv.iter().map(|&m| P::move_to_text(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull,
        pv.join(" ")
    )
}

/// The `bestmove` line: `resign` (USI) or `(none)` (UCI) without a move.
pub fn bestmove_line<P: Evaluate>(result: &SearchResult, dialect: Dialect) -> String {
    match result.best_move {
        Some(m) => match result.ponder_move {
            Some(ponder) => format!(
                "bestmove {} ponder {}",
                P::move_to_text(m),
                P::move_to_text(ponder)
            ),
            None => format!("bestmove {}", P::move_to_text(m)),
        },
        None => match dialect {
            Dialect::Usi => "bestmove resign".to_string(),
            Dialect::Uci => "bestmove (none)".to_string(),
        },
    }
}
