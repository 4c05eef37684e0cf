//! Single-threaded perft throughput for every game, and for shogi side by side
//! with the fastest shogi move generators on crates.io (haitaka, rsshogi),
//! each in its own fastest idiomatic form (bulk counting of the last ply, as
//! their own perft examples do). Run: `cargo bench -p koma-rules`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use koma_rules::{
    MinishogiPosition, PawnsPosition, Position, SpearPosition, StandardShogiPosition,
};
use std::time::Duration;

const SHOGI: [(&str, &str, u8, u64); 3] = [
    (
        "startpos",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        5,
        19_861_490,
    ),
    (
        "matsuri",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        3,
        4_809_015,
    ),
    (
        "max-moves",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        3,
        53_393_368,
    ),
];

fn koma_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("koma");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    fn add<P: Position>(
        group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        name: &str,
        depth: u32,
        nodes: u64,
    ) {
        let position = P::start();
        assert_eq!(position.perft(depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new(name, format!("perft {depth}")), |b| {
            b.iter(|| position.perft(depth))
        });
    }
    add::<SpearPosition>(&mut group, "spear", 6, 13_403_075);
    add::<MinishogiPosition>(&mut group, "minishogi", 6, 8_276_188);
    add::<PawnsPosition>(&mut group, "pawns", 6, 11_515_584);
    group.finish();
}

mod haitaka_perft {
    use haitaka::Board;

    pub fn perft(board: &Board, depth: u8) -> u64 {
        let mut nodes = 0;
        if depth == 1 {
            board.generate_board_moves(|moves| {
                nodes += moves.into_iter().len() as u64;
                false
            });
            board.generate_drops(|moves| {
                nodes += moves.into_iter().len() as u64;
                false
            });
            return nodes;
        }
        let mut visit = |moves: &mut dyn Iterator<Item = haitaka::Move>| {
            for m in moves {
                let mut next = board.clone();
                next.play_unchecked(m);
                nodes += perft(&next, depth - 1);
            }
        };
        board.generate_board_moves(|moves| {
            visit(&mut moves.into_iter());
            false
        });
        board.generate_drops(|moves| {
            visit(&mut moves.into_iter());
            false
        });
        nodes
    }
}

mod rsshogi_perft {
    use rsshogi::board::{
        generate_legal_all_move32, generate_legal_all_move32_into, Move32List, Move32Sink, Position,
    };
    use rsshogi::types::{Bitboard, Color, Move32, PieceType};

    /// Counts the last ply through rsshogi's sink without storing moves.
    struct Count(u64);

    impl Move32Sink for Count {
        #[inline(always)]
        fn push_move32(&mut self, _: Move32) {
            self.0 += 1;
        }
        fn retain_unordered<F: FnMut(Move32) -> bool>(&mut self, _: F) {
            unreachable!("legal generation does not filter afterwards")
        }
        #[inline(always)]
        fn push_drop_targets(&mut self, _: PieceType, targets: Bitboard, _: Color) {
            self.0 += u64::from(targets.count());
        }
    }

    pub fn perft(position: &mut Position, depth: u8, lists: &mut [Move32List]) -> u64 {
        if depth == 1 {
            let mut count = Count(0);
            generate_legal_all_move32_into(position, &mut count);
            return count.0;
        }
        let (list, rest) = lists.split_last_mut().expect("one list per ply");
        generate_legal_all_move32(position, list);
        let mut nodes = 0;
        for &m in list.iter() {
            position.apply_move32(m);
            nodes += perft(position, depth - 1, rest);
            // SAFETY: undoes the move applied just above, as rsshogi's own perft does.
            unsafe { position.undo_move32_unchecked(m) };
        }
        nodes
    }
}

fn shogi_libraries(c: &mut Criterion) {
    rsshogi::board::init();
    let mut group = c.benchmark_group("shogi");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6));
    for (name, sfen, depth, nodes) in SHOGI {
        group.throughput(Throughput::Elements(nodes));
        let koma = StandardShogiPosition::from_text(sfen).unwrap();
        assert_eq!(koma.perft(depth as u32), nodes);
        group.bench_function(BenchmarkId::new(format!("koma/{name}"), depth), |b| {
            b.iter(|| koma.perft(depth as u32))
        });

        let board = haitaka::Board::from_sfen(sfen).unwrap();
        assert_eq!(haitaka_perft::perft(&board, depth), nodes);
        group.bench_function(BenchmarkId::new(format!("haitaka/{name}"), depth), |b| {
            b.iter(|| haitaka_perft::perft(&board, depth))
        });

        let mut position = rsshogi::board::position_from_sfen(sfen).unwrap();
        position.init_stack();
        let mut lists: Vec<_> = (0..depth)
            .map(|_| rsshogi::board::Move32List::new())
            .collect();
        assert_eq!(
            rsshogi_perft::perft(&mut position, depth, &mut lists),
            nodes
        );
        group.bench_function(BenchmarkId::new(format!("rsshogi/{name}"), depth), |b| {
            b.iter(|| rsshogi_perft::perft(&mut position, depth, &mut lists))
        });
    }
    group.finish();
}

criterion_group!(benches, koma_games, shogi_libraries);
criterion_main!(benches);
