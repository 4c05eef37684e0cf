//! Ending games the engines would play on forever, or that both engines
//! agree are decided: a maximum length, resignation and draw by the
//! engines' own scores, and the check of a declaration of a win by impasse.

use koma_rules::{Color, Declaration, ImpasseRule, Position, Variant};
use koma_usi::client::Score;

/// When the runner ends a game on the engines' behalf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A game this long (plies, opening included) is a draw.
    pub max_plies: usize,
    /// Resign for the side to move when, for this many moves each, it
    /// scored at most `-resign_score` and its opponent at least
    /// `resign_score` (centipawns). 0: never.
    pub resign_moves: usize,
    /// See `resign_moves`.
    pub resign_score: i32,
    /// Call a draw when both engines scored within ±`draw_score` for this
    /// many moves each. 0: never.
    pub draw_moves: usize,
    /// See `draw_moves`.
    pub draw_score: i32,
    /// No draw adjudication before this ply.
    pub draw_after: usize,
}

impl Rules {
    /// The default maximum length of a game: long enough that real games
    /// end before it (Spear has no repetition rule, so it needs one most).
    pub fn default_max_plies(variant: Variant) -> usize {
        match variant {
            Variant::Spear | Variant::Minishogi => 300,
            Variant::Shogi => 320,
            Variant::Pawns => 200,
        }
    }
}

/// The runner's verdict on a game still in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game reached the maximum length: a draw.
    MaxPlies,
    /// Both engines agree this side is lost: it resigns.
    Resign(Color),
    /// Both engines agree the game is even: a draw.
    Draw,
}

/// The scores the engines reported, move by move.
#[derive(Clone, Debug, Default)]
pub struct ScoreHistory {
    /// Each side's scores in centipawns from its own view, `None` for a
    /// move it reported no score for (which breaks a streak).
    scores: [Vec<Option<i32>>; 2],
}

impl ScoreHistory {
    /// Notes what `color`'s engine said about its move.
    pub fn push(&mut self, color: Color, score: Option<Score>) {
        self.scores[color.index()].push(score.map(Score::centipawns));
    }

    /// Whether `color`'s last `moves` scores all satisfy `test`.
    fn streak(&self, color: Color, moves: usize, test: impl Fn(i32) -> bool) -> bool {
        let scores = &self.scores[color.index()];
        scores.len() >= moves
            && scores[scores.len() - moves..]
                .iter()
                .all(|score| score.is_some_and(&test))
    }

    /// The verdict before `to_move` moves at ply `ply` (plies played so far).
    pub fn verdict(&self, rules: &Rules, ply: usize, to_move: Color) -> Option<Verdict> {
        if ply >= rules.max_plies {
            return Some(Verdict::MaxPlies);
        }
        if rules.resign_moves > 0 {
            let threshold = rules.resign_score;
            let lost = self.streak(to_move, rules.resign_moves, |s| s <= -threshold);
            let won = self.streak(!to_move, rules.resign_moves, |s| s >= threshold);
            if lost && won {
                return Some(Verdict::Resign(to_move));
            }
        }
        if rules.draw_moves > 0 && ply >= rules.draw_after {
            let even = |s: i32| s.abs() <= rules.draw_score;
            if Color::ALL
                .iter()
                .all(|&color| self.streak(color, rules.draw_moves, even))
            {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

/// Whether the side to move may declare a win by impasse (入玉宣言) here,
/// as USI's `bestmove win` claims: the 27-point rule of standard shogi
/// (the CSA protocol's, and computer shogi tournaments'), judged by the
/// rules ([`Position::impasse_declaration`]). The other games have no such
/// rule.
pub fn may_declare<P: Position>(position: &P) -> bool {
    position.impasse_declaration(ImpasseRule::TwentySeven) == Declaration::Win
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{SpearPosition, StandardShogiPosition};

    fn rules() -> Rules {
        Rules {
            max_plies: 100,
            resign_moves: 3,
            resign_score: 500,
            draw_moves: 2,
            draw_score: 10,
            draw_after: 20,
        }
    }

    fn cp(value: i32) -> Option<Score> {
        Some(Score::Centipawns(value))
    }

    #[test]
    fn long_games_are_drawn() {
        let history = ScoreHistory::default();
        assert_eq!(history.verdict(&rules(), 99, Color::Sente), None);
        assert_eq!(
            history.verdict(&rules(), 100, Color::Gote),
            Some(Verdict::MaxPlies)
        );
    }

    #[test]
    fn resignation_needs_both_engines_to_agree() {
        let mut history = ScoreHistory::default();
        for _ in 0..3 {
            history.push(Color::Sente, cp(600));
            history.push(Color::Gote, cp(-700));
        }
        assert_eq!(
            history.verdict(&rules(), 6, Color::Sente),
            None,
            "the winner does not resign"
        );
        assert_eq!(
            history.verdict(&rules(), 6, Color::Gote),
            Some(Verdict::Resign(Color::Gote))
        );
        // The winner doubts it: no resignation.
        history.push(Color::Sente, cp(300));
        assert_eq!(history.verdict(&rules(), 7, Color::Gote), None);
        // A mate score counts; a move without a score breaks the streak.
        let mut history = ScoreHistory::default();
        for score in [cp(600), Some(Score::Mate(5)), cp(900)] {
            history.push(Color::Gote, score);
        }
        for score in [cp(-600), None, cp(-900)] {
            history.push(Color::Sente, score);
        }
        assert_eq!(history.verdict(&rules(), 6, Color::Sente), None);
        history.push(Color::Sente, Some(Score::Mate(-2)));
        history.push(Color::Sente, cp(-2000));
        assert_eq!(
            history.verdict(&rules(), 8, Color::Sente),
            Some(Verdict::Resign(Color::Sente))
        );
    }

    #[test]
    fn draws_wait_for_the_ply_and_both_engines() {
        let mut history = ScoreHistory::default();
        for _ in 0..2 {
            history.push(Color::Sente, cp(5));
            history.push(Color::Gote, cp(-10));
        }
        assert_eq!(history.verdict(&rules(), 19, Color::Sente), None);
        assert_eq!(
            history.verdict(&rules(), 20, Color::Sente),
            Some(Verdict::Draw)
        );
        history.push(Color::Sente, cp(11));
        assert_eq!(history.verdict(&rules(), 21, Color::Gote), None);
        let off = Rules {
            draw_moves: 0,
            resign_moves: 0,
            ..rules()
        };
        assert_eq!(history.verdict(&off, 50, Color::Gote), None);
    }

    #[test]
    fn impasse_declarations_follow_the_27_point_rule() {
        let start = StandardShogiPosition::start();
        assert!(!may_declare(&start));
        // Sente's king and 10 pieces in the camp; with the rook and bishop
        // there, 5 + 5 + 8 + 12 pawns in hand = 30 points.
        let sfen = "RBGGSS3/3K5/PPPP5/9/9/9/9/9/4k4 b 12P 1";
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        assert!(may_declare(&position));
        // Without the pawns in hand: 18 points, too few.
        let short = "RBGGSS3/3K5/PPPP5/9/9/9/9/9/4k4 b - 1";
        assert!(!may_declare(
            &StandardShogiPosition::from_text(short).unwrap()
        ));
        // Gote's camp is at the bottom; Gote needs 27.
        let gote = "4K4/9/9/9/9/9/pppp5/3k5/rbggss3 w 11p 1";
        assert!(may_declare(
            &StandardShogiPosition::from_text(gote).unwrap()
        ));
        // Spear has no impasse rule.
        assert!(!may_declare(&SpearPosition::start()));
    }
}
