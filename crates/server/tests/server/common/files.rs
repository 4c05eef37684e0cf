//! Files of the tests: a temporary folder for a games file, and the real
//! records of the workspace's `testdata/records/`.

use std::path::{Path, PathBuf};

/// A folder of its own for a test's games file, removed with it.
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    /// A folder whose name says which test made it.
    pub fn new(name: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("koma-serve-{name}-"))
            .tempdir()
            .unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The games file, in the folder itself.
    pub fn db(&self) -> PathBuf {
        self.path().join("games.sqlite3")
    }
}

/// The path of `name` in the workspace's `testdata/records/`.
pub fn real_record(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The names of the records in `testdata/records/` (its notes aside), sorted.
pub fn real_record_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(real_record(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".md"))
        .collect();
    names.sort();
    names
}

/// The record at `path` as one USI `position … moves …` line, as `koma
/// convert PATH - --to usi` prints it (the same functions of the records
/// library, without running the program).
pub fn usi_of(path: &str) -> String {
    let record =
        koma_records::file::load(path, None, None).unwrap_or_else(|e| panic!("{path}: {e}"));
    let bytes = koma_records::write_any(&record, koma_records::Format::Usi)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    String::from_utf8(bytes).unwrap().trim_end().to_owned()
}
