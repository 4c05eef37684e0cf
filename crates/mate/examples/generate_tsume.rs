//! Makes mate problems for the test suite (`tests/mate/data/tsume.txt`): random
//! tsume-like positions, and longer ones grown from them by hill climbing,
//! each solved by Koma's solver. The suite's answers were then checked
//! against an established solver with `koma mate --suite … --against …`.
//!
//! ```text
//! cargo run --release -p koma-mate --example generate_tsume -- random SEED COUNT
//! cargo run --release -p koma-mate --example generate_tsume -- climb SEED CHAINS STEPS
//! cargo run --release -p koma-mate --example generate_tsume -- grow FILE SEED STEPS NODES
//! cargo run --release -p koma-mate --example generate_tsume -- extend FILE NODES
//! cargo run --release -p koma-mate --example generate_tsume -- tag FILE
//! ```
//!
//! `extend` works backwards from the longest mates of a suite file: it
//! takes two plies back in every way it can (the king came from each
//! square beside it, perhaps capturing a sente piece there; the checking
//! piece came from each square it could have, or from sente's hand), and
//! keeps each position whose shortest mate is two plies longer, always
//! going on from the longest. It prints every one it keeps and runs until
//! stopped; its output is a suite file to resume from.
//!
//! `tag` solves a suite file's mates again and writes the file back out,
//! each mate tagged `uchifuzume` when its line steps round an illegal
//! pawn-drop mate.
//!
//! `grow` goes on climbing from the longest mates of a suite file (such as
//! what `climb` printed), a few steps downhill allowed, with `NODES` nodes
//! a step: long mates need more than a climb's first steps.
//!
//! Each line printed is a suite line: `SFEN<TAB>mate N` or `SFEN<TAB>nomate`,
//! then the nodes the solve took (the suite's reader ignores what follows
//! the answer). A problem is a gote king in its camp, a few pieces of each
//! side near it, a few pieces in sente's hand, and every other piece in
//! gote's hand (as "残り全部" gives them).

