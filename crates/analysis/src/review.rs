//! Game review: the evaluation of every position of a game at a fixed
//! budget, and what each move lost against the engine's choice.

use crate::expected::{move_accuracy, Evaluation, Label};
use koma_engine::{Engine, Evaluate, Info, Limits, SearchControl};
use koma_rules::{Color, Game, Move, Outcome, Position, Variant};

/// The transposition table of a review, in MiB: consecutive positions of
/// a game share much of their trees.
const TABLE_MEGABYTES: usize = 64;

/// What the engine thinks of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The evaluation, from the first player's view.
    pub evaluation: Evaluation,
    /// The engine's move; `None` when the game is over.
    pub best: Option<Move>,
    /// The line the engine expects, its move first.
    pub line: Vec<Move>,
    /// The depth searched.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

impl Judgement {
    /// The judgement of a position where the game has ended as `outcome`
    /// says: won (a mate in 0) or drawn, with no move and nothing searched.
    ///
    /// ```
    /// use koma_analysis::{Evaluation, Judgement};
    /// use koma_rules::{Color, EndReason, Outcome};
    ///
    /// let won = Outcome { winner: Some(Color::Gote), reason: EndReason::Checkmate };
    /// let judgement = Judgement::of_ended(&won);
    /// assert_eq!(judgement.evaluation, Evaluation::Mate { winner: Color::Gote, plies: 0 });
    /// assert_eq!(judgement.best, None);
    /// ```
    pub fn of_ended(outcome: &Outcome) -> Judgement {
        Judgement {
            evaluation: match outcome.winner {
                Some(winner) => Evaluation::Mate { winner, plies: 0 },
                None => Evaluation::Centipawns(0),
            },
            best: None,
            line: Vec::new(),
            depth: 0,
            nodes: 0,
        }
    }
}

/// What one move of the game cost its player.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move played.
    pub played: Move,
    /// Who played it.
    pub player: Color,
    /// The expected score it gave up against the engine's move, 0 to 1
    /// (0 when it is the engine's move).
    pub loss: f64,
    /// How bad the loss is, if it is bad at all.
    pub label: Option<Label>,
    /// Its accuracy, 0 to 100 ([`move_accuracy`]).
    pub accuracy: f64,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The game.
    pub variant: Variant,
    /// A judgement of every position, the start's first: one more than
    /// the moves.
    pub positions: Vec<Judgement>,
    /// Every move's review.
    pub moves: Vec<MoveReview>,
}

/// One side's figures over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies, mistakes and blunders, in [`Label::ALL`]'s order.
    pub labelled: [usize; 3],
    /// The mean accuracy of its moves, 0 to 100 (100 without moves).
    pub accuracy: f64,
    /// The mean expected score lost per move, 0 to 1.
    pub average_loss: f64,
}

impl Review {
    /// `color`'s figures.
    pub fn summary(&self, color: Color) -> SideSummary {
        let own: Vec<&MoveReview> = self.moves.iter().filter(|m| m.player == color).collect();
        let mut summary = SideSummary {
            moves: own.len(),
            accuracy: 100.0,
            ..SideSummary::default()
        };
        if own.is_empty() {
            return summary;
        }
        for reviewed in &own {
            if let Some(label) = reviewed.label {
                summary.labelled[label as usize] += 1;
            }
        }
        let count = own.len() as f64;
        summary.accuracy = own.iter().map(|m| m.accuracy).sum::<f64>() / count;
        summary.average_loss = own.iter().map(|m| m.loss).sum::<f64>() / count;
        summary
    }
}

