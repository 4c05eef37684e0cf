//! Tunes the shogi-family evaluation weights (the classical evaluation,
//! `koma_engine::eval::shogi_weights`) on game results, by Texel's method:
//! a local search over the weights minimises the squared error between
//! each quiet position's result and a logistic function of its
//! evaluation.
//!
//! ```text
//! koma selfplay minishogi --classical --nodes 10000 --positions 300000 --out ~/.cache/koma/data/mini-tune
//! cargo run --release -p koma-train --example tune -- minishogi ~/.cache/koma/data/mini-tune
//! ```
//!
//! `tune VARIANT DIR...` reads the data directories that `koma selfplay`
//! fills (48 bytes a position, the format of the networks' training:
//! `koma_selfplay::record`) and prints the weights after each pass as a
//! Rust expression, the content of `crates/engine/src/eval/weights/
//! VARIANT.rs`, with the error on positions held out of the fit (a
//! rising one means overfitting). Fields named in the environment
//! variable `TUNE_SKIP` (comma-separated, e.g. `board,hand`) keep their
//! values.
//!
//! A game's result says little about one of its early positions; the
//! search's value says more, so the fit aims at a blend: `TUNE_LAMBDA`
//! (default 0.5) of the result, the rest the value's predicted result (on
//! a scale fitted to the results, so the values may come from another
//! engine, on its own scale). A mate value says nothing of the scale and
//! is left out. The held-out error is always against results.
//!
//! Values from a stronger engine, for the fit to aim at, come from the
//! match runner's USI client: `cargo run --release -p koma-match --example
//! label -- VARIANT ENGINE NODES IN_DIR OUT_DIR` has ENGINE search each
//! position of IN_DIR to NODES nodes and writes them to OUT_DIR with its
//! value in place of the search's.

use koma_engine::eval::shogi::evaluate_with;
use koma_engine::eval::shogi_weights::{weights, Weights};
use koma_engine::{is_mate, Evaluate, Value};
use koma_rules::{with_shogi_game, Color, Role, ShogiPosition, ShogiVariant, Variant};
use std::path::Path;
use std::time::Instant;

const THREADS: usize = 2;
/// The most passes over all weights with one step size.
const PASSES_PER_STEP: usize = 3;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [variant, dirs @ ..] if !dirs.is_empty() => fit(variant, dirs),
        _ => Err("usage: tune VARIANT DIR... (data directories of koma selfplay)".into()),
    };
    if let Err(error) = result {
        eprintln!("tune: {error}");
        std::process::exit(2);
    }
}

/// A quiet position, Sente's result, the search's value for Sente if
/// known, and what the fit aims at (the result, or a blend with the value).
struct Sample<V: ShogiVariant> {
    position: ShogiPosition<V>,
    result: f64,
    value: Option<Value>,
    target: f64,
}

fn fit(variant_name: &str, dirs: &[String]) -> Result<(), String> {
    let variant = variant_name.parse::<Variant>().map_err(|e| e.to_string())?;
    with_shogi_game!(variant, V => fit_variant::<V>(dirs),
        pawns => Err("Pawns-Only Chess has no weights to tune".into()))
}

/// The quiet positions of the data directories, each with Sente's result
/// (1, 0.5 or 0) and the search's value for Sente unless it is a mate.
fn load<V: ShogiVariant>(dirs: &[String]) -> Result<Vec<Sample<V>>, String> {
    let mut samples = Vec::new();
    let mut skipped = 0usize;
    for dir in dirs {
        let data = koma_selfplay::read_dir::<V>(Path::new(dir)).map_err(|e| e.to_string())?;
        for sample in data {
            if !sample.position.is_quiet() {
                skipped += 1;
                continue;
            }
            // The record's numbers are the side to move's.
            let sente = if sample.position.turn() == Color::Sente {
                1
            } else {
                -1
            };
            let result = (f64::from(sample.result * sente) + 1.0) / 2.0;
            let value = Value::from(sample.value) * Value::from(sente);
            let value = (!is_mate(value)).then_some(value);
            samples.push(Sample {
                position: sample.position,
                result,
                value,
                target: result,
            });
        }
    }
    eprintln!(
        "{} quiet positions, {skipped} others skipped",
        samples.len()
    );
    Ok(samples)
}