use koma_mate::suite::{meets_uchifuzume, parse_suite, Expected};
use koma_mate::{MateAnswer, MateLimits, MateReport, Solver};
use koma_rules::{
    between, parse_sfen, write_sfen, Color, Move, Piece, Role, Shogi, ShogiVariant, Square,
    StandardShogiPosition,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// The most nodes a generated problem may take: the suite stays quick.
const NODE_LIMIT: u64 = 300_000;
/// The most nodes a step of a climb may take: most steps lead nowhere.
const CLIMB_NODE_LIMIT: u64 = 60_000;

/// The roles a problem's pieces are drawn from: those a shogi hand holds
/// (every one but the king, unpromoted).
const ROLES: &[Role] = <Shogi as ShogiVariant>::SPEC.hand_roles;
/// How many [`ROLES`] there are.
const SET: usize = ROLES.len();

/// How many of each of [`ROLES`] a shogi set has, counted on the rules'
/// start position.
fn full_set() -> [(Role, u8); SET] {
    let start = StandardShogiPosition::start();
    std::array::from_fn(|index| {
        let role = ROLES[index];
        (role, start.by_role(role).count() as u8)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| usage())
    };
    let mut solver = Solver::new(256);
    match args.first().map(String::as_str) {
        Some("random") => random(&mut solver, number(1), number(2)),
        Some("climb") => climb(&mut solver, number(1), number(2), number(3)),
        Some("grow") => {
            let file = args.get(1).unwrap_or_else(|| usage());
            grow(&mut solver, &read(file), number(2), number(3), number(4))
        }
        Some("extend") => {
            let file = args.get(1).unwrap_or_else(|| usage());
            extend(&mut solver, &read(file), number(2))
        }
        Some("tag") => {
            let file = args.get(1).unwrap_or_else(|| usage());
            tag(&mut solver, &read(file))
        }
        _ => usage(),
    }
}

fn read(file: &str) -> String {
    std::fs::read_to_string(file).unwrap_or_else(|error| {
        eprintln!("generate_tsume: {file}: {error}");
        std::process::exit(1)
    })
}

fn usage() -> ! {
    eprintln!(
        "usage: generate_tsume random SEED COUNT | climb SEED CHAINS STEPS | grow FILE SEED STEPS NODES | extend FILE NODES | tag FILE"
    );
    std::process::exit(2)
}

/// `count` random problems, solved; the unknown ones left out.
fn random(solver: &mut Solver, seed: u64, count: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut printed = 0;
    while printed < count {
        let problem = random_problem(&mut rng);
        let report = solve(solver, &problem, NODE_LIMIT);
        if print(&problem, &report) {
            printed += 1;
        }
    }
}

/// `chains` climbs of `steps` mutations each: a mutation is kept when the
/// problem still mates at least as long; every new longest is printed.
fn climb(solver: &mut Solver, seed: u64, chains: u64, steps: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    for _ in 0..chains {
        let (mut problem, mut length) = loop {
            let problem = random_problem(&mut rng);
            if let (MateAnswer::Mate(_), n) = answer(solver, &problem) {
                break (problem, n);
            }
        };
        for _ in 0..steps {
            let Some(next) = mutate(&mut rng, &problem) else {
                continue;
            };
            let report = solve(solver, &next, CLIMB_NODE_LIMIT);
            if !matches!(report.answer, MateAnswer::Mate(_)) || report.length < length {
                continue;
            }
            if report.length > length && seen.insert(next.board_hash()) {
                print(&next, &report);
            }
            problem = next;
            length = report.length;
        }
    }
}

/// How many of a file's longest mates `grow` starts from, in turn.
const GROW_SEEDS: usize = 12;
/// How many plies shorter than the best a growing problem may fall.
const GROW_SLACK: u16 = 2;

/// Climbs `steps` steps in all from the longest mates of `text`, taking
/// them in turn, a thousand steps each. A change is kept when the problem
/// still mates at most [`GROW_SLACK`] plies shorter than the longest of the
/// climb (and, when shorter, one time in eight); each new longest is
/// printed.
fn grow(solver: &mut Solver, text: &str, seed: u64, steps: u64, nodes: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seeds = mates_of(text);
    seeds.truncate(GROW_SEEDS);
    if seeds.is_empty() {
        eprintln!("generate_tsume: no mates to grow from");
        std::process::exit(1)
    }
    let mut seen = HashSet::new();
    let chain_steps = 1000;
    for chain in 0..steps.div_ceil(chain_steps) {
        let (mut best, mut problem) = seeds[chain as usize % seeds.len()];
        let mut length = best;
        for _ in 0..chain_steps {
            let next = if rng.random_ratio(1, 3) {
                retract(&mut rng, &problem)
            } else {
                mutate(&mut rng, &problem)
            };
            let Some(next) = next else {
                continue;
            };
            let report = solve(solver, &next, nodes);
            if !matches!(report.answer, MateAnswer::Mate(_))
                || report.length + GROW_SLACK < best
                || (report.length < length && !rng.random_ratio(1, 8))
            {
                continue;
            }
            if report.length > best && seen.insert(next.board_hash()) && print(&next, &report) {
                best = report.length;
            }
            problem = next;
            length = report.length;
        }
    }
}

/// The nodes of the quick solve that throws out most retractions: one
/// that mates sooner, or not at all, usually shows it at once.
const QUICK_NODES: u64 = 20_000;

/// The shortest mates `extend` starts from.
const EXTEND_FROM: u16 = 15;

/// A suite file's mates, longest first (the suite's own reader); exits
/// with a message on a line it cannot read.
fn mates_of(text: &str) -> Vec<(u16, StandardShogiPosition)> {
    let problems = parse_suite(text).unwrap_or_else(|error| {
        eprintln!("generate_tsume: {error}");
        std::process::exit(1)
    });
    let mut mates: Vec<(u16, StandardShogiPosition)> = problems
        .into_iter()
        .filter_map(|problem| match problem.expected {
            Expected::Mate(length) => Some((length, parse_sfen(&problem.sfen).ok()?)),
            Expected::NoMate => None,
        })
        .collect();
    mates.sort_by_key(|&(length, _)| std::cmp::Reverse(length));
    mates
}

/// Works backwards from the longest mates of `text` (see the module's
/// documentation), with `nodes` nodes for each solve that the quick one
/// leaves open.
fn extend(solver: &mut Solver, text: &str, nodes: u64) {
    let mut frontier: std::collections::BinaryHeap<(u16, u64, String)> = mates_of(text)
        .into_iter()
        .take_while(|&(length, _)| length >= EXTEND_FROM)
        .map(|(length, position)| (length, 0, write_sfen(&position)))
        .collect();
    let mut seen = HashSet::new();
    while let Some((length, _, sfen)) = frontier.pop() {
        let Ok(problem) = parse_sfen::<Shogi>(&sfen) else {
            continue;
        };
        eprintln!(
            "extend: from a mate in {length} ({} waiting)",
            frontier.len()
        );
        for earlier in retractions(&problem) {
            if !seen.insert(earlier.board_hash()) {
                continue;
            }
            let quick = solve(solver, &earlier, QUICK_NODES);
            let shorter = match quick.answer {
                MateAnswer::NoMate => true,
                MateAnswer::Mate(_) => quick.length < length + 2,
                MateAnswer::Unknown => false,
            };
            if shorter {
                continue;
            }
            let report = if quick.shortest && matches!(quick.answer, MateAnswer::Mate(_)) {
                quick
            } else {
                solve(solver, &earlier, nodes)
            };
            if matches!(report.answer, MateAnswer::Mate(_))
                && report.shortest
                && report.length >= length + 2
                && print(&earlier, &report)
            {
                frontier.push((report.length, report.nodes, write_sfen(&earlier)));
            }
        }
    }
}

/// Every position two plies before `problem`: gote's king came from an
/// empty square beside it (having captured a sente piece of its hand's
/// roles where it stands, or nothing), after a sente move that checked it.
/// That move was the checker's, from a square it could have moved from
/// (promoting on the way where it could have, capturing a gote piece of
/// sente's hand's roles or nothing) or from sente's hand; or another sente
/// piece's, that stepped out of the checker's line (a discovered check).
/// Only positions the rules allow, with sente holding at most
/// [`MOST_HELD`] pieces.
fn retractions(problem: &StandardShogiPosition) -> Vec<StandardShogiPosition> {
    let mut found = Vec::new();
    let Some(king) = problem.king(Color::Gote) else {
        return found;
    };
    for (file, rank) in (-1..=1).flat_map(|f| (-1..=1).map(move |r| (f, r))) {
        let Some(before) = king.offset(file, rank) else {
            continue;
        };
        if (file, rank) == (0, 0) || problem.piece_at(before).is_some() {
            continue;
        }
        for captured in held_roles(problem, Color::Gote) {
            let mut moved = *problem;
            let piece = moved.take(king).expect("the king");
            moved.put(before, piece);
            if let Some(role) = captured {
                let held = moved.hand(Color::Gote).count(role.unpromoted());
                moved.set_hand_count(Color::Gote, role.unpromoted(), held - 1);
                moved.put(king, Piece::new(Color::Sente, role));
            }
            moved.set_turn(Color::Gote);
            moved.refresh();
            let checkers: Vec<Square> = moved.checkers().into_iter().collect();
            for &checked_from in &checkers {
                retract_checker(&moved, checked_from, &mut found);
                retract_discovery(&moved, checked_from, before, &mut found);
            }
        }
    }
    found
}

/// `None` (nothing), then each role `color` holds, unpromoted and
/// promoted: what a piece taken back onto the board may be.
fn held_roles(position: &StandardShogiPosition, color: Color) -> Vec<Option<Role>> {
    let mut roles = vec![None];
    for &role in ROLES {
        if position.hand(color).count(role) > 0 {
            roles.push(Some(role));
            roles.extend(role.promoted().map(Some));
        }
    }
    roles
}

/// Whether a move between these squares may promote.
fn may_promote(from: Square, to: Square) -> bool {
    from.rank() < 3 || to.rank() < 3
}

/// Takes back the move of the sente piece on `checked_from` in `moved`:
/// a drop, or a move from each square it could have come from.
fn retract_checker(
    moved: &StandardShogiPosition,
    checked_from: Square,
    found: &mut Vec<StandardShogiPosition>,
) {
    let mut position = *moved;
    let checker = position.take(checked_from).expect("a checker");
    if !checker.role.is_promoted() {
        let mut dropped = position;
        let held = dropped.hand(Color::Sente).count(checker.role);
        dropped.set_hand_count(Color::Sente, checker.role, held + 1);
        found.extend(legal_before(dropped));
    }
    let mut roles = vec![checker.role];
    if checker.role.is_promoted() {
        roles.push(checker.role.unpromoted());
    }
    for role in roles {
        let promoted_on_the_way = role != checker.role;
        // Where a sente piece could have come from is where a gote piece
        // of that role on the target would go.
        let origins = position.attacks_from(role, Color::Gote, checked_from) & !position.occupied();
        for origin in origins {
            if promoted_on_the_way && !may_promote(origin, checked_from) {
                continue;
            }
            for captured in held_roles(&position, Color::Sente) {
                let mut earlier = position;
                earlier.put(origin, Piece::new(Color::Sente, role));
                if let Some(taken) = captured {
                    let held = earlier.hand(Color::Sente).count(taken.unpromoted());
                    earlier.set_hand_count(Color::Sente, taken.unpromoted(), held - 1);
                    earlier.put(checked_from, Piece::new(Color::Gote, taken));
                }
                found.extend(legal_before(earlier));
            }
        }
    }
}

/// Takes back a sente move that uncovered the check of the ranged piece
/// on `checked_from` against the king on `king`: a sente piece that could
/// have stood on the line between them goes back there.
fn retract_discovery(
    moved: &StandardShogiPosition,
    checked_from: Square,
    king: Square,
    found: &mut Vec<StandardShogiPosition>,
) {
    for blocker in between(checked_from, king) {
        for mover in moved.by_color(Color::Sente) {
            let Some(piece) = moved.piece_at(mover) else {
                continue;
            };
            if mover == checked_from || piece.role == Role::King {
                continue;
            }
            let mut roles = vec![piece.role];
            if piece.role.is_promoted() && may_promote(blocker, mover) {
                roles.push(piece.role.unpromoted());
            }
            for role in roles {
                let mut position = *moved;
                position.take(mover);
                if !position
                    .attacks_from(role, Color::Sente, blocker)
                    .contains(mover)
                {
                    continue;
                }
                position.put(blocker, Piece::new(Color::Sente, role));
                found.extend(legal_before(position));
            }
        }
    }
}

/// `position` with sente to move, if the rules allow it and sente holds
/// at most [`MOST_HELD`] pieces.
fn legal_before(mut position: StandardShogiPosition) -> Option<StandardShogiPosition> {
    position.set_turn(Color::Sente);
    position.refresh();
    let earlier = parse_sfen(&write_sfen(&position)).ok()?;
    holds_few(&earlier).then_some(earlier)
}

/// Prints `text` back, each mate's answer tagged again (see
/// [`print`]); other lines as they are.
fn tag(solver: &mut Solver, text: &str) {
    for line in text.lines() {
        let mut fields = line.split('\t');
        let sfen = fields.next().unwrap_or_default();
        let answer = fields.next().unwrap_or_default();
        match parse_sfen(sfen) {
            Ok(problem) if answer.starts_with("mate ") => {
                let report = solve(solver, &problem, u64::MAX);
                let MateAnswer::Mate(line) = &report.answer else {
                    eprintln!("generate_tsume: {sfen}: no mate found");
                    std::process::exit(1)
                };
                let rest: Vec<&str> = fields.collect();
                let tag = uchifuzume_tag(&problem, line);
                println!("{sfen}\tmate {}{tag}\t{}", report.length, rest.join("\t"));
            }
            _ => println!("{line}"),
        }
    }
}

fn solve(solver: &mut Solver, problem: &StandardShogiPosition, nodes: u64) -> MateReport {
    solver.clear();
    let limits = MateLimits {
        nodes: Some(nodes),
        ..MateLimits::default()
    };
    solver.solve(problem, &limits, None, None)
}

fn answer(solver: &mut Solver, problem: &StandardShogiPosition) -> (MateAnswer, u16) {
    let report = solve(solver, problem, CLIMB_NODE_LIMIT);
    (report.answer, report.length)
}

/// What follows a mate's length on its suite line: ` uchifuzume` when
/// its `line` steps round an illegal pawn-drop mate.
fn uchifuzume_tag(problem: &StandardShogiPosition, line: &[Move]) -> &'static str {
    if meets_uchifuzume(problem, line) {
        " uchifuzume"
    } else {
        ""
    }
}