/// Reviews the game of `moves` played from `start`: searches every
/// position within `limits` (with the game before it, for repetitions),
/// calling `progress(done, total)` after each. The moves must be legal;
/// the review stops at the first that is not. `control` stops it early:
/// the positions not searched are then left out, with their moves.
///
/// Each mistake and blunder is looked at again, deeper, before it is
/// labelled ([`SECOND_LOOK_FACTOR`]).
///
/// `threads` search each position at once when the limit is a time (a
/// search to a node count stays on one, to be the same on every run).
/// With a node or depth limit and one thread the review is the same on
/// every run.
pub fn review<P: Evaluate>(
    start: &P,
    moves: &[Move],
    limits: &Limits,
    threads: usize,
    control: &SearchControl,
    progress: &mut dyn FnMut(usize, usize),
) -> Review {
    let mut positions = vec![*start];
    for &m in moves {
        let last = positions[positions.len() - 1];
        if !last.is_legal(m) {
            break;
        }
        let mut next = last;
        next.play_unchecked(m);
        positions.push(next);
    }
    let total = positions.len();
    let mut engine = Engine::<P>::new(TABLE_MEGABYTES);
    engine.options.threads = threads.max(1);
    let mut judgements = Vec::with_capacity(total);
    for index in 0..total {
        if control.is_stopped() {
            break;
        }
        let judgement = judge(&mut engine, &positions[..=index], limits, control);
        if control.is_stopped() {
            // A search cut short is not a judgement.
            break;
        }
        judgements.push(judgement);
        // The last step is reported once the second looks are done too.
        if index + 1 < total {
            progress(index + 1, total);
        }
    }
    if judgements.len() == total {
        look_again(
            &mut engine,
            &positions,
            moves,
            limits,
            control,
            &mut judgements,
        );
        if !control.is_stopped() {
            progress(total, total);
        }
    }
    Review::from_judgements(start, moves, judgements)
}

/// How many times the budget a second look at a mistake gets.
pub const SECOND_LOOK_FACTOR: u32 = 4;

/// A second look at every mistake and blunder of the first: the positions
/// before and after such a move are judged again at [`SECOND_LOOK_FACTOR`]
/// times `limits`, and the move's loss follows from the deeper judgements
/// (which then stand in the review, for the graph too). At a small budget
/// the first judgement of a position is often too hopeful about its best
/// line, and every other move then seems to lose: a strong player's move
/// that the engine cannot see through at the first budget is called a
/// blunder (issue 54). The labels' thresholds stay lichess's; only the
/// engine's judgement of the suspect moves is better. Each position gets
/// at most one second look, so the cost is bounded by the number of
/// suspect moves (a few a game); positions whose new judgements make a
/// neighbouring move suspect are looked at in turn.
fn look_again<P: Evaluate>(
    engine: &mut Engine<P>,
    positions: &[P],
    moves: &[Move],
    limits: &Limits,
    control: &SearchControl,
    judgements: &mut [Judgement],
) {
    let deeper = deeper_limits(limits);
    let mut looked = vec![false; judgements.len()];
    loop {
        let suspects: Vec<usize> =
            Review::from_judgements(&positions[0], moves, judgements.to_vec())
                .moves
                .iter()
                .enumerate()
                .filter(|(_, reviewed)| reviewed.label >= Some(Label::Mistake))
                .flat_map(|(ply, _)| [ply, ply + 1])
                .filter(|&index| !looked[index])
                .collect();
        if suspects.is_empty() {
            return;
        }
        for index in suspects {
            if looked[index] {
                continue;
            }
            looked[index] = true;
            let judgement = judge(engine, &positions[..=index], &deeper, control);
            if control.is_stopped() {
                return;
            }
            judgements[index] = judgement;
        }
    }
}

/// `limits` with [`SECOND_LOOK_FACTOR`] times the nodes or time, or two
/// plies more depth.
fn deeper_limits(limits: &Limits) -> Limits {
    Limits {
        nodes: limits
            .nodes
            .map(|n| n.saturating_mul(u64::from(SECOND_LOOK_FACTOR))),
        move_time: limits.move_time.map(|t| t * SECOND_LOOK_FACTOR),
        depth: limits.depth.map(|d| d + 2),
        ..limits.clone()
    }
}

