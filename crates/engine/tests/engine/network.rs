//! The search with a network: every accumulator it evaluates from equals
//! a refresh (checked inside the search in builds with debug assertions,
//! as the tests are), the network's values are what it plays by, a
//! network of another game is refused, and `use_nnue` off gives back the
//! classical search exactly.

use koma_engine::{Engine, Limits, Network, Score, SearchControl, SearchResult};
use koma_nnue::{Layout, HIDDEN};
use koma_rules::{
    MinishogiPosition, Position, ShogiPosition, ShogiVariant, SpearPosition, StandardShogiPosition,
    Variant,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn random_network<V: ShogiVariant>(seed: u64) -> Arc<Network> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let layout = Layout::of::<V>();
    let weights = (0..layout.inputs() * HIDDEN)
        .map(|_| rng.random_range(-40..=40))
        .collect();
    let bias = std::array::from_fn(|_| rng.random_range(0..=200));
    let out = std::array::from_fn(|_| rng.random_range(-300..=300));
    Arc::new(Network::from_parts(V::VARIANT, weights, bias, out, 0).unwrap())
}

fn search<V: ShogiVariant>(
    engine: &mut Engine<ShogiPosition<V>>,
    text: &str,
    limits: &Limits,
) -> SearchResult
where
    ShogiPosition<V>: koma_engine::Evaluate,
{
    let position = ShogiPosition::<V>::from_text(text).unwrap();
    engine.search(&[position], limits, &SearchControl::default(), &mut |_| {})
}

fn searches_with_a_network<V: ShogiVariant>(text: &str, seed: u64)
where
    ShogiPosition<V>: koma_engine::Evaluate,
{
    let mut engine = Engine::<ShogiPosition<V>>::new(16);
    engine.set_network(Some(random_network::<V>(seed))).unwrap();
    // Deep enough for king moves (refreshes), captures, drops and null
    // moves, each evaluation checked against a refresh.
    let result = search(&mut engine, text, &Limits::nodes(30_000));
    let position = ShogiPosition::<V>::from_text(text).unwrap();
    assert!(position.is_legal(result.best_move.unwrap()));
    assert!(result.nodes >= 30_000);
    // Two threads share the table and each keeps its own accumulators.
    engine.options.threads = 2;
    let result = search(
        &mut engine,
        text,
        &Limits::move_time(std::time::Duration::from_millis(300)),
    );
    assert!(position.is_legal(result.best_move.unwrap()));
}

#[test]
fn the_search_follows_its_accumulators_in_shogi() {
    searches_with_a_network::<koma_rules::Shogi>(
        "ln1g3nl/1r3kg2/p2ppsbpp/2ps1pp2/1p7/2P2PP2/PPSP3PP/1BG1G2R1/LN2K2NL b P 33",
        1,
    );
}

#[test]
fn the_search_follows_its_accumulators_in_minishogi() {
    searches_with_a_network::<koma_rules::Minishogi>("rbsgk/4p/5/P4/KGSBR b - 1", 2);
}

#[test]
fn the_search_follows_its_accumulators_in_spear() {
    searches_with_a_network::<koma_rules::Spear>(&SpearPosition::start().to_text(), 3);
}

#[test]
fn the_network_decides_the_static_value() {
    // A network that is only its output bias: every position is worth
    // +400 to the side to move, so a depth-1 search, whose leaves are all
    // the opponent's (two bare kings: no capture or check to go on with),
    // reports -400 whatever the move.
    let layout = Layout::for_variant(koma_rules::Variant::Minishogi).unwrap();
    let flat = Network::from_parts(
        koma_rules::Variant::Minishogi,
        vec![0; layout.inputs() * HIDDEN],
        [0; HIDDEN],
        [0; 2 * HIDDEN],
        koma_nnue::QA * koma_nnue::QB,
    )
    .unwrap();
    let mut engine = Engine::<MinishogiPosition>::new(16);
    engine.options.mate_solver = false;
    engine.set_network(Some(Arc::new(flat))).unwrap();
    let kings = "4k/5/5/5/K4 b - 1";
    let result = search(&mut engine, kings, &Limits::depth(1));
    assert_eq!(result.score, Score::Centipawns(-400));
    engine.options.use_nnue = false;
    let classical = search(&mut engine, kings, &Limits::depth(1));
    assert_ne!(classical.score, Score::Centipawns(-400));
}

