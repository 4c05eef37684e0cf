//! shogi-kifu-converter's side: its reading of a record as USI (through
//! shogi_core), its variations, and the ending Koma should read for its
//! special moves.

use super::games::usi_parts;
use koma_records::Ending;

/// shogi-kifu-converter's reading, as its USI: start and moves.
pub fn usi(jkf: &shogi_kifu_converter::JKF) -> (String, Vec<String>) {
    use shogi_core::ToUsi;
    usi_parts(&jkf.to_usi_owned())
}

/// shogi-kifu-converter's reading of a KIF or KI2 text.
pub fn kifu(ki2: bool, text: &str) -> shogi_kifu_converter::JKF {
    use shogi_kifu_converter::parser;
    if ki2 {
        parser::parse_ki2_str(text).unwrap()
    } else {
        parser::parse_kif_str(text).unwrap()
    }
}

/// The ending Koma should read for a special move shogi-kifu-converter
/// writes in CSA.
pub fn ending_of(special: shogi_kifu_converter::jkf::MoveSpecial) -> Option<Ending> {
    use shogi_kifu_converter::jkf::MoveSpecial as S;
    match special {
        S::SpecialToryo => Some(Ending::Resignation),
        S::SpecialChudan | S::SpecialError => Some(Ending::Abandoned),
        S::SpecialSennichite => Some(Ending::Repetition),
        S::SpecialTimeUp => Some(Ending::Timeout),
        S::SpecialIllegalMove => Some(Ending::IllegalMove),
        S::SpecialIllegalActionBlack => Some(Ending::SenteIllegalAction),
        S::SpecialIllegalActionWhite => Some(Ending::GoteIllegalAction),
        S::SpecialJishogi => Some(Ending::Impasse),
        S::SpecialKachi => Some(Ending::ImpasseWin),
        S::SpecialHikiwake => Some(Ending::Draw),
        S::SpecialMatta => None,
        S::SpecialTsumi => Some(Ending::Checkmate),
        S::SpecialFuzumi => Some(Ending::NoMate),
    }
}

/// The special move that ends the main line, if any.
pub fn special(jkf: &shogi_kifu_converter::JKF) -> Option<shogi_kifu_converter::jkf::MoveSpecial> {
    jkf.moves.last().and_then(|m| m.special)
}

/// Every variation (fork) shogi-kifu-converter read, as its first move
/// number and moves in USI, sorted.
pub fn variations(jkf: &shogi_kifu_converter::JKF) -> Vec<(usize, Vec<String>)> {
    use shogi_kifu_converter::jkf::{MoveFormat, MoveMoveFormat};
    fn usi(m: MoveMoveFormat) -> String {
        let square = |x: u8, y: u8| format!("{x}{}", (b'a' + y - 1) as char);
        match m.from {
            Some(from) => format!(
                "{}{}{}",
                square(from.x, from.y),
                square(m.to.x, m.to.y),
                if m.promote == Some(true) { "+" } else { "" }
            ),
            None => {
                let letter = format!("{:?}", m.piece);
                let letter = match letter.as_str() {
                    "FU" => 'P',
                    "KY" => 'L',
                    "KE" => 'N',
                    "GI" => 'S',
                    "KI" => 'G',
                    "KA" => 'B',
                    "HI" => 'R',
                    other => panic!("{other} dropped"),
                };
                format!("{letter}*{}", square(m.to.x, m.to.y))
            }
        }
    }
    fn walk(moves: &[MoveFormat], first_ply: usize, lines: &mut Vec<(usize, Vec<String>)>) {
        for (index, m) in moves.iter().enumerate() {
            for fork in m.forks.iter().flatten() {
                let line: Vec<String> = fork.iter().map_while(|m| m.move_.map(usi)).collect();
                if !line.is_empty() {
                    lines.push((first_ply + index, line));
                }
                walk(fork, first_ply + index, lines);
            }
        }
    }
    let mut lines = Vec::new();
    walk(&jkf.moves[1..], 1, &mut lines);
    lines.sort();
    lines
}