/// The result a value for Sente predicts with scale `k`.
fn predicted(value: Value, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * value as f64 / 400.0))
}

/// The mean squared error of the predicted results with scale `k`.
fn error<V: ShogiVariant>(samples: &[Sample<V>], weights: &Weights, k: f64) -> f64 {
    let chunk = samples.len().div_ceil(THREADS).max(1);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|sample| {
                            let mut value = evaluate_with(&sample.position, weights);
                            if sample.position.turn() == Color::Gote {
                                value = -value;
                            }
                            (sample.target - predicted(value, k)).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no evaluation panics"))
            .sum()
    });
    total / samples.len() as f64
}

/// The logistic scale, from 1 in steps of factor `step` (at most `rounds`
/// of them), that minimises `error`.
fn best_scale(step: f64, rounds: usize, error: impl Fn(f64) -> f64) -> f64 {
    let mut scale = 1.0;
    let mut best_error = error(scale);
    for _ in 0..rounds {
        let mut improved = false;
        for candidate in [scale * step, scale / step] {
            let e = error(candidate);
            if e < best_error {
                (scale, best_error, improved) = (candidate, e, true);
            }
        }
        if !improved {
            break;
        }
    }
    scale
}

/// The scale that best predicts the results from the samples' values.
fn value_scale<V: ShogiVariant>(samples: &[Sample<V>]) -> f64 {
    let valued: Vec<(Value, f64)> = samples
        .iter()
        .filter_map(|sample| sample.value.map(|value| (value, sample.result)))
        .collect();
    let scale = best_scale(1.02, usize::MAX, |scale| {
        valued
            .iter()
            .map(|&(value, result)| (result - predicted(value, scale)).powi(2))
            .sum()
    });
    if !valued.is_empty() {
        eprintln!("values' scale {scale:.3} over {} positions", valued.len());
    }
    scale
}

/// The weights as named slices, for the local search to walk.
fn fields(w: &mut Weights) -> Vec<(&'static str, &mut [Value])> {
    vec![
        ("board", &mut w.board[..]),
        ("hand", &mut w.hand[..]),
        ("rank", w.rank.as_flattened_mut()),
        ("file", w.file.as_flattened_mut()),
        ("tempo", std::slice::from_mut(&mut w.tempo)),
        ("attack_by_distance", &mut w.attack_by_distance[1..5]),
        ("defence_by_distance", &mut w.defence_by_distance[1..5]),
        ("attack_weight", &mut w.attack_weight[..]),
        ("defence_weight", &mut w.defence_weight[..]),
        ("mobility", &mut w.mobility[..]),
        ("threatened", &mut w.threatened[..]),
        ("zone_attack", &mut w.zone_attack[..]),
        ("hand_danger", std::slice::from_mut(&mut w.hand_danger)),
        ("weak_square", std::slice::from_mut(&mut w.weak_square)),
        ("safe_check", &mut w.safe_check[..]),
        ("flank_attack", std::slice::from_mut(&mut w.flank_attack)),
        ("drop_mobility", std::slice::from_mut(&mut w.drop_mobility)),
        ("promotion_ready", &mut w.promotion_ready[..]),
        ("danger_cap", std::slice::from_mut(&mut w.danger_cap)),
        ("open_square", std::slice::from_mut(&mut w.open_square)),
        (
            "open_square_per_hand_piece",
            std::slice::from_mut(&mut w.open_square_per_hand_piece),
        ),
        ("entering_king", &mut w.entering_king[..]),
        ("camp_piece", std::slice::from_mut(&mut w.camp_piece)),
        ("impasse_point", std::slice::from_mut(&mut w.impasse_point)),
    ]
}

