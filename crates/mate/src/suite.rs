//! Problem suites: one problem a line, `SFEN<TAB>mate N` or
//! `SFEN<TAB>nomate`, anything after a further tab ignored (the generator
//! notes its node count there), `#` lines and blank lines skipped. A mate
//! may be tagged `mate N uchifuzume`: its solution must step round a pawn
//! drop that would mate but is illegal ([`meets_uchifuzume`]).
//!
//! ```
//! use koma_mate::suite::{parse_suite, Expected, SuiteError};
//!
//! let suite = parse_suite("# a comment\n7nk/7l1/9/7N1/9/9/9/9/9 b L 1\tmate 1\n").unwrap();
//! assert_eq!(suite[0].expected, Expected::Mate(1));
//! assert!(!suite[0].uchifuzume);
//! assert!(parse_suite("7nk/9 b L 1\tmate 3 uchifuzume\n").unwrap()[0].uchifuzume);
//! assert_eq!(
//!     parse_suite("7nk/9 b L 1\tmate one\n"),
//!     Err(SuiteError::Length { line: 1, length: "one".into() })
//! );
//! assert_eq!(
//!     parse_suite("\n7nk/9 b L 1\tnomate uchifuzume\n"),
//!     Err(SuiteError::Answer { line: 2 })
//! );
//! ```

use koma_rules::{IllegalReason, Move, Position, Role, ShogiPosition, ShogiVariant};

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
    /// Whether its solution steps round an illegal pawn-drop mate.
    pub uchifuzume: bool,
}

/// The first bad line of a suite, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    /// `mate N` whose N is not a length.
    #[error("line {line}: {length:?} is not a mate's length")]
    Length {
        /// The line (from 1).
        line: usize,
        /// What was written for N.
        length: String,
    },
    /// Not an answer at all.
    #[error("line {line}: expected `SFEN<TAB>mate N [uchifuzume]` or `SFEN<TAB>nomate`")]
    Answer {
        /// The line (from 1).
        line: usize,
    },
}

/// Reads a suite; an error names the first bad line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteProblem>, SuiteError> {
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
        let words = answer.split_whitespace().collect::<Vec<_>>();
        let (expected, uchifuzume) = match words[..] {
            ["nomate"] => (Expected::NoMate, false),
            ["mate", length] | ["mate", length, "uchifuzume"] => (
                Expected::Mate(length.parse().map_err(|_| SuiteError::Length {
                    line: line_number,
                    length: length.to_owned(),
                })?),
                words.len() == 3,
            ),
            _ => return Err(SuiteError::Answer { line: line_number }),
        };
        problems.push(SuiteProblem {
            line: line_number,
            sfen: sfen.to_owned(),
            expected,
            uchifuzume,
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

/// Whether the attacker, somewhere along the mate `line` from `root`, could
/// have mated at once by dropping a pawn but for uchifuzume: the line
/// steps round an illegal pawn-drop mate.
///
/// ```
/// use koma_mate::suite::meets_uchifuzume;
/// use koma_rules::{Position, StandardShogiPosition};
///
/// // A pawn on 1b would mate; a lance there mates legally.
/// let root = StandardShogiPosition::from_text("7nk/7l1/9/7N1/9/9/9/9/9 b PL 1").unwrap();
/// let lance = root.parse_move("L*1b").unwrap();
/// assert!(meets_uchifuzume(&root, &[lance]));
/// // Without a pawn in hand there is nothing to step round.
/// let lance_only = StandardShogiPosition::from_text("7nk/7l1/9/7N1/9/9/9/9/9 b L 1").unwrap();
/// assert!(!meets_uchifuzume(&lance_only, &[lance]));
/// ```
pub fn meets_uchifuzume<V: ShogiVariant>(root: &ShogiPosition<V>, line: &[Move]) -> bool {
    let mut position = *root;
    for (index, &m) in line.iter().enumerate() {
        if index % 2 == 0 && forbids_pawn_drop_mate(&position) {
            return true;
        }
        position.play_unchecked(m);
    }
    false
}

/// Whether a pawn drop would mate in `position` but uchifuzume forbids it.
fn forbids_pawn_drop_mate<V: ShogiVariant>(position: &ShogiPosition<V>) -> bool {
    if position.hand(position.turn()).count(Role::Pawn) == 0 {
        return false;
    }
    (V::SPEC.board() & !position.occupied())
        .into_iter()
        .any(|to| {
            let drop = Move::Drop {
                role: Role::Pawn,
                to,
            };
            position.why_illegal(drop) == Some(IllegalReason::PawnDropMate)
        })
}
