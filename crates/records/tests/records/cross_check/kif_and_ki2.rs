//! KIF and KI2 (koma_records::kif, koma_records::ki2) likewise: Koma's
//! random games and the others', the real records, and a CSA header
//! found wrong on the way (part 4).

use super::games::{koma_moves, koma_random_game, koma_variations, sfen_core, Koma, RANDOM_GAMES};
use super::testdata::real_kifu_files;
use super::{rs, skc};
use koma_records::Record;
use koma_rules::Position;

type KomaShogi = koma_rules::Shogi;

/// Whether shogi-kifu-converter 0.2.2 can read a KIF text Koma wrote. Its
/// KIF parser knows `成` but not `不成` (which Kifu for Windows, rsshogi
/// and Koma write; its own KI2 parser knows it), panics on a board diagram
/// with `後手番`, and stops at ending words it does not know.
fn skc_reads_kif(text: &str) -> bool {
    !["不成", "後手番", "反則勝ち", "不詰", "引き分け"]
        .iter()
        .any(|word| text.contains(word))
}

#[test]
fn koma_kif_reads_the_same_in_rsshogi_and_shogi_kifu_converter() {
    let mut skc_games = 0;
    for seed in 0..RANDOM_GAMES {
        let record = koma_random_game(seed);
        let text = koma_records::kif::write(&record);
        let name = format!("game {seed}\n{text}");
        let start = sfen_core(&record.start.to_text());
        let moves = koma_moves(&record);
        let reread =
            koma_records::kif::read::<KomaShogi>(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(koma_moves(&reread), moves, "{name}");

        let theirs = rsshogi::records::formats::kif::parse_kif_str(&text)
            .unwrap_or_else(|e| panic!("rsshogi: {e}: {name}"));
        assert_eq!(rs::start(&theirs), start, "{name}");
        assert_eq!(rs::moves(&theirs), moves, "{name}");
        // KIF writes a time for every move or none: compare with what Koma
        // reads back (a move without time is written 0:00).
        let koma_times: Vec<Option<u32>> = reread
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        assert_eq!(rs::times(&theirs), koma_times, "{name}");
        let to_move = record.final_position().turn();
        assert_eq!(
            rs::terminal(&theirs),
            record.ending.map(|e| rs::expected_kif_terminal(e, to_move)),
            "{name}"
        );

        if skc_reads_kif(&text) {
            skc_games += 1;
            let jkf = shogi_kifu_converter::parser::parse_kif_str(&text)
                .unwrap_or_else(|e| panic!("shogi-kifu-converter: {e}: {name}"));
            assert_eq!(skc::usi(&jkf), (start, moves), "{name}");
            assert_eq!(
                skc::special(&jkf).and_then(skc::ending_of),
                reread.ending,
                "{name}"
            );
        }
    }
    assert!(
        skc_games > 20,
        "shogi-kifu-converter read {skc_games} games"
    );
}

#[test]
fn rsshogi_and_shogi_kifu_converter_kif_read_the_same_in_koma() {
    use rsshogi::records::SpecialMove;
    use shogi_kifu_converter::converter::ToKif;
    for seed in 0..RANDOM_GAMES {
        let theirs = rs::random_game(seed);
        let text = rsshogi::records::formats::kif::export_kif(&theirs)
            .unwrap_or_else(|e| panic!("game {seed}: rsshogi cannot write it: {e}"));
        let name = format!("game {seed} as rsshogi wrote it\n{text}");
        let record =
            koma_records::kif::read::<KomaShogi>(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&theirs),
            "{name}"
        );
        assert_eq!(koma_moves(&record), rs::moves(&theirs), "{name}");
        let koma_times: Vec<Option<u32>> = record
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        let their_times: Vec<Option<u32>> = rs::times(&theirs)
            .into_iter()
            .map(|t| t.or(koma_times.iter().any(Option::is_some).then_some(0)))
            .collect();
        assert_eq!(koma_times, their_times, "{name}");
        // rsshogi writes its draws (Draw, Impasse) as 持将棋, and a win by
        // the other side's illegal move as 反則負け when the loser is to move.
        let to_move = record.final_position().turn();
        let their_terminal = rs::terminal(&theirs).map(|(kind, winner)| match kind {
            SpecialMove::Draw => (SpecialMove::Impasse, winner),
            SpecialMove::WinByIllegalMove if winner != Some(rs::color(to_move)) => {
                (SpecialMove::LoseByIllegalMove, winner)
            }
            kind => (kind, winner),
        });
        assert_eq!(
            record.ending.map(|e| rs::expected_kif_terminal(e, to_move)),
            their_terminal,
            "{name}"
        );

        // The same game in shogi-kifu-converter's types (read from rsshogi's
        // CSA), written as KIF by shogi-kifu-converter; one game in 5. Its
        // KIF writer leaves `後手番` out of a diagram (and the hours out of
        // a move's time), so only games Sente starts.
        if seed % 5 == 0 && rs::start(&theirs).contains(" b ") {
            let csa = rsshogi::records::formats::csa::export_csa(&theirs).unwrap();
            let jkf = shogi_kifu_converter::parser::parse_csa_str(&csa).unwrap();
            let text = jkf.to_kif_owned();
            let name = format!("game {seed} as shogi-kifu-converter wrote it\n{text}");
            let record = koma_records::kif::read::<KomaShogi>(&text)
                .unwrap_or_else(|e| panic!("{e}: {name}"));
            assert_eq!(
                skc::usi(&jkf),
                (sfen_core(&record.start.to_text()), koma_moves(&record)),
                "{name}"
            );
        }
    }
}

