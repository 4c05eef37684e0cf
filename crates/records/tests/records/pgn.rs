//! PGN for Pawns-Only Chess: exact output, what other software writes,
//! errors with their place, round trips and no panics.

use crate::common::Rng;
use koma_records::pgn::{self, PgnError, PgnErrorKind, TagProblem};
use koma_records::{Ending, Record, RecordedMove, ReplayError};
use koma_rules::pawns::parse_square;
use koma_rules::{Color, EndReason, Move, Outcome, PawnsPosition, Position};
use proptest::prelude::*;
use std::time::Duration;

fn uci(position: &PawnsPosition, text: &str) -> Move {
    position.parse_move(text).unwrap()
}

/// A record of `moves` (UCI) from `start`.
fn record_of(start: PawnsPosition, moves: &[&str]) -> Record<PawnsPosition> {
    let mut record = Record::new(start);
    let mut position = start;
    for text in moves {
        let m = uci(&position, text);
        position.play_unchecked(m);
        record.moves.push(RecordedMove::new(m));
    }
    record
}

fn error_of(text: &str) -> PgnError {
    pgn::read(text).unwrap_err()
}

#[test]
fn writes_a_short_game_exactly() {
    let mut record = record_of(PawnsPosition::start(), &["e2e4", "d7d5", "e4d5"]);
    record.headers.event = Some("Club \"Pawns\" night".into());
    record.headers.sente = Some("Alice".into());
    record.headers.gote = Some("Bob \\ Carol".into());
    record.headers.start_time = Some("2024.05.01".into());
    record
        .headers
        .other
        .push(("Annotator".into(), "Koma".into()));
    record.moves[0].time = Some(Duration::from_secs(5));
    record.moves[1].time = Some(Duration::from_millis(3_250));
    record.moves[1].comments.push("the centre".into());
    record.comments.push("A quick one".into());
    record.ending = Some(Ending::Resignation);
    let expected = r#"[Event "Club \"Pawns\" night"]
[Site "?"]
[Date "2024.05.01"]
[Round "?"]
[White "Alice"]
[Black "Bob \\ Carol"]
[Result "1-0"]
[Variant "Pawns-Only"]
[Termination "normal"]
[Annotator "Koma"]

{A quick one} 1. e4 {[%emt 0:00:05]} 1... d5 {[%emt 0:00:03.25]} {the centre} 2.
exd5 1-0
"#;
    assert_eq!(pgn::write(&record), expected);
    assert_eq!(pgn::read(expected).unwrap(), record);
}

#[test]
fn writes_a_set_up_position_with_black_to_move() {
    let start = PawnsPosition::from_fen("8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b - e3 0 7").unwrap();
    let record = record_of(start, &["d7d5", "e4d5", "c7c6"]);
    let expected = r#"[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[Variant "Pawns-Only"]
[SetUp "1"]
[FEN "8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b - e3 0 7"]

7... d5 8. exd5 c6 *
"#;
    assert_eq!(pgn::write(&record), expected);
    assert_eq!(pgn::read(expected).unwrap(), record);
}

#[test]
fn long_games_and_comments_wrap_at_80_columns() {
    let mut record = record_of(
        PawnsPosition::start(),
        &[
            "a2a3", "h7h6", "b2b3", "g7g6", "c2c3", "f7f6", "d2d3", "e7e6", "e2e3", "d7d6", "f2f3",
            "c7c6", "g2g3", "b7b6", "h2h3", "a7a6", "a3a4", "h6h5",
        ],
    );
    record.moves[3]
        .comments
        .push("word ".repeat(30).trim_end().to_owned());
    record.moves[5].comments.push("two  spaces".into());
    let text = pgn::write(&record);
    let movetext = text.split("\n\n").nth(1).unwrap();
    assert!(movetext.lines().count() > 2, "{movetext}");
    for line in movetext.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    assert!(
        movetext.starts_with("1. a3 h6 2. b3 g6 {word word"),
        "{movetext}"
    );
    assert_eq!(pgn::read(&text).unwrap(), record);
}