/// Prints a solved problem as a suite line; false for an unknown one.
fn print(problem: &StandardShogiPosition, report: &MateReport) -> bool {
    let sfen = write_sfen(problem);
    match report.answer {
        MateAnswer::Mate(ref line) if report.shortest => {
            let tag = uchifuzume_tag(problem, line);
            println!("{sfen}\tmate {}{tag}\t{}", report.length, report.nodes)
        }
        MateAnswer::NoMate => println!("{sfen}\tnomate\t{}", report.nodes),
        _ => return false,
    }
    true
}

/// A gote king on one of the three top ranks, one to five sente pieces
/// within three squares of it, up to four gote pieces within two, up to
/// three pieces in sente's hand, the rest in gote's.
fn random_problem(rng: &mut ChaCha8Rng) -> StandardShogiPosition {
    loop {
        let mut position = StandardShogiPosition::empty();
        let king = Square::from_coords(rng.random_range(0..9), rng.random_range(0..3))
            .expect("on the board");
        position.put(king, Piece::new(Color::Gote, Role::King));
        let mut stock = full_set();
        for _ in 0..rng.random_range(1..=5) {
            place_near(rng, &mut position, &mut stock, Color::Sente, king, 3);
        }
        for _ in 0..rng.random_range(0..=4) {
            place_near(rng, &mut position, &mut stock, Color::Gote, king, 2);
        }
        let mut sente_hand = [0u8; SET];
        for _ in 0..rng.random_range(0..=3) {
            if let Some(index) = draw(rng, &mut stock) {
                sente_hand[index] += 1;
            }
        }
        if let Some(problem) = assemble(position, &sente_hand, &stock) {
            return problem;
        }
    }
}

