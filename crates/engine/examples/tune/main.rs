//! Tunes the shogi-family evaluation weights on game results (Texel's
//! method): self-play games give positions and results, and a local search
//! over the weights minimises the squared error between each quiet
//! position's result and a logistic function of its evaluation.
//!
//! ```text
//! cargo run --release -p koma-engine --example tune -- gen minishogi 2000 8000 1 games.txt
//! cargo run --release -p koma-engine --example tune -- fit minishogi games.txt
//! ```
//!
//! `gen VARIANT GAMES NODES SEED OUT` plays GAMES games on two threads, each
//! move searched to NODES nodes after four to eight random plies, and
//! writes one line per position: the position, `;`, Sente's result (1, 0.5
//! or 0), then `;` and the search's value for Sente in centipawns (none when
//! it found a mate). `fit VARIANT FILE...` reads such lines, or whole games
//! as USI `position … moves …` commands followed by `;` and the result, and
//! prints the weights after each pass as a Rust expression, the content of
//! `src/eval/weights/VARIANT.rs`, with the error on positions held out of
//! the fit (a rising one means overfitting). Fields named in the
//! environment variable `TUNE_SKIP` (comma-separated, e.g. `board,hand`)
//! keep their values.
//!
//! A game's result says little about one of its early positions; the
//! search's value says more, so where a line has one the fit aims at a
//! blend: `TUNE_LAMBDA` (default 0.5) of the result, the rest the value's
//! predicted result (on a scale fitted to the results, so the values may
//! come from another engine, on its own scale). The held-out error is
//! always against results.
//!
//! Labels from a stronger engine, for the fit to aim at (`TUNE_LAMBDA` then
//! weighs the results against them), come from the match runner's USI
//! client: `cargo run --release -p koma-match --example label -- VARIANT
//! ENGINE NODES IN OUT` has ENGINE search each position of IN to NODES
//! nodes and writes the lines again with its value in place of the search's.

use koma_engine::eval::shogi::evaluate_with;
use koma_engine::eval::shogi_weights::{weights, Weights};
use koma_engine::{Engine, Evaluate, Limits, Score, SearchControl, Value};
use koma_rules::{
    Color, Game, Minishogi, Position, Role, ShogiPosition, ShogiVariant, Spear, Variant,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

const THREADS: usize = 2;
/// The most passes over all weights with one step size.
const PASSES_PER_STEP: usize = 3;
/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 400;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") if args.len() == 6 => generate(&args[1..]),
        Some("fit") if args.len() >= 3 => fit(&args[1], &args[2..]),
        _ => Err("usage: tune gen VARIANT GAMES NODES SEED OUT | tune fit VARIANT FILE...".into()),
    };
    if let Err(error) = result {
        eprintln!("tune: {error}");
        std::process::exit(2);
    }
}

fn variant(name: &str) -> Result<Variant, String> {
    match name {
        "spear" => Ok(Variant::Spear),
        "minishogi" => Ok(Variant::Minishogi),
        _ => Err(format!("no tuning for {name}: spear or minishogi")),
    }
}

fn generate(args: &[String]) -> Result<(), String> {
    let number = |text: &String| text.parse::<u64>().map_err(|e| format!("{text}: {e}"));
    let games = number(&args[1])? as usize;
    let nodes = number(&args[2])?;
    let seed = number(&args[3])?;
    let out = std::fs::File::create(&args[4]).map_err(|e| format!("{}: {e}", args[4]))?;
    let out = Mutex::new(BufWriter::new(out));
    match variant(&args[0])? {
        Variant::Spear => play_games::<Spear>(games, nodes, seed, &out),
        _ => play_games::<Minishogi>(games, nodes, seed, &out),
    }
    out.into_inner()
        .map_err(|e| e.to_string())?
        .flush()
        .map_err(|e| e.to_string())
}

