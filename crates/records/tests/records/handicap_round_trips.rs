//! Every standard handicap is written by its name (KIF `手合割`, CSA `PI`)
//! and read back as the same start, in KIF, CSA and USI (and KI2 reads it).

use koma_records::{csa, ki2, kif, usi, Record, RecordedMove};
use koma_rules::{Handicap, Position, Shogi, StandardShogiPosition};

/// The handicap's start and the giver's first two legal moves and a reply.
fn handicap_game(handicap: Handicap) -> Record<StandardShogiPosition> {
    let mut record = Record::new(handicap.position());
    let mut position = handicap.position();
    for _ in 0..3 {
        let m = position.legal_moves()[0];
        position.play_unchecked(m);
        record.moves.push(RecordedMove::new(m));
    }
    record
}

fn same_game(read: &Record<StandardShogiPosition>, written: &Record<StandardShogiPosition>) {
    assert_eq!(read.start.to_text(), written.start.to_text());
    let moves = |r: &Record<StandardShogiPosition>| r.moves.iter().map(|m| m.m).collect::<Vec<_>>();
    assert_eq!(moves(read), moves(written));
}

#[test]
fn every_handicap_round_trips() {
    for handicap in Handicap::ALL {
        let record = handicap_game(handicap);

        let kif_text = kif::write(&record);
        assert!(
            kif_text.contains(&format!("手合割：{}\n", handicap.japanese())),
            "{handicap}: {kif_text}"
        );
        assert!(
            !kif_text.contains("後手の持駒"),
            "a named start needs no diagram: {kif_text}"
        );
        same_game(&kif::read::<Shogi>(&kif_text).unwrap(), &record);

        // KI2 is read only: its header names the start as KIF's does.
        let ki2_text = format!("手合割：{}\n", handicap.japanese());
        let read = ki2::read::<Shogi>(&ki2_text).unwrap();
        assert_eq!(read.start.to_text(), record.start.to_text());

        let csa_text = csa::write(&record);
        let removed: String = handicap
            .removed()
            .map(|square| {
                let piece = StandardShogiPosition::start().piece_at(square).unwrap();
                format!(
                    "{}{}{}",
                    square.file() + 1,
                    square.rank() + 1,
                    csa_role(piece.role)
                )
            })
            .collect();
        assert!(csa_text.contains("\nPI"), "{handicap}: {csa_text}");
        let pi_line = csa_text.lines().find(|l| l.starts_with("PI")).unwrap();
        let mut wanted: Vec<_> = removed.as_bytes().chunks(4).collect();
        let mut found: Vec<_> = pi_line.as_bytes()[2..].chunks(4).collect();
        wanted.sort();
        found.sort();
        assert_eq!(found, wanted, "{handicap}: {pi_line}");
        same_game(&csa::read(&csa_text).unwrap(), &record);

        let usi_text = usi::write(&record);
        assert!(usi_text.starts_with("position sfen "), "{usi_text}");
        same_game(
            &usi::read::<StandardShogiPosition>(&usi_text).unwrap(),
            &record,
        );
    }
}

fn csa_role(role: koma_rules::Role) -> &'static str {
    use koma_rules::Role;
    match role {
        Role::Lance => "KY",
        Role::Knight => "KE",
        Role::Silver => "GI",
        Role::Gold => "KI",
        Role::Bishop => "KA",
        Role::Rook => "HI",
        other => panic!("no handicap removes a {other:?}"),
    }
}

#[test]
fn other_software_handicap_records_are_read_as_their_handicap() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/records");
    let kif_bytes = std::fs::read(format!("{dir}/piyo-shogi_KY.kif")).unwrap();
    let text = koma_records::decode(&kif_bytes).unwrap();
    let record = kif::read::<Shogi>(&text).unwrap();
    assert_eq!(Handicap::of_position(&record.start), Some(Handicap::Lance));
    let csa_text = std::fs::read_to_string(format!("{dir}/initial_ky.csa")).unwrap();
    let record = csa::read(&csa_text).unwrap();
    assert_eq!(Handicap::of_position(&record.start), Some(Handicap::Lance));
}
