//! Every value the solver finds comes with a certificate that the separate
//! checker (`koma-proof`, its own rules) accepts, and a certificate that is
//! damaged in any way is refused.

use koma_rules::pawns_board::{After, PawnsBoard};
use koma_solve::{Certificate, Solver, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file of its own for each certificate a test writes.
fn scratch() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("koma-certificate-{}-{n}", std::process::id()))
}

/// The certificate of `position` and its bytes.
fn written<const N: usize>(position: &PawnsBoard<N>) -> (Certificate<N>, Vec<u8>) {
    let path = scratch();
    let certificate = Certificate::write(&mut Solver::new(), position, &path, |_| {}).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    (certificate, bytes)
}

/// The certificate of `position`, checked: its value.
fn proven<const N: usize>(position: &PawnsBoard<N>) -> Value {
    let (certificate, bytes) = written(position);
    let report =
        koma_proof::verify(&bytes).unwrap_or_else(|error| panic!("{}: {error}", position.to_fen()));
    assert_eq!(report.claim, certificate.value.name());
    assert_eq!(report.positions as u64, certificate.len());
    certificate.value
}

#[test]
fn the_small_boards_start_positions_are_proven() {
    assert_eq!(
        proven(&PawnsBoard::<4>::start()),
        Solver::new().value(&PawnsBoard::<4>::start())
    );
    assert_eq!(
        proven(&PawnsBoard::<5>::start()),
        Solver::new().value(&PawnsBoard::<5>::start())
    );
}

