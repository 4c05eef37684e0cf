//! KIF round trips over random games in each shogi-family game, with times,
//! comments, endings and nested variations; errors that name the line and
//! the move; and readers that never panic, whatever the text.

use crate::common::Rng;
use koma_records::kif::{self, KifErrorKind};
use koma_records::{ki2, Ending, Record, RecordedMove, Variation};
use koma_rules::{
    Color, EndReason, Minishogi, Outcome, Position, Shogi, ShogiPosition, ShogiVariant, Spear,
    StandardShogiPosition,
};
use proptest::prelude::*;
use std::time::Duration;

const ENDINGS: [Ending; 8] = [
    Ending::Resignation,
    Ending::Abandoned,
    Ending::Repetition,
    Ending::Impasse,
    Ending::Timeout,
    Ending::IllegalMove,
    Ending::IllegalMoveWin,
    Ending::ImpasseWin,
];

/// Random legal moves from `position`, with times and comments; the game
/// may end on its own before `plies`.
fn random_line<P: Position>(
    rng: &mut Rng,
    mut position: P,
    plies: usize,
) -> (Vec<RecordedMove>, Vec<P>) {
    let mut moves = Vec::new();
    let mut positions = vec![position.clone()];
    for _ in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() || position.outcome().is_some() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        position.play_unchecked(m);
        let mut recorded = RecordedMove::new(m);
        recorded.time = Some(Duration::from_secs(rng.below(4000) as u64));
        if rng.below(5) == 0 {
            recorded
                .comments
                .push(format!("読み {} 手目 ok", rng.below(100)));
        }
        moves.push(recorded);
        positions.push(position.clone());
    }
    (moves, positions)
}

fn random_variations<P: Position>(
    rng: &mut Rng,
    first_ply: usize,
    positions: &[P],
    depth: u32,
) -> Vec<Variation> {
    let mut out = Vec::new();
    if depth == 0 || positions.len() < 2 {
        return out;
    }
    for _ in 0..rng.below(3) {
        let index = rng.below(positions.len() - 1);
        let length = 1 + rng.below(8);
        let (moves, line_positions) = random_line(rng, positions[index].clone(), length);
        if moves.is_empty() {
            continue;
        }
        let ply = first_ply + index;
        let variations = random_variations(rng, ply + 1, &line_positions[1..], depth - 1);
        let ending = (rng.below(3) == 0).then(|| ENDINGS[rng.below(ENDINGS.len())]);
        let ending = if line_positions.last().unwrap().outcome().is_some() {
            None
        } else {
            ending
        };
        out.push(Variation {
            ply,
            moves,
            ending,
            variations,
        });
    }
    out.sort_by_key(|v| v.ply);
    out
}

fn random_record<V: ShogiVariant>(seed: u64, plies: usize) -> Record<ShogiPosition<V>> {
    let mut rng = Rng::new(seed | 1);
    let start = ShogiPosition::<V>::start();
    let (moves, positions) = random_line(&mut rng, start, plies);
    let mut record = Record::new(start);
    record.moves = moves;
    record.variations = random_variations(&mut rng, 1, &positions, 2);
    record.headers.sente = Some("先手 太郎".into());
    record.headers.event = Some("Koma test".into());
    record
        .headers
        .other
        .push(("表題".into(), "round trip".into()));
    record.comments.push("序盤の研究".into());
    if positions.last().unwrap().outcome().is_none() && rng.below(2) == 0 {
        record.ending = Some(ENDINGS[rng.below(ENDINGS.len())]);
    }
    record
}

fn round_trip<V: ShogiVariant>(record: &Record<ShogiPosition<V>>) -> Result<(), TestCaseError> {
    let written = kif::write(record);
    let reread =
        kif::read::<V>(&written).map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
    prop_assert_eq!(&reread, record, "{}", written);
    prop_assert_eq!(kif::variant(&written), V::VARIANT);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn kif_round_trips_in_every_shogi_game(seed in any::<u64>(), plies in 0usize..150) {
        round_trip(&random_record::<Shogi>(seed, plies))?;
        round_trip(&random_record::<Minishogi>(seed, plies))?;
        round_trip(&random_record::<Spear>(seed, plies))?;
    }

    #[test]
    fn set_up_positions_round_trip(seed in any::<u64>(), plies in 1usize..60) {
        // The position after some random moves becomes the start.
        let played = random_record::<Shogi>(seed, plies);
        let mut record = random_record::<Shogi>(seed ^ 0x5555, 0);
        record.start = played.final_position();
        record.variations.clear();
        let (moves, _) = random_line(&mut Rng::new(seed | 1), record.start, 10);
        record.moves = moves;
        round_trip(&record)?;
        let mut spear = random_record::<Spear>(seed, 0);
        spear.start = random_record::<Spear>(seed, plies).final_position();
        round_trip(&spear)?;
    }

    #[test]
    fn kif_and_ki2_readers_never_panic(text in "([ 0-9０-９一二三四五六七八九同歩角飛成打不金銀玉()/:+|vー・▲△*\n]|手合割：|変化：|持駒：|まで){0,80}") {
        let _ = kif::read::<Shogi>(&text);
        let _ = kif::read::<Minishogi>(&text);
        let _ = ki2::read::<Shogi>(&text);
        let _ = ki2::read::<Spear>(&text);
        let _ = kif::variant(&text);
    }

    #[test]
    fn mutated_records_give_errors_not_panics(seed in any::<u64>(), cut in 0usize..4000, junk in "[^\n]{0,6}") {
        let written = kif::write(&random_record::<Shogi>(seed, 80));
        let mut cut = cut.min(written.len());
        while !written.is_char_boundary(cut) {
            cut -= 1;
        }
        let mutated = format!("{}{}{}", &written[..cut], junk, &written[cut..]);
        let _ = kif::read::<Shogi>(&mutated);
        let _ = kif::read::<Shogi>(&written[..cut]);
    }
}

