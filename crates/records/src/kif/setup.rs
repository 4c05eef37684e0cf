//! The start of a KIF game: the handicap (`手合割`), or a board diagram with
//! both hands and the side to move; read and written.

use super::KifErrorKind;
use crate::kanji;
use koma_rules::{
    Color, Handicap, Piece, Position, Role, ShogiPosition, ShogiVariant, Square, Variant,
};

/// The `手合割` of an even game of shogi.
const EVEN_NAME: &str = "平手";

/// The `手合割` of minishogi, as Kifu for Windows names it.
pub const MINISHOGI_NAME: &str = "5五将棋";
/// The `手合割` Koma writes for Spear Shogi (with a diagram, which is what
/// other software can read).
pub const SPEAR_NAME: &str = "槍将棋";

/// The game a `手合割` value names, if it names one.
pub fn game_of_handicap(name: &str) -> Option<Variant> {
    let name = name.trim();
    if name == MINISHOGI_NAME || name == "５五将棋" || name == "五五将棋" {
        Some(Variant::Minishogi)
    } else if name == SPEAR_NAME {
        Some(Variant::Spear)
    } else if name == EVEN_NAME || name.parse::<Handicap>().is_ok_and(|h| h.japanese() == name) {
        Some(Variant::Shogi)
    } else {
        None
    }
}

/// The start a `手合割` names in game `V`: `Ok(None)` for `その他` (the
/// diagram says).
pub fn handicap_start<V: ShogiVariant>(
    name: &str,
) -> Result<Option<ShogiPosition<V>>, KifErrorKind> {
    let name = name.trim();
    if name == "その他" {
        return Ok(None);
    }
    if name == "平手" && V::VARIANT != Variant::Shogi {
        // Some writers call any even game 平手.
        return Ok(Some(ShogiPosition::start()));
    }
    match game_of_handicap(name) {
        Some(game) if game != V::VARIANT => Err(KifErrorKind::WrongGame {
            expected: V::VARIANT,
            found: game,
        }),
        Some(Variant::Shogi) => {
            let start = match name.parse::<Handicap>() {
                Ok(handicap) => handicap.position().to_text(),
                Err(_) => ShogiPosition::<V>::start().to_text(),
            };
            let position =
                ShogiPosition::<V>::from_text(&start).map_err(KifErrorKind::InvalidPosition)?;
            Ok(Some(position))
        }
        Some(_) => Ok(Some(ShogiPosition::start())),
        None => Err(KifErrorKind::UnknownHandicap(name.to_owned())),
    }
}

/// The `手合割` naming `start`, if it is a named start.
pub fn handicap_name<V: ShogiVariant>(start: &ShogiPosition<V>) -> Option<&'static str> {
    // The game's own start, whatever the move number says.
    let board_and_turn = |sfen: String| sfen.rsplit_once(' ').map(|(head, _)| head.to_owned());
    let at_start = board_and_turn(start.to_text())
        .is_some_and(|text| board_and_turn(ShogiPosition::<V>::start().to_text()) == Some(text));
    match V::VARIANT {
        Variant::Shogi if at_start => Some(EVEN_NAME),
        Variant::Shogi => Handicap::of_position(start).map(Handicap::japanese),
        Variant::Minishogi => at_start.then_some(MINISHOGI_NAME),
        Variant::Spear => at_start.then_some(SPEAR_NAME),
        Variant::Pawns => None,
    }
}

/// A diagram being read: rows, hands and the side to move.
pub struct Diagram<V: ShogiVariant> {
    position: ShogiPosition<V>,
    rows: u8,
    pub seen: bool,
}

impl<V: ShogiVariant> Diagram<V> {
    pub fn new() -> Self {
        Diagram {
            position: ShogiPosition::empty(),
            rows: 0,
            seen: false,
        }
    }

    /// Reads a row `| ・ ・v銀v玉 ・|一`.
    pub fn row(&mut self, line: &str) -> Result<(), KifErrorKind> {
        let bad = || KifErrorKind::BadDiagram(line.to_owned());
        self.seen = true;
        let inner = line.strip_prefix('|').ok_or_else(bad)?;
        let inner = inner.split('|').next().unwrap_or_default();
        let chars: Vec<char> = inner.chars().collect();
        let files = V::SPEC.files;
        if chars.len() != files as usize * 2 {
            let width = chars.len() / 2;
            return Err(if width == 5 || width == 9 {
                KifErrorKind::WrongBoardSize {
                    expected: files,
                    found: width as u8,
                }
            } else {
                bad()
            });
        }
        if self.rows >= V::SPEC.ranks {
            return Err(bad());
        }
        for (column, cell) in chars.chunks(2).enumerate() {
            let square =
                Square::from_coords(files - 1 - column as u8, self.rows).ok_or_else(bad)?;
            let color = match cell[0] {
                'v' | 'V' | '^' => Color::Gote,
                ' ' | '+' | '　' => Color::Sente,
                _ => return Err(bad()),
            };
            if cell[1] == '・' || cell[1] == '　' || cell[1] == ' ' {
                continue;
            }
            let (role, _) = kanji::parse_piece(V::VARIANT, &cell[1].to_string()).ok_or_else(bad)?;
            if !V::SPEC.board_roles.contains(&role) {
                return Err(bad());
            }
            self.position.put(square, Piece::new(color, role));
        }
        self.rows += 1;
        Ok(())
    }