#[test]
fn another_games_network_is_refused_and_use_nnue_off_is_the_classical_search() {
    let mut engine = Engine::<StandardShogiPosition>::new(16);
    let refused = engine.set_network(Some(random_network::<koma_rules::Spear>(4)));
    let refused = refused.unwrap_err();
    assert_eq!(
        (refused.network, refused.engine),
        (Variant::Spear, Variant::Shogi)
    );
    assert_eq!(refused.to_string(), "a network for spear, not for shogi");

    let text = StandardShogiPosition::start().to_text();
    let limits = Limits::nodes(20_000);
    let mut plain = Engine::<StandardShogiPosition>::new(16);
    plain.set_network(None).unwrap();
    let classical = search(&mut plain, &text, &limits);
    engine
        .set_network(Some(random_network::<koma_rules::Shogi>(5)))
        .unwrap();
    engine.options.use_nnue = false;
    let off = search(&mut engine, &text, &limits);
    assert_eq!(
        (off.best_move, off.score, off.nodes),
        (classical.best_move, classical.score, classical.nodes)
    );
}

#[test]
fn the_embedded_networks_read_and_belong_to_their_games() {
    for variant in koma_rules::Variant::ALL {
        if let Some(network) = koma_engine::networks::embedded(variant) {
            assert_eq!(network.variant(), variant);
        }
    }
    // Each is the file docs/strength/networks.md names, byte for byte.
    let sha256 = |variant| {
        use sha2::{Digest, Sha256};
        let bytes = koma_engine::networks::embedded_file(variant).unwrap();
        Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    assert_eq!(
        sha256(koma_rules::Variant::Minishogi),
        "378eb6567bf161691788cd8112e111ea1f1820de05638a45ba37d7b9ffc98f92"
    );
    assert_eq!(
        sha256(koma_rules::Variant::Shogi),
        "c9df53b5ee6987a3d16e17a8364f53d7c869fbdf1b38980202eece20388ecc5d"
    );
    assert_eq!(
        sha256(koma_rules::Variant::Spear),
        "4772256a6274eacd1bfc94f85670688e7931af2f098d17554f8cbda44c8f5079"
    );
    // The shogi games play with their networks by default.
    assert!(Engine::<MinishogiPosition>::new(1).network().is_some());
    assert!(Engine::<koma_rules::SpearPosition>::new(1)
        .network()
        .is_some());
    assert!(Engine::<koma_rules::StandardShogiPosition>::new(1)
        .network()
        .is_some());
    assert!(Engine::<koma_rules::PawnsPosition>::new(1)
        .network()
        .is_none());
}

#[test]
fn the_search_runs_a_network_with_hidden_layers() {
    // The first layer of a random network, a head of 8 hidden values and
    // one output: the search gives a legal move and a value of the head's.
    use koma_nnue::{Layer, QA, QB};
    let flat = random_network::<koma_rules::Shogi>(4);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let hidden = (0..2 * HIDDEN * 8)
        .map(|_| rng.random_range(-20..=20))
        .collect();
    let head = vec![
        Layer::new(2 * HIDDEN, hidden, vec![QA * QB / 2; 8]).unwrap(),
        Layer::new(
            8,
            (0..8).map(|_| rng.random_range(-900..=900)).collect(),
            vec![0],
        )
        .unwrap(),
    ];
    let network = Network::with_head(
        koma_rules::Variant::Shogi,
        flat.first_weights().to_vec(),
        *flat.first_biases(),
        head,
        (0..2 * HIDDEN)
            .map(|_| rng.random_range(-50..=50))
            .collect(),
    )
    .unwrap();
    assert_eq!(network.head_widths(), [8, 1]);
    let mut engine = Engine::<StandardShogiPosition>::new(16);
    engine.set_network(Some(Arc::new(network))).unwrap();
    let text = "ln1g3nl/1r3kg2/p2ppsbpp/2ps1pp2/1p7/2P2PP2/PPSP3PP/1BG1G2R1/LN2K2NL b P 33";
    let result = search(&mut engine, text, &Limits::nodes(20_000));
    let position = StandardShogiPosition::from_text(text).unwrap();
    assert!(position.is_legal(result.best_move.unwrap()));
    assert!(
        matches!(result.score, Score::Centipawns(v) if v.abs() < 5_000),
        "{:?}",
        result.score
    );
}
