//! Record files on disk: read whatever the format, written so that a crash
//! in the middle never leaves half a file.

use crate::{read_any, write_any, AnyRecord, Format};
use koma_rules::Variant;
use std::io::{Read, Write};
use std::path::Path;

/// Reads a format name (`kif`, `csa`, …), with an error that lists them:
/// what a command line's `--to`/`--format` option takes.
pub fn parse_format(text: &str) -> Result<Format, String> {
    Format::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("unknown format {text:?}; one of {}", names.join(", "))
    })
}

/// Reads a record from `path` (`-`: standard input). The format is
/// `format`, else the extension's, else told by the content.
pub fn load(
    path: &str,
    format: Option<Format>,
    variant: Option<Variant>,
) -> Result<AnyRecord, String> {
    // A record is text of some kilobytes; refuse to swallow a disk image.
    const LIMIT: u64 = 64 << 20;
    let mut bytes = Vec::new();
    let result = if path == "-" {
        std::io::stdin().take(LIMIT + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|file| file.take(LIMIT + 1).read_to_end(&mut bytes))
    };
    result.map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() as u64 > LIMIT {
        return Err(format!(
            "{path}: larger than {} MiB; not a game record",
            LIMIT >> 20
        ));
    }
    let format = format.or_else(|| Format::from_path(path));
    read_any(&bytes, format, variant).map_err(|e| format!("{path}: {e}"))
}

/// The format to write `path` in: `format`, else the extension's.
pub fn output_format(path: &str, format: Option<Format>) -> Result<Format, String> {
    let format = format.or_else(|| Format::from_path(path)).ok_or_else(|| {
        format!("cannot tell the format of {path:?}: give it an extension (.kif, .kifu, .csa, .usi, .pgn) or --to/--format")
    })?;
    if format.writable() {
        Ok(format)
    } else {
        Err(format!(
            "Koma reads {format} but does not write it; use kif or kifu"
        ))
    }
}

/// Writes `record` to `path` (`-`: standard output) in `format`: to a
/// temporary file beside it first, then renamed over it, so the file is
/// always either the old record or the new one.
pub fn save(record: &AnyRecord, path: &str, format: Format) -> Result<(), String> {
    let bytes = write_any(record, format).map_err(|e| format!("{path}: {e}"))?;
    if path == "-" {
        let mut stdout = std::io::stdout().lock();
        return stdout
            .write_all(&bytes)
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("standard output: {e}"));
    }
    let target = Path::new(path);
    let name = target
        .file_name()
        .ok_or_else(|| format!("{path}: not a file name"))?;
    let temporary = target.with_file_name(format!(".{}.koma-tmp", name.to_string_lossy()));
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(&bytes)?;
        file.sync_all()
    });
    written
        .and_then(|()| std::fs::rename(&temporary, target))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            format!("{path}: {e}")
        })
}
