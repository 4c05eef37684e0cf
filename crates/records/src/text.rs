//! Text inside records: player names, other headers and comments, as every
//! reader gives them and every writer writes them.
//!
//! Two things are done to such text, by the readers and by the writers
//! alike:
//!
//! - **Hidden characters are escaped** as `<U+001B>`: control characters
//!   other than tab and line break (NUL, ESC, DEL, the C1 controls), the
//!   Unicode bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E,
//!   U+2066–U+2069), which make text display as something else (a
//!   right-to-left override turns a name around), and the line and
//!   paragraph separators U+2028 and U+2029, which some readers take for
//!   line breaks and others do not.
//! - **Line breaks** (LF, CR, CRLF) become LF in a comment, which each
//!   format writes as its own next comment line; a header is one line in
//!   every format, so its lines are joined by a space each, without the
//!   blanks around them (every reader trims a header).
//!
//! Escaping, not refusing, because a record made elsewhere must open whole:
//! one stray byte in a comment nobody sees should not cost the game. The
//! escape keeps every other character as it was sent and shows the hidden
//! ones for what they are; it is plain ASCII with none of the formats' own
//! marks (`*`, `'`, `}`, `"`), so every format and Shift_JIS hold it, and
//! escaping escaped text changes nothing. As the writers escape too, text
//! kept by an older Koma is written clean as well.
//!
//! ```
//! use koma_records::text;
//! assert_eq!(text::comment("red \u{1b}[31m\r\nnext"), "red <U+001B>[31m\nnext");
//! assert_eq!(text::header(" Ann\u{202e}nnA \r\n Smith "), "Ann<U+202E>nnA Smith");
//! assert_eq!(text::header("羽生 善治\t😀"), "羽生 善治\t😀");
//! ```

use std::borrow::Cow;

/// Whether `c` is written as an escape: a control character other than tab
/// and line break (CR is a line break too), a bidi control, or a line or
/// paragraph separator.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A comment as records keep it: hidden characters escaped, every line
/// break (LF, CR or CRLF) an LF. Blanks are kept.
pub fn comment(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c == '\r' || is_hidden(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push('\n');
            }
            c if is_hidden(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A header (a player's name, the event…) as records keep it: one line,
/// hidden characters escaped, its lines joined by a space each, without
/// blanks around them.
pub fn header(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c == '\r' || c == '\n' || is_hidden(c)) {
        return Cow::Borrowed(text.trim());
    }
    // Escaped before trimmed: NEL and the separators count as blanks.
    let escaped = comment(text);
    let lines: Vec<&str> = escaped
        .split('\n')
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    Cow::Owned(lines.join(" "))
}

/// `<U+001B>`: the code point in at least four upper-case hex digits.
fn push_escape(out: &mut String, c: char) {
    out.push_str(&format!("<U+{:04X}>", c as u32));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_others_kept() {
        assert_eq!(
            comment("a\0b\u{7f}c\u{85}d\u{202e}e\u{2066}f\u{2028}g"),
            "a<U+0000>b<U+007F>c<U+0085>d<U+202E>e<U+2066>f<U+2028>g"
        );
        let plain = "先手\t*'}{\"\\ 😀 ２六歩";
        assert!(matches!(comment(plain), Cow::Borrowed(_)));
        assert_eq!(comment(plain), plain);
    }

    #[test]
    fn line_breaks_are_lf_in_comments_and_spaces_in_headers() {
        assert_eq!(comment("a\rb\r\nc\nd\n\re"), "a\nb\nc\nd\n\ne");
        assert_eq!(header("a\rb\r\nc\nd"), "a b c d");
        assert_eq!(header("\r\n Ann \n"), "Ann");
        assert_eq!(header(""), "");
        assert_eq!(header("\u{85}Ann\u{2028}"), "<U+0085>Ann<U+2028>");
    }

    #[test]
    fn cleaning_twice_changes_nothing() {
        for text in ["\u{1b}\r\n\u{202e} x \r", "<U+001B>", " \u{0}\n\t"] {
            assert_eq!(comment(&comment(text)), comment(text));
            assert_eq!(header(&header(text)), header(text));
        }
    }
}
