//! The one check of positions (issue 53): what each game refuses, with the
//! sentence that says why, and the finished games it accepts with their
//! outcome. Every path (create, import, the records, the console programs,
//! USI) reads positions through `Position::from_text`, which is this.

use koma_rules::{
    Color, EndReason, FenError, MinishogiPosition, Outcome, PawnsPosition, Position, SetupError,
    SetupProblem, SfenError, SpearPosition, StandardShogiPosition, Variant,
};

/// The sentence `P` refuses `text` with.
fn refusal<P: Position>(text: &str) -> String {
    match P::from_text(text) {
        Ok(position) => panic!("{text} was accepted as {position:?}"),
        Err(error) => error.to_string(),
    }
}

/// The outcome of `text`, which `P` must accept; with no legal move, the
/// outcome is never `None`.
fn accepted<P: Position>(text: &str) -> Option<Outcome> {
    let position = P::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(position.validate(), Ok(()), "{text}");
    if position.legal_moves().is_empty() {
        assert!(position.outcome().is_some(), "{text}: no move and no end");
    }
    position.outcome()
}

#[test]
fn shogi_without_a_king_for_the_side_not_to_move_is_refused() {
    assert_eq!(
        refusal::<StandardShogiPosition>("9/9/9/9/9/9/9/9/9 b - 1"),
        "there is no king on the board"
    );
    assert_eq!(
        refusal::<StandardShogiPosition>("4k4/9/9/9/9/9/9/9/9 w - 1"),
        "Sente has no king, and only the side to move may play without one (the attacker of a mate problem)"
    );
    assert_eq!(
        refusal::<MinishogiPosition>("5/5/5/5/5 b - 1"),
        "there is no king on the board"
    );
    assert_eq!(
        refusal::<MinishogiPosition>("K4/5/5/5/5 b - 1"),
        "Gote has no king, and only the side to move may play without one (the attacker of a mate problem)"
    );
}

#[test]
fn a_mate_problem_without_the_attackers_king_stays_accepted() {
    assert_eq!(
        accepted::<StandardShogiPosition>("7nl/7k1/9/7N1/9/9/9/9/9 b GS 1"),
        None
    );
    assert_eq!(accepted::<MinishogiPosition>("4k/5/5/5/5 b G 1"), None);
}

#[test]
fn a_side_to_move_without_a_legal_move_has_lost() {
    let lost = Some(Outcome::win(Color::Gote, EndReason::NoLegalMoves));
    assert_eq!(
        accepted::<StandardShogiPosition>("4k4/9/9/9/9/9/9/9/9 b - 1"),
        lost
    );
    assert_eq!(accepted::<MinishogiPosition>("4k/5/5/5/5 b - 1"), lost);
}

#[test]
fn spear_follows_its_own_rules() {
    // A soldier dropped on the last row stays there, unpromoted: legal.
    assert_eq!(accepted::<SpearPosition>("P4/5/5/5/K3k b - 1"), None);
    assert_eq!(
        refusal::<SpearPosition>("5/5/5/5/5 b - 1"),
        "there is no king on the board"
    );
    assert_eq!(
        refusal::<SpearPosition>("K4/5/5/5/5 b - 1"),
        "White has no king, and only the side to move can have lost its king (to the move just played)"
    );
    // The side to move has lost its king, to the move just played.
    let captured = Some(Outcome::win(Color::Gote, EndReason::KingCaptured));
    assert_eq!(accepted::<SpearPosition>("4k/5/5/5/5 b - 1"), captured);
    assert_eq!(accepted::<SpearPosition>("4k/5/5/5/5 b k 1"), captured);
}

#[test]
fn pieces_that_could_never_move_are_named() {
    assert_eq!(
        refusal::<StandardShogiPosition>("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        "a pawn on 9a can never move"
    );
    assert_eq!(
        refusal::<StandardShogiPosition>("4k4/8N/9/9/9/9/9/9/4K4 b - 1"),
        "a knight on 1b can never move"
    );
    assert_eq!(
        refusal::<StandardShogiPosition>("4k4/9/9/9/9/9/9/9/4K3l w - 1"),
        "a lance on 1i can never move"
    );
    assert_eq!(
        refusal::<MinishogiPosition>("k4/5/5/5/K3p b - 1"),
        "a pawn on 1e can never move"
    );
}

#[test]
fn other_impossible_shogi_positions_say_why() {
    assert_eq!(
        refusal::<StandardShogiPosition>("4k4/9/9/9/9/9/9/9/4R3K b - 1"),
        "Gote is in check on Sente's turn, and no move may leave its own king in check"
    );
    assert_eq!(
        refusal::<StandardShogiPosition>("4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1"),
        "Sente has two unpromoted pawns on file 5 (nifu)"
    );
    assert_eq!(
        refusal::<MinishogiPosition>("rbsgk/4p/5/P4/KGSBR b P 1"),
        "there are 3 pawns, and the game has 2"
    );
    assert_eq!(
        refusal::<SpearPosition>("lbsgk/4p/5/P4/KGSBL b P 1"),
        "there are 3 soldiers, and the game has 2"
    );
    assert_eq!(
        refusal::<MinishogiPosition>("rbsgk/4p/5/P4/KGSBK b - 1"),
        "Sente has more than one king"
    );
}

#[test]
fn pawns_only_chess_follows_its_own_rules() {
    assert_eq!(
        refusal::<PawnsPosition>("8/8/8/8/8/8/8/8 w - - 0 1"),
        "there are no pawns on the board"
    );
    assert_eq!(
        refusal::<PawnsPosition>("8/8/8/8/8/8/P7/8 w - - 0 1"),
        "Black has no pawns, and only the side to move can have lost its last one (to the move just played)"
    );
    assert_eq!(
        refusal::<PawnsPosition>("8/8/8/8/8/8/P7/4P3 b - - 0 1"),
        "a white pawn on e1 stands on its own first rank, where no pawn can ever be"
    );
    assert_eq!(
        refusal::<PawnsPosition>("P7/8/8/8/8/8/p7/8 w - - 0 1"),
        "a white pawn on a8 has already won the game, so it cannot be White's turn"
    );
    assert_eq!(
        refusal::<PawnsPosition>("PP6/8/8/8/8/8/p7/8 b - - 0 1"),
        "two white pawns stand on the last rank, and the game ends when the first gets there"
    );
    // Finished games are accepted with their outcome.
    assert_eq!(
        accepted::<PawnsPosition>("P7/8/8/8/8/8/p7/8 b - - 0 1"),
        Some(Outcome::win(Color::Sente, EndReason::LastRankReached))
    );
    assert_eq!(
        accepted::<PawnsPosition>("8/p7/8/8/8/8/8/8 w - - 0 1"),
        Some(Outcome::win(Color::Gote, EndReason::AllPawnsCaptured))
    );
    // pawns.md: a side without a legal move draws, it does not lose.
    assert_eq!(
        accepted::<PawnsPosition>("8/8/8/4p3/4P3/8/8/8 w - - 0 1"),
        Some(Outcome::draw(EndReason::Stalemate))
    );
}

#[test]
fn the_error_types_carry_the_setup_error() {
    let expected = SetupError {
        variant: Variant::Shogi,
        problem: SetupProblem::NoKings,
    };
    assert_eq!(
        StandardShogiPosition::from_text("9/9/9/9/9/9/9/9/9 b - 1"),
        Err(SfenError::Setup(expected))
    );
    assert_eq!(
        PawnsPosition::from_text("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(FenError::Setup(SetupError {
            variant: Variant::Pawns,
            problem: SetupProblem::NoPawns,
        }))
    );
}
