//! Drawing a shogi-family position for a terminal: kanji in the layout of a
//! KIF board diagram (Gote's pieces marked `v`), or ASCII with SFEN letters.

use koma_rules::{Color, Move, Piece, Role, ShogiPosition, ShogiVariant, Square, Variant};

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// SFEN letters instead of kanji.
    pub ascii: bool,
    /// ANSI colours (promoted pieces red, the last move highlighted, check in bold red).
    pub color: bool,
    /// Spear as its seed draws it (see `seed_view.rs`): sides named Black
    /// and White, White at the bottom.
    pub seed_view: bool,
}

const RED: &str = "\x1b[31m";
const BOLD_RED: &str = "\x1b[1;31m";
const REVERSE: &str = "\x1b[7m";
const RESET: &str = "\x1b[0m";

use koma_records::kanji::piece_char as kanji;

/// Rank names: kanji numerals as in KIF, and the USI letter.
const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A piece as three terminal columns.
fn cell(variant: Variant, piece: Option<Piece>, style: Style) -> String {
    match (piece, style.ascii) {
        (None, true) => " . ".to_owned(),
        (None, false) => " ・".to_owned(),
        (Some(piece), true) => {
            let text = piece.to_sfen();
            if text.len() == 1 {
                format!(" {text} ")
            } else {
                format!("{text} ")
            }
        }
        (Some(piece), false) => {
            let mark = if piece.color == Color::Gote { 'v' } else { ' ' };
            format!("{mark}{}", kanji(variant, piece.role))
        }
    }
}

/// A cell in colour, when colour is on: the last move's target in reverse
/// video, promoted pieces in red.
pub fn paint(text: String, piece: Option<Piece>, last_target: bool, style: Style) -> String {
    if !style.color {
        text
    } else if last_target {
        format!("{REVERSE}{text}{RESET}")
    } else if piece.is_some_and(|p| p.role.is_promoted()) {
        format!("{RED}{text}{RESET}")
    } else {
        text
    }
}

/// The hand of `color` as a line, with counts.
pub fn hand_line<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    style: Style,
) -> String {
    let name = side_name(color, style);
    let pieces: Vec<String> = Role::HAND_ORDER
        .iter()
        .filter_map(|&role| {
            let count = position.hand(color).count(role);
            let label = if style.ascii && style.seed_view {
                koma_rules::seed_letter(color, role).to_string()
            } else if style.ascii {
                role.letter().to_string()
            } else {
                kanji(V::VARIANT, role).to_string()
            };
            match count {
                0 => None,
                1 => Some(label),
                n => Some(format!("{label}x{n}")),
            }
        })
        .collect();
    let held = if pieces.is_empty() {
        "-".to_owned()
    } else {
        pieces.join(" ")
    };
    format!("{name} in hand: {held}")
}

/// "▲Sente" or "Sente (b)"; in the seed's view "▲Black" or "Black".
pub fn side_name(color: Color, style: Style) -> &'static str {
    if style.seed_view {
        return match (color, style.ascii) {
            (Color::Sente, false) => "▲Black",
            (Color::Gote, false) => "△White",
            (Color::Sente, true) => "Black",
            (Color::Gote, true) => "White",
        };
    }
    match (color, style.ascii) {
        (Color::Sente, false) => "▲Sente",
        (Color::Gote, false) => "△Gote",
        (Color::Sente, true) => "Sente (b)",
        (Color::Gote, true) => "Gote (w)",
    }
}

/// The whole picture: Gote's hand, the board with coordinates, Sente's hand.
pub fn draw<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    last_move: Option<Move>,
    style: Style,
) -> String {
    let files = V::SPEC.files;
    let ranks = V::SPEC.ranks;
    let mut out = String::new();
    out.push_str(&hand_line(position, Color::Gote, style));
    out.push('\n');
    let labels: String = (1..=files).rev().map(|file| format!("  {file}")).collect();
    out.push_str(&format!(" {labels}\n"));
    let rule = format!(" +{}+\n", "-".repeat(3 * files as usize));
    out.push_str(&rule);
    let highlight = last_move.map(Move::to);
    for rank in 0..ranks {
        out.push_str(" |");
        for file in (0..files).rev() {
            let square = Square::from_coords(file, rank).expect("on the board");
            let piece = position.piece_at(square);
            let text = cell(V::VARIANT, piece, style);
            out.push_str(&paint(text, piece, highlight == Some(square), style));
        }
        let rank_letter = (b'a' + rank) as char;
        if style.ascii {
            out.push_str(&format!("| {rank_letter}\n"));
        } else {
            out.push_str(&format!("| {rank_letter} {}\n", RANK_KANJI[rank as usize]));
        }
    }
    out.push_str(&rule);
    out.push_str(&hand_line(position, Color::Sente, style));
    out.push('\n');
    out
}

/// The status lines under the board: move number, last move (as the view
/// writes it), whose turn, check.
pub fn status<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    ply: usize,
    last_move: Option<String>,
    style: Style,
) -> String {
    let mut out = String::new();
    if let Some(text) = last_move {
        let mover = side_name(!position.turn(), style);
        out.push_str(&format!("Last move: {ply}. {mover} {text}\n"));
    }
    out.push_str(&format!("{} to move.\n", side_name(position.turn(), style)));
    if position.checkers().any() {
        let warning = "Check! Your king is attacked.";
        if style.color {
            out.push_str(&format!("{BOLD_RED}{warning}{RESET}\n"));
        } else {
            out.push_str(&format!("{warning}\n"));
        }
    }
    out
}
