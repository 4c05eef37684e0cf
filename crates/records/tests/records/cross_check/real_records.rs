//! The real records read the same everywhere, and what the others
//! write of them Koma reads as the game they read: CSA records, and KIF and
//! KI2 games written as CSA (part 3).

use super::games::{koma_moves, sfen_core};
use super::testdata::{real_csa_files, real_kifu_files};
use super::{nozaq, rs, skc};
use koma_records::csa::CsaErrorKind;
use koma_rules::Position;

/// nozaq's `csa` reads nothing after `PI`/`+` of a record whose statements
/// are padded with spaces (`+7776FU  ,T0       ,'T0`, as GPS wrote in 2005),
/// and says nothing about it: `parse_csa` ignores what it could not read.
/// Spaces before a comma are not in the CSA V2.2 grammar, but Koma and
/// rsshogi read them as written.
const NOZAQ_READS_NO_MOVES: [&str; 1] = ["2005_YAMADA_GPS.csa"];

/// rsshogi 1.7.3 shares out `P-00AL` as if each side had its own set (the
/// rest of Gote's 9 pawns, 1 bishop...): `b2g2s2n2l5p` where the CSA spec's
/// "all remaining pieces" are `4g4s4n3l14p` (Koma, nozaq's `csa` and
/// shogi-kifu-converter agree; Sente's two bishops are on the board).
const RSSHOGI_MISREADS_AL: [(&str, &str); 1] = [(
    "tsumeshogi.csa",
    "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b b2g2s2n2l5p",
)];

