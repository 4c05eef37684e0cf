//! A game of any of the four kinds, replayed from its stored form, with what
//! the page needs to show it: positions, legal moves, notation for people.

use super::names;
use koma_records::notation::{MoveNotations, Notation};
use koma_records::{AnyRecord, Headers, Record};
use koma_rules::{
    each_game, game_enum, with_position, Color, Declaration, Game, GameError, IllegalMove,
    IllegalReason, ImpasseRule, Move, Outcome, PawnsPosition, Position, ShogiPosition,
    ShogiVariant, Variant,
};

/// The most moves a game may hold. Every request replays the game, and a
/// hostile record of a million moves must not make each one take seconds;
/// real games stay far below (the longest shogi games run to about 500).
pub const MAX_MOVES: usize = 5000;

game_enum! {
    /// A game of one of Koma's four kinds.
    #[derive(Clone, Debug)]
    pub enum AnyGame of Game;
}

/// What an undo took back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undone {
    /// A declared ending (a resignation); the moves stay.
    Ending,
    /// The last move.
    Move,
}

/// One move as the page lists it.
#[derive(Clone, Debug)]
pub struct MoveView {
    /// USI/UCI text.
    pub usi: String,
    /// Notation for people (KIF style, or short algebraic for pawns).
    pub notation: String,
    /// Who played it.
    pub color: Color,
    /// The position after it.
    pub position: String,
    /// Whether it gives check.
    pub check: bool,
    /// In Spear, the move as its seed writes it: `K 11 12`.
    pub seed: Option<String>,
    /// In the shogi games, the move in every notation a player may choose.
    pub notations: Option<MoveNotations>,
}

impl MoveView {
    /// `m`, played in `before` (after `previous`), which led to `after`.
    pub(crate) fn new<P: Served>(
        before: &P,
        m: Move,
        previous: Option<Move>,
        after: &P,
    ) -> MoveView {
        MoveView {
            usi: P::move_to_text(m),
            notation: P::notation(before, m, previous),
            color: before.turn(),
            position: after.to_text(),
            check: after.is_check(),
            seed: P::seed_notation(before, m),
            notations: P::notations(before, m, previous),
        }
    }
}

/// Everything the page shows of a game, computed by replaying it.
#[derive(Clone, Debug)]
pub struct GameView {
    /// The current position's text.
    pub position: String,
    /// The side to move.
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// Hands by side: (SFEN letter, count); `None` for pawns.
    pub hands: Option<[Vec<(char, u8)>; 2]>,
    /// Legal moves' text, empty when the game is over.
    pub legal_moves: Vec<String>,
    /// The moves played.
    pub moves: Vec<MoveView>,
    /// How it ended, if it has.
    pub outcome: Option<Outcome>,
}

/// What the server needs of a position type beyond [`Position`].
pub(crate) trait Served: Position {
    /// Notation of `m`, played in `before`; `previous` is the move before it.
    fn notation(before: &Self, m: Move, previous: Option<Move>) -> String;
    /// Pieces in hand by side, if the game has hands.
    fn hands(&self) -> Option<[Vec<(char, u8)>; 2]>;
    /// `m`, played in `before`, in the seed's notation (Spear only).
    fn seed_notation(_before: &Self, _m: Move) -> Option<String> {
        None
    }
    /// `m`, played in `before` after `previous`, in every notation a player
    /// may choose (the shogi games only).
    fn notations(_before: &Self, _m: Move, _previous: Option<Move>) -> Option<MoveNotations> {
        None
    }
}

impl<V: ShogiVariant> Served for ShogiPosition<V>
where
    ShogiPosition<V>: Position,
{
    /// `☗７六歩(77)`, `☖同　銀(31)`, `☗５五角打`, `☗２二角成(88)`.
    fn notation(before: &Self, m: Move, previous: Option<Move>) -> String {
        let mark = match before.turn() {
            Color::Sente => '☗',
            Color::Gote => '☖',
        };
        format!("{mark}{}", Notation::move_text(before, m, previous))
    }

    /// `K 11 12`, `b 00 33`: Spear's moves as its seed writes them.
    fn seed_notation(before: &Self, m: Move) -> Option<String> {
        if V::VARIANT != Variant::Spear {
            return None;
        }
        let role = match m {
            Move::Board { from, .. } => before.piece_at(from)?.role,
            Move::Drop { role, .. } => role,
        };
        Some(koma_rules::seed_move(before.turn(), role, m))
    }

    fn notations(before: &Self, m: Move, previous: Option<Move>) -> Option<MoveNotations> {
        Some(MoveNotations::new(before, m, previous))
    }

    fn hands(&self) -> Option<[Vec<(char, u8)>; 2]> {
        Some(Color::ALL.map(|color| {
            self.hand(color)
                .iter()
                .map(|(role, count)| (role.letter(), count))
                .collect()
        }))
    }
}

