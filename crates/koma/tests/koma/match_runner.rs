//! `koma match` end to end: real processes, the fake engine of
//! `crates/match/tests/common/fake_engine.rs` (this test program started again) and Koma's own
//! engine, the JSON result, and the saved records read back.

#[path = "../../../match/tests/common/fake_engine.rs"]
mod fake_engine;

use crate::common::{koma, scratch};
use koma_records::{read_any, AnyRecord};
use koma_rules::{Color, Position};

/// Not a test: the fake engine's entry point when this program is started
/// as an engine, its behaviour in a last argument that starts with `=`.
#[test]
fn fake_engine_entry() {
    let behaviour = std::env::args().skip(1).find(|a| a.starts_with('='));
    if let Some(behaviour) = behaviour {
        fake_engine::run_stdio(&behaviour[1..]);
    }
}

/// `--engineN` words that start this program as the fake engine.
fn fake(name: &str, behaviour: &str) -> Vec<String> {
    let me = std::env::current_exe().unwrap();
    vec![
        format!("cmd={}", me.display()),
        format!("name={name}"),
        // The test's full name in this binary: `--exact` matches it whole.
        "arg=match_runner::fake_engine_entry".to_owned(),
        "arg=--exact".to_owned(),
        "arg=--nocapture".to_owned(),
        "arg=--quiet".to_owned(),
        // A test filter that matches nothing and carries the behaviour.
        format!("arg=={behaviour}"),
    ]
}

/// Runs `koma match` with the given engines and options; its JSON result.
fn run_match(engine1: &[String], engine2: &[String], options: &[&str]) -> String {
    let mut args: Vec<String> = vec!["match".into(), "--json".into()];
    args.push("--engine1".into());
    args.extend(engine1.iter().cloned());
    args.push("--engine2".into());
    args.extend(engine2.iter().cloned());
    args.extend(options.iter().map(|s| s.to_string()));
    let out = koma(&args, b"");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "koma {args:?} failed: {}{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.trim().to_owned()
}

/// The number after `"key":` in a JSON line.
fn field(json: &str, key: &str) -> String {
    let start = json
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("{key} in {json}"));
    json[start + key.len() + 3..]
        .split([',', '}'])
        .next()
        .unwrap()
        .to_owned()
}

fn records_in(dir: &str) -> Vec<(String, AnyRecord)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("game-")
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let record = read_any(&bytes, None, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, record)
        })
        .collect()
}

#[test]
fn a_spear_match_between_fake_engines_is_saved() {
    let dir = scratch("spear-records");
    let _ = std::fs::remove_dir_all(&dir);
    let combined = scratch("spear-all.usi");
    let json = run_match(
        &fake("Alpha", ""),
        &fake("Beta", "garbage"),
        &[
            "--variant",
            "spear",
            "--games",
            "4",
            "--tc",
            "5+0.05",
            "--random-plies",
            "2",
            "--balance-cp",
            "0",
            "--seed",
            "3",
            "--concurrency",
            "2",
            "--records",
            &dir,
            "--records-file",
            &combined,
        ],
    );
    assert_eq!(field(&json, "games"), "4", "{json}");
    assert!(json.contains("\"engine1\":\"Alpha\""), "{json}");
    let records = records_in(&dir);
    let names: Vec<&str> = records.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "game-0001.kif",
            "game-0002.kif",
            "game-0003.kif",
            "game-0004.kif"
        ]
    );
    for (index, (name, record)) in records.iter().enumerate() {
        let AnyRecord::Spear(record) = record else {
            panic!("{name} is not Spear");
        };
        // Colours alternate: Alpha is Sente in odd games.
        let (sente, gote) = if index % 2 == 0 {
            ("Alpha", "Beta")
        } else {
            ("Beta", "Alpha")
        };
        assert_eq!(record.headers.sente.as_deref(), Some(sente), "{name}");
        assert_eq!(record.headers.gote.as_deref(), Some(gote), "{name}");
        let game = record.to_game().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(game.outcome().is_some(), "{name} has a result");
        assert!(
            record.moves.iter().skip(2).all(|m| m.time.is_some()),
            "{name}"
        );
    }
    // Both games of a pair start with the same opening.
    let first_moves = |i: usize| match &records[i].1 {
        AnyRecord::Spear(r) => r.moves[..2].iter().map(|m| m.m).collect::<Vec<_>>(),
        _ => unreachable!(),
    };
    assert_eq!(first_moves(0), first_moves(1));
    let lines = std::fs::read_to_string(&combined).unwrap();
    assert_eq!(lines.lines().count(), 4);
}

