//! The games compared and how: Koma's random legal games (and what they
//! cover), and a game as every crate can tell it: its start as the first
//! three SFEN fields, its moves as USI.

use crate::common::Rng;
use koma_records::{Ending, Record, RecordedMove};
use koma_rules::{Color, Move, Position, StandardShogiPosition};
use std::time::Duration;

/// Koma's position type for standard shogi.
pub type Koma = StandardShogiPosition;

/// Board, side to move and hands of an SFEN, without the move number.
pub fn sfen_core(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every variation of a Koma record as its first move number and moves,
/// sorted.
pub fn koma_variations(record: &Record<Koma>) -> Vec<(usize, Vec<String>)> {
    fn walk(variations: &[koma_records::Variation], lines: &mut Vec<(usize, Vec<String>)>) {
        for variation in variations {
            let moves = variation
                .moves
                .iter()
                .map(|m| Koma::move_to_text(m.m))
                .collect();
            lines.push((variation.ply, moves));
            walk(&variation.variations, lines);
        }
    }
    let mut lines = Vec::new();
    walk(&record.variations, &mut lines);
    lines.sort();
    lines
}

/// The main line's moves in USI.
pub fn koma_moves(record: &Record<Koma>) -> Vec<String> {
    record
        .moves
        .iter()
        .map(|recorded| Koma::move_to_text(recorded.m))
        .collect()
}

/// Start positions: the even game and the handicaps that CSA writes as `PI`.
pub const STARTS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
];

/// Endings a random game may be given when it did not end in mate.
pub const ENDINGS: [Option<Ending>; 14] = [
    None,
    Some(Ending::Resignation),
    Some(Ending::Repetition),
    Some(Ending::PerpetualCheck),
    Some(Ending::Impasse),
    Some(Ending::ImpasseWin),
    Some(Ending::Abandoned),
    Some(Ending::Timeout),
    Some(Ending::IllegalMove),
    Some(Ending::IllegalMoveWin),
    Some(Ending::SenteIllegalAction),
    Some(Ending::GoteIllegalAction),
    Some(Ending::Draw),
    Some(Ending::NoMate),
];

/// A random legal game played by Koma: from one of [`STARTS`], or from the
/// position a random opening of up to 80 plies reaches (so with pieces in
/// hand and promoted pieces), then up to 199 random plies.
pub fn koma_random_game(seed: u64) -> Record<Koma> {
    let mut rng = Rng::new(seed);
    let mut position = Koma::from_text(STARTS[rng.below(STARTS.len())]).unwrap();
    if rng.below(2) == 0 {
        for _ in 0..rng.below(81) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    let mut record = Record::new(position);
    for _ in 0..rng.below(200) {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        position.play_unchecked(m);
        let mut recorded = RecordedMove::new(m);
        if rng.below(2) == 0 {
            recorded.time = Some(Duration::from_secs(rng.below(4000) as u64));
        }
        record.moves.push(recorded);
    }
    record.ending = if position.legal_moves().is_empty() {
        Some(Ending::Checkmate)
    } else {
        ENDINGS[rng.below(ENDINGS.len())]
    };
    record
}

/// How many random games each cross-check plays.
pub const RANDOM_GAMES: u64 = 300;

/// What the random games cover, so that a change to the generator cannot
/// quietly make the cross-checks trivial.
#[derive(Default)]
pub struct Coverage {
    moves: usize,
    drops: usize,
    promotions: usize,
    declined_promotions: usize,
    set_up_starts: usize,
    gote_starts: usize,
    checkmates: usize,
}

impl Coverage {
    pub fn add(&mut self, record: &Record<Koma>) {
        let mut position = record.start;
        for recorded in &record.moves {
            self.moves += 1;
            match recorded.m {
                Move::Drop { .. } => self.drops += 1,
                Move::Board { promote: true, .. } => self.promotions += 1,
                Move::Board { from, to, .. } => {
                    let promoted = Move::Board {
                        from,
                        to,
                        promote: true,
                    };
                    if position.is_legal(promoted) {
                        self.declined_promotions += 1;
                    }
                }
            }
            position.play_unchecked(recorded.m);
        }
        let start = record.start.to_text();
        if !STARTS.iter().any(|s| sfen_core(s) == sfen_core(&start)) {
            self.set_up_starts += 1;
        }
        if record.start.turn() == Color::Gote {
            self.gote_starts += 1;
        }
        if record.ending == Some(Ending::Checkmate) {
            self.checkmates += 1;
        }
    }

    pub fn assert_broad(&self) {
        assert!(self.moves > 20_000, "{} moves", self.moves);
        assert!(self.drops > 2_000, "{} drops", self.drops);
        assert!(self.promotions > 500, "{} promotions", self.promotions);
        assert!(
            self.declined_promotions > 500,
            "{} declined promotions",
            self.declined_promotions
        );
        assert!(
            self.set_up_starts > 100,
            "{} set-up starts",
            self.set_up_starts
        );
        assert!(self.gote_starts > 100, "{} Gote starts", self.gote_starts);
        assert!(self.checkmates >= 5, "{} checkmates", self.checkmates);
    }
}

/// Start (SFEN core; `startpos` as the even game's) and moves of a USI
/// `position` command as another crate wrote it.
pub fn usi_parts(text: &str) -> (String, Vec<String>) {
    let mut words = text.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let start = match words.next() {
        Some("startpos") => sfen_core(STARTS[0]),
        Some("sfen") => {
            let fields: Vec<&str> = words.by_ref().take_while(|&w| w != "moves").collect();
            return (
                sfen_core(&fields.join(" ")),
                words.map(String::from).collect(),
            );
        }
        other => panic!("{other:?} in {text:?}"),
    };
    assert!(matches!(words.next(), None | Some("moves")), "{text}");
    (start, words.map(String::from).collect())
}