impl Served for PawnsPosition {
    /// `1. e4`, `1... exd5`.
    fn notation(before: &Self, m: Move, _previous: Option<Move>) -> String {
        let number = before.fullmove();
        let dots = match before.turn() {
            Color::Sente => ".",
            Color::Gote => "...",
        };
        format!("{number}{dots} {}", Notation::move_text(before, m, None))
    }

    fn hands(&self) -> Option<[Vec<(char, u8)>; 2]> {
        None
    }
}

/// Reads a start position; a leading `sfen`/`fen`/`position` word is allowed.
fn parse_start<P: Position>(text: Option<&str>) -> Result<P, String> {
    let Some(text) = text else {
        return Ok(P::start());
    };
    let mut text = text.trim();
    for word in ["position", "sfen", "fen"] {
        if let Some(rest) = text.strip_prefix(word) {
            if rest.starts_with(char::is_whitespace) {
                text = rest.trim_start();
            }
        }
    }
    if text == "startpos" {
        return Ok(P::start());
    }
    P::from_text(text).map_err(|e| {
        format!(
            "That is not a {} position: {e}.",
            names::variant_title(P::VARIANT)
        )
    })
}

/// Plays `text`; in Spear, where promotion is compulsory, the move without
/// its `+` is taken to mean the promotion.
fn play_text<P: Position>(game: &mut Game<P>, text: &str) -> Result<(), GameError> {
    match game.play_text(text) {
        Err(GameError::Illegal(IllegalMove {
            attempted: Move::Board { from, to, .. },
            reason: IllegalReason::MustPromote,
        })) if P::VARIANT == Variant::Spear => game.play(Move::Board {
            from,
            to,
            promote: true,
        }),
        other => other.map(|_| ()),
    }
}

fn view<P: Served>(game: &Game<P>) -> GameView {
    let position = game.position();
    let outcome = game.outcome();
    let legal_moves = if outcome.is_some() {
        Vec::new()
    } else {
        position
            .legal_moves()
            .iter()
            .map(|&m| P::move_to_text(m))
            .collect()
    };
    let positions = game.positions();
    let moves = game
        .moves()
        .iter()
        .enumerate()
        .map(|(index, &m)| {
            let previous = index.checked_sub(1).map(|i| game.moves()[i]);
            MoveView::new(&positions[index], m, previous, &positions[index + 1])
        })
        .collect();
    GameView {
        position: position.to_text(),
        turn: position.turn(),
        check: position.is_check(),
        hands: position.hands(),
        legal_moves,
        moves,
        outcome,
    }
}

fn replay<P: Served>(
    start: &str,
    moves: &[String],
    declared: Option<Outcome>,
) -> Result<Game<P>, String> {
    let mut game = Game::new(parse_start::<P>(Some(start))?);
    for (index, text) in moves.iter().enumerate() {
        play_text(&mut game, text)
            .map_err(|e| format!("stored move {} ({text}) cannot be played: {e}", index + 1))?;
    }
    if let Some(outcome) = declared {
        // A game that the positions already end keeps that ending.
        let _ = game.declare(outcome);
    }
    Ok(game)
}

impl AnyGame {
    /// A new game of `variant` from `position` (its start when `None`).
    pub fn new(variant: Variant, position: Option<&str>) -> Result<AnyGame, String> {
        with_position!(variant, P => {
            parse_start::<P>(position).map(|start| AnyGame::wrap(Game::new(start)))
        })
    }

    /// The game that `start`, `moves` and `declared` describe.
    pub fn replay(
        variant: Variant,
        start: &str,
        moves: &[String],
        declared: Option<Outcome>,
    ) -> Result<AnyGame, String> {
        with_position!(variant, P => replay::<P>(start, moves, declared).map(AnyGame::wrap))
    }

    /// The game a record holds (its main line and recorded ending), with the
    /// record's headers.
    pub fn from_record(record: AnyRecord) -> Result<(AnyGame, Headers), String> {
        if record.len() > MAX_MOVES {
            return Err(format!(
                "The record has {} moves; Koma opens records of at most {MAX_MOVES} moves.",
                record.len()
            ));
        }
        let replayed = each_game!(AnyRecord, record, r => {
            r.to_game().map(|g| (AnyGame::wrap(g), r.headers))
        });
        replayed.map_err(|e| format!("The record cannot be replayed: {e}."))
    }

    /// The start position's text.
    pub fn start_text(&self) -> String {
        each_game!(AnyGame, self, g => g.start().to_text())
    }

    /// The moves played, as text.
    pub fn move_texts(&self) -> Vec<String> {
        fn texts<P: Position>(game: &Game<P>) -> Vec<String> {
            game.moves().iter().map(|&m| P::move_to_text(m)).collect()
        }
        each_game!(AnyGame, self, g => texts(g))
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        each_game!(AnyGame, self, g => g.moves().len())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        each_game!(AnyGame, self, g => g.position().turn())
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        each_game!(AnyGame, self, g => g.outcome())
    }