/// The [`review`] of every position of `game` at `limits` on one thread
/// (so that it is the same on every run), or `None` if `control` stopped
/// it before the end: the review a server keeps, whether its own engine or
/// a worker's made it.
///
/// ```
/// use koma_analysis::review::review_whole;
/// use koma_engine::{Limits, SearchControl};
/// use koma_rules::{Game, Position, SpearPosition};
///
/// let mut game = Game::new(SpearPosition::start());
/// let first = game.position().legal_moves()[0];
/// game.play(first).unwrap();
/// let control = SearchControl::default();
/// let review = review_whole(&game, &Limits::nodes(200), &control, &mut |_, _| {}).unwrap();
/// assert_eq!((review.positions.len(), review.moves.len()), (2, 1));
/// control.stop();
/// assert!(review_whole(&game, &Limits::nodes(200), &control, &mut |_, _| {}).is_none());
/// ```
pub fn review_whole<P: Evaluate>(
    game: &Game<P>,
    limits: &Limits,
    control: &SearchControl,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Review> {
    let positions = game.positions();
    let review = review(&positions[0], game.moves(), limits, 1, control, progress);
    (!control.is_stopped() && review.positions.len() == positions.len()).then_some(review)
}

impl Review {
    /// The review of the game of `moves` from `start` whose positions,
    /// the start's first, were judged `judgements` (a review kept and read
    /// back): each move's loss, label and accuracy follow from the
    /// judgements before and after it. Moves without a judgement after
    /// them, and from the first illegal one, are left out.
    pub fn from_judgements<P: Position>(
        start: &P,
        moves: &[Move],
        judgements: Vec<Judgement>,
    ) -> Review {
        let mut position = start.clone();
        let mut reviewed = Vec::with_capacity(moves.len());
        for (pair, &played) in judgements.windows(2).zip(moves) {
            if !position.is_legal(played) {
                break;
            }
            reviewed.push(move_review(P::VARIANT, &position, played, pair));
            position.play_unchecked(played);
        }
        let mut judgements = judgements;
        judgements.truncate(reviewed.len() + 1);
        Review {
            variant: P::VARIANT,
            positions: judgements,
            moves: reviewed,
        }
    }
}

/// The engine's judgement of the last of `history`.
fn judge<P: Evaluate>(
    engine: &mut Engine<P>,
    history: &[P],
    limits: &Limits,
    control: &SearchControl,
) -> Judgement {
    let position = history[history.len() - 1];
    if let Some(outcome) = position.outcome() {
        return Judgement::of_ended(&outcome);
    }
    let mut line = Vec::new();
    let result = engine.search(history, limits, control, &mut |info: &Info| {
        if info.multipv == 1 && info.bound.is_none() {
            line.clone_from(&info.pv);
        }
    });
    if line.first() != result.best_move.as_ref() {
        line = result.best_move.into_iter().collect();
    }
    Judgement {
        evaluation: Evaluation::from_score(result.score, position.turn()),
        best: result.best_move,
        line,
        depth: result.depth,
        nodes: result.nodes,
    }
}

/// The review of `played`, from `before` whose judgement and the next's
/// are `pair`.
fn move_review<P: Position>(
    variant: Variant,
    before: &P,
    played: Move,
    pair: &[Judgement],
) -> MoveReview {
    let player = before.turn();
    let expected_before = pair[0].evaluation.expected_score(variant, player);
    let expected_after = pair[1].evaluation.expected_score(variant, player);
    let loss = if pair[0].best == Some(played) {
        0.0
    } else {
        (expected_before - expected_after).max(0.0)
    };
    MoveReview {
        played,
        player,
        loss,
        label: Label::of_loss(loss),
        accuracy: move_accuracy(expected_before, expected_before - loss),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{MinishogiPosition, StandardShogiPosition};

    fn moves<P: Position>(start: P, texts: &[&str]) -> Vec<Move> {
        let mut position = start;
        texts
            .iter()
            .map(|text| {
                let m = position.parse_move(text).unwrap();
                position.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn the_engines_own_move_loses_nothing() {
        let start = StandardShogiPosition::start();
        let game = moves(start, &["7g7f", "3c3d", "2g2f", "4a3b", "2h2g"]);
        let reviewed = review(
            &start,
            &game,
            &Limits::nodes(20_000),
            1,
            &SearchControl::default(),
            &mut |_, _| {},
        );
        assert_eq!(reviewed.positions.len(), 6);
        assert_eq!(reviewed.moves.len(), 5);
        for (m, judgement) in reviewed.moves.iter().zip(&reviewed.positions) {
            assert!((0.0..=1.0).contains(&m.loss));
            assert_eq!(judgement.line.first(), judgement.best.as_ref());
            if judgement.best == Some(m.played) {
                assert_eq!(m.loss, 0.0);
                assert_eq!(m.label, None);
            }
        }
        let players: Vec<Color> = reviewed.moves.iter().map(|m| m.player).collect();
        assert_eq!(players[..2], [Color::Sente, Color::Gote]);
    }

    #[test]
    fn a_move_that_leaves_the_rook_to_be_taken_is_a_blunder() {
        // The rooks face each other on the fourth rank: Sente takes
        // Gote's, or loses its own. It walks its king instead.
        let start = MinishogiPosition::from_text("2k2/5/5/r3R/2K2 b - 1").unwrap();
        let game = moves(start, &["3e2e"]);
        let reviewed = review(
            &start,
            &game,
            &Limits::nodes(30_000),
            1,
            &SearchControl::default(),
            &mut |_, _| {},
        );
        let best = reviewed.positions[0].best.expect("a move");
        assert_eq!(
            best.to(),
            "5d".parse().unwrap(),
            "the engine takes the rook"
        );
        let blunder = &reviewed.moves[0];
        assert!(blunder.loss > 0.3, "{blunder:?}");
        assert_eq!(blunder.label, Some(Label::Blunder));
        // Judged a second time, deeper, on both sides of the blunder.
        for judged in &reviewed.positions {
            assert!(judged.nodes > 30_000 + 30_000 / 2, "{judged:?}");
        }
        let summary = reviewed.summary(Color::Sente);
        assert_eq!(summary.labelled, [0, 0, 1]);
        assert!(summary.accuracy < 30.0);
        assert_eq!(reviewed.summary(Color::Gote).moves, 0);
    }

    #[test]
    fn the_final_position_of_a_mate_is_won() {
        // Minishogi: a gold dropped on 3b, held by the pawn, mates.
        let start = MinishogiPosition::from_text("2k2/5/2P2/5/K4 b G 1").unwrap();
        let game = moves(start, &["G*3b"]);
        let reviewed = review(
            &start,
            &game,
            &Limits::depth(4),
            1,
            &SearchControl::default(),
            &mut |_, _| {},
        );
        assert_eq!(
            reviewed.positions[1].evaluation,
            Evaluation::Mate {
                winner: Color::Sente,
                plies: 0
            }
        );
        assert_eq!(
            reviewed.positions[0].evaluation,
            Evaluation::Mate {
                winner: Color::Sente,
                plies: 1
            }
        );
        assert_eq!(reviewed.moves[0].loss, 0.0);
        assert_eq!(reviewed.summary(Color::Sente).accuracy, 100.0);
    }

    #[test]
    fn a_good_move_gets_no_second_look_and_the_end_is_reported_last() {
        let start = StandardShogiPosition::start();
        let game = moves(start, &["7g7f", "3c3d"]);
        let mut reports = Vec::new();
        let reviewed = review(
            &start,
            &game,
            &Limits::nodes(5_000),
            1,
            &SearchControl::default(),
            &mut |done, total| reports.push((done, total)),
        );
        assert_eq!(reports, [(1, 3), (2, 3), (3, 3)]);
        assert!(reviewed
            .moves
            .iter()
            .all(|m| m.label < Some(Label::Mistake)));
        assert!(reviewed.positions.iter().all(|j| j.nodes < 5_000 * 2));
    }

    #[test]
    fn a_stopped_review_keeps_only_what_it_searched() {
        let start = StandardShogiPosition::start();
        let game = moves(start, &["7g7f", "3c3d", "2g2f"]);
        let control = SearchControl::default();
        let mut calls = 0;
        let reviewed = review(
            &start,
            &game,
            &Limits::depth(3),
            1,
            &control,
            &mut |done, total| {
                calls += 1;
                assert_eq!(total, 4);
                if done == 2 {
                    control.stop();
                }
            },
        );
        assert_eq!(calls, 2);
        assert_eq!(reviewed.positions.len(), 2);
        assert_eq!(reviewed.moves.len(), 1);
    }
}
