//! What the others write (their own random games), Koma reads as the same
//! game (part 2).

use super::games::{koma_moves, sfen_core, Coverage, Koma, RANDOM_GAMES};
use super::{nozaq, rs};
use crate::common::Rng;
use koma_records::Record;
use koma_rules::Position;
use std::time::Duration;

#[test]
fn rsshogi_csa_and_usi_read_the_same_in_koma() {
    let mut coverage = Coverage::default();
    let mut terminals = 0;
    for seed in 0..RANDOM_GAMES {
        let theirs = rs::random_game(seed);
        terminals += usize::from(theirs.main_terminal().is_some());

        let text = rsshogi::records::formats::csa::export_csa(&theirs)
            .unwrap_or_else(|e| panic!("game {seed}: rsshogi cannot write it: {e}"));
        let name = format!("game {seed}\n{text}");
        let record = koma_records::csa::read(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        rs::assert_same(&name, &record, &theirs);
        record.to_game().unwrap_or_else(|e| panic!("{e}: {name}"));
        coverage.add(&record);

        let text = rsshogi::records::formats::usi::export_usi_position(&theirs).unwrap();
        let name = format!("game {seed}: {text}");
        let record: Record<Koma> =
            koma_records::usi::read(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&theirs),
            "{name}"
        );
        assert_eq!(koma_moves(&record), rs::moves(&theirs), "{name}");
    }
    assert!(terminals > RANDOM_GAMES as usize / 2, "{terminals} endings");
    coverage.assert_broad();
}

#[test]
fn nozaq_csa_reads_the_same_in_koma() {
    use csa::{Action, GameRecord, MoveRecord};
    const SPECIALS: [Action; 13] = [
        Action::Toryo,
        Action::Chudan,
        Action::Sennichite,
        Action::TimeUp,
        Action::IllegalMove,
        Action::IllegalAction(csa::Color::Black),
        Action::IllegalAction(csa::Color::White),
        Action::Jishogi,
        Action::Kachi,
        Action::Hikiwake,
        Action::Tsumi,
        Action::Fuzumi,
        Action::Error,
    ];
    // The games are rsshogi's, turned into nozaq's types move by move.
    for seed in 0..RANDOM_GAMES {
        let game = rs::random_game(seed);
        let mut rng = Rng::new(seed);
        let mut tracker = nozaq::Tracker::from_sfen(game.init_position_sfen());
        let mut theirs = GameRecord {
            black_player: Some(format!("black {seed}")),
            white_player: Some("white".into()),
            event: Some("cross-check".into()),
            site: Some("Koma".into()),
            opening: Some("random".into()),
            start_pos: tracker.position(),
            ..GameRecord::default()
        };
        let moves = rs::moves(&game);
        for usi in &moves {
            let action = tracker.action(usi);
            assert_eq!(&tracker.play(action), usi);
            let time = (rng.below(2) == 0).then(|| Duration::from_secs(rng.below(4000) as u64));
            theirs.moves.push(MoveRecord { action, time });
        }
        let special = SPECIALS[rng.below(SPECIALS.len())];
        theirs.moves.push(MoveRecord {
            action: special,
            time: None,
        });

        let text = theirs.to_string();
        let name = format!("game {seed}\n{text}");
        let record = koma_records::csa::read(&text).unwrap_or_else(|e| panic!("{e}: {name}"));
        assert_eq!(
            sfen_core(&record.start.to_text()),
            rs::start(&game),
            "{name}"
        );
        assert_eq!(koma_moves(&record), moves, "{name}");
        let times: Vec<Option<Duration>> = theirs.moves.iter().map(|m| m.time).collect();
        let koma_times: Vec<Option<Duration>> = record.moves.iter().map(|m| m.time).collect();
        assert_eq!(koma_times, times[..moves.len()], "{name}");
        assert_eq!(record.ending, nozaq::ending_of(special), "{name}");
        assert_eq!(record.headers.sente, theirs.black_player, "{name}");
        assert_eq!(record.headers.gote, theirs.white_player, "{name}");
        assert_eq!(record.headers.event, theirs.event, "{name}");
        assert_eq!(record.headers.site, theirs.site, "{name}");
        assert_eq!(record.headers.opening, theirs.opening, "{name}");
    }
}
