//! Koma's engine at the terminal: the computer opponent and the hints of
//! `koma shogi` and `koma pawns`. The opponent plays as the board's
//! computer does ([`koma_engine::choose`]): the chosen level's strength
//! within a second a move, and an impasse declaration as soon as it wins.

pub use koma_engine::Choice;
use koma_engine::{Engine, Evaluate, Info, Limits, Score, SearchControl};
use koma_rules::{ImpasseRule, Move};
use std::time::Duration;

/// The engine's table at the terminal, MiB.
const TABLE_MEGABYTES: usize = 64;

/// The longest the computer thinks about a move, and a hint takes.
pub const THINK: Duration = Duration::from_secs(1);

/// The level when none is chosen: a fair club player's.
pub const DEFAULT_LEVEL: u8 = 10;

/// The computer's choice at `level` in the last position of `history`
/// ([`koma_engine::choose`], with the terminal's table).
pub fn choose<P: Evaluate>(
    history: &[P],
    level: u8,
    impasse: Option<ImpasseRule>,
    think: Duration,
) -> Option<Choice> {
    koma_engine::choose(history, level, impasse, think, TABLE_MEGABYTES)
}

/// The engine's advice to the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The line it expects, its move first.
    pub line: Vec<Move>,
    /// Its value, from the view of the side to move.
    pub score: Score,
    /// The depth searched.
    pub depth: u32,
}

/// The engine's advice at full strength in the last position of `history`;
/// `None` when there is no legal move.
pub fn hint<P: Evaluate>(history: &[P], think: Duration) -> Option<Hint> {
    let mut engine = Engine::<P>::new(TABLE_MEGABYTES);
    let mut line = Vec::new();
    let result = engine.search(
        history,
        &Limits::move_time(think),
        &SearchControl::default(),
        &mut |info: &Info| {
            if info.multipv == 1 && info.bound.is_none() && !info.pv.is_empty() {
                line.clone_from(&info.pv);
            }
        },
    );
    let best = result.best_move?;
    if line.first() != Some(&best) {
        line = vec![best];
    }
    Some(Hint {
        line,
        score: result.score,
        depth: result.depth,
    })
}

/// A score as people read it, from the view of the side to move: `+35`,
/// `−120`, `mate in 5`, `mated in 4`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) if cp > 0 => format!("+{cp}"),
        Score::Centipawns(cp) if cp < 0 => format!("−{}", cp.unsigned_abs()),
        Score::Centipawns(_) => "±0".to_owned(),
        Score::MatePlies(plies) if plies > 0 => format!("mate in {plies}"),
        Score::MatePlies(plies) => format!("mated in {}", plies.unsigned_abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{MinishogiPosition, PawnsPosition, Position, SpearPosition};

    #[test]
    fn the_computer_takes_a_free_rook_at_full_strength() {
        // Gote's rook hangs on 1d; Sente's rook on 5d takes it.
        let position = MinishogiPosition::from_text("2k2/5/5/R3r/2K2 b - 1").unwrap();
        let choice = choose(&[position], 20, None, Duration::from_millis(300));
        assert_eq!(
            choice,
            Some(Choice::Move(position.parse_move("5d1d").unwrap()))
        );
        let advice = hint(&[position], Duration::from_millis(300)).unwrap();
        assert_eq!(advice.line[0], position.parse_move("5d1d").unwrap());
        assert!(
            matches!(advice.score, Score::Centipawns(cp) if cp > 300)
                || matches!(advice.score, Score::MatePlies(p) if p > 0)
        );
    }

    #[test]
    fn every_level_plays_a_legal_move_and_none_without_one() {
        let start = SpearPosition::start();
        for level in [1, 10, 20] {
            let Some(Choice::Move(m)) = choose(&[start], level, None, Duration::from_millis(50))
            else {
                panic!("level {level} chose no move");
            };
            assert!(start.is_legal(m));
        }
        // White has no pawn left to move: blocked, Black to move has none either.
        let blocked = PawnsPosition::from_text("8/8/8/4p3/4P3/8/8/8 b - - 0 1").unwrap();
        assert!(blocked.legal_moves().is_empty());
        assert_eq!(
            choose(&[blocked], 20, None, Duration::from_millis(50)),
            None
        );
        assert_eq!(hint(&[blocked], Duration::from_millis(50)), None);
    }

    #[test]
    fn scores_read_from_the_side_to_move() {
        assert_eq!(score_text(Score::Centipawns(35)), "+35");
        assert_eq!(score_text(Score::Centipawns(-120)), "−120");
        assert_eq!(score_text(Score::MatePlies(5)), "mate in 5");
        assert_eq!(score_text(Score::MatePlies(-4)), "mated in 4");
    }
}