/// rsshogi 1.7.3 drops the variations (`変化：`) of a KIF file whose main
/// line ends with an ending and `まで…` (it keeps those of `forks.kif`,
/// which has neither); Koma and shogi-kifu-converter keep them.
const RSSHOGI_DROPS_VARIATIONS: [&str; 4] = [
    "Shogidokoro.kif",
    "Shogidokoro.kifu",
    "everyday_20211107.kif",
    "illegal.kif",
];

#[test]
fn real_kif_records_read_the_same_in_koma_and_the_others() {
    let files = real_kifu_files();
    let mut variations = 0;
    for (name, ki2, text) in &files {
        let koma = if *ki2 {
            koma_records::ki2::read::<KomaShogi>(text)
        } else {
            koma_records::kif::read::<KomaShogi>(text)
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = sfen_core(&koma.start.to_text());
        let moves = koma_moves(&koma);
        let lines = koma_variations(&koma);
        variations += lines.len();

        let theirs = rs::kifu(*ki2, text);
        assert_eq!(rs::start(&theirs), start, "rsshogi: {name}");
        assert_eq!(rs::moves(&theirs), moves, "rsshogi: {name}");
        let koma_times: Vec<Option<u32>> = koma
            .moves
            .iter()
            .map(|m| m.time.map(|t| t.as_secs() as u32))
            .collect();
        assert_eq!(rs::times(&theirs), koma_times, "rsshogi: {name}");
        let to_move = koma.final_position().turn();
        assert_eq!(
            rs::terminal(&theirs).and_then(|(_, winner)| winner),
            koma.ending
                .and_then(|e| e.outcome(koma_rules::Variant::Shogi, to_move))
                .and_then(|o| o.winner)
                .map(rs::color),
            "rsshogi: {name}"
        );
        if RSSHOGI_DROPS_VARIATIONS.contains(&name.as_str()) {
            assert!(!lines.is_empty(), "{name}");
            assert_eq!(rs::variations(&theirs), Vec::new(), "rsshogi: {name}");
        } else {
            assert_eq!(rs::variations(&theirs), lines, "rsshogi: {name}");
        }

        let theirs = skc::kifu(*ki2, text);
        assert_eq!(skc::usi(&theirs), (start, moves), "skc: {name}");
        assert_eq!(skc::variations(&theirs), lines, "skc: {name}");
    }
    assert!(variations >= 6, "{variations} variations");
}

/// rsshogi 1.7.3 writes the variations of `forks.kif` earliest branch first
/// and loses the one branching off a variation: `変化：10手` then follows
/// the move-5 line, whose move 11 (６九玉) cannot be played. Kifu for
/// Windows writes the latest branch first, and a `変化：N手` continues the
/// latest line that has move N: Koma, shogi-kifu-converter and rsshogi
/// itself all refuse what rsshogi wrote.
const RSSHOGI_MISWRITES_VARIATIONS: [&str; 1] = ["forks.kif"];

/// Real KIF games as shogi-kifu-converter and rsshogi read them, written
/// as KIF by each: Koma reads the same game.
#[test]
fn real_kif_records_written_by_the_others_read_the_same_in_koma() {
    use shogi_kifu_converter::converter::ToKif;
    for (name, ki2, text) in &real_kifu_files() {
        let theirs = skc::kifu(*ki2, text);
        let written = theirs.to_kif_owned();
        let what = format!("{name} as shogi-kifu-converter wrote it\n{written}");
        let koma = koma_records::kif::read::<KomaShogi>(&written)
            .unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(
            skc::usi(&theirs),
            (sfen_core(&koma.start.to_text()), koma_moves(&koma)),
            "{what}"
        );
        assert_eq!(skc::variations(&theirs), koma_variations(&koma), "{what}");

        let mut theirs = rs::kifu(*ki2, text);
        let written = rsshogi::records::formats::kif::export_kif(&theirs).unwrap();
        let what = format!("{name} as rsshogi wrote it\n{written}");
        if RSSHOGI_MISWRITES_VARIATIONS.contains(&name.as_str()) {
            let refused = koma_records::kif::read::<KomaShogi>(&written).unwrap_err();
            assert!(
                matches!(refused.kind, koma_records::kif::KifErrorKind::Replay(_)),
                "{refused}: {what}"
            );
            assert!(
                rsshogi::records::formats::kif::parse_kif_str(&written).is_err(),
                "{what}"
            );
            // The main line alone still reads the same.
            for id in theirs.main_line_ids() {
                for branch in theirs.variation_children(id).to_vec() {
                    theirs.detach_subtree(branch).unwrap();
                }
            }
            let root = theirs.node(theirs.main_line_ids()[0]).parent().unwrap();
            for branch in theirs.variation_children(root).to_vec() {
                theirs.detach_subtree(branch).unwrap();
            }
        }
        let written = rsshogi::records::formats::kif::export_kif(&theirs).unwrap();
        let koma = koma_records::kif::read::<KomaShogi>(&written)
            .unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(
            sfen_core(&koma.start.to_text()),
            rs::start(&theirs),
            "{what}"
        );
        assert_eq!(koma_moves(&koma), rs::moves(&theirs), "{what}");
        assert_eq!(koma_variations(&koma), rs::variations(&theirs), "{what}");
    }
}

/// KI2 gives no square a piece comes from, only `右`, `左`, `上`, `引`,
/// `寄`, `直` when two pieces could go: rsshogi's KI2 of random games (many
/// such choices) reads in Koma as the same moves.
#[test]
fn rsshogi_ki2_reads_the_same_in_koma() {
    for seed in 0..RANDOM_GAMES {
        let theirs = rs::random_game(seed);
        let text = rsshogi::records::formats::kif::export_ki2(&theirs)
            .unwrap_or_else(|e| panic!("game {seed}: rsshogi cannot write it: {e}"));
        let name = format!("game {seed} as rsshogi wrote it\n{text}");
        let record =
            koma_records::ki2::read::<KomaShogi>(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&theirs),
            "{name}"
        );
        assert_eq!(koma_moves(&record), rs::moves(&theirs), "{name}");
    }
}

/// A name or `$` header value holding a comma (`N+Foo, Jr.`, `$EVENT:a,b`,
/// `$振り駒:3,0,藤` from a real KIF header) is one statement, not two: the
/// cross-checks found Koma splitting it, which rsshogi does not.
#[test]
fn csa_header_values_with_commas_read_back_as_in_rsshogi() {
    let mut record = Record::new(Koma::start());
    record.headers.sente = Some("Foo, Jr.".into());
    record.headers.event = Some("a,b".into());
    let text = koma_records::csa::write(&record);
    let theirs = rsshogi::records::formats::csa::parse_csa_str(&text).unwrap();
    assert_eq!(theirs.metadata().black_player(), Some("Foo, Jr."), "{text}");
    assert_eq!(theirs.metadata().event(), Some("a,b"), "{text}");
    let koma = koma_records::csa::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(koma.headers.sente.as_deref(), Some("Foo, Jr."), "{text}");
    assert_eq!(koma.headers.event.as_deref(), Some("a,b"), "{text}");
}
