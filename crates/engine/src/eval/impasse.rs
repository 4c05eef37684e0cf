//! The evaluation's view of impasse (入玉): a shogi king that has entered
//! the enemy camp is hard to mate, and a game where it has turns on the
//! declaration's count (pieces in the camp, points in the camp and in
//! hand) rather than on attack. The search wins a valid declaration on
//! the spot; this term is what leads it there from afar.

use super::shogi_weights::Weights;
use crate::score::Value;
use koma_rules::{Color, ShogiPosition, ShogiVariant, Variant};

/// The most pieces in the camp a declaration needs.
const PIECES_NEEDED: u32 = 10;
/// The most points a declaration needs (Sente's 28 under the 27-point
/// rule): points beyond do not make a declaration any surer.
const POINTS_NEEDED: u32 = 28;

/// The bonus of `color`'s king for its way into the enemy camp, and once
/// there, for the pieces and points a declaration counts. Zero outside
/// standard shogi, the one game with an impasse rule.
pub(super) fn entering<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    weights: &Weights,
) -> Value {
    if V::VARIANT != Variant::Shogi {
        return 0;
    }
    let Some(king) = position.king(color) else {
        return 0;
    };
    let rank = match color {
        Color::Sente => V::SPEC.ranks - 1 - king.rank(),
        Color::Gote => king.rank(),
    };
    let mut bonus = weights.entering_king[rank as usize];
    if V::SPEC.zone(color).contains(king) {
        let count = position.impasse_count(color);
        bonus += weights.camp_piece * count.pieces_in_camp.min(PIECES_NEEDED) as Value
            + weights.impasse_point * count.points.min(POINTS_NEEDED) as Value;
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::shogi::evaluate_with;
    use crate::eval::shogi_weights::{weights, SHOGI};
    use koma_rules::{Position, StandardShogiPosition};

    fn sente_entering(sfen: &str, weights: &Weights) -> Value {
        let position = StandardShogiPosition::from_text(sfen).unwrap();
        entering(&position, Color::Sente, weights)
    }

    #[test]
    fn a_king_in_the_camp_counts_its_pieces_and_points_up_to_what_a_declaration_needs() {
        let mut weights = SHOGI.clone();
        weights.entering_king = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        weights.camp_piece = 100;
        weights.impasse_point = 10_000;
        // At home: its rank only.
        assert_eq!(sente_entering("4k4/9/9/9/9/9/9/9/4K4 b - 1", &weights), 0);
        // On Gote's fourth rank, outside the camp: still its rank only.
        assert_eq!(sente_entering("4k4/9/9/4K4/9/9/9/9/9 b RG 1", &weights), 5);
        // In the camp with a rook and a gold beside it and a bishop and a
        // pawn in hand: two pieces, 5 + 1 + 5 + 1 = 12 points.
        assert_eq!(
            sente_entering("4k4/9/3RKG3/9/9/9/9/9/9 b BP 1", &weights),
            6 + 2 * 100 + 12 * 10_000
        );
        // Twelve pieces and 4 * 5 + 8 + 1 = 29 points count as ten and 28.
        assert_eq!(
            sente_entering("8k/+R+B+R+B5/PPPPKPPPP/9/9/9/9/9/9 b G 1", &weights),
            6 + 10 * 100 + 28 * 10_000
        );
    }

    #[test]
    fn a_king_in_the_camp_would_rather_drop_a_gold_there_than_keep_it() {
        // Sente's king on Gote's second rank, a gold in hand; then the
        // same gold dropped beside the king.
        let held = StandardShogiPosition::from_text("9/4K4/9/9/9/9/9/9/k8 b G 1").unwrap();
        let dropped = StandardShogiPosition::from_text("9/3GK4/9/9/9/9/9/9/k8 b - 1").unwrap();
        let mut without = SHOGI.clone();
        without.entering_king = [0; 9];
        without.camp_piece = 0;
        without.impasse_point = 0;
        // A gold is worth more in hand...
        assert!(evaluate_with(&held, &without) > evaluate_with(&dropped, &without));
        // ...unless the king stands in the camp and a declaration counts it.
        assert!(evaluate_with(&dropped, &SHOGI) > evaluate_with(&held, &SHOGI));
    }

    #[test]
    fn only_shogi_has_the_term() {
        use koma_rules::{Minishogi, ShogiPosition};
        let entered = ShogiPosition::<Minishogi>::from_text("k1K2/5/5/5/5 b - 1").unwrap();
        let mut weights = weights(Variant::Minishogi).clone();
        weights.entering_king = [500; 9];
        weights.camp_piece = 500;
        assert_eq!(entering(&entered, Color::Sente, &weights), 0);
    }

    #[test]
    fn the_evaluation_counts_each_sides_entry() {
        // Gote's king has entered Sente's camp: Gote gains what Sente would.
        let position = StandardShogiPosition::from_text("9/9/9/9/9/9/3gkg3/9/4K4 b - 1").unwrap();
        let mut weights = SHOGI.clone();
        weights.entering_king = [0; 9];
        weights.camp_piece = 0;
        weights.impasse_point = 0;
        let without = evaluate_with(&position, &weights);
        // Sente's king at home gains its rank's bonus, Gote's in the camp
        // its rank's, two pieces' and two points'.
        weights.entering_king[0] = 40;
        weights.entering_king[6] = 300;
        weights.camp_piece = 7;
        weights.impasse_point = 11;
        assert_eq!(
            evaluate_with(&position, &weights),
            without + 40 - (300 + 2 * 7 + 2 * 11)
        );
    }
}
