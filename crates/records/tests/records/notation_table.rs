//! Every notation of the moves in `notation/moves.tsv` against the table:
//! 627 shogi and minishogi moves whose notations lishogi's shogiops wrote
//! (see `notation/README.md`), with drops, promotions taken and declined,
//! captures, recaptures (`同`) and every word that tells pieces apart;
//! and every move of a KI2 file another program wrote, as it writes it.

use koma_records::notation::MoveNotations;
use koma_records::{decode, ki2};
use koma_rules::{Minishogi, Move, Position, Shogi, ShogiPosition, ShogiVariant};
use std::path::PathBuf;

const TABLE: &str = include_str!("notation/moves.tsv");

/// One row's notations as Koma writes them, in the table's column order.
fn written<V: ShogiVariant>(sfen: &str, previous: &str, usi: &str) -> Result<[String; 5], String>
where
    ShogiPosition<V>: Position,
{
    let position = ShogiPosition::<V>::from_text(sfen).map_err(|e| format!("{sfen}: {e:?}"))?;
    let previous = match previous {
        "-" => None,
        text => Some(
            <ShogiPosition<V> as Position>::parse_move_syntax(text)
                .map_err(|e| format!("{text}: {e:?}"))?,
        ),
    };
    let m: Move = position
        .parse_move(usi)
        .map_err(|e| format!("{usi}: {e:?}"))?;
    let notations = MoveNotations::new(&position, m, previous);
    let unmarked = |text: &str| text.chars().skip(1).collect::<String>();
    Ok([
        notations.usi,
        unmarked(&notations.japanese),
        unmarked(&notations.japanese_origin),
        notations.western.unwrap_or_default(),
        notations.kitao_kawasaki.unwrap_or_default(),
    ])
}

#[test]
fn every_notation_matches_the_table() {
    let mut rows = 0;
    let mut wrong = Vec::new();
    for line in TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [variant, sfen, previous, usi, japanese, kif, western, kitao_kawasaki] = fields[..]
        else {
            panic!("a row of eight columns: {line}");
        };
        // shogiops leaves `不成` out of KIF moves; Koma writes it there as
        // Kifu for Windows does, wherever the KI2 column has it.
        let kif = match japanese.ends_with("不成") {
            true => kif.replacen('(', "不成(", 1),
            false => kif.to_owned(),
        };
        // shogiops pads `同` with a space before every piece; KI2 files
        // (and `4.ki2` below) pad only a one-character one: `同成銀`.
        let japanese = japanese.replacen("同　成", "同成", 1);
        // shogiops writes a dragon or horse going forward `行`; the JSA's
        // rules write `上` for every piece (no piece name holds `行`).
        let japanese = japanese.replace('行', "上");
        let expected = [usi, &japanese, &kif, western, kitao_kawasaki].map(str::to_owned);
        let found = match variant {
            "shogi" => written::<Shogi>(sfen, previous, usi),
            "minishogi" => written::<Minishogi>(sfen, previous, usi),
            other => panic!("unknown variant {other}"),
        };
        match found {
            Ok(found) if found == expected => {}
            Ok(found) => wrong.push(format!("{line}\n  Koma: {}", found.join("\t"))),
            Err(error) => wrong.push(format!("{line}\n  error: {error}")),
        }
        rows += 1;
    }
    assert!(rows >= 600, "the table holds {rows} moves");
    assert!(
        wrong.is_empty(),
        "{} of {rows} moves differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
}

/// `testdata/records/4.ki2` (a handicap game with analysis, written by other
/// software in Shift_JIS): Koma writes each of its 102 moves as the file
/// does.
#[test]
fn a_ki2_files_moves_are_written_as_it_writes_them() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/records/4.ki2");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = decode(&bytes).expect("a KI2 file");
    let record = ki2::read::<Shogi>(&text).expect("a KI2 record");
    // The moves as written: the file's move lines (not its `*` comments),
    // a mark then the move.
    let written: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with(['▲', '△']))
        .flat_map(|line| line.split(['▲', '△']))
        .map(str::trim)
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect();
    assert_eq!(written.len(), record.moves.len());
    assert_eq!(written.len(), 102);
    let mut position = record.start;
    let mut previous_to = None;
    for (recorded, theirs) in record.moves.iter().zip(&written) {
        let mine = ki2::move_text(&position, recorded.m, previous_to);
        assert_eq!(&mine, theirs, "in {}", position.to_text());
        position.play_unchecked(recorded.m);
        previous_to = Some(recorded.m.to());
    }
}
