//! The incremental accumulator against a full refresh, over random games
//! of every game with a network, and the network file's round trip.

use koma_nnue::{Accumulator, AccumulatorStack, Layer, Layout, Network, HIDDEN, QA, QB};
use koma_rules::{
    MinishogiPosition, MoveList, Position, ShogiPosition, ShogiVariant, SpearPosition,
    StandardShogiPosition,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A network of random numbers, large enough that any input left out or
/// counted twice changes the values.
fn random_network<V: ShogiVariant>(rng: &mut ChaCha8Rng) -> Network {
    let layout = Layout::of::<V>();
    let weights = (0..layout.inputs() * HIDDEN)
        .map(|_| rng.random_range(-300..=300))
        .collect();
    let bias = std::array::from_fn(|_| rng.random_range(-100..=100));
    let out = std::array::from_fn(|_| rng.random_range(-64..=64));
    Network::from_parts(V::VARIANT, weights, bias, out, 1234).unwrap()
}

/// A random network with two hidden layers in its head (16 and 32 wide),
/// its numbers of the sizes training gives, so that the hidden values
/// spread over `[0, 1]` rather than sit at an end.
fn random_layered_network<V: ShogiVariant>(rng: &mut ChaCha8Rng) -> Network {
    let layout = Layout::of::<V>();
    let weights = (0..layout.inputs() * HIDDEN)
        .map(|_| rng.random_range(-30..=30))
        .collect();
    let bias = std::array::from_fn(|_| rng.random_range(0..=200));
    let mut head = Vec::new();
    let mut inputs = 2 * HIDDEN;
    for (outputs, spread) in [(16, 60), (32, 300), (1, 2000)] {
        let weights = (0..inputs * outputs)
            .map(|_| rng.random_range(-spread..=spread))
            .collect();
        let biases = (0..outputs)
            .map(|_| rng.random_range(-QA * QB / 4..=QA * QB / 2))
            .collect();
        head.push(Layer::new(inputs, weights, biases).unwrap());
        inputs = outputs;
    }
    let skip = (0..2 * HIDDEN)
        .map(|_| rng.random_range(-40..=40))
        .collect();
    Network::with_head(V::VARIANT, weights, bias, head, skip).unwrap()
}

/// Plays `games` random games, following each with the accumulator and
/// checking it against a refresh after every move; returns the moves made.
fn follow_random_games<V: ShogiVariant>(network: &Network, seed: u64, games: usize) -> usize
where
    ShogiPosition<V>: Position,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves_made = 0;
    for _ in 0..games {
        let mut position = ShogiPosition::<V>::start();
        let mut accumulator = Accumulator::of(network, &position);
        for _ in 0..300 {
            let mut moves = MoveList::new();
            position.legal_moves_into(&mut moves);
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            let updates = network.layout().changes(&position, m);
            position.play_unchecked(m);
            let mut next = Accumulator::default();
            next.update_from(&accumulator, network, &position, &updates);
            let fresh = Accumulator::of(network, &position);
            assert_eq!(next, fresh, "after {m:?} in {}", position.to_text());
            assert_eq!(
                next.evaluate(network, position.turn()),
                fresh.evaluate(network, position.turn())
            );
            accumulator = next;
            moves_made += 1;
        }
    }
    moves_made
}

fn incremental_equals_refresh<V: ShogiVariant>(seed: u64)
where
    ShogiPosition<V>: Position,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let network = random_network::<V>(&mut rng);
    let made = follow_random_games::<V>(&network, seed, 60);
    assert!(made > 1000, "only {made} moves were made");
    // The plain loops, too, where the AVX2 ones were used above.
    follow_random_games::<V>(&network.without_simd(), seed + 1, 10);
}

#[test]
fn incremental_equals_refresh_in_shogi() {
    incremental_equals_refresh::<koma_rules::Shogi>(1);
}

#[test]
fn incremental_equals_refresh_in_minishogi() {
    incremental_equals_refresh::<koma_rules::Minishogi>(2);
}

#[test]
fn incremental_equals_refresh_in_spear() {
    incremental_equals_refresh::<koma_rules::Spear>(3);
}