    /// Reads a hand: `飛二 角 金四` or `なし`.
    pub fn hand(&mut self, color: Color, list: &str) -> Result<(), KifErrorKind> {
        let bad = || KifErrorKind::BadHand(list.trim().to_owned());
        for item in list.split(char::is_whitespace).filter(|s| !s.is_empty()) {
            if item == "なし" {
                continue;
            }
            let (role, len) = kanji::parse_piece(V::VARIANT, item).ok_or_else(bad)?;
            let count = match &item[len..] {
                "" => 1,
                rest => kanji::parse_count(rest).ok_or_else(bad)?,
            };
            let held_king = V::KINGS_ARE_CAPTURED && role == Role::King;
            if !(V::SPEC.hand_roles.contains(&role) || held_king) || count > 40 {
                return Err(bad());
            }
            let held = self.position.hand(color).count(role) as u32;
            self.position
                .set_hand_count(color, role, (held + count).min(40) as u8);
        }
        Ok(())
    }

    /// Whether hands were given (without a board they cannot be placed).
    pub fn has_hands(&self) -> bool {
        !self.position.hand(Color::Sente).is_empty() || !self.position.hand(Color::Gote).is_empty()
    }

    /// The position drawn, validated as SFEN is.
    pub fn finish(mut self, turn: Color) -> Result<ShogiPosition<V>, KifErrorKind> {
        if self.rows != V::SPEC.ranks {
            return Err(KifErrorKind::BadDiagram(format!(
                "{} rows where the board has {}",
                self.rows,
                V::SPEC.ranks
            )));
        }
        self.position.set_turn(turn);
        ShogiPosition::from_text(&self.position.to_text()).map_err(KifErrorKind::InvalidPosition)
    }
}

/// The diagram of `position`: Gote's hand, the board, Sente's hand, and
/// `後手番` when Gote is to move.
pub fn write_diagram<V: ShogiVariant>(position: &ShogiPosition<V>, out: &mut String) {
    let files = V::SPEC.files;
    write_hand(position, Color::Gote, out);
    out.push(' ');
    for file in (0..files).rev() {
        out.push(' ');
        out.push(kanji::file_digit(file));
    }
    out.push('\n');
    let border = format!("+{}+\n", "-".repeat(files as usize * 3));
    out.push_str(&border);
    for rank in 0..V::SPEC.ranks {
        out.push('|');
        for file in (0..files).rev() {
            let square = Square::from_coords(file, rank).expect("on the board");
            match position.piece_at(square) {
                None => out.push_str(" ・"),
                Some(piece) => {
                    out.push(if piece.color == Color::Gote { 'v' } else { ' ' });
                    out.push(kanji::piece_char(V::VARIANT, piece.role));
                }
            }
        }
        out.push('|');
        out.push(kanji::NUMERALS[rank as usize]);
        out.push('\n');
    }
    out.push_str(&border);
    write_hand(position, Color::Sente, out);
    if position.turn() == Color::Gote {
        out.push_str("後手番\n");
    }
}

fn write_hand<V: ShogiVariant>(position: &ShogiPosition<V>, color: Color, out: &mut String) {
    out.push_str(match color {
        Color::Sente => "先手の持駒：",
        Color::Gote => "後手の持駒：",
    });
    let hand = position.hand(color);
    let items: Vec<String> = Role::HAND_ORDER
        .iter()
        .filter(|&&role| hand.count(role) > 0)
        .map(|&role| match hand.count(role) {
            1 => kanji::piece_char(V::VARIANT, role).to_string(),
            n => format!(
                "{}{}",
                kanji::piece_char(V::VARIANT, role),
                kanji::count(n.into())
            ),
        })
        .collect();
    if items.is_empty() {
        out.push_str("なし");
    } else {
        out.push_str(&items.join("　"));
    }
    out.push('\n');
}