#[test]
fn openings_from_a_file_are_each_played_twice() {
    let openings = scratch("openings.txt");
    std::fs::write(
        &openings,
        "# two minishogi openings\nstartpos moves 5d5c\nposition startpos moves 5d5c 1b1c\n",
    )
    .unwrap();
    let dir = scratch("minishogi-records");
    let _ = std::fs::remove_dir_all(&dir);
    let json = run_match(
        &fake("Alpha", ""),
        &fake("Beta", ""),
        &[
            "--variant",
            "minishogi",
            "--games",
            "4",
            "--movetime",
            "0.05",
            "--openings",
            &openings,
            "--shuffle",
            "--seed",
            "5",
            "--records",
            &dir,
            "--records-format",
            "kifu",
        ],
    );
    assert_eq!(field(&json, "games"), "4", "{json}");
    let lengths: Vec<usize> = records_in(&dir)
        .iter()
        .map(|(name, record)| match record {
            AnyRecord::Minishogi(r) => r
                .comments
                .iter()
                .find_map(|c| c.strip_prefix("opening: ")?.split(' ').next()?.parse().ok())
                .unwrap_or_else(|| panic!("{name} names its opening")),
            _ => panic!("{name} is not minishogi"),
        })
        .collect();
    let mut sorted = lengths.clone();
    sorted.sort();
    assert_eq!(sorted, [1, 1, 2, 2]);
    assert_eq!(lengths[0], lengths[1]);
}

#[test]
fn a_handicap_match_keeps_engine1_as_the_receiver() {
    let dir = scratch("handicap-records");
    let _ = std::fs::remove_dir_all(&dir);
    let json = run_match(
        &fake("Alpha", ""),
        &fake("Beta", "resign@3"),
        &[
            "--variant",
            "shogi",
            "--games",
            "4",
            "--movetime",
            "0.05",
            "--handicap",
            "two-piece",
            "--engine1-side",
            "sente",
            "--random-plies",
            "2",
            "--seed",
            "11",
            "--records",
            &dir,
            "--records-format",
            "kifu",
        ],
    );
    assert_eq!(field(&json, "games"), "4", "{json}");
    assert_eq!(field(&json, "wins"), "4", "Beta resigns every game: {json}");
    let two_piece = koma_rules::Handicap::TwoPiece.position();
    let mut openings = Vec::new();
    for (name, record) in records_in(&dir) {
        let AnyRecord::Shogi(record) = record else {
            panic!("{name} is not shogi");
        };
        assert_eq!(record.start.to_text(), two_piece.to_text(), "{name}");
        assert_eq!(record.headers.sente.as_deref(), Some("Alpha"), "{name}");
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        assert!(
            text.contains("手合割：二枚落ち") && text.contains("下手：Alpha"),
            "{name}: {text}"
        );
        openings.push(record.moves[..2].iter().map(|m| m.m).collect::<Vec<_>>());
    }
    openings.sort();
    openings.dedup();
    assert!(
        openings.len() > 1,
        "each game draws its own opening: {openings:?}"
    );
}

#[test]
fn faulty_engines_lose_and_are_restarted() {
    // Beta crashes on its second move in every game: it must be restarted
    // for the second game and lose both.
    let json = run_match(
        &fake("Alpha", ""),
        &fake("Beta", "crash@2"),
        &["--variant", "spear", "--games", "2", "--tc", "5+0.05"],
    );
    assert_eq!(field(&json, "wins"), "2", "{json}");
    assert!(json.contains("\"engine crash\":2"), "{json}");

    let json = run_match(
        &fake("Alpha", "illegal@1"),
        &fake("Beta", "flag@1"),
        &[
            "--variant",
            "minishogi",
            "--games",
            "2",
            "--tc",
            "0.4+0",
            "--timemargin",
            "100",
        ],
    );
    // Game 1: Alpha (Sente) plays an illegal move first. Game 2: Beta
    // (Sente) thinks too long first.
    assert_eq!(field(&json, "wins"), "1", "{json}");
    assert_eq!(field(&json, "losses"), "1", "{json}");
    assert!(json.contains("\"illegal move\":1"), "{json}");
    assert!(json.contains("\"time forfeit\":1"), "{json}");
}