fn error(text: &str) -> kif::KifError {
    kif::read::<Shogi>(text).expect_err("must be refused")
}

#[test]
fn an_illegal_move_is_refused_with_its_number_and_reason() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ８四歩(83)\n   3 ２二角(88)\n";
    let error = error(text);
    assert_eq!((error.line, error.column), (4, 6));
    let KifErrorKind::Replay(replay) = &error.kind else {
        panic!("{error}")
    };
    assert_eq!(replay.move_number, 3);
    assert!(error.to_string().contains("move 3 (２二角(88))"), "{error}");
    // The piece named is not the piece on the square.
    let wrong = self::error("   1 ７六飛(77)\n");
    assert!(
        wrong.to_string().contains("the piece on 7g is 歩, not 飛"),
        "{wrong}"
    );
    // Nifu, as a drop.
    let nifu = self::error("後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：歩\n   1 ５三歩打\n");
    assert!(nifu.to_string().contains("move 1"), "{nifu}");
    assert_eq!(nifu.line, 15);
}

#[test]
fn broken_records_name_the_line_and_column() {
    let numbering = error("   1 ７六歩(77)\n   3 ３四歩(33)\n");
    assert_eq!(numbering.line, 2);
    assert_eq!(
        numbering.kind,
        KifErrorKind::MoveNumber {
            expected: 2,
            found: 3
        }
    );
    let time = error("   1 ７六歩(77)   ( 0:1x/00:00:16)\n");
    assert!(matches!(time.kind, KifErrorKind::BadTime(_)), "{time}");
    assert_eq!(time.column, 16);
    let garbage = error("先手：a\n\u{1}\u{2}binary\n");
    assert_eq!(
        (garbage.line, garbage.kind.clone()),
        (2, KifErrorKind::UnknownLine("\u{1}\u{2}binary".into()))
    );
    let handicap = error("手合割：九枚落ち\n");
    assert_eq!(
        handicap.kind,
        KifErrorKind::UnknownHandicap("九枚落ち".into())
    );
    assert_eq!((handicap.line, handicap.column), (1, 5));
    let after_end = error("   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n");
    assert_eq!(
        after_end.kind,
        KifErrorKind::MoveNumber {
            expected: 2,
            found: 3
        }
    );
    let variation = error("   1 ７六歩(77)\n\n変化：5手\n   5 ３四歩(33)\n");
    assert!(
        matches!(variation.kind, KifErrorKind::BadVariation(_)),
        "{variation}"
    );
    let huge = format!("先手：{}\n   1 ７六歩(77)\n", "長".repeat(1 << 20));
    assert_eq!(kif::read::<Shogi>(&huge).unwrap().moves.len(), 1);
    let huge_move = format!("   1 ７六歩(77){}\n", "x".repeat(1 << 20));
    assert!(matches!(error(&huge_move).kind, KifErrorKind::BadTime(_)));
}

#[test]
fn a_recorded_repetition_draws_in_shogi_and_loses_for_sente_in_minishogi() {
    let mini = kif::read::<Minishogi>("手合割：5五将棋\n   1 ２四銀(35)\n   2 千日手\n").unwrap();
    assert_eq!(
        mini.to_game().unwrap().outcome(),
        Some(Outcome::win(Color::Gote, EndReason::Repetition))
    );
    let shogi = kif::read::<Shogi>("   1 ７六歩(77)\n   2 千日手\n").unwrap();
    assert_eq!(
        shogi.to_game().unwrap().outcome(),
        Some(Outcome::draw(EndReason::Repetition))
    );
}

#[test]
fn the_game_is_told_by_the_handicap_or_the_diagram() {
    let mini = "手合割：5五将棋\n   1 ２四銀(35)\n";
    assert_eq!(kif::variant(mini), koma_rules::Variant::Minishogi);
    let record = kif::read::<Minishogi>(mini).unwrap();
    assert_eq!(record.moves.len(), 1);
    let wrong = error(mini);
    assert_eq!(
        wrong.kind,
        KifErrorKind::WrongGame {
            expected: koma_rules::Variant::Shogi,
            found: koma_rules::Variant::Minishogi
        }
    );
    let spear = kif::write(&Record::new(ShogiPosition::<Spear>::start()));
    assert!(spear.contains("手合割：槍将棋\n"), "{spear}");
    assert!(spear.contains("|v槍v象v銀v金v玉|一\n"), "{spear}");
    assert_eq!(kif::variant(&spear), koma_rules::Variant::Spear);
    let handicap = kif::write(&Record::new(
        StandardShogiPosition::from_text(
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        )
        .unwrap(),
    ));
    assert!(
        handicap.contains("手合割：二枚落ち\n下手：\n上手：\n"),
        "{handicap}"
    );
}
