//! What Koma writes (random legal games: CSA, USI), the others read as
//! the same game (part 1 of the cross-checks).

use super::games::{koma_moves, koma_random_game, sfen_core, usi_parts, Coverage, RANDOM_GAMES};
use super::{nozaq, rs, skc};
use koma_rules::Position;

#[test]
fn koma_csa_reads_the_same_in_rsshogi_nozaq_csa_and_shogi_kifu_converter() {
    let mut coverage = Coverage::default();
    for seed in 0..RANDOM_GAMES {
        let record = koma_random_game(seed);
        coverage.add(&record);
        let text = koma_records::csa::write(&record);
        let name = format!("game {seed}\n{text}");
        let start = sfen_core(&record.start.to_text());
        let moves = koma_moves(&record);

        let theirs = rsshogi::records::formats::csa::parse_csa_str(&text)
            .unwrap_or_else(|e| panic!("rsshogi: {e}: {name}"));
        rs::assert_same(&name, &record, &theirs);

        let theirs = nozaq::read(&text);
        assert_eq!(theirs.start, start, "nozaq start: {name}");
        assert_eq!(theirs.moves, moves, "nozaq moves: {name}");
        assert_eq!(
            theirs.special,
            record.ending.and_then(nozaq::special),
            "nozaq ending: {name}"
        );

        // shogi-kifu-converter replays slowly (some 0.3 ms a move): one game in 5.
        if seed % 5 == 0 {
            let jkf = shogi_kifu_converter::parser::parse_csa_str(&text)
                .unwrap_or_else(|e| panic!("shogi-kifu-converter: {e}: {name}"));
            assert_eq!(skc::usi(&jkf), (start, moves), "skc: {name}");
        }
    }
    coverage.assert_broad();
}

#[test]
fn koma_usi_reads_the_same_in_rsshogi_and_haitaka() {
    for seed in 0..RANDOM_GAMES {
        let record = koma_random_game(seed);
        let text = koma_records::usi::write(&record);
        let name = format!("game {seed}: {text}");
        let moves = koma_moves(&record);

        let theirs = rsshogi::records::formats::usi::parse_usi_position(&text)
            .unwrap_or_else(|e| panic!("rsshogi: {e}: {name}"));
        assert_eq!(
            rs::start(&theirs),
            sfen_core(&record.start.to_text()),
            "{name}"
        );
        assert_eq!(rs::moves(&theirs), moves, "{name}");
        assert_eq!(
            rs::final_sfen(&theirs),
            sfen_core(&record.final_position().to_text()),
            "{name}"
        );

        // haitaka reads the SFEN Koma writes and writes it back to the letter
        // (hand order, move number), then finds every move legal.
        let sfen = record.start.to_text();
        let mut board =
            haitaka::Board::from_sfen(&sfen).unwrap_or_else(|e| panic!("{e:?}: {name}"));
        assert_eq!(board.to_string(), sfen, "{name}");
        let (_, words) = usi_parts(&text);
        for word in &words {
            let m: haitaka::Move = word
                .parse()
                .unwrap_or_else(|e| panic!("{word}: {e:?}: {name}"));
            board
                .try_play(m)
                .unwrap_or_else(|_| panic!("haitaka: {word} is illegal: {name}"));
        }
        assert_eq!(words, moves, "{name}");
        assert_eq!(
            board.to_string(),
            record.final_position().to_text(),
            "{name}"
        );
    }
}
