//! Record files on disk: read whatever the format, written so that a crash
//! in the middle never leaves half a file.

use crate::{read_any, write_any, AnyRecord, FileError, Format, FormatError};
use koma_rules::Variant;
use std::io::{Read, Write};
use std::path::Path;

/// Reads a format name (`kif`, `csa`, …), with an error that lists them:
/// what a command line's `--to`/`--format` option takes.
pub fn parse_format(text: &str) -> Result<Format, FormatError> {
    Format::from_name(text).ok_or_else(|| FormatError::Unknown {
        name: text.to_owned(),
    })
}

/// Reads a record from `path` (`-`: standard input). The format is
/// `format`, else the extension's, else told by the content.
pub fn load(
    path: &str,
    format: Option<Format>,
    variant: Option<Variant>,
) -> Result<AnyRecord, FileError> {
    // A record is text of some kilobytes; refuse to swallow a disk image.
    const LIMIT: u64 = 64 << 20;
    let mut bytes = Vec::new();
    let result = if path == "-" {
        std::io::stdin().take(LIMIT + 1).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|file| file.take(LIMIT + 1).read_to_end(&mut bytes))
    };
    result.map_err(|source| FileError::Read {
        path: path.into(),
        source,
    })?;
    if bytes.len() as u64 > LIMIT {
        return Err(FileError::TooLarge {
            path: path.into(),
            limit_mib: LIMIT >> 20,
        });
    }
    let format = format.or_else(|| Format::from_path(path));
    read_any(&bytes, format, variant).map_err(|source| FileError::Record {
        path: path.into(),
        source,
    })
}

/// The format to write `path` in: `format`, else the extension's.
pub fn output_format(path: &str, format: Option<Format>) -> Result<Format, FormatError> {
    let format =
        format
            .or_else(|| Format::from_path(path))
            .ok_or_else(|| FormatError::NotTold {
                path: path.to_owned(),
            })?;
    if format.writable() {
        Ok(format)
    } else {
        Err(FormatError::ReadOnly { format })
    }
}

/// Writes `record` to `path` (`-`: standard output) in `format`: to a
/// temporary file beside it first, then renamed over it, so the file is
/// always either the old record or the new one.
pub fn save(record: &AnyRecord, path: &str, format: Format) -> Result<(), FileError> {
    let bytes = write_any(record, format).map_err(|source| FileError::Record {
        path: path.into(),
        source,
    })?;
    let failed = |source| FileError::Write {
        path: path.into(),
        source,
    };
    if path == "-" {
        let mut stdout = std::io::stdout().lock();
        return stdout
            .write_all(&bytes)
            .and_then(|()| stdout.flush())
            .map_err(failed);
    }
    let target = Path::new(path);
    let name = target
        .file_name()
        .ok_or_else(|| FileError::NotAFileName { path: path.into() })?;
    let temporary = target.with_file_name(format!(".{}.koma-tmp", name.to_string_lossy()));
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(&bytes)?;
        file.sync_all()
    });
    written
        .and_then(|()| std::fs::rename(&temporary, target))
        .map_err(|source| {
            let _ = std::fs::remove_file(&temporary);
            failed(source)
        })
}
