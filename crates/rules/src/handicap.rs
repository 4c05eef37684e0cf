//! Handicap games of shogi (駒落ち): the giver (上手) plays without some of
//! their pieces, takes Gote's side and moves first.

use crate::{Color, Position, ShogiPosition, ShogiVariant, Square, StandardShogiPosition, Variant};
use std::fmt;
use std::str::FromStr;

/// One of the fifteen standard handicaps of shogi.
///
/// ```
/// use koma_rules::{Color, Handicap, Position};
///
/// let handicap: Handicap = "two-piece".parse().unwrap();
/// assert_eq!(handicap, Handicap::TwoPiece);
/// assert_eq!(handicap.japanese(), "二枚落ち");
/// let start = handicap.position();
/// assert_eq!(start.turn(), Color::Gote);
/// assert_eq!(
///     start.to_text(),
///     "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
/// );
/// assert_eq!(Handicap::of_position(&start), Some(Handicap::TwoPiece));
/// assert!("queen".parse::<Handicap>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 香落ち: the giver's left lance (1a).
    Lance,
    /// 右香落ち: the giver's right lance (9a).
    RightLance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: the rook and the left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPiece,
    /// 三枚落ち: rook, bishop and the left lance.
    ThreePiece,
    /// 四枚落ち: rook, bishop and both lances.
    FourPiece,
    /// 五枚落ち: rook, bishop, both lances and the right knight.
    FivePiece,
    /// 左五枚落ち: rook, bishop, both lances and the left knight.
    LeftFivePiece,
    /// 六枚落ち: rook, bishop, lances and knights.
    SixPiece,
    /// 左七枚落ち: six pieces and the left silver.
    LeftSevenPiece,
    /// 右七枚落ち: six pieces and the right silver.
    RightSevenPiece,
    /// 八枚落ち: six pieces and both silvers.
    EightPiece,
    /// 十枚落ち: every piece but the king and the pawns.
    TenPiece,
}

/// Everything a handicap is known by, in the order of [`Handicap::ALL`].
struct Entry {
    handicap: Handicap,
    name: &'static str,
    title: &'static str,
    japanese: &'static str,
    /// The giver's squares left empty, as USI names.
    removed: &'static [&'static str],
}

const TWO: [&str; 2] = ["8b", "2b"];

const ENTRIES: [Entry; 15] = [
    Entry {
        handicap: Handicap::Lance,
        name: "lance",
        title: "Lance",
        japanese: "香落ち",
        removed: &["1a"],
    },
    Entry {
        handicap: Handicap::RightLance,
        name: "right-lance",
        title: "Right lance",
        japanese: "右香落ち",
        removed: &["9a"],
    },
    Entry {
        handicap: Handicap::Bishop,
        name: "bishop",
        title: "Bishop",
        japanese: "角落ち",
        removed: &["2b"],
    },
    Entry {
        handicap: Handicap::Rook,
        name: "rook",
        title: "Rook",
        japanese: "飛車落ち",
        removed: &["8b"],
    },
    Entry {
        handicap: Handicap::RookLance,
        name: "rook-lance",
        title: "Rook and lance",
        japanese: "飛香落ち",
        removed: &["8b", "1a"],
    },
    Entry {
        handicap: Handicap::TwoPiece,
        name: "two-piece",
        title: "Two pieces",
        japanese: "二枚落ち",
        removed: &TWO,
    },
    Entry {
        handicap: Handicap::ThreePiece,
        name: "three-piece",
        title: "Three pieces",
        japanese: "三枚落ち",
        removed: &[TWO[0], TWO[1], "1a"],
    },
    Entry {
        handicap: Handicap::FourPiece,
        name: "four-piece",
        title: "Four pieces",
        japanese: "四枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a"],
    },
    Entry {
        handicap: Handicap::FivePiece,
        name: "five-piece",
        title: "Five pieces",
        japanese: "五枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a", "8a"],
    },
    Entry {
        handicap: Handicap::LeftFivePiece,
        name: "left-five-piece",
        title: "Left five pieces",
        japanese: "左五枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a", "2a"],
    },
    Entry {
        handicap: Handicap::SixPiece,
        name: "six-piece",
        title: "Six pieces",
        japanese: "六枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a", "8a", "2a"],
    },
    Entry {
        handicap: Handicap::LeftSevenPiece,
        name: "left-seven-piece",
        title: "Left seven pieces",
        japanese: "左七枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a", "8a", "2a", "3a"],
    },
    Entry {
        handicap: Handicap::RightSevenPiece,
        name: "right-seven-piece",
        title: "Right seven pieces",
        japanese: "右七枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a", "8a", "2a", "7a"],
    },
    Entry {
        handicap: Handicap::EightPiece,
        name: "eight-piece",
        title: "Eight pieces",
        japanese: "八枚落ち",
        removed: &[TWO[0], TWO[1], "1a", "9a", "8a", "2a", "7a", "3a"],
    },
    Entry {
        handicap: Handicap::TenPiece,
        name: "ten-piece",
        title: "Ten pieces",
        japanese: "十枚落ち",
        removed: &[
            TWO[0], TWO[1], "1a", "9a", "8a", "2a", "7a", "3a", "6a", "4a",
        ],
    },
];

