//! A data directory filled, resumed, repaired after a kill, and refused
//! when it is not ours.

use koma_rules::{Minishogi, Position, Spear};
use koma_selfplay::{
    fill, positions_file, read_all, read_dir, write_dir, DataError, Settings, RECORD_BYTES,
};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-selfplay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn fill_to(dir: &Path, target: u64, seed: u64) -> std::io::Result<koma_selfplay::Progress> {
    let settings = Settings::new::<Minishogi>(300);
    fill::<Minishogi>(dir, &settings, target, 2, seed, &|_| {})
}

#[test]
fn a_directory_grows_without_duplicates_and_resumes_after_a_kill() {
    let dir = temp_dir("grow");
    let first = fill_to(&dir, 150, 1).unwrap();
    assert!(first.positions >= 150);
    let path = positions_file(&dir);
    let before = std::fs::read(&path).unwrap();
    assert_eq!(before.len() as u64, first.positions * RECORD_BYTES as u64);
    let samples = read_all::<Minishogi>(&path).unwrap();
    // Games are won and lost, and every kept position is quiet.
    assert!(samples.iter().any(|s| s.result == 1));
    assert!(samples.iter().any(|s| s.result == -1));
    assert!(samples.iter().all(|s| !s.position.is_check()));
    assert!(samples.iter().all(|s| s.ply >= 4));

    // A kill in the middle of a write leaves part of a record.
    std::fs::write(&path, [&before[..], &[1u8; 20]].concat()).unwrap();
    let second = fill_to(&dir, 300, 2).unwrap();
    assert!(second.positions >= 300);
    let after = std::fs::read(&path).unwrap();
    assert_eq!(&after[..before.len()], &before[..], "what was there stays");
    assert_eq!(after.len() % RECORD_BYTES, 0);
    let samples = read_all::<Minishogi>(&path).unwrap();
    let distinct: HashSet<u64> = samples.iter().map(|s| s.position.hash()).collect();
    assert_eq!(distinct.len(), samples.len(), "no position twice");

    // Already full: nothing is played.
    let third = fill_to(&dir, 100, 3).unwrap();
    assert_eq!((third.games, third.positions), (0, samples.len() as u64));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn written_samples_read_back_and_a_directory_with_data_is_not_overwritten() {
    let from = temp_dir("written-from");
    fill_to(&from, 40, 3).unwrap();
    let mut samples = read_dir::<Minishogi>(&from).unwrap();
    for sample in &mut samples {
        sample.value = -sample.value;
    }
    let to = temp_dir("written-to");
    write_dir(&to, &samples).unwrap();
    assert_eq!(read_dir::<Minishogi>(&to).unwrap(), samples);
    // Once more into the same directory: refused, and the data stays.
    assert!(matches!(
        write_dir(&to, &samples[..1]),
        Err(DataError::Io { .. })
    ));
    assert_eq!(read_dir::<Minishogi>(&to).unwrap(), samples);
    // Another game's directory is refused before anything is written.
    assert!(matches!(
        write_dir::<Spear>(&to, &[]),
        Err(DataError::OtherKind { .. })
    ));
    std::fs::remove_dir_all(&from).unwrap();
    std::fs::remove_dir_all(&to).unwrap();
}

#[test]
fn another_games_directory_and_a_damaged_file_are_refused() {
    let dir = temp_dir("refuse");
    fill_to(&dir, 10, 1).unwrap();
    let settings = Settings::new::<Spear>(300);
    let error = fill::<Spear>(&dir, &settings, 10, 1, 1, &|_| {}).unwrap_err();
    assert!(error.to_string().contains("another kind"), "{error}");
    assert!(matches!(
        read_dir::<Spear>(&dir),
        Err(DataError::OtherKind { .. })
    ));

    let path = positions_file(&dir);
    let mut bytes = std::fs::read(&path).unwrap();
    // A result of 9 is no result.
    bytes[RECORD_BYTES + 44] = 9;
    std::fs::write(&path, &bytes).unwrap();
    let error = fill_to(&dir, 10, 1).unwrap_err();
    assert!(error.to_string().contains("record 1"), "{error}");
    // Read, the damage names the file and the record.
    match read_dir::<Minishogi>(&dir) {
        Err(DataError::Record {
            path: damaged,
            index: 1,
            ..
        }) => assert_eq!(damaged, path),
        other => panic!("{:?}", other.map(|samples| samples.len())),
    }
    // A missing data file is told from a damaged one, with its path.
    std::fs::remove_file(&path).unwrap();
    match read_dir::<Minishogi>(&dir) {
        Err(DataError::Io {
            path: missing,
            source,
        }) => {
            assert_eq!(missing, path);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{:?}", other.map(|samples| samples.len())),
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // A directory that selfplay never filled.
    assert!(matches!(
        read_dir::<Minishogi>(&temp_dir("never-filled")),
        Err(DataError::NotADataDirectory { .. })
    ));
}

/// `classical` plays with the classical evaluation although minishogi has
/// a network: one thread and one seed give the same games each time, and
/// other games (other values) than the network's.
#[test]
fn classical_data_is_played_without_the_network() {
    let play = |name: &str, classical: bool| {
        let dir = temp_dir(name);
        let mut settings = Settings::new::<Minishogi>(300);
        settings.classical = classical;
        fill::<Minishogi>(&dir, &settings, 40, 1, 7, &|_| {}).unwrap();
        let bytes = std::fs::read(positions_file(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        bytes
    };
    let classical = play("classical-a", true);
    assert_eq!(classical, play("classical-b", true));
    assert_ne!(classical, play("network", false));
}
