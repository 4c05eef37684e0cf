//! Evaluation of the shogi family: material on the board and in hand,
//! placement by rank and file, promotion (made, and within reach), pieces
//! near each king (attack and defence), mobility on the board and for drops,
//! pieces under threat, king danger, and the king's shelter against pieces
//! in the enemy's hand and attacks on its flank. The weights are in
//! [`super::shogi_weights`].

use super::impasse;
use super::shogi_weights::{weights, Weights};
use super::Evaluate;
use crate::score::Value;
use koma_nnue::{Accumulator, AccumulatorStack, Network};
use koma_rules::{
    Bitboard, CheckSquares, Color, Move, MoveList, Role, ShogiPosition, ShogiVariant, Square,
    Variant,
};

pub use super::shogi_weights::KING_VALUE;

fn distance(a: Square, b: Square) -> usize {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())) as usize
}

/// The evaluation of `position` with `weights`, from the side to move's
/// view. The search uses [`Evaluate::evaluate`], which passes the game's
/// own set; a tuner passes others.
pub fn evaluate_with<V: ShogiVariant>(position: &ShogiPosition<V>, weights: &Weights) -> Value {
    let sente = evaluate_for_sente(position, weights);
    let value = match position.turn() {
        Color::Sente => sente,
        Color::Gote => -sente,
    };
    value + weights.tempo
}

/// The evaluation from Sente's view.
fn evaluate_for_sente<V: ShogiVariant>(position: &ShogiPosition<V>, weights: &Weights) -> Value {
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
    let mut attacked_twice = [Bitboard::EMPTY; 2];
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
            let mut value = placement::<V>(square, color, role, weights);
            if piece.role == Role::King {
                score[us] += value;
                continue;
            }
            value += weights.board[role];
            if let Some(king) = enemy_king {
                value += weights.attack_by_distance[distance(square, king)]
                    * weights.attack_weight[role]
                    / 100;
            }
            if let Some(king) = own_king {
                value += weights.defence_by_distance[distance(square, king)]
                    * weights.defence_weight[role]
                    / 100;
            }
            let reach = position.attacks_from(piece.role, color, square);
            value += weights.mobility[role] * (reach & !own).count() as Value;
            if piece.role.promoted().is_some() && (reach.with(square) & V::ZONES[us]).any() {
                value += weights.promotion_ready[role];
            }
            attacked_twice[us] |= attacked[us] & reach;
            attacked[us] |= reach;
            attacked_by_role[us][role] |= reach;
            let hits = (reach & zones[1 - us]).count() as Value;
            if hits > 0 {
                units[1 - us] += weights.zone_attack[role] * hits;
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
        score[us] += drop_mobility(position, color, weights, attacked[1 - us]);
        // Non-pawn pieces the enemy holds to drop near the king.
        let hand: Value = position
            .hand(!color)
            .iter()
            .filter(|&(role, _)| role != Role::Pawn)
            .map(|(_, count)| count as Value)
            .sum();
        score[us] -= king_exposure(position, color, weights, zones[us], hand);
        let flank = kings[us].map_or(0, |king| {
            let flank = flank::<V>(king, color);
            ((attacked[1 - us] & flank).count() + (attacked_twice[1 - us] & flank).count()) as Value
        });
        score[us] -= weights.flank_attack * flank;
        score[us] += impasse::entering(position, color, weights);
        score[us] -= threats(
            position,
            color,
            weights,
            &attacked,
            &attacked_by_role,
            zones[us],
        );
        if attackers[us] + hand == 0 {
            continue;
        }
        let weak = (zones[us] & attacked[1 - us] & !attacked[us]).count() as Value;
        let checks = kings[us].map_or(0, |king| {
            safe_checks(position, color, king, weights, &attacked_by_role[1 - us], {
                // The king takes a checking piece next to it unless the
                // enemy supports it.
                !attacked[us] & (!zones[us] | attacked[1 - us])
            })
        });
        let danger =
            units[us] + weights.weak_square * weak + weights.hand_danger * hand.min(4) + checks;
        score[us] -= (danger * danger / 2).min(weights.danger_cap);
    }
    score[0] - score[1]
}

