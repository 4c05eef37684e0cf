//! From nothing to a network on the command line: `koma selfplay` data,
//! `koma train` (resumed from its checkpoint), the network it writes read
//! by `koma bench --eval-file` and used for the next generation's data by
//! `koma selfplay --eval-file`; bad requests refused.

use std::process::{Command, Output};

fn koma(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .output()
        .expect("koma runs")
}

/// `koma selfplay minishogi` at 300 nodes a move into `out`.
fn selfplay(out: &str, threads: &str, positions: &str, more: &[&str]) -> Output {
    let args = [
        "selfplay",
        "minishogi",
        "--nodes",
        "300",
        "--threads",
        threads,
        "--out",
        out,
    ];
    koma(&[&args[..], &["--positions", positions], more].concat())
}

/// `koma bench` of `variant` to depth 4 with the network file `net`.
fn bench_with(variant: &str, net: &str) -> Output {
    koma(&[
        "bench",
        "--variant",
        variant,
        "--depth",
        "4",
        "--eval-file",
        net,
    ])
}

fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn data_then_training_then_a_network_the_engine_uses() {
    let dir = std::env::temp_dir().join(format!("koma-train-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    let state = dir.join("state");
    let net = dir.join("minishogi.nnue");
    let (data, state, net) = (
        data.to_str().unwrap(),
        state.to_str().unwrap(),
        net.to_str().unwrap(),
    );
    ok(selfplay(data, "2", "600", &["--seed", "3"]));
    let train = |epochs: &str| {
        ok(koma(&[
            "train",
            "minishogi",
            "--data",
            data,
            "--out",
            net,
            "--state",
            state,
            "--epochs",
            epochs,
            "--batch",
            "128",
        ]))
    };
    let first = train("2");
    assert!(first.contains("epoch 2/2: training loss"), "{first}");
    assert!(first.contains("sha256 "), "{first}");
    // The 5×5 games blend the search's value and the result by default.
    assert!(first.contains("lambda = 0.5"), "{first}");
    // Run again with more epochs: it goes on from epoch 2.
    let more = train("3");
    assert!(more.contains("resuming after epoch 2"), "{more}");
    assert!(
        more.contains("epoch 3/3") && !more.contains("epoch 1/3"),
        "{more}"
    );

    let bench = ok(bench_with("minishogi", net));
    assert!(bench.contains("Nodes searched"), "{bench}");
    // Another game's bench refuses a minishogi network.
    let refused = bench_with("spear", net);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not for spear"));

    let next = dir.join("next");
    ok(selfplay(
        next.to_str().unwrap(),
        "1",
        "50",
        &["--eval-file", net],
    ));
    // Two directories train together: every position of both is read.
    let positions = |d: &str| {
        std::fs::metadata(format!("{d}/positions.bin"))
            .unwrap()
            .len()
            / 48
    };
    let next = next.to_str().unwrap();
    let both = ok(koma(&[
        "train",
        "minishogi",
        "--data",
        data,
        "--data",
        next,
        "--out",
        net,
        "--state",
        &format!("{state}-both"),
        "--epochs",
        "1",
        "--batch",
        "128",
    ]));
    let (training, held): (u64, u64) = {
        let words: Vec<&str> = both.split_whitespace().collect();
        (words[1].parse().unwrap(), words[4].parse().unwrap())
    };
    assert_eq!(training + held, positions(data) + positions(next), "{both}");
    // A head with a hidden layer, its first layer started from the network
    // just trained: the engine reads and searches with it.
    let layered = dir.join("layered.nnue");
    let layered = layered.to_str().unwrap();
    let layered_state = format!("{state}-layered");
    let train_layered = |more: &[&str]| {
        let args = [
            "train",
            "minishogi",
            "--data",
            data,
            "--out",
            layered,
            "--state",
            &layered_state,
        ];
        koma(&[&args[..], more].concat())
    };
    let deep = ok(train_layered(&[
        "--epochs", "1", "--batch", "128", "--layers", "8", "--init", net,
    ]));
    assert!(deep.contains("head 8 → 1"), "{deep}");
    let bench = ok(bench_with("minishogi", layered));
    assert!(bench.contains("Nodes searched"), "{bench}");
    // The same state directory with another head is refused, not lost.
    let refused = train_layered(&["--layers", "16,32"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("whose head is 8,1"), "{stderr}");
    let refused = koma(&[
        "selfplay",
        "spear",
        "--nodes",
        "300",
        "--out",
        next,
        "--eval-file",
        net,
    ]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not for spear"));
    // Minishogi's data is not Spear's: refused by its `about` file.
    let refused = koma(&["train", "spear", "--data", data, "--out", net]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("holds data of another kind"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_refuses_what_it_cannot_do() {
    let refused = koma(&["train", "pawns", "--data", "/tmp", "--out", "/tmp/x.nnue"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no network"));
    let refused = koma(&[
        "train",
        "shogi",
        "--data",
        "/nonexistent/data",
        "--out",
        "/tmp/x.nnue",
    ]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("not a koma selfplay directory"), "{stderr}");
    // Options refused before any data is read.
    for (option, value, why) in [
        ("--lambda", "2", "--lambda"),
        ("--layers", "0", "from 1 to 512"),
        ("--layers", "16,x", "`x`"),
        ("--layers", "8,8,8,8", "at most 3 hidden layers"),
    ] {
        let refused = koma(&[
            "train",
            "shogi",
            "--data",
            "/tmp",
            "--out",
            "/tmp/x.nnue",
            option,
            value,
        ]);
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains(why), "{option} {value}: {stderr}");
    }
}