impl Handicap {
    /// The fifteen handicaps, from the smallest to the largest.
    pub const ALL: [Handicap; 15] = [
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPiece,
        Handicap::ThreePiece,
        Handicap::FourPiece,
        Handicap::FivePiece,
        Handicap::LeftFivePiece,
        Handicap::SixPiece,
        Handicap::LeftSevenPiece,
        Handicap::RightSevenPiece,
        Handicap::EightPiece,
        Handicap::TenPiece,
    ];

    fn entry(self) -> &'static Entry {
        let entry = &ENTRIES[self as usize];
        debug_assert_eq!(entry.handicap, self, "ENTRIES follows the enum's order");
        entry
    }

    /// The name on the command line and in the API: `two-piece`.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The English name people read: `Two pieces`.
    pub fn title(self) -> &'static str {
        self.entry().title
    }

    /// The Japanese name, as KIF's `手合割` writes it: `二枚落ち`.
    pub fn japanese(self) -> &'static str {
        self.entry().japanese
    }

    /// The squares the giver's missing pieces stand on in an even game.
    pub fn removed(self) -> impl Iterator<Item = Square> {
        self.entry()
            .removed
            .iter()
            .map(|name| name.parse().expect("the table names squares"))
    }

    /// The start: the even position without the giver's removed pieces,
    /// Gote (the giver) to move.
    pub fn position(self) -> StandardShogiPosition {
        let mut position = StandardShogiPosition::start();
        for square in self.removed() {
            position.take(square);
        }
        position.set_turn(Color::Gote);
        position.refresh();
        position
    }

    /// The handicap whose start `position` is (its move number aside);
    /// `None` in the 5×5 games, which have no handicaps.
    pub fn of_position<V: ShogiVariant>(position: &ShogiPosition<V>) -> Option<Handicap> {
        fn board_and_turn(sfen: String) -> Option<String> {
            sfen.rsplit_once(' ').map(|(head, _)| head.to_owned())
        }
        // Every handicap start has Gote to move: even games are told at once.
        if V::VARIANT != Variant::Shogi || position.turn() != Color::Gote {
            return None;
        }
        let wanted = board_and_turn(position.to_text())?;
        Handicap::ALL.into_iter().find(|handicap| {
            board_and_turn(handicap.position().to_text()).as_deref() == Some(&wanted)
        })
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the standard handicaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownHandicap(pub String);

impl fmt::Display for UnknownHandicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Handicap::ALL.iter().map(|h| h.name()).collect();
        write!(
            f,
            "unknown handicap {:?}: expected one of {} (or its Japanese name, like 二枚落ち)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownHandicap {}

impl FromStr for Handicap {
    type Err = UnknownHandicap;

    /// Reads a handicap by its name (`two-piece`, also `2-piece`, `two
    /// pieces` or `Two pieces`) or its Japanese name (`二枚落ち`).
    fn from_str(text: &str) -> Result<Handicap, UnknownHandicap> {
        let trimmed = text.trim();
        let key = normalise(trimmed);
        Handicap::ALL
            .into_iter()
            .find(|h| {
                let entry = h.entry();
                entry.japanese == trimmed || entry.name == key || normalise(entry.title) == key
            })
            .ok_or_else(|| UnknownHandicap(text.to_owned()))
    }
}

/// Lower case, words joined by `-`, numbers as words, `pieces` as
/// `piece`, `and` dropped: `Left 7 pieces` is `left-seven-piece`.
fn normalise(text: &str) -> String {
    const NUMBERS: [(&str, &str); 8] = [
        ("2", "two"),
        ("3", "three"),
        ("4", "four"),
        ("5", "five"),
        ("6", "six"),
        ("7", "seven"),
        ("8", "eight"),
        ("10", "ten"),
    ];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|word| !word.is_empty() && *word != "and")
        .map(
            |word| match NUMBERS.iter().find(|(digit, _)| *digit == word) {
                Some((_, name)) => name,
                None if word == "pieces" => "piece",
                None => word,
            },
        )
        .collect();
    words.join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The starts as lishogi and Kifu for Windows give them, written out
    /// by hand rather than derived from the removed squares.
    const KNOWN: [(&str, &str); 15] = [
        (
            "香落ち",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "右香落ち",
            "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "角落ち",
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "飛車落ち",
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "飛香落ち",
            "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "二枚落ち",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "三枚落ち",
            "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "四枚落ち",
            "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "五枚落ち",
            "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "左五枚落ち",
            "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "六枚落ち",
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "左七枚落ち",
            "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "右七枚落ち",
            "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "八枚落ち",
            "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "十枚落ち",
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
    ];

    #[test]
    fn every_start_is_the_known_one() {
        for ((japanese, sfen), handicap) in KNOWN.iter().zip(Handicap::ALL) {
            assert_eq!(handicap.japanese(), *japanese);
            assert_eq!(handicap.position().to_text(), *sfen, "{handicap}");
            assert_eq!(japanese.parse(), Ok(handicap));
            assert_eq!(handicap.name().parse(), Ok(handicap));
            assert_eq!(handicap.title().parse(), Ok(handicap));
            assert_eq!(Handicap::ALL[handicap as usize], handicap);
        }
    }

    #[test]
    fn names_are_read_loosely_but_not_wrongly() {
        assert_eq!("2-piece".parse(), Ok(Handicap::TwoPiece));
        assert_eq!("Two Pieces".parse(), Ok(Handicap::TwoPiece));
        assert_eq!("10-piece".parse(), Ok(Handicap::TenPiece));
        assert_eq!("left 7 pieces".parse(), Ok(Handicap::LeftSevenPiece));
        assert_eq!("rook and lance".parse(), Ok(Handicap::RookLance));
        for wrong in [
            "",
            "piece",
            "nine-piece",
            "9-piece",
            "queen",
            "平手",
            "lance lance",
        ] {
            let error = wrong.parse::<Handicap>().unwrap_err();
            assert!(error.to_string().contains("two-piece"), "{error}");
        }
    }

    #[test]
    fn even_and_other_positions_are_no_handicap() {
        assert_eq!(Handicap::of_position(&StandardShogiPosition::start()), None);
        let mut lance_sente_to_move = Handicap::Lance.position();
        lance_sente_to_move.set_turn(Color::Sente);
        assert_eq!(Handicap::of_position(&lance_sente_to_move), None);
        let mut later = Handicap::Bishop.position();
        later.set_move_number(5);
        assert_eq!(Handicap::of_position(&later), Some(Handicap::Bishop));
    }
}