/// The rank and file bonus of `color`'s piece of role index `role` on
/// `square`.
fn placement<V: ShogiVariant>(
    square: Square,
    color: Color,
    role: usize,
    weights: &Weights,
) -> Value {
    let rank = match color {
        Color::Sente => V::SPEC.ranks - 1 - square.rank(),
        Color::Gote => square.rank(),
    };
    let from_edge = square.file().min(V::SPEC.files - 1 - square.file());
    weights.rank[role][rank as usize] + weights.file[role][from_edge as usize]
}

/// The bonus for `color`'s pieces in hand having somewhere to land: empty
/// squares in the enemy's half (middle rank included) that the enemy does
/// not attack (`enemy_attacks`), per kind of non-pawn piece in hand.
fn drop_mobility<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    weights: &Weights,
    enemy_attacks: Bitboard,
) -> Value {
    let kinds = position
        .hand(color)
        .iter()
        .filter(|&(role, count)| role != Role::Pawn && count > 0)
        .count() as Value;
    if kinds == 0 {
        return 0;
    }
    let open = own_half::<V>(!color) & !position.occupied() & !enemy_attacks;
    weights.drop_mobility * kinds * open.count() as Value
}

/// The flank of `color`'s king on `king`: its file and the files next to
/// it (the three nearest files at an edge), in `color`'s half of the board
/// with the middle rank.
fn flank<V: ShogiVariant>(king: Square, color: Color) -> Bitboard {
    const FILE: u128 = (1 << 9) - 1;
    let centre = king.file().clamp(1, V::SPEC.files - 2) as u32;
    let files =
        (FILE << ((centre - 1) * 9)) | (FILE << (centre * 9)) | (FILE << ((centre + 1) * 9));
    Bitboard(files) & own_half::<V>(color)
}

/// `color`'s half of the board, the middle rank included (built once per
/// game, at compile time).
fn own_half<V: ShogiVariant>(color: Color) -> Bitboard {
    let halves = const {
        let depth = V::SPEC.ranks / 2 + 1;
        [
            V::SPEC.far_ranks(Color::Gote, depth),
            V::SPEC.far_ranks(Color::Sente, depth),
        ]
    };
    halves[color.index()]
}

/// King danger units from the enemy's safe checks against `color`'s king:
/// for each role, whether one of its pieces on the board (`enemy_reach`,
/// by role) or in hand can give check next move on a square in `safe`.
fn safe_checks<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    king: Square,
    weights: &Weights,
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
            units += weights.safe_check[role.index()];
        }
    }
    units
}

/// How open `color`'s king is: empty or enemy squares around it, worse
/// when the enemy holds pieces to drop there.
///
/// `zone` is the squares next to the king (empty without a king) and
/// `enemy_hand` the enemy's non-pawn pieces in hand.
fn king_exposure<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    weights: &Weights,
    zone: Bitboard,
    enemy_hand: Value,
) -> Value {
    let open = (zone & !position.by_color(color)).count() as Value;
    open * (weights.open_square + weights.open_square_per_hand_piece * enemy_hand.min(6))
}

/// The penalty for `color`'s pieces that the enemy attacks while they are
/// undefended (the king next to them counts as a defender) or attacked by
/// a less valuable piece: the side to move may lose one, the other side
/// must spend a move on them.
fn threats<V: ShogiVariant>(
    position: &ShogiPosition<V>,
    color: Color,
    weights: &Weights,
    attacked: &[Bitboard; 2],
    attacked_by_role: &[[Bitboard; Role::NUM]; 2],
    own_zone: Bitboard,
) -> Value {
    let (us, them) = (color.index(), 1 - color.index());
    let defended = attacked[us] | own_zone;
    let mut penalty = 0;
    for square in position.by_color(color) & attacked[them] {
        let Some(piece) = position.piece_at(square) else {
            continue;
        };
        let role = piece.role.index();
        let value = weights.board[role];
        let by_lesser = || {
            Role::ALL.iter().any(|attacker| {
                weights.board[attacker.index()] < value
                    && attacked_by_role[them][attacker.index()].contains(square)
            })
        };
        if !defended.contains(square) || by_lesser() {
            penalty += weights.threatened[role];
        }
    }
    penalty
}

