//! `koma shogi` with records: `save` in every format, `--record` that
//! survives `kill -9` and resumes, `--load` that tells the game by itself.

use crate::common::{koma, scratch, usi_of};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn save_writes_every_format_and_they_read_back() {
    for extension in ["kif", "kifu", "csa", "usi"] {
        let path = scratch(&format!("saved.{extension}"));
        let out = koma(&["shogi"], format!("7g7f\n3c3d\nsave {path}\nquit\n"));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("Saved 2 moves to {path} ({extension}).")),
            "{text}"
        );
        assert_eq!(
            usi_of(&path),
            "position startpos moves 7g7f 3c3d",
            "{extension}"
        );
    }
    let forced = scratch("forced.txt");
    koma(
        &["shogi"],
        format!("7g7f\nsave {forced} --format csa\nquit\n"),
    );
    assert!(std::fs::read_to_string(&forced)
        .unwrap()
        .contains("+7776FU"));
    let refused = koma(
        &["shogi"],
        "save /nonexistent-dir/x.kif\nsave noextension\nquit\n",
    );
    let text = String::from_utf8_lossy(&refused.stdout);
    assert!(
        text.contains("Not saved: /nonexistent-dir/x.kif:"),
        "{text}"
    );
    assert!(text.contains("Not saved: cannot tell the format"), "{text}");
}

#[test]
fn a_recorded_game_survives_kill_9_and_resumes() {
    let path = scratch("recorded.kifu");
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(["shogi", "--record", &path])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("koma runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"7g7f\n3c3d\n2g2f\n").unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(&path).is_ok_and(|t| t.contains("   3 ２六歩(27)")) {
        assert!(Instant::now() < deadline, "the record was not written");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    assert_eq!(usi_of(&path), "position startpos moves 7g7f 3c3d 2g2f");
    // The same command again continues the game where it stopped.
    let out = koma(&["shogi", "--record", &path], "8c8d\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Continuing the recorded game after move 3."),
        "{text}"
    );
    assert_eq!(usi_of(&path), "position startpos moves 7g7f 3c3d 2g2f 8c8d");
    // Undo and resignation are recorded too.
    koma(&["shogi", "--record", &path], "undo\nresign\nquit\n");
    let kif = std::fs::read_to_string(&path).unwrap();
    assert!(kif.contains("   4 投了\nまで3手で先手の勝ち\n"), "{kif}");
    // A file that is not a record is never overwritten.
    let junk = scratch("junk.kifu");
    std::fs::write(&junk, "not a record\n").unwrap();
    let out = koma(&["shogi", "--record", &junk], "7g7f\nquit\n");
    assert!(!out.status.success());
    assert_eq!(std::fs::read_to_string(&junk).unwrap(), "not a record\n");
}

#[test]
fn loaded_records_tell_their_game_and_can_be_continued_part_way() {
    let mini = scratch("mini.kifu");
    std::fs::write(&mini, "手合割：5五将棋\n   1 ４四銀(35)\n   2 ２二銀(31)\n").unwrap();
    let input = format!("end\ngoto 1\n3a3b\ny\nsave {mini}\nquit\n");
    let out = koma(&["shogi", "--load", &mini, "--color", "never"], &input);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Koma minishogi."), "{text}");
    assert!(text.contains("Loaded a game of 2 moves"), "{text}");
    assert!(
        text.contains("Continue from move 1? The 1 later move will be dropped. [y/n] y"),
        "{text}"
    );
    assert_eq!(
        usi_of(&mini),
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 3e4d 3a3b"
    );
    let wrong = koma(&["shogi", "--load", &mini, "--variant", "spear"], "quit\n");
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("this is a minishogi record, not spear")
    );
    let spear = scratch("spear.kifu");
    koma(
        &["shogi", "--variant", "spear", "--record", &spear],
        "5d5c\n1b1c\nquit\n",
    );
    let text = std::fs::read_to_string(&spear).unwrap();
    assert!(
        text.contains("手合割：槍将棋") && text.contains("   2 １三歩(12)"),
        "{text}"
    );
}

