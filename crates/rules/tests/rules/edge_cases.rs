//! The rules' edge cases, one test each.

use koma_rules::{
    Color, EndReason, IllegalReason, MinishogiPosition, Outcome, Position, SpearPosition,
    StandardShogiPosition,
};

fn reason<P: Position>(position: &P, text: &str) -> Option<IllegalReason> {
    let m = P::parse_move_syntax(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    position.why_illegal(m)
}

fn moves_from<P: Position>(position: &P, prefix: &str) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|&m| P::move_to_text(m))
        .filter(|text| text.starts_with(prefix))
        .collect();
    moves.sort();
    moves
}

fn shogi(sfen: &str) -> StandardShogiPosition {
    StandardShogiPosition::from_text(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

#[test]
fn uchifuzume_when_the_only_defender_is_pinned() {
    // The gold on 2a could take a pawn on 1b, but the rook on 5a pins it to
    // its king: the drop mates, so it is illegal.
    let pinned = shogi("4R2gk/9/8G/9/9/9/9/9/4K4 b P 1");
    assert_eq!(reason(&pinned, "P*1b"), Some(IllegalReason::PawnDropMate));
    // With the rook on 5b instead, the gold is free to take: the drop is legal.
    let free = shogi("7gk/4R4/8G/9/9/9/9/9/4K4 b P 1");
    assert_eq!(reason(&free, "P*1b"), None);
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    // The king can step to 2b.
    let position = shogi("8k/9/8G/9/9/9/9/9/4K4 b P 1");
    assert_eq!(reason(&position, "P*1b"), None);
    let after = position.play(position.parse_move("P*1b").unwrap()).unwrap();
    assert!(after.is_check());
}

#[test]
fn a_pawn_move_may_mate_where_a_drop_may_not() {
    // The gold on 2c guards the pawn and 2b; the gold on 2a is pinned.
    let position = shogi("4R2gk/9/7GP/9/9/9/9/9/4K4 b - 1");
    let mate = position.play(position.parse_move("1c1b").unwrap()).unwrap();
    assert_eq!(
        mate.outcome(),
        Some(Outcome::win(Color::Sente, EndReason::Checkmate))
    );
    let drop = shogi("4R2gk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(reason(&drop, "P*1b"), Some(IllegalReason::PawnDropMate));
}

#[test]
fn nifu() {
    let position = shogi("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert_eq!(reason(&position, "P*5e"), Some(IllegalReason::TwoPawns));
    assert_eq!(reason(&position, "P*4e"), None);
    // A promoted pawn does not count.
    let tokin = shogi("4k4/9/4+P4/9/9/9/9/9/4K4 b P 1");
    assert_eq!(reason(&tokin, "P*5e"), None);
    // Minishogi keeps the rule.
    let mini = MinishogiPosition::from_text("4k/5/5/4P/K4 b P 1").unwrap();
    assert_eq!(reason(&mini, "P*1c"), Some(IllegalReason::TwoPawns));
}

#[test]
fn forced_and_optional_promotion() {
    let pawn = shogi("4k4/8P/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&pawn, "1b"), ["1b1a+"]);
    assert_eq!(reason(&pawn, "1b1a"), Some(IllegalReason::MustPromote));

    let knight = shogi("4k4/9/9/6N2/9/9/9/9/4K4 b - 1");
    assert_eq!(moves_from(&knight, "3d"), ["3d2b+", "3d4b+"]);

    let lance = shogi("4k4/9/9/9/9/9/9/9/4K3L b - 1");
    assert_eq!(moves_from(&lance, "1i1b"), ["1i1b", "1i1b+"]);
    assert_eq!(moves_from(&lance, "1i1a"), ["1i1a+"]);

    let silver = shogi("4k4/9/9/4S4/9/9/9/9/4K4 b - 1");
    assert_eq!(
        moves_from(&silver, "5d"),
        ["5d4c", "5d4c+", "5d4e", "5d5c", "5d5c+", "5d6c", "5d6c+", "5d6e"]
    );
    assert_eq!(reason(&silver, "5d4e+"), Some(IllegalReason::CannotPromote));

    // Minishogi's zone is one rank deep.
    let mini = MinishogiPosition::from_text("k4/5/2S2/5/4K b - 1").unwrap();
    assert_eq!(moves_from(&mini, "3c3b"), ["3c3b"]);
}

#[test]
fn dead_drops() {
    let position = shogi("4k4/9/9/9/9/9/9/9/4K4 b NLP 1");
    assert_eq!(reason(&position, "P*1a"), Some(IllegalReason::DeadDrop));
    assert_eq!(reason(&position, "L*1a"), Some(IllegalReason::DeadDrop));
    assert_eq!(reason(&position, "N*1b"), Some(IllegalReason::DeadDrop));
    assert_eq!(reason(&position, "N*1c"), None);
    // Spear has no such rule: anything drops anywhere.
    let spear = SpearPosition::from_text("k4/5/5/5/4K b PL 1").unwrap();
    assert_eq!(reason(&spear, "P*1a"), None);
    assert_eq!(reason(&spear, "L*1a"), None);
}

#[test]
fn promotion_of_a_dropped_piece_waits_for_its_next_board_move() {
    // Spear: the silver dropped in the zone stays a silver; its next board
    // move promotes it only if that move ends in the zone.
    let spear = SpearPosition::from_text("k4/5/5/5/4K b S 1").unwrap();
    let dropped = spear.play(spear.parse_move("S*3b").unwrap()).unwrap();
    assert!(dropped.to_text().starts_with("k4/2S2/"));
    let dropped = dropped.play(dropped.parse_move("5a4a").unwrap()).unwrap();
    assert_eq!(
        moves_from(&dropped, "3b"),
        ["3b2a+", "3b2c", "3b3a+", "3b4a+", "3b4c"]
    );
    assert_eq!(
        reason(&dropped, "3b2c+"),
        Some(IllegalReason::CannotPromote)
    );
    assert_eq!(reason(&dropped, "3b3a"), Some(IllegalReason::MustPromote));

    // Shogi: a move that starts in the zone may promote, even leaving it.
    let position = shogi("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    let dropped = position.play(position.parse_move("S*3b").unwrap()).unwrap();
    let dropped = dropped.play(dropped.parse_move("5a6a").unwrap()).unwrap();
    assert!(moves_from(&dropped, "3b2c").contains(&"3b2c+".to_owned()));
}

#[test]
fn the_elephant_slides_only_forwards() {
    let spear = SpearPosition::from_text("k4/5/2B2/5/4K b - 1").unwrap();
    assert_eq!(
        moves_from(&spear, "3c"),
        ["3c1a+", "3c2b+", "3c4b+", "3c5a+"]
    );
    assert_eq!(reason(&spear, "3c2d"), Some(IllegalReason::CannotReach));
    // Promoted, it also slides back and steps orthogonally: 7 diagonal
    // squares (its own king blocks 1e) and 4 steps.
    let horse = SpearPosition::from_text("k4/5/2+B2/5/4K b - 1").unwrap();
    assert_eq!(moves_from(&horse, "3c").len(), 7 + 4);
}

#[test]
fn spear_has_no_check_and_ends_when_a_king_falls() {
    // Sente's king may step next to Gote's gold (no check rule).
    let spear = SpearPosition::from_text("5/5/2g2/5/2K1k b - 1").unwrap();
    assert_eq!(reason(&spear, "3e3d"), None);
    let exposed = spear.play(spear.parse_move("3e3d").unwrap()).unwrap();
    let captured = exposed.play(exposed.parse_move("3c3d").unwrap()).unwrap();
    assert_eq!(
        captured.outcome(),
        Some(Outcome::win(Color::Gote, EndReason::KingCaptured))
    );
    assert_eq!(captured.to_text(), "5/5/5/2g2/4k b k 3");
    assert_eq!(captured.count_legal_moves(), 0);
    assert_eq!(reason(&captured, "1e1d"), Some(IllegalReason::GameOver));
}

#[test]
fn moving_into_check_and_leaving_a_pin_are_refused() {
    let position = shogi("4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1");
    assert_eq!(
        reason(&position, "5h4h"),
        Some(IllegalReason::LeavesKingInCheck)
    );
    assert_eq!(reason(&position, "5h5g"), None);
    assert_eq!(reason(&position, "5i4i"), None);
    let checked = shogi("4k4/9/9/9/4r4/9/9/9/4K4 b G 1");
    assert_eq!(
        reason(&checked, "G*6h"),
        Some(IllegalReason::LeavesKingInCheck)
    );
    assert_eq!(reason(&checked, "G*5h"), None);
    assert_eq!(
        reason(&checked, "5i5h"),
        Some(IllegalReason::LeavesKingInCheck)
    );
}

#[test]
fn shogi_stalemate_loses() {
    // Gote's king on 1a has no move and no piece to drop, not in check.
    let position = shogi("8k/6G2/7G1/9/9/9/9/9/4K4 w - 1");
    assert!(!position.is_check());
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(Color::Sente, EndReason::NoLegalMoves))
    );
}

#[test]
fn illegal_input_is_explained() {
    let position = StandardShogiPosition::start();
    assert_eq!(reason(&position, "5e5d"), Some(IllegalReason::NoPiece));
    assert_eq!(reason(&position, "3c3d"), Some(IllegalReason::NotYourPiece));
    assert_eq!(reason(&position, "7g7e"), Some(IllegalReason::CannotReach));
    assert_eq!(reason(&position, "9i9g"), Some(IllegalReason::OwnPiece));
    assert_eq!(reason(&position, "P*5e"), Some(IllegalReason::NotInHand));
    assert_eq!(
        reason(&position, "7g7f+"),
        Some(IllegalReason::CannotPromote)
    );
    assert_eq!(reason(&position, "7g7g"), Some(IllegalReason::NullMove));
    let mini = MinishogiPosition::start();
    assert_eq!(reason(&mini, "9i9h"), Some(IllegalReason::OffBoard));
    assert_eq!(reason(&mini, "N*3c"), Some(IllegalReason::NotDroppable));
}
