// Minishogi: tuned by `cargo run --release -p koma-engine --example tune`
// (see docs/STRENGTH.md); regenerate rather than edit by hand.
Weights {
    board: [175, 0, 0, 559, 601, 741, 1011, 0, 560, 0, 0, 487, 1143, 1291],
    hand: [233, 0, 0, 653, 713, 767, 948, 0],
    tempo: 123,
    attack_by_distance: [0, 132, 75, 100, 26, 0, 0, 0, 0],
    defence_by_distance: [0, 123, 81, 12, -93, 0, 0, 0, 0],
    attack_weight: [76, 40, 60, 186, 55, 99, 66, 0, 15, 100, 100, 7, 154, 108],
    defence_weight: [113, 10, 20, 130, 191, 39, 25, 0, 173, 80, 80, 173, 153, 99],
    mobility: [31, 4, 1, 43, 42, 44, 37, 0, 4, 4, 1, 42, 37, 41],
    threatened: [93, 0, 0, 61, 93, 77, 93, 0, -93, 0, 0, -5, 51, 61],
    zone_attack: [23, 2, 2, 16, 11, 12, 1, 0, 74, 3, 2, 58, -11, 4],
    hand_danger: 4,
    weak_square: 6,
    safe_check: [-24, 4, 5, 79, 34, 6, 1, 0, 21, 5, 5, 5, 14, 1],
    danger_cap: 807,
    open_square: -66,
    open_square_per_hand_piece: 42,
}
