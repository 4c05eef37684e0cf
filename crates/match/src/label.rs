//! Values from another engine for training data: each position of a data
//! directory (`koma selfplay`'s 48-byte records, `koma_selfplay::record`)
//! searched by a USI engine, and written again with that engine's value
//! in place of the search's, so that the classical tuner
//! (`crates/train/examples/tune.rs`) or the networks' trainer can aim at a
//! stronger engine's judgement.

use crate::error::LabelError;
use koma_engine::{Value, MATE, MAX_PLY};
use koma_rules::{Position, ShogiVariant};
use koma_selfplay::record::clamp_value;
use koma_selfplay::Sample;
use koma_usi::client::{Engine, EngineConfig, Failure, Score};
use std::time::Duration;

/// How long one search of a fixed number of nodes may take before the
/// engine counts as hung.
const PATIENCE: Duration = Duration::from_secs(60);

/// `samples` with the value `engine` gives each after a search of `nodes`
/// nodes: centipawns from the side to move's view, as the records keep
/// them, and a mate as a search's mate is kept (near ±32,000, which
/// readers of the data take for a mate). The game's result and ply stay.
/// `done` is told how many are labelled, after each.
pub fn label_samples<V: ShogiVariant>(
    engine: &EngineConfig,
    nodes: u64,
    samples: &[Sample<V>],
    done: &mut dyn FnMut(usize),
) -> Result<Vec<Sample<V>>, LabelError> {
    let mut process = Engine::start(engine, V::VARIANT, "label", None)?;
    let failed = |failure: Failure| LabelError::Search {
        program: engine.program.clone(),
        failure,
    };
    process.new_game().map_err(failed)?;
    let mut labelled = Vec::with_capacity(samples.len());
    for sample in samples {
        let thought = process
            .think(
                &format!("position sfen {}", sample.position.to_text()),
                &format!("nodes {nodes}"),
                PATIENCE,
            )
            .map_err(failed)?;
        let value = match thought.score {
            Some(Score::Centipawns(value)) => Value::from(value),
            Some(Score::Mate(plies)) => {
                // Within the search's reach, so that readers see a mate.
                let distance = plies.unsigned_abs().min(MAX_PLY as u32) as Value;
                if plies > 0 {
                    MATE - distance
                } else {
                    distance - MATE
                }
            }
            None => return Err(LabelError::NoScore(sample.position.to_text())),
        };
        labelled.push(Sample {
            value: clamp_value(value),
            ..*sample
        });
        done(labelled.len());
    }
    process.quit();
    Ok(labelled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Minishogi, ShogiPosition};

    /// An engine in sh whose n-th search reports the n-th of three scores.
    const SCORES: &str = r#"n=0
while IFS= read -r line; do
  case "$line" in
    usi) echo "id name scores"; echo "usiok" ;;
    isready) echo "readyok" ;;
    go*)
      n=$((n + 1))
      case $n in 1) s="cp -37" ;; 2) s="mate 3" ;; *) s="mate -2" ;; esac
      echo "info depth 1 score $s nodes 5 pv 1e2d"
      echo "bestmove 1e2d" ;;
    quit) exit 0 ;;
  esac
done
"#;

    #[test]
    fn each_sample_gets_the_engines_value_and_keeps_its_result() {
        let script = std::env::temp_dir().join(format!("koma-label-{}.sh", std::process::id()));
        std::fs::write(&script, SCORES).unwrap();
        let config = EngineConfig::parse(&[format!("cmd=/bin/sh {}", script.display())]).unwrap();
        let start = ShogiPosition::<Minishogi>::start();
        let sample = |result, ply| Sample {
            position: start,
            value: 5,
            result,
            ply,
        };
        let samples = [sample(1, 0), sample(0, 7), sample(-1, 9)];
        let mut told = Vec::new();
        let labelled = label_samples(&config, 100, &samples, &mut |n| told.push(n)).unwrap();
        std::fs::remove_file(&script).unwrap();
        let values: Vec<i16> = labelled.iter().map(|s| s.value).collect();
        assert_eq!(values, [-37, 31_997, -31_998]);
        // Mates stay mates to the data's readers.
        assert!(koma_engine::is_mate(Value::from(values[1])));
        assert!(koma_engine::is_mate(Value::from(values[2])));
        let kept: Vec<(i8, u16)> = labelled.iter().map(|s| (s.result, s.ply)).collect();
        assert_eq!(kept, [(1, 0), (0, 7), (-1, 9)]);
        assert_eq!(told, [1, 2, 3]);
    }
}