/// Puts a random piece of `stock` for `color` on an empty square within
/// `reach` of `king`, promoted one time in four.
fn place_near(
    rng: &mut ChaCha8Rng,
    position: &mut StandardShogiPosition,
    stock: &mut [(Role, u8); SET],
    color: Color,
    king: Square,
    reach: i8,
) {
    let Some(square) = king.offset(
        rng.random_range(-reach..=reach),
        rng.random_range(0..=reach),
    ) else {
        return;
    };
    if position.piece_at(square).is_some() {
        return;
    }
    let Some(index) = draw(rng, stock) else {
        return;
    };
    let role = ROLES[index];
    let role = match role.promoted() {
        Some(promoted) if rng.random_ratio(1, 4) => promoted,
        _ => role,
    };
    position.put(square, Piece::new(color, role));
}

/// Takes a random piece out of `stock`, weighted by what is left; its
/// index in [`ROLES`].
fn draw(rng: &mut ChaCha8Rng, stock: &mut [(Role, u8); SET]) -> Option<usize> {
    let total: u32 = stock.iter().map(|&(_, n)| n as u32).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    for (index, (_, n)) in stock.iter_mut().enumerate() {
        if pick < *n as u32 {
            *n -= 1;
            return Some(index);
        }
        pick -= *n as u32;
    }
    None
}

