//! Evaluation of the shogi family: material on the board and in hand,
//! promotion, pieces near each king (attack and defence), and the king's
//! shelter against pieces in the enemy's hand.

use super::Evaluate;
use crate::score::Value;
use koma_rules::{
    Bitboard, Color, Move, MoveList, Role, ShogiPosition, ShogiVariant, Square, Variant,
};

/// What the evaluation of one game weighs.
pub(super) struct Weights {
    /// Value of a piece on the board, by role index.
    pub(super) board: [Value; Role::NUM],
    /// Value of a piece in hand, by role index (drops make a hand piece
    /// worth more than the same piece on the board).
    pub(super) hand: [Value; 8],
    /// Bonus for the side to move.
    tempo: Value,
}

// Role order: P L N S G B R K +P +L +N +S H D.
const SHOGI: Weights = Weights {
    board: [
        90, 315, 405, 495, 540, 855, 990, 0, 540, 540, 540, 540, 945, 1395,
    ],
    hand: [100, 350, 450, 550, 600, 950, 1100, 0],
    tempo: 20,
};

const MINISHOGI: Weights = Weights {
    board: [120, 0, 0, 500, 560, 800, 950, 0, 600, 0, 0, 580, 1050, 1250],
    hand: [140, 0, 0, 560, 620, 860, 1000, 0],
    tempo: 30,
};

// Spear: the lance is the spear, the bishop the forward-only elephant; a
// promoted spear moves as a rook and a promoted silver two steps anywhere.
const SPEAR: Weights = Weights {
    board: [100, 260, 0, 460, 520, 340, 0, 0, 520, 900, 0, 760, 900, 0],
    hand: [120, 300, 0, 520, 580, 400, 0, 0],
    tempo: 40,
};

/// The value [`Evaluate::captured_value`] gives a captured king (Spear).
pub const KING_VALUE: Value = 20_000;

/// Bonus by Chebyshev distance to the enemy king, before the role's weight.
const ATTACK_BY_DISTANCE: [Value; 9] = [0, 40, 26, 12, 5, 0, 0, 0, 0];
/// Bonus by Chebyshev distance to one's own king, before the role's weight.
const DEFENCE_BY_DISTANCE: [Value; 9] = [0, 30, 18, 6, 0, 0, 0, 0, 0];
/// How much each role counts in attack, in percent.
const ATTACK_WEIGHT: [Value; Role::NUM] =
    [20, 40, 60, 100, 100, 40, 40, 0, 100, 100, 100, 100, 70, 70];
/// How much each role counts in defence, in percent.
const DEFENCE_WEIGHT: [Value; Role::NUM] =
    [20, 10, 20, 100, 120, 10, 10, 0, 80, 80, 80, 80, 60, 20];

pub(super) const fn weights(variant: Variant) -> &'static Weights {
    match variant {
        Variant::Spear => &SPEAR,
        Variant::Minishogi => &MINISHOGI,
        _ => &SHOGI,
    }
}

fn distance(a: Square, b: Square) -> usize {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())) as usize
}

/// Mobility: bonus per square a piece of the role reaches (empty or enemy).
const MOBILITY: [Value; Role::NUM] = [0, 4, 1, 1, 1, 5, 5, 0, 1, 4, 1, 2, 4, 4];
/// King danger: units per square of the enemy king's zone a role attacks.
const ZONE_ATTACK: [Value; Role::NUM] = [1, 2, 2, 2, 2, 2, 3, 0, 2, 3, 2, 2, 3, 4];
/// King danger: units per non-pawn piece the attacker holds in hand.
const HAND_DANGER: Value = 3;
/// King danger: units per square next to the king the enemy attacks and
/// no other piece of the king's side defends.
const WEAK_SQUARE: Value = 2;
/// King danger: units per role that can give check next move, by a move or
/// a drop, on a square the king's side does not hold.
const SAFE_CHECK: [Value; Role::NUM] = [2, 4, 5, 5, 5, 4, 6, 0, 5, 5, 5, 5, 5, 6];