/// The moves a side of a shogi game at `ply` is expected still to make:
/// `at_start`, fewer by `less_per_100_plies` per hundred plies played,
/// and never fewer than `floor` (nor than one).
fn shogi_moves_left(ply: u32, at_start: i32, less_per_100_plies: i32, floor: i32) -> u32 {
    let fewer = i64::from(ply) * i64::from(less_per_100_plies) / 100;
    (i64::from(at_start) - fewer).max(i64::from(floor)).max(1) as u32
}

impl<V: ShogiVariant> Evaluate for ShogiPosition<V> {
    const TYPICAL_PLIES_LEFT: u32 = match V::VARIANT {
        Variant::Shogi => 100,
        // Minishogi's games are short (56 plies on average against FSF):
        // dividing by more left a third of the clock unused.
        Variant::Minishogi => 36,
        _ => 50,
    };
    const NULL_MOVE: bool = true;
    // Minishogi's tuned values run about three times larger than a pawn
    // of 100 would (its fitted logistic scale is 0.34 to 0.38), so it
    // prunes with twice the margins (measured in docs/STRENGTH.md).
    const MARGIN_SCALE: Value = match V::VARIANT {
        Variant::Minishogi => 2,
        _ => 1,
    };
    // Measured in minishogi only (docs/STRENGTH.md); in shogi it made one
    // bench position's search three times larger.
    const SINGULAR_EXTENSION: bool = matches!(V::VARIANT, Variant::Minishogi);

    fn evaluate(&self) -> Value {
        evaluate_with(self, weights(V::VARIANT))
    }

    // The board's shapes (a castle, an attack) last where the hands
    // change with every exchange: they are left out.
    fn correction_keys(&self) -> Option<crate::CorrectionKeys> {
        Some(crate::CorrectionKeys {
            pawns: self.pawns_hash(),
            pieces: [
                self.pieces_hash(Color::Sente),
                self.pieces_hash(Color::Gote),
            ],
        })
    }

