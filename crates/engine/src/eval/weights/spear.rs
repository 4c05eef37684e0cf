// Spear: tuned by `cargo run --release -p koma-engine --example tune`
// (see docs/STRENGTH.md); regenerate rather than edit by hand.
Weights {
    board: [125, 338, 0, 520, 368, 519, 0, 0, 336, 1018, 0, 930, 924, 0],
    hand: [193, 312, 0, 475, 534, 405, 0, 0],
    tempo: 159,
    attack_by_distance: [0, -124, 116, 83, -13, 0, 0, 0, 0],
    defence_by_distance: [0, 123, 68, -6, -109, 0, 0, 0, 0],
    attack_weight: [113, 7, 60, 81, 59, 46, 40, 0, 162, 25, 100, 41, 84, 70],
    defence_weight: [-25, 50, 20, -39, 108, 54, 10, 0, 213, 187, 80, 148, 187, 20],
    mobility: [89, 78, 1, 59, 37, 42, 5, 0, 8, -17, 1, 15, 10, 4],
    threatened: [11, 186, 0, 186, 148, 186, 0, 0, 146, 97, 0, 150, 178, 0],
    zone_attack: [5, -1, 2, 2, 4, 1, 3, 0, 10, 4, 2, 2, 2, 4],
    hand_danger: 3,
    weak_square: 2,
    safe_check: [8, 4, 5, 9, 8, 10, 6, 0, -3, 9, 5, 7, 3, 6],
    danger_cap: 714,
    open_square: -78,
    open_square_per_hand_piece: 3,
}