/// The evaluation from Sente's view.
fn evaluate_for_sente<V: ShogiVariant>(position: &ShogiPosition<V>) -> Value {
    let weights = weights(V::VARIANT);
    let kings = [position.king(Color::Sente), position.king(Color::Gote)];
    let zones = kings.map(|king| {
        king.map_or(Bitboard::EMPTY, |k| {
            position.attacks_from(Role::King, Color::Sente, k)
        })
    });
    let mut score = [0 as Value; 2];
    // Squares each side's pieces (king aside) attack, and the danger units
    // against each side's king.
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut attacked_by_role = [[Bitboard::EMPTY; Role::NUM]; 2];
    let mut units = [0 as Value; 2];
    let mut attackers = [0 as Value; 2];
    for color in Color::ALL {
        let us = color.index();
        let own_king = kings[us];
        let enemy_king = kings[1 - us];
        let own = position.by_color(color);
        for square in own {
            let Some(piece) = position.piece_at(square) else {
                continue;
            };
            let role = piece.role.index();
            if piece.role == Role::King {
                continue;
            }
            let mut value = weights.board[role];
            if let Some(king) = enemy_king {
                value += ATTACK_BY_DISTANCE[distance(square, king)] * ATTACK_WEIGHT[role] / 100;
            }
            if let Some(king) = own_king {
                value += DEFENCE_BY_DISTANCE[distance(square, king)] * DEFENCE_WEIGHT[role] / 100;
            }
            let reach = position.attacks_from(piece.role, color, square);
            value += MOBILITY[role] * (reach & !own).count() as Value;
            attacked[us] |= reach;
            attacked_by_role[us][role] |= reach;
            let hits = (reach & zones[1 - us]).count() as Value;
            if hits > 0 {
                units[1 - us] += ZONE_ATTACK[role] * hits;
                attackers[1 - us] += 1;
            }
            score[us] += value;
        }
        for (role, count) in position.hand(color).iter() {
            score[us] += weights.hand[role.index()] * count as Value;
        }
    }
    for color in Color::ALL {
        let us = color.index();
        score[us] -= king_exposure(position, color);
        let hand: Value = position
            .hand(!color)
            .iter()
            .filter(|&(role, _)| role != Role::Pawn)
            .map(|(_, count)| count as Value)
            .sum();
        if attackers[us] + hand == 0 {
            continue;
        }
        let weak = (zones[us] & attacked[1 - us] & !attacked[us]).count() as Value;
        let checks = kings[us].map_or(0, |king| {
            safe_checks(position, color, king, &attacked_by_role[1 - us], {
                // The king takes a checking piece next to it unless the
                // enemy supports it.
                !attacked[us] & (!zones[us] | attacked[1 - us])
            })
        });
        let danger = units[us] + WEAK_SQUARE * weak + HAND_DANGER * hand.min(4) + checks;
        score[us] -= (danger * danger / 2).min(900);
    }
    score[0] - score[1]
}

/// King danger units from the enemy's safe checks against `color`'s king:
/// for each role, whether one of its pieces on the board (`enemy_reach`,
/// by role) or in hand can give check next move on a square in `safe`.
fn safe_checks<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    king: Square,
    enemy_reach: &[Bitboard; Role::NUM],
    safe: Bitboard,
) -> Value {
    let enemy = !color;
    let enemy_hand = position.hand(enemy);
    let empty = !position.blockers();
    let mut units = 0;
    for role in Role::ALL {
        if role == Role::King {
            continue;
        }
        let in_hand = role.unpromoted() == role && enemy_hand.count(role) > 0;
        let on_board = enemy_reach[role.index()] & !position.by_color(enemy);
        if !in_hand && on_board.is_empty() {
            continue;
        }
        // Every pattern is symmetric: an enemy piece checks from the
        // squares the same piece of ours would attack from the king.
        let checking = position.attacks_from(role, color, king);
        let mut from = checking & on_board;
        if in_hand {
            from |= checking & empty;
        }
        if (from & safe).any() {
            units += SAFE_CHECK[role.index()];
        }
    }
    units
}

/// How open `color`'s king is: empty or enemy squares around it, worse
/// when the enemy holds pieces to drop there.
fn king_exposure<V: ShogiVariant>(position: &ShogiPosition<V>, color: Color) -> Value {
    let Some(king) = position.king(color) else {
        return 0;
    };
    let around = position.attacks_from(Role::King, color, king);
    let open = (around & !position.by_color(color)).count() as Value;
    let enemy_hand: Value = position
        .hand(!color)
        .iter()
        .filter(|&(role, _)| role != Role::Pawn)
        .map(|(_, count)| count as Value)
        .sum();
    open * (4 + 6 * enemy_hand.min(6))
}

