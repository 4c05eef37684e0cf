//! Every CSA record in `testdata/records/` (written by floodgate, tournament
//! software, Kifu for Windows and older programs) loads, replays legally to
//! its recorded end and keeps its result; what Koma writes reads back the same.

use koma_records::{csa, decode, Ending, Record};
use koma_rules::{Color, Position, StandardShogiPosition};
use std::path::PathBuf;

fn load(name: &str) -> Record<StandardShogiPosition> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    csa::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// File, number of moves, recorded ending, winner.
const EXPECTED: [(&str, usize, Option<Ending>, Option<Color>); 7] = [
    (
        "floodgate.csa",
        125,
        Some(Ending::Resignation),
        Some(Color::Sente),
    ),
    (
        "WCSC32_F7_NBS_DLS.csa",
        176,
        Some(Ending::Resignation),
        Some(Color::Gote),
    ),
    ("8mai.csa", 25, Some(Ending::Abandoned), None),
    ("v22.csa", 2, Some(Ending::Abandoned), None),
    (
        "tsumeshogi.csa",
        3,
        Some(Ending::Checkmate),
        Some(Color::Sente),
    ),
    ("initial_ky.csa", 0, None, None),
    (
        "2005_YAMADA_GPS.csa",
        107,
        Some(Ending::Resignation),
        Some(Color::Sente),
    ),
];

#[test]
fn every_csa_record_replays_to_its_end() {
    for (name, moves, ending, winner) in EXPECTED {
        let record = load(name);
        let game = record.to_game().unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name}: {} moves, {:?}, {:?}",
            record.moves.len(),
            record.ending,
            game.outcome()
        );
        assert_eq!(record.moves.len(), moves, "{name}");
        assert_eq!(record.ending, ending, "{name}");
        assert_eq!(game.outcome().and_then(|o| o.winner), winner, "{name}");
    }
}

#[test]
fn what_koma_writes_reads_back_the_same() {
    for (name, ..) in EXPECTED {
        let record = load(name);
        let written = csa::write(&record);
        let reread = csa::read(&written).unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
        assert_eq!(reread.start, record.start, "{name}");
        assert_eq!(
            reread.moves.iter().map(|m| m.m).collect::<Vec<_>>(),
            record.moves.iter().map(|m| m.m).collect::<Vec<_>>(),
            "{name}"
        );
        assert_eq!(reread.ending, record.ending, "{name}");
        assert_eq!(reread.headers.sente, record.headers.sente, "{name}");
        assert_eq!(
            StandardShogiPosition::from_text(&record.start.to_text()).unwrap(),
            record.start
        );
    }
}

#[test]
fn an_encoding_declaration_is_not_a_comment() {
    // 8mai.csa starts `'encoding=Shift_JIS`: it says how that file was
    // written, and would be false of the UTF-8 that Koma writes.
    let record = load("8mai.csa");
    assert!(
        record
            .comments
            .iter()
            .all(|c| !c.to_ascii_lowercase().starts_with("encoding=")),
        "{:?}",
        record.comments
    );
    assert!(record
        .comments
        .iter()
        .any(|c| c.contains("Kifu for Windows")));
    let written = csa::write(&record);
    assert!(!written.contains("encoding="), "{written}");
}
