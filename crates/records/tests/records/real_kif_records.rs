//! Every KIF and KI2 record in `testdata/records/` (Kifu for Windows, Kifu for
//! iPhone, Shogidokoro, Piyo Shogi) loads, replays legally to its recorded
//! end with its variations, and keeps its result; what Koma writes reads
//! back the same.

use koma_records::{decode, ki2, kif, Ending, Record, Variation};
use koma_rules::{Color, Position, Shogi, StandardShogiPosition};
use std::path::PathBuf;

fn text(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn load(name: &str) -> Record<StandardShogiPosition> {
    let text = text(name);
    let read = if name.ends_with(".ki2") {
        ki2::read::<Shogi>
    } else {
        kif::read::<Shogi>
    };
    read(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn shape(variations: &[Variation]) -> String {
    variations
        .iter()
        .map(|v| format!("{}:{}[{}]", v.ply, v.moves.len(), shape(&v.variations)))
        .collect::<Vec<_>>()
        .join(",")
}

/// File, moves, recorded ending, winner, variations (ply:moves[sub]).
type Expected = (
    &'static str,
    usize,
    Option<Ending>,
    Option<Color>,
    &'static str,
);

const EXPECTED: [Expected; 12] = [
    ("example.kif", 2, Some(Ending::Abandoned), None, ""),
    // Sente, to move after two moves, made an illegal move and lost; the
    // variation ends the other way round.
    (
        "illegal.kif",
        2,
        Some(Ending::IllegalMove),
        Some(Color::Gote),
        "1:2[]",
    ),
    (
        "kifu_for_iphone.kif",
        3,
        Some(Ending::Checkmate),
        Some(Color::Sente),
        "",
    ),
    ("forks.kif", 12, None, None, "5:8[9:7[]],10:5[]"),
    (
        "everyday_20211107.kif",
        11,
        Some(Ending::Checkmate),
        Some(Color::Sente),
        "2:8[9:1[]],7:1[]",
    ),
    (
        "jt201409130101.kif",
        107,
        Some(Ending::Resignation),
        Some(Color::Sente),
        "",
    ),
    (
        "meijinsen_20180508_M7_10034.kif",
        52,
        Some(Ending::Abandoned),
        None,
        "",
    ),
    (
        "oui202106290101.kif",
        104,
        Some(Ending::Resignation),
        Some(Color::Gote),
        "",
    ),
    // A lance handicap: Gote (上手) moves first; 下手 wins.
    (
        "piyo-shogi_KY.kif",
        104,
        Some(Ending::Resignation),
        Some(Color::Sente),
        "",
    ),
    (
        "Shogidokoro.kif",
        131,
        Some(Ending::Resignation),
        Some(Color::Sente),
        "61:7[]",
    ),
    (
        "Shogidokoro.kifu",
        131,
        Some(Ending::Resignation),
        Some(Color::Sente),
        "61:7[]",
    ),
    (
        "4.ki2",
        102,
        Some(Ending::Resignation),
        Some(Color::Sente),
        "",
    ),
];

#[test]
fn every_kif_and_ki2_record_replays_to_its_end() {
    for (name, moves, ending, winner, variations) in EXPECTED {
        let record = load(name);
        let game = record.to_game().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(record.moves.len(), moves, "{name}");
        assert_eq!(record.ending, ending, "{name}");
        assert_eq!(game.outcome().and_then(|o| o.winner), winner, "{name}");
        assert_eq!(shape(&record.variations), variations, "{name}");
    }
}

#[test]
fn headers_comments_times_and_set_ups_are_kept() {
    let jt = load("jt201409130101.kif");
    assert_eq!(jt.headers.sente.as_deref(), Some("渡辺明"));
    assert_eq!(jt.headers.gote.as_deref(), Some("佐藤康光"));
    assert_eq!(jt.headers.site.as_deref(), Some("熊本・グランメッセ熊本"));
    assert_eq!(jt.headers.start_time.as_deref(), Some("2014/09/13 14：59"));
    assert!(jt
        .headers
        .other
        .contains(&("先手省略名".into(), "渡辺明".into())));
    assert_eq!(jt.comments, ["コメント"]);
    assert_eq!(jt.moves[0].comments, ["初手コメント"]);
    assert_eq!(jt.moves[1].comments, ["なんたらかんたら", "あーだこーだ"]);
    let meijin = load("meijinsen_20180508_M7_10034.kif");
    assert_eq!(
        meijin.moves[1].time,
        Some(std::time::Duration::from_secs(60))
    );
    assert_eq!(
        meijin.moves[49].time,
        Some(std::time::Duration::from_secs(11 * 60))
    );
    let mate = load("kifu_for_iphone.kif");
    assert_eq!(
        mate.start.to_text(),
        "3sks3/9/4+P4/6+B2/9/9/9/9/9 b S2rb4gs4n4l17p 1"
    );
    let handicap = load("piyo-shogi_KY.kif");
    assert_eq!(
        handicap.start.to_text(),
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let four = load("4.ki2");
    assert!(four.start.to_text().starts_with("1nsgkgsn1/9/"));
}

#[test]
fn what_koma_writes_reads_back_the_same() {
    for (name, ..) in EXPECTED {
        let record = load(name);
        let written = kif::write(&record);
        let reread =
            kif::read::<Shogi>(&written).unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
        assert_eq!(reread, record, "{name}\n{written}");
        let bytes = kif::write_shift_jis(&record).unwrap();
        assert!(bytes.windows(2).any(|w| w == b"\r\n"));
        let decoded = decode(&bytes).unwrap();
        assert_eq!(kif::read::<Shogi>(&decoded).unwrap(), record, "{name}");
    }
}

#[test]
fn the_written_form_is_what_kifu_for_windows_writes() {
    let record = load("kifu_for_iphone.kif");
    let written = kif::write(&record);
    let expected = "\
後手の持駒：飛二　角　金四　銀　桂四　香四　歩十七
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・v銀v玉v銀 ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ と ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ 馬 ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：銀
先手：
後手：
手数----指手---------消費時間--
   1 ５二馬(34)   ( 0:02/00:00:02)
   2 同　銀(61)   ( 0:01/00:00:01)
   3 ６二銀打     ( 0:01/00:00:03)
   4 詰み
まで3手で先手の勝ち
";
    assert!(written.ends_with(expected), "{written}");
    let illegal = kif::write(&load("illegal.kif"));
    assert!(illegal.contains("   1 ７六歩(77)   +\n"), "{illegal}");
    assert!(illegal.ends_with("\n変化：1手\n   1 ２六歩(27)\n   2 ９四歩(93)\n   3 反則勝ち\nまで2手で先手の反則勝ち\n"), "{illegal}");
}
