//! The numbers the shogi-family evaluation weighs, one set per game.
//!
//! They are plain data so that a tuner (`crates/train/examples/tune.rs`)
//! can change them and print a new set; the search uses the constant sets
//! below.

use crate::score::Value;
use koma_rules::{Role, Variant};

/// What the evaluation of one game weighs. Tables indexed by role follow
/// [`Role::index`]: P L N S G B R K +P +L +N +S H D.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a piece on the board, by role.
    pub board: [Value; Role::NUM],
    /// Value of a piece in hand, by unpromoted role (drops make a hand
    /// piece worth more than the same piece on the board).
    pub hand: [Value; 8],
    /// Bonus by role and rank, counted from the owner's back rank (0).
    pub rank: [[Value; 9]; Role::NUM],
    /// Bonus by role and distance to the nearer side edge (0 on the edge).
    pub file: [[Value; 5]; Role::NUM],
    /// Bonus for the side to move.
    pub tempo: Value,
    /// Bonus by Chebyshev distance to the enemy king, before the role's
    /// attack weight.
    pub attack_by_distance: [Value; 9],
    /// Bonus by Chebyshev distance to one's own king, before the role's
    /// defence weight.
    pub defence_by_distance: [Value; 9],
    /// How much each role counts in attack, in percent.
    pub attack_weight: [Value; Role::NUM],
    /// How much each role counts in defence, in percent.
    pub defence_weight: [Value; Role::NUM],
    /// Bonus per square a piece of the role reaches (empty or enemy).
    pub mobility: [Value; Role::NUM],
    /// Penalty for a piece of the role that the enemy attacks while it is
    /// undefended or attacked by a less valuable piece.
    pub threatened: [Value; Role::NUM],
    /// King danger: units per square of the enemy king's zone a role
    /// attacks.
    pub zone_attack: [Value; Role::NUM],
    /// King danger: units per non-pawn piece the attacker holds in hand
    /// (up to four).
    pub hand_danger: Value,
    /// King danger: units per square next to the king the enemy attacks
    /// and no other piece of the king's side defends.
    pub weak_square: Value,
    /// King danger: units per role that can give check next move, by a
    /// move or a drop, on a square the king's side does not hold.
    pub safe_check: [Value; Role::NUM],
    /// King exposure: penalty per enemy attack on the king's flank (its
    /// file and the next ones, in its own half), twice-attacked squares
    /// counting twice.
    pub flank_attack: Value,
    /// Bonus per empty square in the enemy's half that the enemy does not
    /// attack, per kind of non-pawn piece in hand to drop there.
    pub drop_mobility: Value,
    /// Bonus for an unpromoted piece of the role that stands in the
    /// promotion zone or attacks a square of it.
    pub promotion_ready: [Value; Role::NUM],
    /// The most king danger can cost, in centipawns (it grows as the
    /// square of the units, halved).
    pub danger_cap: Value,
    /// King exposure: penalty per open square next to the king.
    pub open_square: Value,
    /// King exposure: further penalty per open square and per non-pawn
    /// piece in the enemy's hand (up to six).
    pub open_square_per_hand_piece: Value,
    /// Impasse: bonus by the king's rank, counted from its own back rank
    /// (standard shogi only).
    pub entering_king: [Value; 9],
    /// Impasse: bonus per piece in the enemy camp, up to the ten a
    /// declaration needs, while the king stands there too.
    pub camp_piece: Value,
    /// Impasse: bonus per point a declaration counts (5 for a rook or a
    /// bishop, 1 for the rest, in the camp and in hand), up to 28, while
    /// the king stands in the enemy camp.
    pub impasse_point: Value,
}

/// What a captured king is worth (Spear, where kings are captured): in
/// [`Evaluate::captured_value`](super::Evaluate::captured_value) and in
/// static exchanges, where it outweighs every other piece. Not tuned.
pub const KING_VALUE: Value = 20_000;

/// The set for `variant`'s game; standard shogi's for the 9×9 variants.
pub const fn weights(variant: Variant) -> &'static Weights {
    match variant {
        Variant::Spear => &SPEAR,
        Variant::Minishogi => &MINISHOGI,
        _ => &SHOGI,
    }
}

/// Shogi.
pub const SHOGI: Weights = Weights {
    board: [
        90, 315, 405, 495, 540, 855, 990, 0, 540, 540, 540, 540, 945, 1395,
    ],
    hand: [100, 350, 450, 550, 600, 950, 1100, 0],
    rank: [[0; 9]; Role::NUM],
    file: [[0; 5]; Role::NUM],
    tempo: 20,
    attack_by_distance: [0, 40, 26, 12, 5, 0, 0, 0, 0],
    defence_by_distance: [0, 30, 18, 6, 0, 0, 0, 0, 0],
    attack_weight: [20, 40, 60, 100, 100, 40, 40, 0, 100, 100, 100, 100, 70, 70],
    defence_weight: [20, 10, 20, 100, 120, 10, 10, 0, 80, 80, 80, 80, 60, 20],
    mobility: [0, 4, 1, 1, 1, 5, 5, 0, 1, 4, 1, 2, 4, 4],
    threatened: [0; Role::NUM],
    zone_attack: [1, 2, 2, 2, 2, 2, 3, 0, 2, 3, 2, 2, 3, 4],
    hand_danger: 3,
    weak_square: 2,
    safe_check: [2, 4, 5, 5, 5, 4, 6, 0, 5, 5, 5, 5, 5, 6],
    flank_attack: 0,
    drop_mobility: 0,
    promotion_ready: [0; Role::NUM],
    danger_cap: 900,
    open_square: 4,
    open_square_per_hand_piece: 6,
    entering_king: [0, 0, 0, 0, 0, 30, 80, 120, 120],
    camp_piece: 70,
    impasse_point: 20,
};

/// Minishogi.
pub const MINISHOGI: Weights = include!("weights/minishogi.rs");

/// Spear: the lance is the spear, the bishop the forward-only elephant; a
/// promoted spear moves as a rook and a promoted silver two steps anywhere.
pub const SPEAR: Weights = include!("weights/spear.rs");