#[test]
fn sprt_stops_a_one_sided_match() {
    let dir = scratch("pawns-records");
    let _ = std::fs::remove_dir_all(&dir);
    let json = run_match(
        &fake("Alpha", ""),
        &fake("Beta", "resign@1"),
        &[
            "--variant",
            "pawns",
            "--games",
            "200",
            "--tc",
            "5+0.05",
            "--sprt",
            "elo0=0",
            "elo1=100",
            "--records",
            &dir,
        ],
    );
    let games: u64 = field(&json, "games").parse().unwrap();
    assert!(games < 200, "{json}");
    assert!(json.contains("\"result\":\"H1 accepted\""), "{json}");
    let records = records_in(&dir);
    assert_eq!(records.len() as u64, games);
    let AnyRecord::Pawns(first) = &records[0].1 else {
        panic!("not a PGN of Pawns-Only Chess");
    };
    assert_eq!(first.headers.sente.as_deref(), Some("Alpha"));
    let outcome = first.to_game().unwrap().outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Sente));
}

#[test]
fn an_interrupted_match_resumes_from_its_journal() {
    let dir = scratch("resumed-records");
    let _ = std::fs::remove_dir_all(&dir);
    let journal = format!("{dir}/match.jsonl");
    let (alpha, beta) = (fake("Alpha", ""), fake("Beta", ""));
    let options = |games: &'static str, seed: &'static str| {
        vec![
            "--variant",
            "spear",
            "--games",
            games,
            "--movetime",
            "0.02",
            "--random-plies",
            "2",
            "--balance-cp",
            "0",
            "--seed",
            seed,
            "--records",
            &dir,
            "--resume",
        ]
    };
    // The first run starts the journal: its settings, then a line a game.
    let json = run_match(&alpha, &beta, &options("2", "9"));
    assert_eq!(field(&json, "games"), "2", "{json}");
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        3
    );
    let first_game = std::fs::read(format!("{dir}/game-0001.kif")).unwrap();

    // More games: the two played count and are not played again.
    let json = run_match(&alpha, &beta, &options("6", "9"));
    assert_eq!(field(&json, "games"), "6", "{json}");
    assert_eq!(records_in(&dir).len(), 6);
    assert_eq!(
        std::fs::read(format!("{dir}/game-0001.kif")).unwrap(),
        first_game
    );
    let whole = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(whole.lines().count(), 7, "{whole}");

    // Killed during game 6, in the middle of writing a line: the pair of
    // games 5 and 6 is played again, and the rest counts.
    let mut cut: Vec<&str> = whole.lines().take(6).collect();
    cut.push("{\"round\":6,\"pa");
    std::fs::write(&journal, cut.join("\n")).unwrap();
    let json = run_match(&alpha, &beta, &options("6", "9"));
    assert_eq!(field(&json, "games"), "6", "{json}");
    let after = std::fs::read_to_string(&journal).unwrap();
    let rounds: Vec<String> = after
        .lines()
        .skip(1)
        .map(|line| field(line, "round"))
        .collect();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "5", "6"], "{after}");

    // The same directory without --resume, or with other settings, is
    // refused, and the journal is left as it was.
    let refused = |extra: &[&str], seed| {
        let mut args: Vec<String> = vec!["match".into(), "--engine1".into()];
        args.extend(alpha.iter().cloned());
        args.push("--engine2".into());
        args.extend(beta.iter().cloned());
        args.extend(options("6", seed).iter().map(|s| s.to_string()));
        args.retain(|a| a != "--resume");
        args.extend(extra.iter().map(|s| s.to_string()));
        let out = koma(&args, b"");
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(refused(&[], "9").contains("give --resume"));
    let error = refused(&["--resume"], "10");
    assert!(error.contains("seed: was \"9\", now \"10\""), "{error}");
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), after);
}