#[test]
fn a_handicap_game_starts_with_the_giver_and_is_recorded_by_name() {
    let path = scratch("handicap.kifu");
    let _ = std::fs::remove_file(&path);
    let out = koma(
        &["shogi", "--handicap", "角落ち", "--record", &path],
        "7g7f\n3c3d\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Bishop handicap (角落ち): Gote is the giver (上手) and moves first."),
        "{text}"
    );
    // Sente cannot open: Gote, the giver, moves first.
    assert!(
        text.contains("Illegal: that piece belongs to the opponent."),
        "{text}"
    );
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("手合割：角落ち"), "{saved}");
    assert_eq!(
        usi_of(&path),
        "position sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d"
    );

    let refused = koma(&["shogi", "--handicap", "rook", "--variant", "spear"], "");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("handicaps are shogi's"));
    let unknown = koma(&["shogi", "--handicap", "nine-piece"], "");
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown handicap"));
}

#[test]
fn declare_ends_a_shogi_game_by_impasse_under_either_rule() {
    // Sente's king and ten pieces in Gote's camp, 18 points there.
    let entered = |hand: &str| format!("+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8 b {hand} 1");
    let short = koma(&["shogi", "--position", &entered("R4P")], "declare\nquit\n");
    let text = String::from_utf8_lossy(&short.stdout);
    assert!(
        text.contains(
            "No impasse declaration under the 27-point rule: 27 points are held; 28 are needed."
        ),
        "{text}"
    );

    let path = scratch("declared.kifu");
    let _ = std::fs::remove_file(&path);
    let won = koma(
        &["shogi", "--position", &entered("R5P"), "--record", &path],
        "declare\nquit\n",
    );
    let text = String::from_utf8_lossy(&won.stdout);
    assert!(
        text.contains("Game over: Sente wins by impasse declaration (入玉宣言)"),
        "{text}"
    );
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("入玉勝ち"), "{saved}");

    let path = scratch("jishogi.csa");
    let _ = std::fs::remove_file(&path);
    let drawn = koma(
        &[
            "shogi",
            "--position",
            &entered("R5P"),
            "--impasse",
            "24",
            "--record",
            &path,
        ],
        "declare\nquit\n",
    );
    let text = String::from_utf8_lossy(&drawn.stdout);
    assert!(
        text.contains("Game over: draw by impasse (jishogi, 持将棋)"),
        "{text}"
    );
    assert!(std::fs::read_to_string(&path).unwrap().contains("%JISHOGI"));

    let wrong = koma(&["shogi", "--impasse", "25"], "");
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("expected 27 or 24"));
    let mini = koma(&["shogi", "--variant", "minishogi"], "declare\nquit\n");
    assert!(String::from_utf8_lossy(&mini.stdout).contains("this game has no impasse rule"));
}

#[test]
fn a_spear_game_played_in_the_seeds_view_reads_back_identically() {
    let seed_view = ["shogi", "--variant", "spear", "--seed-view", "--ascii"];
    let lines = "p 54 53\nP 12 13\nb 25 34\nB 41 52\nb 34 12\n1a1b\nl 15 13\nB 00 33\n";
    for extension in ["kif", "usi"] {
        let path = scratch(&format!("seed-view.{extension}"));
        let played = koma(&seed_view, format!("{lines}board\nsave {path}\nquit\n"));
        let played = String::from_utf8_lossy(&played.stdout).into_owned();
        assert!(played.contains("Saved 8 moves"), "{played}");
        // The record holds shogi's convention: Black's soldier 54-53 is 5d5c.
        assert_eq!(
            usi_of(&path),
            "position sfen lbsgk/4p/5/P4/KGSBL b - 1 moves 5d5c 1b1c 2e3d 4a5b 3d1b+ 1a1b 1e1c B*3c",
            "{extension}"
        );
        let mut args = seed_view.to_vec();
        args.extend(["--load", &path]);
        let loaded = koma(&args, "end\nquit\n");
        let loaded = String::from_utf8_lossy(&loaded.stdout).into_owned();
        // The last board drawn while playing is the one the record ends on.
        let last_board = |text: &str| -> String {
            let start = text.rfind("Black in hand").expect("a board");
            text[start..]
                .lines()
                .take(11)
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(last_board(&loaded), last_board(&played), "{extension}");
        assert!(
            last_board(&played).contains("3 | l  -  B  -  p |"),
            "{played}"
        );
    }
    let refused = koma(&["shogi", "--seed-view"], "quit\n");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--seed-view draws Spear"));
}
