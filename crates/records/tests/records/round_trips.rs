//! Round trips over random games: what Koma writes, Koma reads back as the
//! same game; and no text, however broken, makes a reader panic.

use crate::common::Rng;
use koma_records::{csa, usi, Ending, Record, RecordedMove};
use koma_rules::{
    MinishogiPosition, PawnsPosition, Position, SpearPosition, StandardShogiPosition,
};
use proptest::prelude::*;
use std::time::Duration;

fn random_record<P: Position>(seed: u64, plies: usize) -> Record<P> {
    let mut rng = Rng::new(seed);
    let mut position = P::start();
    let mut record = Record::new(position.clone());
    for ply in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        position.play_unchecked(m);
        let mut recorded = RecordedMove::new(m);
        recorded.time = Some(Duration::from_secs(ply as u64 % 7));
        record.moves.push(recorded);
    }
    record
}

fn same_moves<P: Position>(a: &Record<P>, b: &Record<P>) -> bool {
    a.start == b.start && a.moves.iter().map(|m| m.m).eq(b.moves.iter().map(|m| m.m))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn usi_round_trips_in_every_game(seed in any::<u64>(), plies in 0usize..120) {
        let spear = random_record::<SpearPosition>(seed, plies);
        prop_assert!(same_moves(&spear, &usi::read(&usi::write(&spear)).unwrap()));
        let mini = random_record::<MinishogiPosition>(seed, plies);
        prop_assert!(same_moves(&mini, &usi::read(&usi::write(&mini)).unwrap()));
        let shogi = random_record::<StandardShogiPosition>(seed, plies);
        prop_assert!(same_moves(&shogi, &usi::read(&usi::write(&shogi)).unwrap()));
        let pawns = random_record::<PawnsPosition>(seed, plies);
        prop_assert!(same_moves(&pawns, &usi::read(&usi::write(&pawns)).unwrap()));
    }

    #[test]
    fn csa_round_trips(seed in any::<u64>(), plies in 0usize..200, resigned in any::<bool>()) {
        let mut record = random_record::<StandardShogiPosition>(seed, plies);
        record.headers.sente = Some("Sente player".into());
        record.ending = resigned.then_some(Ending::Resignation);
        let reread = csa::read(&csa::write(&record)).unwrap();
        prop_assert_eq!(reread, record);
    }

    #[test]
    fn csa_reader_never_panics(text in "[-+PINTV%$'0-9A-Z :,*\n]{0,200}") {
        let _ = csa::read(&text);
    }

    #[test]
    fn usi_reader_never_panics(text in "(position )?(startpos|sfen [a-zA-Z0-9/+ -]{0,40})( moves( [a-z0-9*+A-Z]{1,5}){0,6})?") {
        let _ = usi::read::<StandardShogiPosition>(&text);
        let _ = usi::read::<SpearPosition>(&text);
        let _ = usi::read::<PawnsPosition>(&text);
    }
}

#[test]
fn decoding_is_total() {
    for bytes in [
        &b"\xff\xfe\x00"[..],
        b"",
        b"\x82\xa0",
        b"\xef\xbb\xbf",
        b"encoding=EUC-JP\n\xa4\xa2",
    ] {
        let _ = koma_records::decode(bytes);
    }
    assert_eq!(
        koma_records::decode(b"'encoding=EUC-JP\n\xa4\xa2").unwrap(),
        "'encoding=EUC-JP\nあ"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn pgn_round_trips(seed in any::<u64>(), plies in 0usize..120, resigned in any::<bool>()) {
        let mut record = random_record::<PawnsPosition>(seed, plies);
        record.headers.sente = Some("White player".into());
        let last = record.final_position();
        record.ending = match last.outcome() {
            Some(outcome) => Some(Ending::from_outcome(outcome, last.turn())),
            None => resigned.then_some(Ending::Resignation),
        };
        let reread = koma_records::pgn::read(&koma_records::pgn::write(&record)).unwrap();
        prop_assert_eq!(reread, record);
    }
}