#[test]
fn reads_what_other_software_writes() {
    let text = r#"[Event "Test"]
[Variant "Pawns-only Chess"]
[White "A \\ B \"C\""]
[Black "?"]
[FEN "8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b - e3 0 1"]
[SetUp "1"]
[Opening "Pawn storm"]
[Annotator "Someone"]

% an escaped line with { and ( that is ignored
{Opening remark} 1... d5 $1 2. exd5 (2. e5 f5 3. exf6 e.p. (3. d4 $2)) 2... c5!?
; a rest-of-line comment with a } in it
3. dxc6 e.p. {en passant
over two lines} 3... bxc6 4. d2-d4 e7e5 5. d4xe5+ {[%emt 0:01:02] fast} *

[Event "Second"]
1. e4 *
"#;
    let record = pgn::read(text).unwrap();
    assert_eq!(record.headers.event.as_deref(), Some("Test"));
    assert_eq!(record.headers.sente.as_deref(), Some("A \\ B \"C\""));
    assert_eq!(record.headers.gote, None);
    assert_eq!(record.headers.opening.as_deref(), Some("Pawn storm"));
    assert_eq!(
        record.headers.other,
        vec![("Annotator".to_owned(), "Someone".to_owned())]
    );
    assert_eq!(record.start.turn(), Color::Gote);
    assert_eq!(record.comments, vec!["Opening remark".to_owned()]);
    assert_eq!(record.moves.len(), 8);
    let square = |name| parse_square(name).unwrap();
    // 3. dxc6 e.p.: the pawn on d5 goes to c6 and takes the pawn on c5.
    assert_eq!(
        record.moves[3].m,
        Move::Board {
            from: square("d5"),
            to: square("c6"),
            promote: false
        }
    );
    assert_eq!(
        record.moves[2].comments,
        vec!["a rest-of-line comment with a } in it".to_owned()]
    );
    assert_eq!(
        record.moves[3].comments,
        vec!["en passant over two lines".to_owned()]
    );
    assert_eq!(record.moves[7].time, Some(Duration::from_secs(62)));
    assert_eq!(record.moves[7].comments, vec!["fast".to_owned()]);
    assert_eq!(record.ending, None);
    assert_eq!(
        record.final_position().to_fen(),
        "8/p4ppp/2p5/4P3/8/8/PPP2PPP/8 b - - 0 5"
    );
    let games = pgn::read_all(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], record);
    assert_eq!(games[1].headers.event.as_deref(), Some("Second"));
    assert_eq!(games[1].moves.len(), 1);
    assert_eq!(pgn::read_all("  \n").unwrap(), vec![]);
}

#[test]
fn a_game_without_result_token_ends_at_the_next_tags() {
    let games = pgn::read_all("[Result \"1-0\"]\n1. e4 d5\n[Event \"B\"]\n1. d4\n").unwrap();
    assert_eq!(games.len(), 2);
    // White is to move after 1. e4 d5, so 1-0 says Black resigned out of
    // turn: no ending says that, the Result tag keeps it.
    assert_eq!(games[0].ending, None);
    assert_eq!(
        games[0].headers.other,
        vec![("Result".to_owned(), "1-0".to_owned())]
    );
    assert!(pgn::write(&games[0]).contains("[Result \"1-0\"]"));
    assert_eq!(pgn::read(&pgn::write(&games[0])).unwrap(), games[0]);
    assert_eq!(games[1].headers.event.as_deref(), Some("B"));
    assert_eq!(games[1].moves.len(), 1);
}

#[test]
fn results_become_endings() {
    let ending = |text: &str| pgn::read(text).unwrap().ending;
    assert_eq!(ending("1. e4 1-0"), Some(Ending::Resignation));
    assert_eq!(ending("1. e4 e5 0-1"), Some(Ending::Resignation));
    assert_eq!(ending("1. e4 1/2-1/2"), Some(Ending::Draw));
    assert_eq!(ending("1. e4 *"), None);
    assert_eq!(
        ending("[Termination \"time forfeit\"]\n1. e4 1-0"),
        Some(Ending::Timeout)
    );
    assert_eq!(
        ending("[Termination \"Abandoned\"]\n1. e4 *"),
        Some(Ending::Abandoned)
    );
    assert_eq!(
        ending("[Termination \"rules infraction\"]\n1. e4 0-1"),
        Some(Ending::IllegalMoveWin)
    );
    // A finished game: Black's pawn reaches the first rank.
    let won = "[FEN \"8/8/8/8/8/8/p6P/8 b - - 0 1\"]\n1... a1 0-1";
    let record = pgn::read(won).unwrap();
    assert_eq!(record.ending, Some(Ending::Checkmate));
    assert_eq!(
        record.to_game().unwrap().outcome(),
        Some(Outcome::win(Color::Gote, EndReason::LastRankReached))
    );
    // The Result tag alone is enough.
    assert_eq!(ending("[Result \"1/2-1/2\"]\n\n1. e4"), Some(Ending::Draw));
    let stalemate = "[FEN \"8/8/8/4p3/8/4P3/8/8 w - - 0 1\"]\n1. e4 1/2-1/2";
    assert_eq!(ending(stalemate), Some(Ending::Draw));
    for ending in [
        Ending::Resignation,
        Ending::Timeout,
        Ending::Abandoned,
        Ending::Draw,
        Ending::IllegalMove,
        Ending::IllegalMoveWin,
    ] {
        let mut record = record_of(PawnsPosition::start(), &["e2e4"]);
        record.ending = Some(ending);
        assert_eq!(pgn::read(&pgn::write(&record)).unwrap(), record);
    }
}

