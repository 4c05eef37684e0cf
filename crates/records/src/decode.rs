//! Turning a record file's bytes into text: UTF-8 (with or without a byte
//! order mark) or Shift_JIS as Windows writes it (CP932).

use std::fmt;

/// Bytes that are neither UTF-8 nor Shift_JIS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Offset of the first byte that is not valid Shift_JIS.
    pub offset: usize,
    /// 1-based line of that byte.
    pub line: usize,
    /// 1-based column (bytes) of that byte.
    pub column: usize,
}

impl DecodeError {
    fn at(bytes: &[u8], offset: usize) -> DecodeError {
        let head = &bytes[..offset.min(bytes.len())];
        let line_start = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        DecodeError {
            offset,
            line: head.iter().filter(|&&b| b == b'\n').count() + 1,
            column: offset - line_start + 1,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: not UTF-8, Shift_JIS or EUC-JP text (invalid byte at offset {})",
            self.line, self.column, self.offset
        )
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a record file. An `encoding=` declaration in the first lines
/// (as Kifu for Windows writes) decides; otherwise a UTF-8 byte order mark or
/// valid UTF-8 means UTF-8, then Shift_JIS (CP932) is tried, then EUC-JP
/// (old Unix shogi programs). Line ends are left as they are.
///
/// ```
/// assert_eq!(koma_records::decode(b"\xef\xbb\xbfV2.2").unwrap(), "V2.2");
/// // A name is not a declaration.
/// let pgn = "[White \"encoding=Shift_JIS 羽生\"]\n";
/// assert_eq!(koma_records::decode(pgn.as_bytes()).unwrap(), pgn);
/// assert_eq!(koma_records::decode(b"\x8c\xe3\x8e\xe8").unwrap(), "後手");
/// assert!(koma_records::decode(b"\x81").is_err());
/// ```
pub fn decode(bytes: &[u8]) -> Result<String, DecodeError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let declared = declared_encoding(bytes);
    if declared.is_none() || declared == Some(encoding_rs::UTF_8) {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return Ok(text.to_owned());
        }
    }
    let candidates = match declared {
        Some(encoding) if encoding != encoding_rs::UTF_8 => vec![encoding],
        _ => vec![encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP],
    };
    let mut first_error = None;
    for encoding in candidates {
        let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
        if !had_errors {
            return Ok(text.into_owned());
        }
        if first_error.is_none() {
            let valid = text.find('\u{fffd}').unwrap_or(0);
            first_error = Some(DecodeError::at(
                bytes,
                encoding.encode(&text[..valid]).0.len(),
            ));
        }
    }
    Err(first_error.unwrap_or(DecodeError::at(bytes, 0)))
}

/// The encoding named by an `encoding=NAME` declaration near the top, on
/// a line of its own kind: KIF's `#KIF version=2.0 encoding=…` or CSA's
/// `'encoding=…`. Elsewhere it is text (a player named `encoding=sjis` in
/// a PGN tag or on a CSA `N+` line), which must not change how the file
/// is read.
fn declared_encoding(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    head.split(|&b| b == b'\n')
        .filter(|line| {
            let start = line.iter().position(|b| !b.is_ascii_whitespace());
            start.is_some_and(|start| matches!(line[start], b'#' | b'\''))
        })
        .find_map(|line| {
            let at = line
                .windows(9)
                .position(|window| window.eq_ignore_ascii_case(b"encoding="))?;
            let name: Vec<u8> = line[at + 9..]
                .iter()
                .copied()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
                .collect();
            encoding_rs::Encoding::for_label(&name)
        })
}

/// Text with a character Shift_JIS cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The character.
    pub character: char,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} cannot be written in Shift_JIS; save as UTF-8 (.kifu) instead",
            self.character
        )
    }
}

impl std::error::Error for EncodeError {}

/// Encodes text as Shift_JIS (CP932), refusing characters it cannot hold
/// rather than losing them.
///
/// ```
/// assert_eq!(koma_records::encode_shift_jis("後手").unwrap(), b"\x8c\xe3\x8e\xe8");
/// assert!(koma_records::encode_shift_jis("🐉").is_err());
/// ```
pub fn encode_shift_jis(text: &str) -> Result<Vec<u8>, EncodeError> {
    let mut encoder = encoding_rs::SHIFT_JIS.new_encoder();
    let mut out = Vec::with_capacity(text.len() * 2);
    let mut rest = text;
    loop {
        out.reserve(rest.len() * 2 + 16);
        let (result, read) =
            encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = &rest[read..];
        match result {
            encoding_rs::EncoderResult::InputEmpty => return Ok(out),
            encoding_rs::EncoderResult::OutputFull => continue,
            encoding_rs::EncoderResult::Unmappable(character) => {
                return Err(EncodeError { character })
            }
        }
    }
}
