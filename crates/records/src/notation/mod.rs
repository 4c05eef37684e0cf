//! Moves as people read them in each game: Japanese, as KIF writes them,
//! for the shogi games (`７六歩(77)`, `同　銀(31)`), and coordinates for
//! Pawns-Only Chess (`e4`, `exd5`). The move lists of the board, analysis
//! lines and annotated records all write moves through [`Notation`].
//!
//! For the shogi games [`MoveNotations`] holds a move in each notation a
//! player may choose: Japanese as KI2 writes it ([`crate::ki2::move_text`]),
//! Japanese with the origin square as KIF writes it, Western
//! ([`western`]), USI, and Kitao–Kawasaki ([`kitao_kawasaki`]).

pub mod kitao_kawasaki;
pub mod western;

use koma_rules::pawns::square_name;
use koma_rules::{Color, Move, PawnsPosition, Position, ShogiPosition, ShogiVariant, Variant};

/// A move of a shogi game in every notation a player may choose.
///
/// ```
/// use koma_records::notation::MoveNotations;
/// use koma_rules::{Position, StandardShogiPosition};
/// let start = StandardShogiPosition::start();
/// let m = start.parse_move("7g7f").unwrap();
/// let notations = MoveNotations::new(&start, m, None);
/// assert_eq!(notations.japanese, "▲７六歩");
/// assert_eq!(notations.japanese_origin, "▲７六歩(77)");
/// assert_eq!(notations.western.as_deref(), Some("P-7f"));
/// assert_eq!(notations.usi, "7g7f");
/// assert_eq!(notations.kitao_kawasaki.as_deref(), Some("歩-76"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNotations {
    /// As KI2 and printed records write it: `▲７六歩`, `△同　銀`, `▲５八金右`.
    pub japanese: String,
    /// As KIF writes it, with the origin square: `▲７六歩(77)`.
    pub japanese_origin: String,
    /// Hodges's Western notation: `P-7f`, `Sx5c+`, `B*5e`. `None` in Spear,
    /// whose pieces have no Western letters of their own.
    pub western: Option<String>,
    /// USI: `7g7f`, `8h2b+`, `P*5e`.
    pub usi: String,
    /// Kitao–Kawasaki as lishogi writes it: `歩-76`, `角x22+`. `None` in
    /// Spear, as `western`.
    pub kitao_kawasaki: Option<String>,
}

impl MoveNotations {
    /// `m`, legal in `before`, where `previous` was the move before it
    /// (Japanese notations write a move to its square as `同`).
    pub fn new<V: ShogiVariant>(before: &ShogiPosition<V>, m: Move, previous: Option<Move>) -> Self
    where
        ShogiPosition<V>: Position,
    {
        let previous_to = previous.map(Move::to);
        let mark = match before.turn() {
            Color::Sente => '▲',
            Color::Gote => '△',
        };
        let western_too = V::VARIANT != Variant::Spear;
        MoveNotations {
            japanese: format!("{mark}{}", crate::ki2::move_text(before, m, previous_to)),
            japanese_origin: format!("{mark}{}", crate::kif::move_text(before, m, previous_to)),
            western: western_too.then(|| western::move_text(before, m)),
            usi: <ShogiPosition<V> as Position>::move_to_text(m),
            kitao_kawasaki: western_too.then(|| kitao_kawasaki::move_text(before, m, previous_to)),
        }
    }
}

/// How a game writes its moves.
pub trait Notation: Position {
    /// `m`, played in `before`, without a mark of the side; `previous` is
    /// the move before it (KIF writes `同` for a recapture).
    fn move_text(before: &Self, m: Move, previous: Option<Move>) -> String;

    /// `moves`, a line played from `start` after `previous`, as the game
    /// writes a line: `▲７六歩(77)△３四歩(33)` (as ShogiHome and Kifu for
    /// Windows write an engine's line) or `1. e4 d5 2. exd5`.
    ///
    /// ```
    /// use koma_records::notation::Notation;
    /// use koma_rules::{PawnsPosition, Position, StandardShogiPosition};
    ///
    /// fn line<P: Position>(start: P, texts: &[&str]) -> Vec<koma_rules::Move> {
    ///     texts
    ///         .iter()
    ///         .scan(start, |position, text| {
    ///             let m = position.parse_move(text).unwrap();
    ///             position.play_unchecked(m);
    ///             Some(m)
    ///         })
    ///         .collect()
    /// }
    /// let start = StandardShogiPosition::start();
    /// let moves = line(start, &["7g7f", "3c3d", "8h2b+", "3a2b"]);
    /// assert_eq!(
    ///     StandardShogiPosition::line_text(&start, &moves, None),
    ///     "▲７六歩(77)△３四歩(33)▲２二角成(88)△同　銀(31)"
    /// );
    /// let pawns = PawnsPosition::start();
    /// let moves = line(pawns, &["e2e4", "d7d5", "e4d5"]);
    /// assert_eq!(PawnsPosition::line_text(&pawns, &moves, None), "1. e4 d5 2. exd5");
    /// assert_eq!(PawnsPosition::line_text(&pawns, &moves[..2], None), "1. e4 d5");
    /// ```
    fn line_text(start: &Self, moves: &[Move], previous: Option<Move>) -> String;
}

impl<V: ShogiVariant> Notation for ShogiPosition<V>
where
    ShogiPosition<V>: Position,
{
    fn move_text(before: &Self, m: Move, previous: Option<Move>) -> String {
        crate::kif::move_text(before, m, previous.map(Move::to))
    }

    fn line_text(start: &Self, moves: &[Move], previous: Option<Move>) -> String {
        let mut position = *start;
        let mut previous = previous;
        let mut text = String::new();
        for &m in moves {
            text.push(match position.turn() {
                Color::Sente => '▲',
                Color::Gote => '△',
            });
            text.push_str(&Self::move_text(&position, m, previous));
            position.play_unchecked(m);
            previous = Some(m);
        }
        text
    }
}

impl Notation for PawnsPosition {
    fn move_text(_before: &Self, m: Move, _previous: Option<Move>) -> String {
        match m {
            Move::Board { from, to, .. } if from.file() != to.file() => {
                format!("{}x{}", &square_name(from)[..1], square_name(to))
            }
            _ => square_name(m.to()),
        }
    }

    fn line_text(start: &Self, moves: &[Move], _previous: Option<Move>) -> String {
        let mut position = *start;
        let mut words = Vec::new();
        for (index, &m) in moves.iter().enumerate() {
            match position.turn() {
                Color::Sente => words.push(format!("{}.", position.fullmove())),
                Color::Gote if index == 0 => words.push(format!("{}...", position.fullmove())),
                Color::Gote => {}
            }
            words.push(Self::move_text(&position, m, None));
            position.play_unchecked(m);
        }
        words.join(" ")
    }
}