/// The problem with these hands, sente to move; `None` if the rules do not
/// allow it (a dead piece, two pawns on a file, gote in check).
fn assemble(
    mut position: StandardShogiPosition,
    sente_hand: &[u8; SET],
    gote_hand: &[(Role, u8); SET],
) -> Option<StandardShogiPosition> {
    for (index, &role) in ROLES.iter().enumerate() {
        position.set_hand_count(Color::Sente, role, sente_hand[index]);
        position.set_hand_count(Color::Gote, role, gote_hand[index].1);
    }
    position.set_turn(Color::Sente);
    position.refresh();
    parse_sfen(&write_sfen(&position)).ok()
}

/// Two plies taken back, which may make the mate two plies longer:
/// gote's king steps back to a square beside it, where a sente piece
/// checks it; that piece goes back to a square it came from (promoting on
/// the way, one time in two when it could have), or to sente's hand.
fn retract(rng: &mut ChaCha8Rng, problem: &StandardShogiPosition) -> Option<StandardShogiPosition> {
    let mut position = *problem;
    let king = position.king(Color::Gote)?;
    let before = king.offset(rng.random_range(-1..=1), rng.random_range(-1..=1))?;
    if position.piece_at(before).is_some() {
        return None;
    }
    let piece = position.take(king)?;
    position.put(before, piece);
    position.set_turn(Color::Gote);
    position.refresh();
    let checkers: Vec<Square> = position.checkers().into_iter().collect();
    let checked_from = *checkers.get(rng.random_range(0..checkers.len().max(1)))?;
    let checker = position.take(checked_from)?;
    let zone = |square: Square| square.rank() < 3;
    let dropped = !checker.role.is_promoted() && rng.random_ratio(1, 3);
    if dropped {
        let held = position.hand(Color::Sente).count(checker.role);
        position.set_hand_count(Color::Sente, checker.role, held + 1);
    } else {
        let promoted_on_the_way = checker.role.is_promoted() && rng.random_bool(0.5);
        let role = if promoted_on_the_way {
            checker.role.unpromoted()
        } else {
            checker.role
        };
        // Where a sente piece could have come from is where a gote piece
        // of that role on the target would go.
        let origins: Vec<Square> = (position.attacks_from(role, Color::Gote, checked_from)
            & !position.occupied())
        .into_iter()
        .filter(|&origin| !promoted_on_the_way || zone(origin) || zone(checked_from))
        .collect();
        let origin = *origins.get(rng.random_range(0..origins.len().max(1)))?;
        position.put(origin, Piece::new(Color::Sente, role));
    }
    position.set_turn(Color::Sente);
    position.refresh();
    let retracted = parse_sfen(&write_sfen(&position)).ok()?;
    holds_few(&retracted).then_some(retracted)
}