impl<V: ShogiVariant> Evaluate for ShogiPosition<V> {
    const TYPICAL_PLIES_LEFT: u32 = match V::VARIANT {
        Variant::Shogi => 100,
        _ => 50,
    };
    const NULL_MOVE: bool = true;

    fn evaluate(&self) -> Value {
        let weights = weights(V::VARIANT);
        let sente = evaluate_for_sente(self);
        let value = match self.turn() {
            Color::Sente => sente,
            Color::Gote => -sente,
        };
        value + weights.tempo
    }

    fn known_result(&self) -> Option<i32> {
        if !V::KINGS_ARE_CAPTURED {
            return None;
        }
        let us = self.turn();
        if self.king(us).is_none() {
            return Some(0);
        }
        let theirs = self.king(!us)?;
        self.is_attacked(theirs, us, self.blockers()).then_some(1)
    }

    fn captured_value(&self, m: Move) -> Value {
        match m {
            Move::Board { to, .. } => match self.piece_at(to) {
                Some(piece) if piece.role == Role::King => KING_VALUE,
                Some(piece) => weights(V::VARIANT).board[piece.role.index()],
                None => 0,
            },
            Move::Drop { .. } => 0,
        }
    }

    fn mover_value(&self, m: Move) -> Value {
        let weights = weights(V::VARIANT);
        match m {
            Move::Board { from, .. } => self
                .piece_at(from)
                .map_or(0, |piece| weights.board[piece.role.index()]),
            Move::Drop { role, .. } => weights.hand[role.index()],
        }
    }

    fn promotion_gain(&self, m: Move) -> Value {
        match m {
            Move::Board {
                from,
                promote: true,
                ..
            } => {
                let weights = weights(V::VARIANT);
                self.piece_at(from).map_or(0, |piece| {
                    let promoted = piece.role.promoted().unwrap_or(piece.role);
                    weights.board[promoted.index()] - weights.board[piece.role.index()]
                })
            }
            _ => 0,
        }
    }

    fn mover_kind(&self, m: Move) -> usize {
        match m {
            Move::Board { from, .. } => self.piece_at(from).map_or(0, |p| p.role.index()),
            Move::Drop { role, .. } => Role::NUM + role.index(),
        }
    }

    fn see_ge(&self, m: Move, threshold: Value) -> bool {
        super::see::see_ge(self, m, threshold)
    }

    fn in_danger(&self) -> bool {
        if V::KINGS_ARE_CAPTURED {
            let us = self.turn();
            self.king(us)
                .is_some_and(|king| self.is_attacked(king, !us, self.blockers()))
        } else {
            self.checkers().any()
        }
    }

    fn tactical_moves_into(&self, moves: &mut MoveList) {
        self.generate_captures(|set| {
            set.for_each(|m| moves.push(m));
            false
        });
    }

    fn quiet_checks_into(&self, moves: &mut MoveList) {
        let us = self.turn();
        let Some(king) = self.king(!us) else {
            return;
        };
        self.generate(|set| {
            set.for_each(|m| {
                let (role, to) = match m {
                    Move::Board { from, to, promote } => {
                        if self.piece_at(to).is_some() {
                            return;
                        }
                        let Some(piece) = self.piece_at(from) else {
                            return;
                        };
                        let role = if promote {
                            piece.role.promoted().unwrap_or(piece.role)
                        } else {
                            piece.role
                        };
                        (role, to)
                    }
                    Move::Drop { role, to } => (role, to),
                };
                if self.attacks_from(role, us, to).contains(king) {
                    moves.push(m);
                }
            });
            false
        });
    }

    fn null_move(&self) -> Option<Self> {
        let mut next = *self;
        next.set_turn(!self.turn());
        next.refresh();
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Position, SpearPosition, StandardShogiPosition};

