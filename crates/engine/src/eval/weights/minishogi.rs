// Minishogi: tuned by `cargo run --release -p koma-engine --example tune`
// (see docs/STRENGTH.md); regenerate rather than edit by hand.
Weights {
    board: [82, 0, 0, 592, 630, 710, 1032, 0, 531, 0, 0, 414, 1204, 1332],
    hand: [326, 0, 0, 642, 806, 712, 921, 0],
    tempo: 178,
    attack_by_distance: [0, 56, 88, 86, -10, 0, 0, 0, 0],
    defence_by_distance: [0, 156, 33, -22, -116, 0, 0, 0, 0],
    attack_weight: [132, 40, 60, 137, 40, 180, 45, 0, 66, 100, 100, -86, 77, 61],
    defence_weight: [154, 10, 20, 73, 107, 93, 13, 0, 209, 80, 80, 250, 170, 101],
    mobility: [42, 4, 1, 45, 44, 31, 19, 0, 25, 4, 1, 53, 23, 25],
    threatened: [117, 0, 0, 154, 186, 151, 186, 0, -32, 0, 0, -66, 100, 154],
    zone_attack: [19, 2, 2, 10, 10, 7, 1, 0, 74, 3, 2, 39, 6, 4],
    hand_danger: 4,
    weak_square: 6,
    safe_check: [-9, 4, 5, 79, 14, 8, 2, 0, 21, 5, 5, -11, 1, 3],
    danger_cap: 714,
    open_square: -76,
    open_square_per_hand_piece: 32,
}