/// Whether entry `index` of field `name` can matter in `V`'s game.
fn in_use<V: ShogiVariant>(name: &str, index: usize) -> bool {
    let variant_weights = weights(V::VARIANT);
    // A role the game has a value for exists in it.
    let exists = |role: usize| variant_weights.board[role] != 0 || role == Role::King.index();
    match name {
        "rank" => return exists(index / 9) && index % 9 < V::SPEC.ranks as usize,
        "file" => return exists(index / 5) && index % 5 < V::SPEC.files.div_ceil(2) as usize,
        // Only standard shogi has an impasse rule.
        "entering_king" | "camp_piece" | "impasse_point" => return V::VARIANT == Variant::Shogi,
        _ => {}
    }
    let by_role = !matches!(
        name,
        "tempo"
            | "attack_by_distance"
            | "defence_by_distance"
            | "hand_danger"
            | "flank_attack"
            | "drop_mobility"
            | "weak_square"
            | "danger_cap"
            | "open_square"
            | "open_square_per_hand_piece"
    );
    if !by_role {
        return true;
    }
    if index == Role::King.index() || (name == "hand" && index == 7) {
        return false;
    }
    exists(index)
}

/// Positions kept out of the fit to show whether it generalises: every
/// tenth block of a thousand, so that mostly whole games stay together.
const HELD_OUT_BLOCK: usize = 1000;

fn split_held_out<V: ShogiVariant>(all: Vec<Sample<V>>) -> (Vec<Sample<V>>, Vec<Sample<V>>) {
    let (mut fit, mut held_out) = (Vec::new(), Vec::new());
    for (index, sample) in all.into_iter().enumerate() {
        if index / HELD_OUT_BLOCK % 10 == 9 {
            held_out.push(sample);
        } else {
            fit.push(sample);
        }
    }
    (fit, held_out)
}

fn fit_variant<V: ShogiVariant>(dirs: &[String]) -> Result<(), String> {
    let (mut samples, held_out) = split_held_out(load::<V>(dirs)?);
    if samples.is_empty() || held_out.is_empty() {
        return Err("too few positions".into());
    }
    let mut best = weights(V::VARIANT).clone();
    let k = best_scale(1.05, 40, |k| error(&samples, &best, k));
    let lambda: f64 = match std::env::var("TUNE_LAMBDA") {
        Ok(text) => text
            .parse()
            .map_err(|e| format!("TUNE_LAMBDA={text}: {e}"))?,
        Err(_) => 0.5,
    };
    // The values may come from another engine, on its own scale: fit that
    // scale to the results too.
    let value_scale = value_scale(&samples);
    // The held-out positions keep their results as targets: their error
    // compares fits whatever their blend.
    for sample in &mut samples {
        if let Some(value) = sample.value {
            sample.target = lambda * sample.result + (1.0 - lambda) * predicted(value, value_scale);
        }
    }
    let mut best_error = error(&samples, &best, k);
    eprintln!(
        "scale {k:.3}, error {best_error:.6}, held out {:.6}",
        error(&held_out, &best, k)
    );
    let skip = std::env::var("TUNE_SKIP").unwrap_or_default();
    let skipped: Vec<&str> = skip.split(',').collect();
    let started = Instant::now();
    let (mut step, mut passes) = (16, 0);
    while step >= 1 {
        passes += 1;
        let mut changed = 0;
        let shape: Vec<(&'static str, usize)> = fields(&mut best.clone())
            .iter()
            .map(|(name, values)| (*name, values.len()))
            .collect();
        for (field, &(name, len)) in shape.iter().enumerate() {
            for index in 0..len {
                if skipped.contains(&name) || !in_use::<V>(name, index) {
                    continue;
                }
                for delta in [step, -step] {
                    let mut trial = best.clone();
                    fields(&mut trial)[field].1[index] += delta;
                    let e = error(&samples, &trial, k);
                    if e < best_error {
                        best = trial;
                        best_error = e;
                        changed += 1;
                        break;
                    }
                }
            }
        }
        eprintln!(
            "step {step}: {changed} changed, error {best_error:.6}, held out {:.6} ({:.0} s)",
            error(&held_out, &best, k),
            started.elapsed().as_secs_f64()
        );
        println!("{best:?}");
        // A few passes per step size: the small steps refine the rest.
        if changed == 0 || passes == PASSES_PER_STEP {
            (step, passes) = (step / 2, 0);
        }
    }
    Ok(())
}
