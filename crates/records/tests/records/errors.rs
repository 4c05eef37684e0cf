//! The crate's errors tell their kinds apart: a file that cannot be read,
//! bytes that are not text, a syntax error at a line, a move that cannot
//! be played, a start position that is not one of the game.

use koma_records::file::{load, output_format, parse_format, save};
use koma_records::{read_any, FileError, Format, FormatError, LoadError, StartPositionError};
use koma_rules::{SetupProblem, SfenError, Variant};

/// A file in the system's temporary folder, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn with(name: &str, bytes: &[u8]) -> Scratch {
        let path = std::env::temp_dir().join(format!("koma-records-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        Scratch(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_missing_file_is_an_io_error_with_its_path() {
    let error = load("/nonexistent/koma/game.kif", None, None).unwrap_err();
    match &error {
        FileError::Read { path, source } => {
            assert_eq!(path.to_str(), Some("/nonexistent/koma/game.kif"));
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }
    assert!(error.load_error().is_none());
}

#[test]
fn bytes_that_are_no_text_are_a_decode_error() {
    let file = Scratch::with("binary.kif", b"\x81\x81\x81\xff\xfe");
    let error = load(file.path(), None, None).unwrap_err();
    assert!(
        matches!(error.load_error(), Some(LoadError::Decode(_))),
        "{error:?}"
    );
}

#[test]
fn a_syntax_error_names_its_line() {
    let file = Scratch::with("syntax.csa", b"V2.2\nPI\n+\n+7776FU\nnonsense\n");
    let error = load(file.path(), None, None).unwrap_err();
    let parse = error.load_error().and_then(LoadError::parse_error).unwrap();
    assert_eq!(parse.line(), Some(5));
    assert!(parse.unplayable_move().is_none());
    assert!(parse.bad_start().is_none());
    // The sentence people read: the path, the format, the line, the text.
    assert_eq!(
        error.to_string(),
        format!(
            "{}: csa: line 5, column 1: unknown statement \"nonsense\"",
            file.path()
        )
    );
}

#[test]
fn an_illegal_move_names_its_number_and_text() {
    let error = read_any(b"position startpos moves 7g7f 7g7f", None, None).unwrap_err();
    let replay = error.parse_error().unwrap().unplayable_move().unwrap();
    assert_eq!((replay.move_number, replay.text.as_str()), (2, "7g7f"));

    let error = read_any(b"PI\n+\n+7776FU\n-7776FU\n", Some(Format::Csa), None).unwrap_err();
    let parse = error.parse_error().unwrap();
    assert_eq!(parse.unplayable_move().unwrap().move_number, 2);
    assert_eq!(parse.line(), Some(4));
}

#[test]
fn an_empty_text_is_no_record_in_any_format() {
    // Every format would read it as a game of no moves from the start.
    for (bytes, format) in [
        (&b""[..], None),
        (b" \r\n\t\n", None),
        ("\u{3000}\n".as_bytes(), Some(Format::Kif)),
        (b"\n", Some(Format::Csa)),
        (b"", Some(Format::Usi)),
        (b"\n\n", Some(Format::Pgn)),
    ] {
        let error = read_any(bytes, format, None).unwrap_err();
        assert!(matches!(error, LoadError::Empty), "{bytes:?}: {error:?}");
        assert_eq!(error.to_string(), "the record is empty");
    }
    // A record of headers only is a game not yet begun, and is read.
    let record = read_any("先手：A\n後手：B\n".as_bytes(), Some(Format::Kif), None).unwrap();
    assert_eq!(record.variant(), Variant::Shogi);
}

#[test]
fn a_bad_start_wraps_the_rules_error() {
    // Gote, not to move, has no king: a position, but not one of the game.
    let error = read_any(b"position sfen 9/9/9/9/9/9/9/9/4K4 b - 1", None, None).unwrap_err();
    let bad = error.parse_error().unwrap().bad_start().unwrap();
    assert!(
        matches!(
            bad,
            StartPositionError::Sfen(SfenError::Setup(ref setup))
                if matches!(setup.problem, SetupProblem::MissingKing(_))
        ),
        "{bad:?}"
    );
    // A typo is a syntax error of the SFEN, not an impossible position.
    let error = read_any(b"position sfen 9/9 b - 1", None, None).unwrap_err();
    let bad = error.parse_error().unwrap().bad_start().unwrap();
    assert!(
        matches!(bad, StartPositionError::Sfen(SfenError::Syntax(_))),
        "{bad:?}"
    );
}

#[test]
fn a_format_that_cannot_hold_the_game_is_unsupported() {
    let error = read_any(b"V2.2\nPI\n+\n", None, Some(Variant::Pawns)).unwrap_err();
    assert!(matches!(
        error,
        LoadError::Unsupported {
            format: Format::Csa,
            variant: Variant::Pawns
        }
    ));
}

#[test]
fn formats_are_refused_by_kind() {
    assert!(matches!(
        parse_format("docx"),
        Err(FormatError::Unknown { ref name }) if name == "docx"
    ));
    assert_eq!(
        parse_format("docx").unwrap_err().to_string(),
        "unknown format \"docx\"; one of kif, kifu, ki2, csa, usi, pgn"
    );
    assert!(matches!(
        output_format("game", None),
        Err(FormatError::NotTold { .. })
    ));
    assert_eq!(
        output_format("game.ki2", None),
        Err(FormatError::ReadOnly {
            format: Format::Ki2
        })
    );
}

#[test]
fn a_record_that_cannot_be_written_is_told_from_a_disk_error() {
    let record = read_any(b"position startpos moves e2e4", None, Some(Variant::Pawns)).unwrap();
    let error = save(&record, "/nonexistent/koma/game.csa", Format::Csa).unwrap_err();
    assert!(
        matches!(error.load_error(), Some(LoadError::Unsupported { .. })),
        "{error:?}"
    );
    let error = save(&record, "/nonexistent/koma/game.pgn", Format::Pgn).unwrap_err();
    assert!(
        matches!(&error, FileError::Write { source, .. } if source.kind() == std::io::ErrorKind::NotFound),
        "{error:?}"
    );
}
