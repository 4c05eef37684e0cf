//! Labels for the evaluation tuner from another engine: each position of a
//! tuning file searched by a USI engine, its value written beside the game's
//! result (`crates/engine/examples/tune` fits weights to such lines).

use crate::error::LabelError;
use koma_rules::Variant;
use koma_usi::client::{Engine, EngineConfig, Failure, Score};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How long one search of a fixed number of nodes may take before the
/// engine counts as hung.
const PATIENCE: Duration = Duration::from_secs(60);

/// Reads lines `SFEN;RESULT[;VALUE]` from `input` and writes each position
/// to `output` as `SFEN;RESULT;VALUE`, VALUE being the engine's score for
/// Sente after a search of `nodes` nodes (a line without a value when the
/// engine reports a mate, which says nothing of its scale). Lines without a
/// result are skipped. Returns how many lines were labelled with a value.
pub fn label_positions(
    variant: Variant,
    engine: &EngineConfig,
    nodes: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<usize, LabelError> {
    let mut engine_process = Engine::start(engine, variant, "label", None)?;
    let failed = |failure: Failure| LabelError::Search {
        program: engine.program.clone(),
        failure,
    };
    engine_process.new_game().map_err(failed)?;
    let mut labelled = 0;
    for line in input.lines() {
        let line = line.map_err(LabelError::Read)?;
        let mut parts = line.split(';');
        let (Some(position), Some(result)) = (parts.next(), parts.next()) else {
            continue;
        };
        let sente_to_move = position.split_whitespace().nth(1) == Some("b");
        let thought = engine_process
            .think(
                &format!("position sfen {position}"),
                &format!("nodes {nodes}"),
                PATIENCE,
            )
            .map_err(failed)?;
        match thought.score {
            Some(Score::Centipawns(value)) => {
                labelled += 1;
                let value = if sente_to_move { value } else { -value };
                writeln!(output, "{position};{result};{value}")
            }
            _ => writeln!(output, "{position};{result}"),
        }
        .map_err(LabelError::Write)?;
    }
    engine_process.quit();
    output.flush().map_err(LabelError::Write)?;
    Ok(labelled)
}