#[test]
fn an_illegal_move_names_line_column_and_move() {
    let error = error_of("[Event \"x\"]\n\n1. e4 e5\n2. e5 d6 *\n");
    assert_eq!((error.line, error.column), (4, 4));
    assert_eq!(
        error.kind,
        PgnErrorKind::Move(ReplayError {
            move_number: 3,
            text: "e5".into(),
            reason: "a pawn cannot move like that".into(),
        })
    );
    assert_eq!(
        error.to_string(),
        "line 4, column 4: move 3 (e5) cannot be played: a pawn cannot move like that"
    );
    let error = error_of("1. e4 e5 2. dxe5");
    assert_eq!((error.line, error.column), (1, 13));
    assert!(error.to_string().contains("move 3 (dxe5)"), "{error}");
    let error = error_of("1. e2e5");
    assert!(
        matches!(&error.kind, PgnErrorKind::Move(e) if e.move_number == 1),
        "{error}"
    );
    let error = error_of("1. e4 e5 2. Nf3");
    assert!(error
        .to_string()
        .ends_with("only pawns play in Pawns-Only Chess"));
    assert_eq!(error.column, 13);
    let error = error_of("1. e4 e5 2. e8=Q");
    assert!(error.to_string().contains("do not promote"), "{error}");
    let error = error_of("1. e4 e5 2. zz9 *");
    assert!(error.to_string().contains("not a move"), "{error}");
    // A move after the game is over.
    let error = error_of("[FEN \"8/8/8/8/8/8/p6P/8 b - - 0 1\"]\n1... a1 2. h3");
    assert_eq!((error.line, error.column), (2, 12));
    assert!(error.to_string().contains("over"), "{error}");
}

#[test]
fn bad_tags_and_wrong_variants_are_refused_where_they_stand() {
    let error = error_of("[Event \"x\"]\n  [White \"Alice]\n1. e4 *");
    assert_eq!((error.line, error.column), (2, 3));
    assert!(
        matches!(
            error.kind,
            PgnErrorKind::BadTag(TagProblem::Unclosed { .. })
        ),
        "{error}"
    );
    let error = error_of("[Event Alice]\n1. e4 *");
    assert_eq!(
        error.kind,
        PgnErrorKind::BadTag(TagProblem::Unquoted {
            name: "Event".into()
        })
    );
    assert_eq!(
        error.to_string(),
        "line 1, column 1: bad tag pair: the value of Event must be in double quotes"
    );
    let error = error_of("[Event \"x\"]\n[Variant \"Crazyhouse\"]\n[FEN \"bad\"]\n\n1. e4 *");
    assert_eq!((error.line, error.column), (2, 1));
    assert_eq!(error.kind, PgnErrorKind::WrongVariant("Crazyhouse".into()));
    assert!(error.to_string().contains("Crazyhouse"));
    for variant in ["Pawns-Only", "pawns", "Pawns-only Chess", "PAWNS ONLY"] {
        let text = format!("[Variant \"{variant}\"]\n1. e4 *");
        assert!(pgn::read(&text).is_ok(), "{variant}");
    }
    let error = error_of("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n*");
    assert!(matches!(error.kind, PgnErrorKind::InvalidFen(_)), "{error}");
}

#[test]
fn other_errors_have_their_place() {
    let kind = |text: &str| error_of(text).kind;
    assert_eq!(
        error_of("1. e4 {never closed").column,
        7,
        "the comment's opening brace"
    );
    assert_eq!(kind("1. e4 {never closed"), PgnErrorKind::UnclosedComment);
    assert_eq!(kind("1. e4 (1. d4 *"), PgnErrorKind::UnclosedVariation);
    assert_eq!(kind("1. e4 ) *"), PgnErrorKind::UnopenedVariation);
    assert_eq!(kind("1. e4 <"), PgnErrorKind::UnexpectedCharacter('<'));
    assert_eq!(kind(""), PgnErrorKind::NoGame);
    assert_eq!(
        kind("[Result \"1-0\"]\n1. e4 0-1"),
        PgnErrorKind::ResultMismatch {
            tag: "1-0".into(),
            movetext: "0-1".into()
        }
    );
    let error = error_of("[FEN \"8/8/8/8/8/8/p6P/8 b - - 0 1\"]\n1... a1 1-0");
    assert_eq!((error.line, error.column), (2, 9));
    assert_eq!(
        error.kind,
        PgnErrorKind::WrongResult {
            result: "1-0".into(),
            outcome: Outcome::win(Color::Gote, EndReason::LastRankReached)
        }
    );
    assert!(error.to_string().contains("Black won"), "{error}");
    // The error of the second game does not spoil the first.
    assert!(pgn::read("1. e4 *\n1. e5 *").is_ok());
    assert!(pgn::read_all("1. e4 *\n1. e5 *").is_err());
}