#[test]
fn real_csa_records_read_the_same_in_koma_and_the_others() {
    let files = real_csa_files();
    assert!(files.len() >= 7, "{} CSA files", files.len());
    for (name, text) in &files {
        let koma = koma_records::csa::read(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = sfen_core(&koma.start.to_text());
        let moves = koma_moves(&koma);

        let theirs = rsshogi::records::formats::csa::parse_csa_str(text)
            .unwrap_or_else(|e| panic!("rsshogi: {name}: {e}"));
        match RSSHOGI_MISREADS_AL.iter().find(|(file, _)| file == name) {
            Some((_, their_start)) => {
                assert_eq!(rs::start(&theirs), *their_start, "{name}");
                assert_eq!(rs::moves(&theirs), moves, "{name}");
            }
            None => rs::assert_same(name, &koma, &theirs),
        }

        let theirs = nozaq::read(text);
        assert_eq!(theirs.start, start, "nozaq: {name}");
        if NOZAQ_READS_NO_MOVES.contains(&name.as_str()) {
            assert!(!moves.is_empty(), "{name}");
            assert_eq!(theirs.moves, Vec::<String>::new(), "nozaq: {name}");
        } else {
            assert_eq!(theirs.moves, moves, "nozaq: {name}");
            assert_eq!(
                theirs.special,
                koma.ending.and_then(nozaq::special),
                "nozaq: {name}"
            );
        }

        let jkf = shogi_kifu_converter::parser::parse_csa_str(text)
            .unwrap_or_else(|e| panic!("shogi-kifu-converter: {name}: {e}"));
        let (their_start, their_moves) = skc::usi(&jkf);
        assert_eq!(their_start, start, "shogi-kifu-converter: {name}");
        if NOZAQ_READS_NO_MOVES.contains(&name.as_str()) {
            assert!(their_moves.is_empty(), "shogi-kifu-converter: {name}");
        } else {
            assert_eq!(their_moves, moves, "shogi-kifu-converter: {name}");
        }
    }
}

/// The others read a real record and write it; Koma reads what they wrote as
/// the game they read.
#[test]
fn real_csa_records_written_by_the_others_read_the_same_in_koma() {
    use shogi_kifu_converter::converter::ToCsa;
    for (name, text) in real_csa_files() {
        let theirs = rsshogi::records::formats::csa::parse_csa_str(&text).unwrap();
        let written = rsshogi::records::formats::csa::export_csa(&theirs)
            .unwrap_or_else(|e| panic!("rsshogi cannot write {name}: {e}"));
        let what = format!("{name} as rsshogi wrote it\n{written}");
        if RSSHOGI_MISREADS_AL.iter().any(|(file, _)| *file == name) {
            // What rsshogi read has three bishops: Koma refuses it.
            let error = koma_records::csa::read(&written).unwrap_err();
            assert!(
                matches!(error.kind, CsaErrorKind::InvalidPosition(_)),
                "{error}: {what}"
            );
        } else {
            let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
            rs::assert_same(&what, &koma, &theirs);
        }

        let theirs = csa::parse_csa(&text).unwrap();
        let read = nozaq::read(&text);
        let written = theirs.to_string();
        let what = format!("{name} as nozaq's csa wrote it\n{written}");
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(sfen_core(&koma.start.to_text()), read.start, "{what}");
        assert_eq!(koma_moves(&koma), read.moves, "{what}");
        assert_eq!(koma.ending.and_then(nozaq::special), read.special, "{what}");
        assert_eq!(koma.headers.sente, theirs.black_player, "{what}");

        let theirs = shogi_kifu_converter::parser::parse_csa_str(&text).unwrap();
        let written = theirs.to_csa_owned();
        let what = format!("{name} as shogi-kifu-converter wrote it\n{written}");
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        let (start, moves) = skc::usi(&theirs);
        assert_eq!(sfen_core(&koma.start.to_text()), start, "{what}");
        assert_eq!(koma_moves(&koma), moves, "{what}");
    }
}

/// rsshogi writes, from two real KIF headers, CSA that Koma refuses:
/// `$振り駒:3,0,藤`, which Koma splits at the commas (the Koma bug: its own
/// writer writes such values too), and `%封じ手` (a sealed move), which is
/// no CSA ending (Koma is right). Each: the file and Koma's error.
const KOMA_REFUSES_RSSHOGI_CSA: [(&str, &str); 1] = [(
    "meijinsen_20180508_M7_10034.kif",
    "unknown statement \"%封じ手\"",
)];

/// Real KIF and KI2 games, as rsshogi and shogi-kifu-converter read them
/// (both agree), written as CSA by each: Koma reads that CSA as the same
/// game. Handicaps, set-up positions and mate problems come this way.
#[test]
fn real_kif_games_written_as_csa_by_the_others_read_the_same_in_koma() {
    use shogi_kifu_converter::converter::ToCsa;
    let files = real_kifu_files();
    assert!(files.len() >= 12, "{} KIF files", files.len());
    for (name, ki2, text) in &files {
        let rs = rs::kifu(*ki2, text);
        let skc = skc::kifu(*ki2, text);
        let (start, moves) = skc::usi(&skc);
        assert_eq!(rs::start(&rs), start, "{name}: rsshogi and skc");
        assert_eq!(rs::moves(&rs), moves, "{name}: rsshogi and skc");

        let written = skc.to_csa_owned();
        let what = format!("{name} as shogi-kifu-converter wrote it\n{written}");
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        assert_eq!(sfen_core(&koma.start.to_text()), start, "{what}");
        assert_eq!(koma_moves(&koma), moves, "{what}");
        assert_eq!(
            koma.ending,
            skc::special(&skc).and_then(skc::ending_of),
            "{what}"
        );

        let mut rs = rs;
        let written = rsshogi::records::formats::csa::export_csa(&rs).unwrap();
        let what = format!("{name} as rsshogi wrote it\n{written}");
        if let Some((_, error)) = KOMA_REFUSES_RSSHOGI_CSA.iter().find(|(f, _)| f == name) {
            let refused = koma_records::csa::read(&written).unwrap_err();
            assert!(refused.to_string().ends_with(error), "{refused}: {what}");
            // Still the same moves without the headers and ending Koma refuses.
            rs.set_metadata(Default::default());
            if let Some(terminal) = rs.main_terminal_node() {
                rs.detach_subtree(terminal).unwrap();
            }
        }
        let written = rsshogi::records::formats::csa::export_csa(&rs).unwrap();
        let koma = koma_records::csa::read(&written).unwrap_or_else(|e| panic!("{e}: {what}"));
        rs::assert_same(&what, &koma, &rs);
    }
}
