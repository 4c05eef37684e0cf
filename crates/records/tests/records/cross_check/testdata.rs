//! The real records of `testdata/records`, written by other shogi software.

use koma_records::decode;
use std::path::PathBuf;

/// The folder of the real records.
pub fn records_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/records")
}

/// Every `*.csa` file of the real records, decoded, sorted by name.
pub fn real_csa_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(records_dir())
        .expect("testdata/records is in the repository")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "csa"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap();
            let text = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect();
    files.sort();
    files
}

/// The real KIF, KIFU and KI2 files: name, whether KI2, decoded text.
pub fn real_kifu_files() -> Vec<(String, bool, String)> {
    let mut files: Vec<(String, bool, String)> = std::fs::read_dir(records_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "kif" || ext == "kifu" || ext == "ki2")
        })
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = decode(&std::fs::read(&path).unwrap()).unwrap();
            (name.clone(), name.ends_with(".ki2"), text)
        })
        .collect();
    files.sort();
    files
}
