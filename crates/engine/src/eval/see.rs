//! Static exchange evaluation for the shogi family: what a move wins or
//! loses on its target square once both sides have captured there with
//! their least valuable pieces, as long as capturing pays.

use super::shogi_weights::{weights, Weights, KING_VALUE};
use crate::score::Value;
use koma_rules::{Color, Move, Role, ShogiPosition, ShogiVariant, Square};

/// What a piece is worth in an exchange: the owner loses it from the
/// board and the capturer gains it in hand.
fn exchange_value(weights: &Weights, role: Role) -> Value {
    if role == Role::King {
        return KING_VALUE;
    }
    weights.board[role.index()] + weights.hand[role.unpromoted().index()]
}

/// The least valuable piece in `candidates`.
fn least_valuable<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    weights: &Weights,
    candidates: koma_rules::Bitboard,
) -> Option<(Square, Role)> {
    candidates
        .iter()
        .filter_map(|square| position.piece_at(square).map(|piece| (square, piece.role)))
        .min_by_key(|&(_, role)| exchange_value(weights, role))
}

/// Whether `m` wins at least `threshold` (in exchange values: a piece
/// counts its board value plus its value in hand) by static exchange on
/// its target square. Pins are not seen, nor promotions after the first
/// move.
pub fn see_ge<V: ShogiVariant>(position: &ShogiPosition<V>, m: Move, threshold: Value) -> bool {
    let weights = weights(V::VARIANT);
    let value = |role: Role| exchange_value(weights, role);
    let (to, from, standing, gain) = match m {
        Move::Board { from, to, .. } => {
            let (Some(piece), Some(standing)) = (position.piece_at(from), position.role_after(m))
            else {
                return false;
            };
            let captured = position.piece_at(to).map_or(0, |p| value(p.role));
            let promotion = value(standing) - value(piece.role);
            (to, Some(from), standing, captured + promotion)
        }
        Move::Drop { role, to } => (to, None, role, 0),
    };
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(standing) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = position.blockers();
    if let Some(from) = from {
        occupied.remove(from);
    }
    occupied.insert(to);
    let mut side: Color = position.turn();
    // Most moves the search asks about go where nothing of the opponent's
    // reaches: that is known without listing every attacker of the square.
    // (The test counts the opponent's pieces wherever they stand; none is
    // off `occupied` yet but one taken on `to`, which cannot attack its own
    // square.)
    if !position.is_attacked(to, !side, occupied) {
        return true;
    }
    let mut attackers = position.attackers_to(to, occupied);
    // 1 while the side that made `m` is ahead of the threshold.
    let mut result = 1;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & position.by_color(side);
        let Some((square, role)) = least_valuable(position, weights, ours) else {
            break;
        };
        result ^= 1;
        if role == Role::King {
            // The king may only take when nothing takes it back.
            return if (attackers & position.by_color(!side)).any() {
                result ^ 1 == 1
            } else {
                result == 1
            };
        }
        swap = value(role) - swap;
        if swap < result {
            break;
        }
        occupied.remove(square);
        // Sliders behind the piece that took now reach the square; no
        // other attacker can appear.
        attackers |= position.blockable_attackers_to(to, occupied);
    }
    result == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Minishogi, Position, Shogi};

    fn parse<V: ShogiVariant>(text: &str) -> ShogiPosition<V> {
        ShogiPosition::<V>::from_text(text).expect("test positions parse")
    }

    fn usi<V: ShogiVariant>(position: &ShogiPosition<V>, text: &str) -> Move {
        position
            .parse_move(text)
            .unwrap_or_else(|_| panic!("{text} is legal in {}", position.to_text()))
    }

    #[test]
    fn an_undefended_piece_is_won() {
        // The rook on 1e takes a gold on 1b that nothing defends.
        let position = parse::<Minishogi>("k4/4g/5/5/K3R b - 1");
        let m = usi(&position, "1e1b");
        let gold = exchange_value(weights(koma_rules::Variant::Minishogi), Role::Gold);
        assert!(see_ge(&position, m, gold));
        assert!(!see_ge(&position, m, gold + 1));
    }

    #[test]
    fn a_defended_piece_taken_by_a_bigger_one_loses() {
        // The rook takes a pawn defended by the king.
        let position = parse::<Minishogi>("3k1/3p1/5/5/K2R1 b - 1");
        let m = usi(&position, "2e2b");
        assert!(!see_ge(&position, m, 0));
        let w = weights(koma_rules::Variant::Minishogi);
        let net = exchange_value(w, Role::Pawn) - exchange_value(w, Role::Rook);
        assert!(see_ge(&position, m, net));
        assert!(!see_ge(&position, m, net + 1));
    }

    #[test]
    fn the_king_cannot_take_back_a_defended_piece() {
        // The pawn takes a pawn next to the king, defended by the rook
        // behind it: the king may not take back.
        let position = parse::<Minishogi>("3k1/3p1/3P1/3R1/K4 b - 1");
        let m = usi(&position, "2c2b");
        let pawn = exchange_value(weights(koma_rules::Variant::Minishogi), Role::Pawn);
        assert!(see_ge(&position, m, pawn));
    }

    #[test]
    fn a_piece_dropped_where_it_is_taken_loses() {
        let position = parse::<Shogi>("4k4/9/9/9/9/9/9/9/4K4 b G 1");
        let safe = usi(&position, "G*5e");
        assert!(see_ge(&position, safe, 0));
        let hanging = usi(&position, "G*5b");
        assert!(!see_ge(&position, hanging, 0));
        let gold = exchange_value(weights(koma_rules::Variant::Shogi), Role::Gold);
        assert!(see_ge(&position, hanging, -gold));
        assert!(!see_ge(&position, hanging, -gold + 1));
    }

    #[test]
    fn sliders_behind_join_the_exchange() {
        // Two rooks on the file against a pawn defended by a lone silver.
        let position = parse::<Shogi>("4k4/9/3s5/4p4/9/9/4R4/4R4/K8 b - 1");
        let m = usi(&position, "5g5d");
        let w = weights(koma_rules::Variant::Shogi);
        // Rook takes pawn, silver takes rook, rook takes silver: pawn + silver - rook.
        let net = exchange_value(w, Role::Pawn) + exchange_value(w, Role::Silver)
            - exchange_value(w, Role::Rook);
        assert!(see_ge(&position, m, net));
        assert!(!see_ge(&position, m, net + 1));
    }
}