    /// An ending declared rather than played.
    pub fn declared(&self) -> Option<Outcome> {
        each_game!(AnyGame, self, g => g.declared())
    }

    /// Plays a move given as USI/UCI text.
    pub fn play_text(&mut self, text: &str) -> Result<(), GameError> {
        each_game!(AnyGame, self, g => play_text(g, text))
    }

    /// Takes back a declared ending, else the last move.
    pub fn undo(&mut self) -> Option<Undone> {
        if self.declared().is_some() {
            each_game!(AnyGame, self, g => g.undo());
            return Some(Undone::Ending);
        }
        each_game!(AnyGame, self, g => g.undo()).map(|_| Undone::Move)
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        each_game!(AnyGame, self, g => g.resign(color))
    }

    /// What an impasse declaration by the side to move would give now
    /// under `rule` (never valid outside shogi).
    pub fn impasse_declaration(&self, rule: ImpasseRule) -> Declaration {
        each_game!(AnyGame, self, g => g.impasse_declaration(rule))
    }

    /// The side to move declares impasse under `rule`: the game ends if
    /// the declaration is valid, and is unchanged if not.
    pub fn declare_impasse(&mut self, rule: ImpasseRule) -> Result<Outcome, GameError> {
        each_game!(AnyGame, self, g => g.declare_impasse(rule))
    }

    /// Ends the game for a reason the positions do not show (a flag).
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), GameError> {
        each_game!(AnyGame, self, g => g.declare(outcome))
    }

    /// Everything the page shows.
    pub fn view(&self) -> GameView {
        each_game!(AnyGame, self, g => view(g))
    }

    /// The game as a record with `headers`.
    pub fn to_record(&self, headers: Headers) -> AnyRecord {
        fn record<P: Position>(game: &Game<P>, headers: Headers) -> Record<P> {
            let mut record = Record::from_game(game);
            record.headers = headers;
            record
        }
        each_game!(AnyGame, self, g => AnyRecord::wrap(record(g, headers)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_starts_and_takes_a_move() {
        for (variant, first) in [
            (Variant::Spear, "5d5c"),
            (Variant::Minishogi, "5d5c"),
            (Variant::Shogi, "7g7f"),
            (Variant::Pawns, "e2e4"),
        ] {
            let mut game = AnyGame::new(variant, None).unwrap();
            assert_eq!(game.variant(), variant);
            game.play_text(first).unwrap();
            assert_eq!(game.move_texts(), vec![first.to_owned()]);
            let again = AnyGame::replay(variant, &game.start_text(), &game.move_texts(), None);
            assert_eq!(again.unwrap().view().position, game.view().position);
        }
    }

    #[test]
    fn notation_is_kif_style_and_algebraic() {
        let mut shogi = AnyGame::new(Variant::Shogi, None).unwrap();
        for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
            shogi.play_text(m).unwrap();
        }
        let notation: Vec<String> = shogi.view().moves.into_iter().map(|m| m.notation).collect();
        assert_eq!(
            notation,
            ["☗７六歩(77)", "☖３四歩(33)", "☗２二角成(88)", "☖同　銀(31)"]
        );
        let mut pawns = AnyGame::new(Variant::Pawns, None).unwrap();
        for m in ["e2e4", "d7d5", "e4d5"] {
            pawns.play_text(m).unwrap();
        }
        let notation: Vec<String> = pawns.view().moves.into_iter().map(|m| m.notation).collect();
        assert_eq!(notation, ["1. e4", "1... d5", "2. exd5"]);
    }

    #[test]
    fn spear_names_its_own_pieces() {
        let mut spear = AnyGame::new(Variant::Spear, None).unwrap();
        spear.play_text("2e3d").unwrap();
        spear.play_text("5a5b").unwrap();
        spear.play_text("1e1b").unwrap();
        let moves = spear.view().moves;
        let notation: Vec<&str> = moves.iter().map(|m| m.notation.as_str()).collect();
        assert_eq!(notation, ["☗３四象(25)", "☖５二槍(51)", "☗１二槍成(15)"]);
        // As the seed writes them: its Black is Sente (lower case).
        let seed: Vec<&str> = moves.iter().filter_map(|m| m.seed.as_deref()).collect();
        assert_eq!(seed, ["b 25 34", "L 51 52", "l 15 12"]);
        let mut shogi = AnyGame::new(Variant::Shogi, None).unwrap();
        shogi.play_text("7g7f").unwrap();
        assert_eq!(shogi.view().moves[0].seed, None);
    }

    #[test]
    fn undo_takes_back_a_resignation_first() {
        let mut game = AnyGame::new(Variant::Spear, None).unwrap();
        game.play_text("5d5c").unwrap();
        game.resign(Color::Gote).unwrap();
        assert_eq!(game.undo(), Some(Undone::Ending));
        assert_eq!(game.ply(), 1);
        assert_eq!(game.undo(), Some(Undone::Move));
        assert_eq!(game.undo(), None);
    }
}