fn play_games<V: ShogiVariant>(
    games: usize,
    nodes: u64,
    seed: u64,
    out: &Mutex<BufWriter<std::fs::File>>,
) {
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                let mut engine = Engine::<ShogiPosition<V>>::new(16);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let mut random = ChaCha8Rng::seed_from_u64(
                        (seed << 32) ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9),
                    );
                    let (positions, result) = play_game::<V>(&mut engine, nodes, &mut random);
                    let mut out = out.lock().expect("no writer panics");
                    for (position, value) in positions {
                        // A failed write shows at the final flush.
                        let _ = match value {
                            Some(value) => {
                                writeln!(out, "{};{result};{value}", position.to_text())
                            }
                            None => writeln!(out, "{};{result}", position.to_text()),
                        };
                    }
                    if (index + 1) % 100 == 0 {
                        eprintln!(
                            "{} games in {:.0} s",
                            index + 1,
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
}

/// A position of a game and the search's value for Sente (unless a mate).
type Scored<V> = (ShogiPosition<V>, Option<Value>);

/// One self-play game: the positions after the random opening, each with
/// the search's value for Sente (unless a mate), and Sente's result.
fn play_game<V: ShogiVariant>(
    engine: &mut Engine<ShogiPosition<V>>,
    nodes: u64,
    random: &mut ChaCha8Rng,
) -> (Vec<Scored<V>>, f64) {
    engine.clear();
    let mut game = Game::new(ShogiPosition::<V>::start());
    let opening = random.random_range(4..=8);
    for _ in 0..opening {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[random.random_range(0..moves.len())];
        game.play(m).expect("legal moves play");
    }
    let mut kept = Vec::new();
    while game.outcome().is_none() && game.positions().len() < MAX_PLIES {
        let result = engine.search(
            game.positions(),
            &Limits::nodes(nodes),
            &SearchControl::default(),
            &mut |_| {},
        );
        let Some(m) = result.best_move else {
            break;
        };
        let value = match result.score {
            Score::Centipawns(value) if game.position().turn() == Color::Gote => Some(-value),
            Score::Centipawns(value) => Some(value),
            Score::MatePlies(_) => None,
        };
        kept.push((*game.position(), value));
        if game.play(m).is_err() {
            break;
        }
    }
    let result = match game.outcome().and_then(|outcome| outcome.winner) {
        Some(Color::Sente) => 1.0,
        Some(Color::Gote) => 0.0,
        None if game.outcome().is_some() || game.positions().len() >= MAX_PLIES => 0.5,
        // The side to move had no move to play: it lost.
        None => match game.position().turn() {
            Color::Sente => 0.0,
            Color::Gote => 1.0,
        },
    };
    (kept, result)
}

/// A quiet position, Sente's result, the search's value for Sente if
/// known, and what the fit aims at (the result, or a blend with the value).
struct Sample<V: ShogiVariant> {
    position: ShogiPosition<V>,
    result: f64,
    value: Option<Value>,
    target: f64,
}

fn fit(variant_name: &str, files: &[String]) -> Result<(), String> {
    match variant(variant_name)? {
        Variant::Spear => fit_variant::<Spear>(files),
        _ => fit_variant::<Minishogi>(files),
    }
}

fn load<V: ShogiVariant>(files: &[String]) -> Result<Vec<Sample<V>>, String> {
    let mut samples = Vec::new();
    let mut skipped = 0usize;
    for file in files {
        let reader = std::fs::File::open(file).map_err(|e| format!("{file}: {e}"))?;
        for line in std::io::BufReader::new(reader).lines() {
            let line = line.map_err(|e| format!("{file}: {e}"))?;
            let mut parts = line.split(';');
            let (Some(text), Some(result)) = (parts.next(), parts.next()) else {
                continue;
            };
            let value = parts.next().and_then(|value| value.parse().ok());
            let (Some(positions), Ok(result)) = (replay::<V>(text), result.parse()) else {
                continue;
            };
            for position in positions {
                if position.is_quiet() {
                    samples.push(Sample {
                        position,
                        result,
                        value,
                        target: result,
                    });
                } else {
                    skipped += 1;
                }
            }
        }
    }
    eprintln!(
        "{} quiet positions, {skipped} others skipped",
        samples.len()
    );
    Ok(samples)
}

/// The positions of one line: a position, or a USI `position` command
/// whose every position counts (as `koma convert --to usi` writes games).
fn replay<V: ShogiVariant>(text: &str) -> Option<Vec<ShogiPosition<V>>> {
    let Some(command) = text.strip_prefix("position ") else {
        return ShogiPosition::<V>::from_text(text).ok().map(|p| vec![p]);
    };
    let (setup, moves) = command.split_once(" moves ").unwrap_or((command, ""));
    let mut position = match setup.strip_prefix("sfen ") {
        Some(sfen) => ShogiPosition::<V>::from_text(sfen).ok()?,
        None => ShogiPosition::<V>::start(),
    };
    let mut positions = vec![position];
    for text in moves.split_whitespace() {
        let m = position.parse_move(text).ok()?;
        position.play_unchecked(m);
        positions.push(position);
    }
    Some(positions)
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

fn fit_variant<V: ShogiVariant>(files: &[String]) -> Result<(), String> {
    let (mut samples, held_out) = split_held_out(load::<V>(files)?);
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
