//! The shared real records (`shared/records` beside the work tree).

use koma_records::decode;
use std::path::PathBuf;

/// The folder of the shared records.
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/records")
}

/// Every `*.csa` file of the shared records, decoded, sorted by name.
pub fn shared_csa_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(shared_dir())
        .expect("shared/records is beside the work tree")
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

/// The shared KIF, KIFU and KI2 files: name, whether KI2, decoded text.
pub fn shared_kifu_files() -> Vec<(String, bool, String)> {
    let mut files: Vec<(String, bool, String)> = std::fs::read_dir(shared_dir())
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