    #[test]
    fn start_positions_are_level_but_for_the_tempo() {
        let shogi = StandardShogiPosition::start();
        assert_eq!(shogi.evaluate(), SHOGI.tempo);
        let spear = SpearPosition::start();
        assert_eq!(spear.evaluate(), SPEAR.tempo);
    }

    #[test]
    fn a_piece_up_is_better() {
        // Sente has taken a gold.
        let position = StandardShogiPosition::from_text(
            "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1",
        )
        .unwrap();
        assert!(position.evaluate() > 500);
    }

    /// `quiet_checks_into` lists exactly the legal non-captures whose
    /// moved or dropped piece gives check, on positions of random play.
    fn quiet_checks_agree<V: ShogiVariant>(seed: u64, plies: usize) {
        let mut random = seed | 1;
        let mut position = ShogiPosition::<V>::start();
        for _ in 0..plies {
            let mut listed = MoveList::new();
            position.quiet_checks_into(&mut listed);
            let mut listed: Vec<Move> = listed.to_vec();
            let legal = position.legal_moves();
            let mut expected: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| position.piece_at(m.to()).is_none())
                .filter(|&m| {
                    let mut child = position;
                    child.play_unchecked(m);
                    child.checkers().contains(m.to())
                })
                .collect();
            listed.sort();
            expected.sort();
            assert_eq!(listed, expected, "in {}", position.to_text());
            if legal.is_empty() {
                break;
            }
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            position.play_unchecked(legal[(random % legal.len() as u64) as usize]);
        }
    }

    #[test]
    fn quiet_checks_are_the_direct_ones() {
        for seed in 1..40 {
            quiet_checks_agree::<koma_rules::Minishogi>(seed, 80);
            quiet_checks_agree::<koma_rules::Shogi>(seed, 120);
        }
    }

    /// The safe-check units against `color`'s king, with the attack maps
    /// built as the evaluation builds them.
    fn safe_check_units<V: ShogiVariant>(position: &ShogiPosition<V>, color: Color) -> Value {
        let mut attacked = [Bitboard::EMPTY; 2];
        let mut by_role = [[Bitboard::EMPTY; Role::NUM]; 2];
        for square in position.occupied() {
            let piece = position
                .piece_at(square)
                .expect("occupied squares hold pieces");
            if piece.role == Role::King {
                continue;
            }
            let reach = position.attacks_from(piece.role, piece.color, square);
            attacked[piece.color.index()] |= reach;
            by_role[piece.color.index()][piece.role.index()] |= reach;
        }
        let king = position.king(color).expect("a king");
        let zone = position.attacks_from(Role::King, color, king);
        let (us, them) = (color.index(), 1 - color.index());
        let safe = !attacked[us] & (!zone | attacked[them]);
        safe_checks(position, color, king, &by_role[them], safe)
    }

    #[test]
    fn a_drop_check_counts_when_the_king_cannot_take_the_piece() {
        // Gote holds a gold; Sente's king on 3c stands alone.
        let alone =
            ShogiPosition::<koma_rules::Minishogi>::from_text("k4/5/2K2/5/5 w g 1").unwrap();
        assert_eq!(safe_check_units(&alone, Color::Sente), 0);
        // A gote silver on 3a supports a gold dropped on 3b or 2b.
        let supported =
            ShogiPosition::<koma_rules::Minishogi>::from_text("k1s2/5/2K2/5/5 w g 1").unwrap();
        assert_eq!(
            safe_check_units(&supported, Color::Sente),
            SAFE_CHECK[Role::Gold.index()] + SAFE_CHECK[Role::Silver.index()]
        );
        // A sente rook on 5b holds the whole rank: no check is safe.
        let defended =
            ShogiPosition::<koma_rules::Minishogi>::from_text("k1s2/R4/2K2/5/5 w g 1").unwrap();
        assert_eq!(safe_check_units(&defended, Color::Sente), 0);
    }

    #[test]
    fn spear_sees_a_king_it_can_take() {
        // Sente's gold on 1b attacks Gote's king on 1a.
        let position = SpearPosition::from_text("4k/4G/5/5/K4 b - 1").unwrap();
        assert_eq!(position.known_result(), Some(1));
        let lost = SpearPosition::from_text("4G/5/5/5/K4 w - 1").unwrap();
        assert_eq!(lost.known_result(), Some(0));
    }
}
