// Spear: tuned by `cargo run --release -p koma-engine --example tune`
// (see docs/STRENGTH.md); regenerate rather than edit by hand.
Weights {
    board: [153, 325, 0, 495, 429, 428, 0, 0, 429, 925, 0, 837, 917, 0],
    hand: [213, 325, 0, 501, 575, 409, 0, 0],
    tempo: 117,
    attack_by_distance: [0, -52, 100, 85, -5, 0, 0, 0, 0],
    defence_by_distance: [0, 91, 64, -4, -93, 0, 0, 0, 0],
    attack_weight: [97, -13, 60, 103, 61, 54, 40, 0, 113, 40, 100, 105, 87, 70],
    defence_weight: [-9, 72, 20, 39, 134, 54, 10, 0, 173, 173, 80, 165, 153, 20],
    mobility: [47, 79, 1, 48, 22, 60, 5, 0, -2, -10, 1, 20, 15, 4],
    threatened: [-75, 93, 0, 93, 93, 93, 0, 0, 93, 61, 0, 61, 93, 0],
    zone_attack: [3, -1, 2, 2, 4, 0, 3, 0, 10, 3, 2, 2, 2, 4],
    hand_danger: 3,
    weak_square: 2,
    safe_check: [10, 5, 5, 9, 9, 10, 6, 0, -3, 11, 5, 5, 1, 6],
    danger_cap: 807,
    open_square: -77,
    open_square_per_hand_piece: -1,
}