    // Shogi's games run about 106 plies between engines at 10 s + 0.1 s,
    // and one that has lasted long has less of itself left. The 5×5
    // games keep the constants measured for them.
    fn moves_left(&self) -> u32 {
        if V::VARIANT != Variant::Shogi {
            return super::typical_moves_left(Self::TYPICAL_PLIES_LEFT);
        }
        shogi_moves_left(
            self.move_number().saturating_sub(1),
            crate::params::clock_moves_at_start(),
            crate::params::clock_moves_less_per_100_plies(),
            crate::params::clock_moves_floor(),
        )
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

    fn captured_kind(&self, m: Move) -> usize {
        match m {
            Move::Board { to, .. } => self.piece_at(to).map_or(0, |p| 1 + p.role.index()),
            Move::Drop { .. } => 0,
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

    type DangerSquares = CheckSquares;

    fn danger_squares(&self) -> CheckSquares {
        self.check_squares()
    }

    fn gives_danger(&self, squares: &CheckSquares, m: Move) -> bool {
        self.gives_check_with(squares, m)
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
        // Of the checks, those onto an empty square by the moved piece
        // itself (an uncovered line's check is left out).
        self.generate_checks(|m| {
            let to = m.to();
            if self.piece_at(to).is_none()
                && self
                    .role_after(m)
                    .is_some_and(|role| self.attacks_from(role, us, to).contains(king))
            {
                moves.push(m);
            }
            false
        });
    }

    fn mate_in_one(&self) -> Option<Move> {
        ShogiPosition::mate_in_one(self)
    }

    fn null_move(&self) -> Option<Self> {
        let mut next = *self;
        next.set_turn(!self.turn());
        next.refresh();
        Some(next)
    }

    fn refresh_accumulator(&self, network: &Network, accumulator: &mut Accumulator) {
        accumulator.refresh(network, self);
    }

    fn set_accumulator_root(&self, network: &Network, stack: &mut AccumulatorStack) {
        stack.set_root(network, self);
    }

    fn push_accumulator_move(
        &self,
        m: Move,
        child: &Self,
        network: &Network,
        stack: &mut AccumulatorStack,
        ply: usize,
    ) {
        stack.push_move(network, ply, self, m, child);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{Position, SpearPosition, StandardShogiPosition};

    #[test]
    fn a_mate_in_one_is_found_but_never_by_a_pawn_drop() {
        let parse = |text| StandardShogiPosition::from_text(text).expect("test positions parse");
        // The corner king, its knight beside it, a gold of Sente's two
        // squares below: a gold dropped next to the king mates.
        let gold = parse("7nk/9/7G1/9/9/9/9/9/4K4 b G 1");
        let m = gold.mate_in_one().expect("a gold drop mates");
        let mated = gold.play(m).expect("the mate is legal");
        assert!(mated.in_danger() && mated.legal_moves().is_empty());
        // With a pawn in hand the same drop would mate, which the rules
        // forbid; no other move mates.
        assert_eq!(parse("7nk/9/7G1/9/9/9/9/9/4K4 b P 1").mate_in_one(), None);
        assert_eq!(StandardShogiPosition::start().mate_in_one(), None);
        assert_eq!(SpearPosition::start().mate_in_one(), None);
    }

    #[test]
    fn start_positions_are_level_but_for_the_tempo() {
        let shogi = StandardShogiPosition::start();
        assert_eq!(shogi.evaluate(), super::super::shogi_weights::SHOGI.tempo);
        let spear = SpearPosition::start();
        assert_eq!(spear.evaluate(), super::super::shogi_weights::SPEAR.tempo);
    }

    #[test]
    fn shogi_expects_fewer_moves_the_longer_its_game_has_run() {
        let at = |ply| shogi_moves_left(ply, 35, 15, 15);
        assert_eq!(at(0), 35);
        assert_eq!(at(100), 20);
        assert!((0..400).all(|ply| at(ply + 1) <= at(ply)));
        assert_eq!(at(400), 15, "a long game keeps a reserve");
        assert_eq!(shogi_moves_left(0, 0, 0, 0), 1);
        // The game's own ply is read from the position.
        let mut shogi = StandardShogiPosition::start();
        shogi.set_move_number(301);
        let params = (
            crate::params::clock_moves_at_start(),
            crate::params::clock_moves_less_per_100_plies(),
            crate::params::clock_moves_floor(),
        );
        assert_eq!(
            shogi.moves_left(),
            shogi_moves_left(300, params.0, params.1, params.2)
        );
        // The 5×5 games divide by their measured constants at every ply.
        let mut spear = SpearPosition::start();
        let first = spear.moves_left();
        spear.set_move_number(150);
        assert_eq!(spear.moves_left(), first);
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

    #[test]
    fn the_flank_is_three_files_of_the_kings_own_half() {
        use koma_rules::{bitboard, Minishogi};
        let flank_of = |king: &str, color| flank::<Minishogi>(king.parse().unwrap(), color);
        // At the edge, the three nearest files.
        assert_eq!(
            flank_of("1e", Color::Sente),
            bitboard! {
                ". . . . ."
                ". . . . ."
                ". . X X X"
                ". . X X X"
                ". . X X X"
            }
        );
        assert_eq!(
            flank_of("3a", Color::Gote),
            bitboard! {
                ". X X X ."
                ". X X X ."
                ". X X X ."
                ". . . . ."
                ". . . . ."
            }
        );
    }

    /// The position turned half a turn with the colours swapped, written
    /// from its SFEN: the same game seen from the other side.
    fn flipped<V: ShogiVariant>(position: &ShogiPosition<V>) -> ShogiPosition<V> {
        let swap_case = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let text = position.to_text();
        let fields: Vec<&str> = text.split(' ').collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| {
                let mut tokens: Vec<String> = Vec::new();
                for c in rank.chars() {
                    match tokens.last_mut() {
                        Some(last) if last == "+" => last.push(swap_case(c)),
                        _ => tokens.push(swap_case(c).to_string()),
                    }
                }
                tokens.reverse();
                tokens.concat()
            })
            .collect();
        let hand: String = fields[2].chars().map(swap_case).collect();
        let turn = if fields[1] == "b" { "w" } else { "b" };
        let text = format!("{} {turn} {hand} 1", ranks.join("/"));
        ShogiPosition::<V>::from_text(&text).expect("a flipped position is a position")
    }

    /// The evaluation does not care which colour a side plays: a position
    /// and its flip evaluate the same, on positions of random play.
    fn colour_blind<V: ShogiVariant>(seed: u64, plies: usize) {
        random_game::<V>(seed, plies, |position| {
            assert_eq!(
                position.evaluate(),
                flipped(position).evaluate(),
                "in {}",
                position.to_text()
            );
        });
    }

    /// Calls `visit` on each position of a game of random legal moves, up
    /// to `plies` of them, until the game ends.
    fn random_game<V: ShogiVariant>(
        seed: u64,
        plies: usize,
        mut visit: impl FnMut(&ShogiPosition<V>),
    ) {
        let mut random = seed | 1;
        let mut position = ShogiPosition::<V>::start();
        for _ in 0..plies {
            visit(&position);
            let legal = position.legal_moves();
            if legal.is_empty() || position.king(!position.turn()).is_none() {
                break;
            }
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            position.play_unchecked(legal[(random % legal.len() as u64) as usize]);
        }
    }

    #[test]
    fn the_evaluation_is_colour_blind() {
        for seed in 1..30 {
            colour_blind::<koma_rules::Spear>(seed, 80);
            colour_blind::<koma_rules::Minishogi>(seed, 80);
            colour_blind::<koma_rules::Shogi>(seed, 120);
        }
    }

    #[test]
    fn a_threatened_piece_costs_its_owner() {
        // Gote's silver on 3c is attacked by Sente's pawn on 3d.
        let attacked =
            ShogiPosition::<koma_rules::Minishogi>::from_text("4k/5/2s2/2P2/K4 b - 1").unwrap();
        let mut weights = weights(koma_rules::Variant::Minishogi).clone();
        weights.threatened = [0; Role::NUM];
        let without = evaluate_with(&attacked, &weights);
        weights.threatened[Role::Silver.index()] = 77;
        assert_eq!(evaluate_with(&attacked, &weights), without + 77);
        // Sente's pawn is attacked by the silver too, but it is the least
        // valuable piece and its king does not defend it: it is hanging.
        weights.threatened[Role::Pawn.index()] = 5;
        assert_eq!(evaluate_with(&attacked, &weights), without + 77 - 5);
    }

    /// `quiet_checks_into` lists exactly the legal non-captures whose
    /// moved or dropped piece gives check, on positions of random play.
    fn quiet_checks_agree<V: ShogiVariant>(seed: u64, plies: usize) {
        random_game::<V>(seed, plies, |position| {
            let mut listed = MoveList::new();
            position.quiet_checks_into(&mut listed);
            let mut listed: Vec<Move> = listed.to_vec();
            let mut expected: Vec<Move> = position
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| position.piece_at(m.to()).is_none())
                .filter(|&m| {
                    let mut child = *position;
                    child.play_unchecked(m);
                    child.checkers().contains(m.to())
                })
                .collect();
            listed.sort();
            expected.sort();
            assert_eq!(listed, expected, "in {}", position.to_text());
        });
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
        let weights = weights(V::VARIANT);
        safe_checks(position, color, king, weights, &by_role[them], safe)
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
            [Role::Gold, Role::Silver]
                .map(|role| weights(koma_rules::Variant::Minishogi).safe_check[role.index()])
                .iter()
                .sum::<Value>()
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