/// Walks random lines as a search does: down a move (or a null move) at
/// a time, evaluating some plies and not others, back up to a random ply
/// and down another line; every evaluation is checked against a refresh.
/// Returns how many evaluations were checked.
fn stack_follows_a_search<V: ShogiVariant>(seed: u64) -> usize
where
    ShogiPosition<V>: Position,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let network = random_network::<V>(&mut rng);
    let mut stack = AccumulatorStack::new(40);
    let root = ShogiPosition::<V>::start();
    stack.set_root(&network, &root);
    let mut line = vec![root];
    let mut checked = 0;
    for _ in 0..3000 {
        let ply = line.len() - 1;
        let position = line[ply];
        let mut moves = MoveList::new();
        position.legal_moves_into(&mut moves);
        let down = ply < 30 && !moves.is_empty() && position.outcome().is_none();
        if !down || rng.random_range(0..6) == 0 {
            // Back up to a random ply of the line, as a search returns.
            line.truncate(rng.random_range(1..=line.len()));
            continue;
        }
        let mut child = position;
        if rng.random_range(0..12) == 0 && !position.is_check() {
            child.set_turn(!position.turn());
            child.refresh();
            stack.push_null_move(ply);
        } else {
            let m = moves[rng.random_range(0..moves.len())];
            child.play_unchecked(m);
            stack.push_move(&network, ply, &position, m, &child);
        }
        line.push(child);
        if rng.random_range(0..3) == 0 {
            let child = &line[ply + 1];
            let fresh = Accumulator::of(&network, child);
            assert_eq!(
                *stack.accumulator(&network, ply + 1),
                fresh,
                "at ply {}",
                ply + 1
            );
            assert_eq!(
                stack.evaluate(&network, ply + 1, child.turn()),
                fresh.evaluate(&network, child.turn())
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_stack_brings_each_ply_up_to_date_when_asked() {
    assert!(stack_follows_a_search::<koma_rules::Shogi>(11) > 300);
    assert!(stack_follows_a_search::<koma_rules::Minishogi>(12) > 300);
    assert!(stack_follows_a_search::<koma_rules::Spear>(13) > 300);
}

#[test]
fn avx2_and_plain_loops_give_the_same_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let positions = [
        "ln1g3nl/1r3kg2/p2ppsbpp/2ps1pp2/1p7/2P2PP2/PPSP3PP/1BG1G2R1/LN2K2NL b P 33",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lng5l/1r3k3/pbppssngp/1p2Pp3/7p1/P3SP2P/1PBPG1RP1/1SG6/LNK5L w 2Pn2p 54",
    ];
    for network in [
        random_network::<koma_rules::Shogi>(&mut rng),
        random_layered_network::<koma_rules::Shogi>(&mut rng),
    ] {
        let plain = network.clone().without_simd();
        let mut values = Vec::new();
        for text in positions {
            let position = StandardShogiPosition::from_text(text).unwrap();
            let a = Accumulator::of(&network, &position);
            let b = Accumulator::of(&plain, &position);
            assert_eq!(a, b);
            let value = a.evaluate(&network, position.turn());
            assert_eq!(value, b.evaluate(&plain, position.turn()));
            values.push(value);
        }
        // The values differ from position to position: the head is not
        // stuck at a clipped end.
        values.dedup();
        assert_eq!(values.len(), positions.len(), "{values:?}");
    }
}

#[test]
fn mirrored_positions_have_the_same_value() {
    // The rules are the same left and right, and so is each view: a
    // position and its mirror image get the same value (while no king
    // stands on the centre file, whose view is never mirrored).
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let network = random_network::<koma_rules::Shogi>(&mut rng);
    let position = StandardShogiPosition::from_text(
        "lnsg1gsnl/1r3k1b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B1K3R1/LNSG1GSNL b - 5",
    )
    .unwrap();
    let mirror = StandardShogiPosition::from_text(
        "lnsg1gsnl/1b1k3r1/pp1pppppp/2p6/9/6P2/PPPPPP1PP/1R3K1B1/LNSG1GSNL b - 5",
    )
    .unwrap();
    let value =
        |p: &StandardShogiPosition| Accumulator::of(&network, p).evaluate(&network, p.turn());
    assert_eq!(value(&position), value(&mirror));
}

/// A minishogi network's file, checked to read back as the same bytes
/// and the same value.
fn reads_back(network: &Network) -> Vec<u8> {
    let bytes = network.to_bytes();
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let position = MinishogiPosition::start();
    assert_eq!(
        Accumulator::of(&back, &position).evaluate(&back, position.turn()),
        Accumulator::of(network, &position).evaluate(network, position.turn())
    );
    bytes
}

#[test]
fn a_network_file_reads_back_and_a_damaged_one_is_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let network = random_network::<koma_rules::Minishogi>(&mut rng);
    let bytes = reads_back(&network);

    let cut = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(cut.0.contains("ends in its head's biases"), "{cut}");
    let mut long = bytes.clone();
    long.push(0);
    assert!(Network::from_bytes(&long)
        .unwrap_err()
        .0
        .contains("past its end"));
    assert!(Network::from_bytes(b"hello")
        .unwrap_err()
        .0
        .contains("ends in its header"));
    assert!(Network::from_bytes(b"NOTANNUE0000")
        .unwrap_err()
        .0
        .contains("not a Koma network"));
    // A minishogi network is not a Spear one: the game name says which,
    // and a Spear header over minishogi's numbers has the wrong shape.
    let mut other = bytes.clone();
    other[13..22].copy_from_slice(b"spear\0\0\0\0");
    assert!(Network::from_bytes(&other).is_err());
    let spear = random_network::<koma_rules::Spear>(&mut rng);
    let _ = SpearPosition::start();
    assert_ne!(spear.layout().inputs(), 0);
}

#[test]
fn a_network_with_hidden_layers_reads_back_and_a_bad_head_is_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let network = random_layered_network::<koma_rules::Minishogi>(&mut rng);
    assert_eq!(network.head_widths(), [16, 32, 1]);
    let bytes = reads_back(&network);
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "version 2");
    // The head's widths follow the scales: "minishogi" (9 bytes) ends at
    // byte 22, then HIDDEN, inputs and three scales, then the head.
    let head_at = 22 + 4 * 5;
    assert_eq!(&bytes[head_at..head_at + 4], &3u32.to_le_bytes());
    let with = |at: usize, value: u32| {
        let mut changed = bytes.clone();
        changed[at..at + 4].copy_from_slice(&value.to_le_bytes());
        Network::from_bytes(&changed).unwrap_err().0
    };
    assert!(with(head_at, 0).contains("has 0 layers"));
    assert!(with(head_at, 9).contains("has 9 layers"));
    assert!(with(head_at + 4, 100_000).contains("100000 outputs"));
    assert!(with(head_at + 12, 2).contains("does not end in one output"));
    // A wider first hidden layer asks for more numbers than the file has.
    assert!(with(head_at + 4, 17).contains("ends in its"));
    let cut = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(cut.0.contains("ends in its skip's weights"), "{cut}");
    let mut version = bytes.clone();
    version[8..12].copy_from_slice(&3u32.to_le_bytes());
    assert!(Network::from_bytes(&version)
        .unwrap_err()
        .0
        .contains("version 3"));
}
