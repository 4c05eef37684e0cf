//! The record formats: their names, the extensions that name them, and
//! how a text's look tells which one it is in.

use std::fmt;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `position startpos moves …` on one line (`.usi`, `.sfen`).
    Usi,
    /// KIF in Shift_JIS with CRLF (`.kif`), as Kifu for Windows writes it.
    Kif,
    /// KIF in UTF-8 (`.kifu`).
    Kifu,
    /// KI2, read only (`.ki2`).
    Ki2,
    /// CSA V2.2 (`.csa`), standard shogi only.
    Csa,
    /// PGN (`.pgn`), Pawns-Only Chess only.
    Pgn,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 6] = [
        Format::Kif,
        Format::Kifu,
        Format::Ki2,
        Format::Csa,
        Format::Usi,
        Format::Pgn,
    ];

    /// The name used on command lines, which is also the file extension.
    pub fn name(self) -> &'static str {
        match self {
            Format::Usi => "usi",
            Format::Kif => "kif",
            Format::Kifu => "kifu",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Pgn => "pgn",
        }
    }

    /// The format a name or extension (`kif`, `.KIFU`, `sfen`) names.
    pub fn from_name(name: &str) -> Option<Format> {
        let name = name.trim_start_matches('.').to_ascii_lowercase();
        match name.as_str() {
            "sfen" | "txt" => Some(Format::Usi),
            _ => Format::ALL.into_iter().find(|f| f.name() == name),
        }
    }

    /// The format a file name's extension names.
    pub fn from_path(path: &str) -> Option<Format> {
        let (_, extension) = path.rsplit_once('.')?;
        Format::from_name(extension)
    }

    /// The format a text is in, by its look.
    pub fn sniff(text: &str) -> Format {
        let first = text
            .lines()
            .map(str::trim)
            .find(|line| !line.is_empty() && !line.starts_with(['\'', '#', '*']))
            .unwrap_or("");
        let first = first.trim_start_matches('\u{feff}');
        if ["position", "startpos", "sfen", "fen"]
            .iter()
            .any(|word| first.split_whitespace().next() == Some(word))
        {
            Format::Usi
        } else if first.starts_with('[') {
            Format::Pgn
        } else if first.starts_with("V2")
            || first.starts_with("N+")
            || first.starts_with("N-")
            || first.starts_with("PI")
            || first.starts_with("P1")
            || first.starts_with('$')
        {
            Format::Csa
        } else if text
            .lines()
            .any(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        {
            Format::Kifu
        } else if text.contains(['▲', '△', '☗', '☖']) {
            Format::Ki2
        } else {
            Format::Kifu
        }
    }

    /// Whether Koma can write it.
    pub fn writable(self) -> bool {
        self != Format::Ki2
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
