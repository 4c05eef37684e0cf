//! Moves as people read them in each game: Japanese, as KIF writes them,
//! for the shogi games (`７六歩(77)`, `同　銀(31)`), and coordinates for
//! Pawns-Only Chess (`e4`, `exd5`). The move lists of the board, analysis
//! lines and annotated records all write moves through [`Notation`].

use koma_rules::pawns::square_name;
use koma_rules::{Color, Move, PawnsPosition, Position, ShogiPosition, ShogiVariant};

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
