//! `koma convert` from the command line: every shared record through every
//! format Koma writes and back, standard input and output, and errors that
//! say where and leave no file behind.

use crate::common::{koma, real_record, real_record_names, scratch, usi_of};

#[test]
fn every_real_record_survives_every_format() {
    let names = real_record_names();
    assert_eq!(names.len(), 19);
    for name in names {
        let original = usi_of(&real_record(&name));
        assert!(original.starts_with("position "), "{name}: {original}");
        assert_eq!(original.lines().count(), 1, "{name}");
        for extension in ["kif", "kifu", "csa", "usi"] {
            let path = scratch(&format!("{name}.{extension}"));
            let out = koma(&["convert", &real_record(&name), &path], b"");
            assert!(
                out.status.success(),
                "{name} to {extension}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(usi_of(&path), original, "{name} through {extension}");
        }
    }
}

#[test]
fn standard_input_and_output_and_every_game() {
    let cases = [
        (
            "position startpos moves 7g7f 3c3d",
            "shogi",
            "kifu",
            "手合割：平手",
        ),
        (
            "position startpos moves 5d5c",
            "minishogi",
            "kifu",
            "手合割：5五将棋",
        ),
        (
            "position startpos moves 5d5c",
            "spear",
            "kifu",
            "手合割：槍将棋",
        ),
        (
            "position startpos moves e2e4 d7d5",
            "pawns",
            "pgn",
            "[Variant \"Pawns-Only\"]",
        ),
    ];
    for (usi, variant, format, marker) in cases {
        let out = koma(
            &["convert", "-", "-", "--variant", variant, "--to", format],
            usi.as_bytes(),
        );
        assert!(
            out.status.success(),
            "{variant}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(marker), "{variant}: {text}");
        // Read back without being told the game: the record says it.
        let back = koma(&["convert", "-", "-", "--to", "usi"], text.as_bytes());
        assert!(
            back.status.success(),
            "{variant}: {}",
            String::from_utf8_lossy(&back.stderr)
        );
        let line = String::from_utf8(back.stdout).unwrap();
        assert_eq!(
            line.trim_end().split(" moves ").nth(1),
            usi.split(" moves ").nth(1),
            "{variant}"
        );
    }
}

#[test]
fn bad_records_are_refused_with_the_place_and_no_file_is_written() {
    let input = scratch("bad.kifu");
    std::fs::write(
        &input,
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角(77)\n",
    )
    .unwrap();
    let output = scratch("bad-out.csa");
    let out = koma(&["convert", &input, &output], b"");
    assert!(!out.status.success());
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("line 4") && message.contains("move 3"),
        "{message}"
    );
    assert!(!std::path::Path::new(&output).exists());
    let junk = koma(
        &["convert", "-", "-", "--to", "usi"],
        [0x81, 0xff, 0x00, 0x12],
    );
    assert!(!junk.status.success());
    assert!(String::from_utf8_lossy(&junk.stderr).contains("line 1"));
    let csa_spear = koma(
        &["convert", "-", "-", "--variant", "spear", "--to", "csa"],
        b"position startpos",
    );
    assert!(String::from_utf8_lossy(&csa_spear.stderr).contains("csa records cannot hold"));
    let no_format = koma(&["convert", "-", "-"], b"position startpos");
    assert!(String::from_utf8_lossy(&no_format.stderr).contains("--to"));
    let ki2_out = koma(&["convert", &real_record("4.ki2"), &scratch("x.ki2")], b"");
    assert!(String::from_utf8_lossy(&ki2_out.stderr).contains("does not write"));
}