/// Random legal play: `skip` plies make the start, then up to `plies` are recorded.
fn random_game(seed: u64, skip: usize, plies: usize) -> Record<PawnsPosition> {
    let mut rng = Rng::new(seed);
    let mut position = PawnsPosition::start();
    let mut record = Record::new(position);
    for ply in 0..skip + plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        if ply == skip {
            record = Record::new(position);
        }
        position.play_unchecked(m);
        if ply >= skip {
            record.moves.push(RecordedMove::new(m));
        }
    }
    if record.moves.is_empty() {
        record = Record::new(position);
    }
    record
}

fn comment() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-zA-Z0-9,.!?'\"(){}%;:\\\\-]{1,10}", 1..30).prop_map(|w| w.join(" "))
}

/// A tag value as records keep it: without blanks at either end.
fn trimmed() -> impl Strategy<Value = String> {
    "[ -~]{0,20}".prop_map(|v| v.trim().to_owned())
}

fn value() -> impl Strategy<Value = Option<String>> {
    prop::option::of(trimmed().prop_filter("unknown", |v| v != "?" && v != "????.??.??"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn what_is_written_reads_back_the_same(
        seed in any::<u64>(),
        skip in 0usize..6,
        plies in 0usize..80,
        times in prop::collection::vec(prop::option::of(0u64..10_000_000), 80),
        comments in prop::collection::vec(prop::option::of(comment()), 81),
        names in (value(), value(), value(), value()),
        other in prop::collection::vec(("X[a-zA-Z0-9_]{0,8}", trimmed()), 0..3),
        ending in 0usize..8,
    ) {
        let mut record = random_game(seed, skip, plies);
        for (index, recorded) in record.moves.iter_mut().enumerate() {
            recorded.time = times[index].map(Duration::from_millis);
            recorded.comments.extend(comments[index].clone());
        }
        record.comments.extend(comments[80].clone());
        (record.headers.sente, record.headers.gote, record.headers.event, record.headers.start_time) = names;
        record.headers.other = other;
        let last = record.final_position();
        record.ending = match last.outcome() {
            Some(outcome) => (ending > 0).then(|| Ending::from_outcome(outcome, last.turn())),
            None => [
                None,
                Some(Ending::Resignation),
                Some(Ending::Timeout),
                Some(Ending::Abandoned),
                Some(Ending::Draw),
                Some(Ending::IllegalMove),
                Some(Ending::IllegalMoveWin),
                Some(Ending::Resignation),
            ][ending],
        };
        let text = pgn::write(&record);
        let movetext = text.split("\n\n").nth(1).unwrap();
        for line in movetext.lines() {
            prop_assert!(line.chars().count() <= 80 || line.contains(';'), "{:?}", line);
        }
        let reread = pgn::read(&text);
        prop_assert_eq!(reread, Ok(record.clone()), "{}", text);
        let twice = format!("{text}\n{text}");
        prop_assert_eq!(pgn::read_all(&twice).unwrap(), vec![record.clone(), record]);
    }

    #[test]
    fn junk_never_makes_the_reader_panic(text in "[-\\[\\]{}()a-hxPNKQ1-8 .;%$!?+#=*/\n\"\\\\]{0,300}") {
        let _ = pgn::read(&text);
        let _ = pgn::read_all(&text);
    }

    #[test]
    fn movetext_junk_after_good_tags_never_panics(
        tokens in prop::collection::vec(
            "([a-h][1-8]|[a-h]x[a-h][1-8]|[a-h][1-8][a-h][1-8]|[0-9]{1,3}\\.+|[(){}]|\\$[0-9]|1-0|0-1|1/2-1/2|\\*|e\\.p\\.|;[a-z ]*\n)",
            0..60,
        ),
        fen in prop::bool::ANY,
    ) {
        let head = if fen {
            "[FEN \"8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b - e3 0 1\"]\n\n"
        } else {
            "[Variant \"pawns\"]\n\n"
        };
        let text = format!("{head}{}", tokens.join(" "));
        if let Ok(records) = pgn::read_all(&text) {
            for record in records {
                prop_assert!(record.to_game().is_ok());
            }
        }
    }
}