#[test]
fn mistakes_in_the_arguments_are_explained() {
    let out = koma(
        &["match", "--variant", "spear", "--engine1", "x", "--tc", "1"],
        b"",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--engine2"));
    let engine = fake("A", "");
    let mut args: Vec<String> = ["match", "--variant", "spear", "--engine1"]
        .map(String::from)
        .to_vec();
    args.extend(engine.iter().cloned());
    args.push("--engine2".into());
    args.extend(engine.iter().cloned());
    let out = koma(&args, b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a time control"));
    // An engine's own limit is no time control for the other.
    let mut one_sided = args.clone();
    one_sided.insert(5, "nodes=1000".to_owned());
    let out = koma(&one_sided, b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("give a time control"));
    one_sided[5] = "nodes=many".to_owned();
    let out = koma(&one_sided, b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nodes=many: give a whole number"));
    one_sided[5] = "tc=fast".to_owned();
    let out = koma(&one_sided, b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("tc=fast: give"));
    let out = koma(
        &[
            "match",
            "--variant",
            "spear",
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            "/nonexistent/engine",
            "--tc",
            "1",
        ],
        b"",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
    let with = |extra: &[&str]| {
        let mut all = args.clone();
        all.extend(extra.iter().map(|s| s.to_string()));
        String::from_utf8_lossy(&koma(&all, b"").stderr).into_owned()
    };
    assert!(with(&["--tc", "1", "--records-format", "csa"]).contains("cannot hold spear"));
    assert!(with(&["--tc", "0+1"]).contains("base time"));
    // An engine's own clock is checked as --tc is.
    assert!(with(&["--each", "tc=0+1"]).contains("base time"));
    assert!(with(&["--byoyomi", "1", "--each", "tc=1+1"]).contains("not both"));
    assert!(with(&["--tc", "1", "--handicap", "bishop"]).contains("handicaps are shogi's"));
    assert!(with(&["--tc", "1", "--handicap", "queen"]).contains("unknown handicap"));
    assert!(with(&["--tc", "1", "--engine1-side", "north"]).contains("not a side"));
    assert!(with(&["--tc", "1+1", "--byoyomi", "1"]).contains("not both"));
    assert!(
        with(&["--tc", "1", "--each", "proto=uci", "--byoyomi", "1"])
            .contains("UCI has no byoyomi")
    );
}

/// `--engineN` words that start Koma's own engine, named `name`.
fn koma_usi(name: &str) -> Vec<String> {
    vec![
        format!("cmd={}", env!("CARGO_BIN_EXE_koma")),
        "arg=usi".to_owned(),
        format!("name={name}"),
    ]
}

/// Two games of Spear between `engine1` and `engine2` under `limits`, in a
/// fresh scratch directory `name` with `--log` and `--records`: the first
/// record's text and the traffic with the engines.
fn two_logged_games(
    name: &str,
    engine1: &[String],
    engine2: &[String],
    limits: &[&str],
) -> (String, String) {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let log = format!("{dir}/traffic.log");
    let records = format!("{dir}/records");
    let mut options = vec!["--variant", "spear", "--games", "2"];
    options.extend_from_slice(limits);
    options.extend_from_slice(&["--log", &log, "--records", &records]);
    let json = run_match(engine1, engine2, &options);
    assert_eq!(field(&json, "games"), "2", "{json}");
    let (first, _) = &records_in(&records)[0];
    // (A KIF in Shift_JIS: the names and numbers are ASCII.)
    let bytes = std::fs::read(format!("{records}/{first}")).unwrap();
    let record = String::from_utf8_lossy(&bytes).into_owned();
    (record, std::fs::read_to_string(&log).unwrap())
}

/// Each engine's own `nodes=` replaces the match's `--nodes` in its `go`,
/// as the levels' anchors need (a fixed-node engine against a level).
#[test]
fn each_engine_searches_its_own_nodes() {
    let koma_usi = |name: &str, nodes: &str| {
        let mut words = koma_usi(name);
        words.push(format!("nodes={nodes}"));
        words
    };
    let (record, traffic) = two_logged_games(
        "own-nodes",
        &koma_usi("Small", "300"),
        &koma_usi("Large", "700"),
        &["--nodes", "1000000000", "--max-plies", "20"],
    );
    // Each record says what each side searched, not only the shared --nodes.
    assert!(
        record.contains("Small: nodes 300; Large: nodes 700"),
        "{record}"
    );
    let goes = |label: &str| -> Vec<String> {
        traffic
            .lines()
            .filter_map(|line| line.strip_prefix(&format!("{label} > go ")))
            .map(str::to_owned)
            .collect()
    };
    for (label, nodes) in [("engine1", "nodes 300"), ("engine2", "nodes 700")] {
        let goes = goes(label);
        assert!(goes.len() >= 10, "{label}: {goes:?}");
        assert!(goes.iter().all(|go| go == nodes), "{label}: {goes:?}");
    }
}

/// An engine's own `tc=` gives it its own clock (time odds): each side is
/// told its own increment and its own base time, whichever colour it has.
#[test]
fn time_odds_give_one_engine_its_own_clock() {
    let mut slow = koma_usi("Slow");
    slow.push("tc=1+0.1".to_owned());
    let (record, traffic) = two_logged_games(
        "time-odds",
        &koma_usi("Fast"),
        &slow,
        &["--tc", "0.5+0.05", "--max-plies", "12"],
    );
    assert!(record.contains("Fast: 0.5+0.05; Slow: 1+0.1"), "{record}");
    let goes: Vec<&str> = traffic
        .lines()
        .filter_map(|line| line.strip_prefix("engine1 > go "))
        .collect();
    assert!(goes.len() >= 2, "{goes:?}");
    // Engine 1's first move as Sente: both clocks full, each its own.
    let first = "btime 500 wtime 1000 binc 50 winc 100";
    assert_eq!(
        goes.iter().filter(|go| **go == first).count(),
        1,
        "{goes:?}"
    );
    // In every go, engine 1's increment is 50 ms and the other's 100 ms,
    // on the side each plays; both colours are played.
    let mut sides = [0, 0];
    for go in &goes {
        let words: Vec<&str> = go.split(' ').collect();
        let increments = (words[5], words[7]);
        match increments {
            ("50", "100") => sides[0] += 1,
            ("100", "50") => sides[1] += 1,
            _ => panic!("{go}"),
        }
    }
    assert!(sides[0] > 0 && sides[1] > 0, "{sides:?}");
}

/// Koma's own engine against itself: a few games of Spear at a fast control.
#[test]
fn koma_usi_against_itself() {
    let dir = scratch("koma-records");
    let _ = std::fs::remove_dir_all(&dir);
    let json = run_match(
        &koma_usi("Koma A"),
        &koma_usi("Koma B"),
        &[
            "--variant",
            "spear",
            "--games",
            "2",
            "--tc",
            "1+0.05",
            // A loaded test machine must not make the engine lose on time.
            "--timemargin",
            "1000",
            "--random-plies",
            "2",
            "--balance-depth",
            "2",
            "--records",
            &dir,
        ],
    );
    assert_eq!(field(&json, "games"), "2", "{json}");
    // Koma's engine never plays an illegal move, crashes or loses on time.
    for fault in ["illegal move", "engine crash", "time forfeit", "no move"] {
        assert!(!json.contains(&format!("\"{fault}\"")), "{json}");
    }
    let records = records_in(&dir);
    assert_eq!(records.len(), 2);
    for (name, record) in &records {
        let AnyRecord::Spear(record) = record else {
            panic!("{name}");
        };
        assert!(record.to_game().unwrap().outcome().is_some(), "{name}");
    }
}

/// `koma pool` counts the finished pairs of two parts of one test (other
/// seeds) and counts given by hand, as `koma match` would have; a part of
/// another game is refused.
#[test]
fn parts_of_one_match_are_pooled() {
    let (alpha, beta) = (fake("Alpha", ""), fake("Beta", "resign@1"));
    let part = |name: &str, variant: &'static str, seed: &'static str| {
        let dir = scratch(name);
        let _ = std::fs::remove_dir_all(&dir);
        let json = run_match(
            &alpha,
            &beta,
            &[
                "--variant",
                variant,
                "--games",
                "4",
                "--movetime",
                "0.02",
                "--seed",
                seed,
                "--records",
                &dir,
            ],
        );
        assert_eq!(field(&json, "games"), "4", "{json}");
        dir
    };
    let first = part("pool-first", "spear", "1");
    let second = part("pool-second", "spear", "2");
    let pool = |extra: &[&str]| {
        let mut args = vec!["pool".to_owned()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let out = koma(&args, b"");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.success(),
            text,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, text, errors) = pool(&[
        &first,
        &format!("{second}/match.jsonl"),
        "--pairs",
        "1,0,0,0,0",
        "--sprt",
        "elo0=0",
        "elo1=100",
    ]);
    assert!(ok, "{errors}");
    // Alpha wins every game: four pairs of 2 points, and the lost pair.
    assert!(
        text.contains("Pairs: 5 (0, 0.5, 1, 1.5, 2 points: [1, 0, 0, 0, 4])"),
        "{text}"
    );
    assert!(text.contains("W-L-D 8-0-0"), "{text}");
    assert!(text.contains("SPRT (elo0 0, elo1 100"), "{text}");
    assert!(
        !errors.contains("differs"),
        "only the seed differs: {errors}"
    );

    let other = part("pool-other", "minishogi", "1");
    let (ok, _, errors) = pool(&[&first, &other]);
    assert!(!ok);
    assert!(errors.contains("its variant differs"), "{errors}");
    let (ok, _, errors) = pool(&[&scratch("pool-nowhere")]);
    assert!(!ok);
    assert!(errors.contains("no journal there"), "{errors}");
}