#[test]
fn wins_draws_and_losses_each_have_a_certificate() {
    let mut seen = std::collections::HashSet::new();
    // Every position one to three plies in: each value turns up.
    let mut layer = vec![PawnsBoard::<5>::start()];
    for _ in 0..3 {
        layer = layer
            .iter()
            .flat_map(|position| {
                position
                    .moves()
                    .into_iter()
                    .filter_map(|m| match position.play(m) {
                        After::Won => None,
                        After::Continues(next) => Some(next),
                    })
            })
            .collect();
        for position in &layer {
            seen.insert(proven(position));
        }
    }
    for fen in [
        "5/pp3/5/3PP/5 w - - 0 1",
        "5/p1p2/1P3/5/5 b - - 0 1",
        "5/ppppp/P4/1PPPP/5 b - - 0 1",
    ] {
        seen.insert(proven(&PawnsBoard::<5>::from_fen(fen).unwrap()));
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

#[test]
fn a_damaged_certificate_is_refused() {
    let root = PawnsBoard::<5>::start();
    let (certificate, bytes) = written(&root);
    koma_proof::verify(&bytes).expect("the certificate holds");
    let body = bytes
        .iter()
        .position(|&b| b == b's')
        .expect("a strategy line");
    let records = body + bytes[body..].iter().position(|&b| b == b'\n').unwrap() + 1;
    // Each damage in turn: a changed move, a pawn moved, a record dropped,
    // another claim, a cut file.
    let mut damaged = Vec::new();
    let mut other_move = bytes.clone();
    other_move[records + 18] ^= 8;
    damaged.push(("another move", other_move));
    let mut other_pawn = bytes.clone();
    other_pawn[records + 1] ^= 1;
    damaged.push(("a pawn moved", other_pawn));
    let claim = format!("claim {}", certificate.value);
    let other = if certificate.value == Value::Win {
        "claim loss"
    } else {
        "claim win"
    };
    let text = String::from_utf8_lossy(&bytes).replacen(&claim, other, 1);
    damaged.push(("another claim", text.into_bytes()));
    damaged.push(("cut short", bytes[..bytes.len() - 30].to_vec()));
    let first = certificate.strategies[0];
    assert!(first.positions > 1, "{first:?}");
    let side = if first.white { "white" } else { "black" };
    let header = |count: u64| format!("strategy {side} {} {count}", first.secures);
    let (header, fewer) = (header(first.positions), header(first.positions - 1));
    let at = bytes
        .windows(header.len())
        .position(|w| w == header.as_bytes())
        .unwrap();
    let mut dropped = bytes[..at].to_vec();
    dropped.extend_from_slice(fewer.as_bytes());
    dropped.push(b'\n');
    // Drop the last record of the strategy.
    let rest = at + header.len() + 1;
    let end = rest + first.positions as usize * 19;
    dropped.extend_from_slice(&bytes[rest..end - 19]);
    dropped.extend_from_slice(&bytes[end..]);
    damaged.push(("a record dropped", dropped));
    for (what, bytes) in damaged {
        assert!(koma_proof::verify(&bytes).is_err(), "{what}: accepted");
    }
}

#[test]
fn a_certificate_stops_at_races_and_leaves_no_file_behind() {
    let path = scratch();
    let root = PawnsBoard::<6>::start();
    let certificate = Certificate::write(&mut Solver::new(), &root, &path, |_| {}).unwrap();
    assert!(certificate.race_leaves() > 0, "{certificate:?}");
    let report = koma_proof::verify(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(report.claim, certificate.value.name());
    std::fs::remove_file(&path).unwrap();
    let directory = std::fs::read_dir(std::env::temp_dir()).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let left: Vec<_> = directory
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        // `-1` is a prefix of `-17`: only this certificate's own files count.
        .filter(|file| *file == name || file.starts_with(&format!("{name}.")))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn an_interrupted_certificate_goes_on_from_its_records() {
    let root = PawnsBoard::<6>::start();
    let (_, whole) = written(&root);
    // The first strategy's records, as the writer leaves them beside the
    // certificate while it works.
    let header = whole
        .windows(9)
        .position(|w| w == b"strategy ")
        .expect("a strategy");
    let records = header + whole[header..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let path = scratch();
    let part = format!("{}.strategy0", path.display());
    // A thousand records and part of the next, cut by a kill.
    std::fs::write(&part, &whole[records..records + 1000 * 19 + 7]).unwrap();
    Certificate::write(&mut Solver::new(), &root, &path, |_| {}).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), whole);
    assert!(!std::path::Path::new(&part).exists());
    // Another strategy's records are refused and left for the user.
    let mut foreign = whole[records..records + 19 * 10].to_vec();
    foreign[17] ^= 1;
    std::fs::write(&part, &foreign).unwrap();
    let error = Certificate::write(&mut Solver::new(), &root, &path, |_| {}).unwrap_err();
    assert!(error.to_string().contains("remove it"), "{error}");
    assert!(std::path::Path::new(&part).exists());
    std::fs::remove_file(&part).unwrap();
    std::fs::remove_file(&path).unwrap();
}

/// A mirrored certificate proves the mirrored root, checked by the
/// separate checker; mirrored twice it is the certificate again; and its
/// records do not prove the root it came from.
#[test]
fn a_mirrored_certificate_proves_the_mirrored_position() {
    let start = PawnsBoard::<6>::start();
    for m in start.moves() {
        let After::Continues(position) = start.play(m) else {
            panic!("a first move ends the game");
        };
        let mirror_image = position.mirrored();
        if mirror_image.key() == position.key() {
            continue;
        }
        let (from, there, back) = (scratch(), scratch(), scratch());
        let certificate = Certificate::write(&mut Solver::new(), &position, &from, |_| {}).unwrap();
        let mirrored = koma_solve::mirror_certificate(&from, &there).unwrap();
        assert_eq!(mirrored.root, mirror_image.to_fen());
        assert_eq!(mirrored.claim, certificate.value.name());
        assert_eq!(mirrored.positions, certificate.len());
        let bytes = std::fs::read(&there).unwrap();
        let report = koma_proof::verify(&bytes).unwrap();
        assert_eq!(report.root, mirror_image.to_fen());
        assert_eq!(report.claim, certificate.value.name());
        koma_solve::mirror_certificate(&there, &back).unwrap();
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&from).unwrap());
        // The mirrored records under the original root: refused.
        let text = String::from_utf8_lossy(&bytes[..200]).into_owned();
        let root_line = format!("root {}\n", mirror_image.to_fen());
        let at = text.find(&root_line).unwrap();
        let mut swapped = bytes[..at].to_vec();
        swapped.extend_from_slice(format!("root {}\n", position.to_fen()).as_bytes());
        swapped.extend_from_slice(&bytes[at + root_line.len()..]);
        assert!(
            koma_proof::verify(&swapped).is_err(),
            "{}",
            position.to_fen()
        );
        for file in [from, there, back] {
            std::fs::remove_file(file).unwrap();
        }
    }
}