/// The most pieces sente may hold: more makes dull problems.
const MOST_HELD: u8 = 5;

/// Whether sente holds at most [`MOST_HELD`] pieces.
fn holds_few(problem: &StandardShogiPosition) -> bool {
    let hand = problem.hand(Color::Sente);
    ROLES.iter().map(|&role| hand.count(role)).sum::<u8>() <= MOST_HELD
}

/// One random change: a piece moved, added from gote's hand, taken off to
/// gote's hand, moved between the board and sente's hand, promoted or
/// demoted, or the king moved a square.
fn mutate(rng: &mut ChaCha8Rng, problem: &StandardShogiPosition) -> Option<StandardShogiPosition> {
    let mut position = *problem;
    let king = position.king(Color::Gote)?;
    let mut stock = full_set();
    let mut sente_hand = [0u8; SET];
    for (index, &role) in ROLES.iter().enumerate() {
        stock[index].1 = position.hand(Color::Gote).count(role);
        sente_hand[index] = position.hand(Color::Sente).count(role);
    }
    let pieces: Vec<Square> = (position.occupied() & !position.pieces(Color::Gote, Role::King))
        .into_iter()
        .collect();
    let near =
        |rng: &mut ChaCha8Rng| king.offset(rng.random_range(-3..=3), rng.random_range(-2..=3));
    let set_index = |role: Role| ROLES.iter().position(|&r| r == role.unpromoted());
    match rng.random_range(0..7) {
        0 if !pieces.is_empty() => {
            let from = pieces[rng.random_range(0..pieces.len())];
            let to = near(rng)?;
            if position.piece_at(to).is_some() {
                return None;
            }
            let piece = position.take(from)?;
            position.put(to, piece);
        }
        1 => {
            let color = if rng.random_bool(0.6) {
                Color::Sente
            } else {
                Color::Gote
            };
            place_near(rng, &mut position, &mut stock, color, king, 3);
        }
        2 if !pieces.is_empty() => {
            let piece = position.take(pieces[rng.random_range(0..pieces.len())])?;
            stock[set_index(piece.role)?].1 += 1;
        }
        3 if !pieces.is_empty() => {
            let square = pieces[rng.random_range(0..pieces.len())];
            let piece = position.piece_at(square)?;
            if piece.color == Color::Sente {
                position.take(square);
                sente_hand[set_index(piece.role)?] += 1;
            }
        }
        4 => {
            let index = draw(rng, &mut stock)?;
            sente_hand[index] += 1;
        }
        5 if !pieces.is_empty() => {
            let square = pieces[rng.random_range(0..pieces.len())];
            let piece = position.take(square)?;
            let role = if piece.role.is_promoted() {
                piece.role.unpromoted()
            } else {
                piece.role.promoted()?
            };
            position.put(square, Piece::new(piece.color, role));
        }
        6 => {
            let to = king.offset(rng.random_range(-1..=1), rng.random_range(-1..=1))?;
            if position.piece_at(to).is_some() || to.rank() > 3 {
                return None;
            }
            let piece = position.take(king)?;
            position.put(to, piece);
        }
        _ => return None,
    }
    let problem = assemble(position, &sente_hand, &stock)?;
    holds_few(&problem).then_some(problem)
}
