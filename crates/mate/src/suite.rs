//! Problem suites: one problem a line, `SFEN<TAB>mate N` or
//! `SFEN<TAB>nomate`, anything after a further tab ignored (the generator
//! notes its node count there), `#` lines and blank lines skipped.
//!
//! ```
//! use koma_mate::suite::{parse_suite, Expected};
//!
//! let suite = parse_suite("# a comment\n7nk/7l1/9/7N1/9/9/9/9/9 b L 1\tmate 1\n").unwrap();
//! assert_eq!(suite[0].expected, Expected::Mate(1));
//! assert!(parse_suite("7nk/9 b L 1\tmate one\n").is_err());
//! ```

use koma_rules::{Move, ShogiPosition, ShogiVariant};

/// A problem's known answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A mate of this length, as problems count it.
    Mate(u16),
    /// No mate.
    NoMate,
}

/// One problem of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteProblem {
    /// The line it is on (from 1).
    pub line: usize,
    /// The position, as written.
    pub sfen: String,
    /// Its answer.
    pub expected: Expected,
}

/// Reads a suite; an error names the first bad line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteProblem>, String> {
    let mut problems = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let sfen = fields.next().unwrap_or_default().trim();
        let answer = fields.next().unwrap_or_default().trim();
        let expected =
            match answer.split_whitespace().collect::<Vec<_>>()[..] {
                ["nomate"] => Expected::NoMate,
                ["mate", length] => Expected::Mate(length.parse().map_err(|_| {
                    format!("line {line_number}: {length:?} is not a mate's length")
                })?),
                _ => {
                    return Err(format!(
                        "line {line_number}: expected `SFEN<TAB>mate N` or `SFEN<TAB>nomate`"
                    ))
                }
            };
        problems.push(SuiteProblem {
            line: line_number,
            sfen: sfen.to_owned(),
            expected,
        });
    }
    Ok(problems)
}

/// The length of a mate line as problems count it, for a line another
/// solver gave: its plies less each drop between the king and its single
/// distant checker that the checker takes at once (next to the king, where
/// the king cannot take back), and that capture.
/// (Which of those drops are useless is that solver's call; for the
/// shortest line against the longest defence this is the length Koma
/// counts.)
pub fn counted_length<V: ShogiVariant>(root: &ShogiPosition<V>, line: &[Move]) -> usize {
    let mut position = *root;
    let mut length = line.len();
    for (index, &m) in line.iter().enumerate() {
        if m.is_drop() {
            let mut dropped = position;
            dropped.play_unchecked(m);
            let taken = line.get(index + 1).is_some_and(|&next| {
                crate::interposition::captures(&position, m, &dropped).contains(&Some(next))
            });
            if taken {
                length -= 2;
            }
        }
        position.play_unchecked(m);
    }
    length
}
