//! The worker keys of `koma serve --worker-keys FILE`: one key a line,
//! optionally after the worker's name (`NAME KEY`), so that the log says
//! who sent what; `#` starts a comment, blank lines are skipped. A key is
//! at least [`MIN_KEY_LENGTH`] characters of letters, digits, `-`, `_` or
//! `.` (what `openssl rand -hex 32` or a password manager makes), and is
//! compared in constant time.

use std::path::Path;
use subtle::ConstantTimeEq;

/// The shortest key accepted: guessing one must be hopeless.
pub const MIN_KEY_LENGTH: usize = 16;

/// Why a keys file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KeysError {
    /// The file cannot be read.
    #[error("cannot read the worker keys file {path}: {source}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not `KEY` or `NAME KEY`.
    #[error("the worker keys file {path}, line {line}: {problem}")]
    BadLine {
        /// The file.
        path: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong, as a sentence's end.
        problem: String,
    },
    /// No key at all.
    #[error("the worker keys file {0} holds no key: write one a line, as NAME KEY or KEY")]
    Empty(String),
}

/// One worker's key.
#[derive(Clone)]
struct Key {
    name: String,
    secret: Vec<u8>,
}

/// The keys a server accepts.
#[derive(Clone)]
pub struct WorkerKeys {
    keys: Vec<Key>,
}

impl std::fmt::Debug for WorkerKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The names only: keys never reach a log.
        f.debug_list()
            .entries(self.keys.iter().map(|k| &k.name))
            .finish()
    }
}

impl WorkerKeys {
    /// The keys of the file at `path`.
    pub fn read(path: &Path) -> Result<WorkerKeys, KeysError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| KeysError::Unreadable {
            path: shown.clone(),
            source,
        })?;
        WorkerKeys::parse(&text).map_err(|(line, problem)| match line {
            0 => KeysError::Empty(shown.clone()),
            line => KeysError::BadLine {
                path: shown.clone(),
                line,
                problem,
            },
        })
    }

    /// The keys `text` lists; else the line at fault (0: none at all) and
    /// what is wrong with it.
    pub fn parse(text: &str) -> Result<WorkerKeys, (usize, String)> {
        let mut keys: Vec<Key> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let (name, secret) = match words.as_slice() {
                [key] => (format!("worker {}", keys.len() + 1), *key),
                [name, key] => ((*name).to_owned(), *key),
                _ => {
                    return Err((
                        number,
                        "write KEY or NAME KEY, with no spaces inside either".to_owned(),
                    ))
                }
            };
            if secret.len() < MIN_KEY_LENGTH {
                return Err((
                    number,
                    format!("the key is shorter than {MIN_KEY_LENGTH} characters"),
                ));
            }
            if !secret
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            {
                return Err((
                    number,
                    "a key holds only letters, digits, '-', '_' and '.'".to_owned(),
                ));
            }
            if keys.iter().any(|k| k.secret == secret.as_bytes()) {
                return Err((number, "the key is listed twice".to_owned()));
            }
            keys.push(Key {
                name,
                secret: secret.as_bytes().to_vec(),
            });
        }
        if keys.is_empty() {
            return Err((0, String::new()));
        }
        Ok(WorkerKeys { keys })
    }

    /// The name of the worker whose key `header` (an `Authorization`
    /// header's value, `Bearer KEY`) carries, or `None`. Every key is
    /// compared, in constant time, whichever matches.
    pub fn worker(&self, header: Option<&str>) -> Option<&str> {
        let given = header?.trim().strip_prefix("Bearer ")?.trim().as_bytes();
        let mut found = None;
        for key in &self.keys {
            if bool::from(key.secret.as_slice().ct_eq(given)) {
                found = Some(key.name.as_str());
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_with_names_comments_and_blank_lines() {
        let keys = WorkerKeys::parse(
            "# the workers\n\nalice 0123456789abcdef0123 # her laptop\n  fedcba9876543210fedc\n",
        )
        .unwrap();
        assert_eq!(keys.keys.len(), 2);
        assert_eq!(
            keys.worker(Some("Bearer 0123456789abcdef0123")),
            Some("alice")
        );
        assert_eq!(
            keys.worker(Some("Bearer fedcba9876543210fedc")),
            Some("worker 2")
        );
        assert_eq!(keys.worker(Some("Bearer fedcba9876543210fedX")), None);
        assert_eq!(keys.worker(Some("fedcba9876543210fedc")), None);
        assert_eq!(keys.worker(None), None);
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(WorkerKeys::parse("a b c\n").err().unwrap().0, 1);
        assert_eq!(WorkerKeys::parse("\nshort\n").err().unwrap().0, 2);
        assert_eq!(WorkerKeys::parse("# nothing\n").err().unwrap().0, 0);
        let twice = "0123456789abcdef0123\nb 0123456789abcdef0123\n";
        assert_eq!(WorkerKeys::parse(twice).err().unwrap().0, 2);
    }
}
