//! shogi-server's handicaps, turned round. shogi-server seats the
//! handicap giver as sente (`+`), its missing pieces at the bottom of the
//! board, moving first; Koma (and the KIF tradition) seats the giver as
//! gote, at the top. The two are the same game seen from the other side:
//! the board turned half a circle and the colours swapped. The players
//! see shogi-server's; the store keeps Koma's handicap, so that the board
//! and the API know it for one; the moves are turned on their way in.

use koma_rules::{Position, StandardShogiPosition};

/// `position` turned half a circle with the colours swapped: the same
/// game, seen by the other player.
pub fn turned_position(position: &StandardShogiPosition) -> StandardShogiPosition {
    let text = position.to_text();
    let mut fields = text.split(' ');
    let (board, turn, hands) = (
        fields.next().unwrap_or(""),
        fields.next().unwrap_or("b"),
        fields.next().unwrap_or("-"),
    );
    let rows: Vec<String> = board.split('/').rev().map(turned_row).collect();
    let turn = if turn == "b" { "w" } else { "b" };
    let hands: String = hands.chars().map(swap_case).collect();
    let turned = format!("{} {turn} {hands} 1", rows.join("/"));
    StandardShogiPosition::from_text(&turned)
        .expect("a legal position turned round is a legal position")
}

/// One SFEN row read from the other side: its squares in reverse order,
/// each piece the other colour's (`+p` stays a promoted piece).
fn turned_row(row: &str) -> String {
    let mut squares: Vec<String> = Vec::new();
    let mut promoted = false;
    for c in row.chars() {
        if c == '+' {
            promoted = true;
            continue;
        }
        let prefix = if promoted { "+" } else { "" };
        squares.push(format!("{prefix}{}", swap_case(c)));
        promoted = false;
    }
    squares.reverse();
    squares.concat()
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// A CSA move read from the other side: `+7776FU` is `-3334FU`, `-0055KA`
/// is `+0055KA` (a square's file and rank `d` become `10 - d`; a drop's
/// `00` stays). Anything that is not a move's shape comes back as it was,
/// to be found illegal.
pub fn turned_code(code: &str) -> String {
    let bytes = code.as_bytes();
    if bytes.len() != 7 || !bytes[1..5].iter().all(u8::is_ascii_digit) {
        return code.to_owned();
    }
    let sign = match bytes[0] {
        b'+' => '-',
        b'-' => '+',
        _ => return code.to_owned(),
    };
    let square = |pair: &[u8]| -> String {
        if pair == b"00" {
            return "00".to_owned();
        }
        pair.iter()
            .map(|&d| match d {
                b'1'..=b'9' => char::from(b'0' + 10 - (d - b'0')),
                _ => char::from(d),
            })
            .collect()
    };
    format!(
        "{sign}{}{}{}",
        square(&bytes[1..3]),
        square(&bytes[3..5]),
        &code[5..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Color, Handicap};

    #[test]
    fn a_handicap_turned_is_shogi_servers() {
        let koma = Handicap::Lance.position();
        let turned = turned_position(&koma);
        assert_eq!(
            turned.to_text(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/1NSGKGSNL b - 1"
        );
        assert_eq!(turned.turn(), Color::Sente);
        assert_eq!(turned_position(&turned), koma);
        let promoted =
            StandardShogiPosition::from_text("4k4/9/4+P4/9/9/9/9/2+r6/4K4 b Pb 1").unwrap();
        assert_eq!(
            turned_position(&promoted).to_text(),
            "4k4/6+R2/9/9/9/9/4+p4/9/4K4 w Bp 1"
        );
    }

    #[test]
    fn moves_turned() {
        assert_eq!(turned_code("+7776FU"), "-3334FU");
        assert_eq!(turned_code("-0055KA"), "+0055KA");
        assert_eq!(turned_code("+2822RY"), "-8288RY");
        assert_eq!(turned_code("+19"), "+19");
        assert_eq!(turned_code("+a776FU"), "+a776FU");
        assert_eq!(turned_code("*7776FU"), "*7776FU");
        assert_eq!(turned_code("-5ö55KA"), "-5ö55KA");
    }
}
