//! The match's journal, `match.jsonl` in the records directory: a first
//! line that says what the match is (its game, engines, clock, openings
//! and seed), then one line for each finished game. With `--resume` an
//! interrupted match goes on where it stopped: its finished pairs count
//! and are not played again. A long match (200 games at 10 s + 0.1 s take
//! hours) thus survives the end of a session.

use crate::error::{JournalDamage, JournalError};
use koma_rules::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal's name in the records directory.
pub const FILE_NAME: &str = "match.jsonl";

/// What a match is: the settings that decide its games, by name. A match
/// resumes only under the same settings.
pub type Identity = BTreeMap<String, String>;

/// The first line.
#[derive(Serialize, Deserialize)]
struct Header {
    #[serde(rename = "match")]
    identity: Identity,
}

/// A finished game, one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalGame {
    /// The game's number, from 1.
    pub round: usize,
    /// Its pair, from 0.
    pub pair: usize,
    /// Engine 1's side: `sente` or `gote`.
    pub engine1: String,
    /// The winner's side, `None` for a draw.
    pub winner: Option<String>,
    /// How it ended, as the match's summary counts it.
    pub ending: String,
    /// Its length in plies, opening included.
    pub plies: usize,
}

impl JournalGame {
    /// `sente` or `gote`.
    pub fn side_name(color: Color) -> String {
        match color {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
        .to_owned()
    }

    fn side(name: &str) -> Option<Color> {
        match name {
            "sente" => Some(Color::Sente),
            "gote" => Some(Color::Gote),
            _ => None,
        }
    }

    /// Engine 1's colour.
    pub fn engine1_color(&self) -> Color {
        Self::side(&self.engine1).unwrap_or(Color::Sente)
    }

    /// The winner's colour, `None` for a draw.
    pub fn winner_color(&self) -> Option<Color> {
        self.winner.as_deref().and_then(Self::side)
    }

    fn is_valid(&self) -> bool {
        self.round >= 1
            && self.pair == (self.round - 1) / 2
            && Self::side(&self.engine1).is_some()
            && self
                .winner
                .as_deref()
                .is_none_or(|w| Self::side(w).is_some())
    }
}

/// A journal read back: the match it describes and its finished games.
#[derive(Debug)]
pub struct Previous {
    /// The match's settings.
    pub identity: Identity,
    /// The finished games, the last line of each round kept (a pair that
    /// was cut short is played again, and its first game with it).
    pub games: Vec<JournalGame>,
    /// The bytes of the journal's whole lines: a line cut short after them
    /// is cut off before new games are added.
    whole_bytes: u64,
}

/// The journal's path in `dir`.
pub fn path_in(dir: &str) -> PathBuf {
    Path::new(dir).join(FILE_NAME)
}

/// Reads `dir`'s journal; `None` if there is none. A line counts once its
/// newline is written: a last line cut short (the match was killed while
/// writing it) is dropped; any other damage is an error, so that nothing
/// is overwritten unseen.
pub fn read(dir: &str) -> Result<Option<Previous>, JournalError> {
    let path = path_in(dir);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(JournalError::Io { path, source }),
    };
    parse(&text)
        .map(Some)
        .map_err(|damage| JournalError::Corrupt { path, damage })
}

/// The journal's text read back.
fn parse(text: &str) -> Result<Previous, JournalDamage> {
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let mut lines = whole.lines();
    let Some(first) = lines.next() else {
        return Err(JournalDamage::Empty);
    };
    let header: Header = serde_json::from_str(first).map_err(JournalDamage::NotAMatch)?;
    let mut by_round: BTreeMap<usize, JournalGame> = BTreeMap::new();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        match serde_json::from_str::<JournalGame>(line) {
            Ok(game) if game.is_valid() => {
                by_round.insert(game.round, game);
            }
            Ok(_) => return Err(JournalDamage::NotAGame { line: number }),
            Err(source) => {
                return Err(JournalDamage::Unreadable {
                    line: number,
                    source,
                })
            }
        }
    }
    Ok(Previous {
        identity: header.identity,
        games: by_round.into_values().collect(),
        whole_bytes: whole.len() as u64,
    })
}

/// The games of `previous` that finished pairs of a match of `games`
/// games: the ones a resumed match counts and does not play again.
pub fn finished_pairs(previous: &[JournalGame], games: usize) -> Vec<JournalGame> {
    let pairs = games.div_ceil(2);
    let mut by_pair: BTreeMap<usize, Vec<&JournalGame>> = BTreeMap::new();
    for game in previous.iter().filter(|g| g.round <= games) {
        by_pair.entry(game.pair).or_default().push(game);
    }
    by_pair
        .into_iter()
        .filter(|(pair, played)| *pair < pairs && played.len() == (games - 2 * pair).min(2))
        .flat_map(|(_, played)| played.into_iter().cloned())
        .collect()
}

/// The settings that differ between two identities, as
/// `name: was X, now Y`.
pub fn differences(was: &Identity, now: &Identity) -> Vec<String> {
    let mut names: Vec<&String> = was.keys().chain(now.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let (a, b) = (was.get(name), now.get(name));
            (a != b).then(|| {
                let show = |v: Option<&String>| v.map_or("(none)".to_owned(), |v| format!("{v:?}"));
                format!("{name}: was {}, now {}", show(a), show(b))
            })
        })
        .collect()
}

/// A journal being written.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
}

impl Journal {
    /// Starts a new journal in `dir` for the match `identity`.
    pub fn create(dir: &str, identity: &Identity) -> Result<Journal, JournalError> {
        let path = path_in(dir);
        let header = Header {
            identity: identity.clone(),
        };
        let mut line = to_json(&header);
        line.push('\n');
        if let Err(source) = std::fs::write(&path, line) {
            return Err(JournalError::Io { path, source });
        }
        Self::open(path, None)
    }

    /// Opens `dir`'s journal, as `previous` read it, to add games to it; a
    /// last line cut short is cut off, so that the next game's line starts
    /// a line of its own.
    pub fn resume(dir: &str, previous: &Previous) -> Result<Journal, JournalError> {
        Self::open(path_in(dir), Some(previous.whole_bytes))
    }

    /// Opens the journal at `path` for appending, first cut to `length`.
    fn open(path: PathBuf, length: Option<u64>) -> Result<Journal, JournalError> {
        let opened = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|file| match length {
                Some(length) => file.set_len(length).map(|()| file),
                None => Ok(file),
            });
        match opened {
            Ok(file) => Ok(Journal { path, file }),
            Err(source) => Err(JournalError::Io { path, source }),
        }
    }

    /// Adds a finished game, on disk before the next game is counted.
    pub fn add(&mut self, game: &JournalGame) -> Result<(), JournalError> {
        let mut line = to_json(game);
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// A journal line: the header and the games are maps of strings and
/// numbers, which JSON always holds.
fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("strings and numbers are JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: usize, winner: Option<&str>) -> JournalGame {
        JournalGame {
            round,
            pair: (round - 1) / 2,
            engine1: if round % 2 == 1 { "sente" } else { "gote" }.to_owned(),
            winner: winner.map(str::to_owned),
            ending: "checkmate".to_owned(),
            plies: 80,
        }
    }

    fn text(games: &[JournalGame]) -> String {
        let identity: Identity = [("seed".to_owned(), "7".to_owned())].into();
        let mut text = serde_json::to_string(&Header { identity }).unwrap() + "\n";
        for g in games {
            text += &(serde_json::to_string(g).unwrap() + "\n");
        }
        text
    }

    #[test]
    fn a_journal_reads_back_with_the_last_line_of_each_round() {
        let replayed = JournalGame {
            plies: 99,
            ..game(3, None)
        };
        let text = text(&[
            game(1, Some("sente")),
            game(2, None),
            game(3, Some("gote")),
            replayed.clone(),
        ]);
        let previous = parse(&text).unwrap();
        assert_eq!(previous.identity["seed"], "7");
        assert_eq!(previous.games.len(), 3);
        assert_eq!(previous.games[2], replayed);
        assert_eq!(previous.games[0].winner_color(), Some(Color::Sente));
        assert_eq!(previous.games[1].engine1_color(), Color::Gote);
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_other_damage_is_an_error() {
        let whole = text(&[game(1, Some("sente")), game(2, None)]);
        let torn = &whole[..whole.len() - 10];
        let previous = parse(torn).unwrap();
        assert_eq!(previous.games.len(), 1);
        // New games go after the last whole line, the torn one cut off.
        let last_whole = whole[..whole.len() - 1].rfind('\n').unwrap() + 1;
        assert_eq!(previous.whole_bytes, last_whole as u64);
        let damaged = whole.replacen("\"round\":1", "\"round\":\"one\"", 1);
        assert!(matches!(
            parse(&damaged),
            Err(JournalDamage::Unreadable { line: 2, .. })
        ));
        let impossible = whole.replacen("\"pair\":0", "\"pair\":5", 1);
        assert!(matches!(
            parse(&impossible),
            Err(JournalDamage::NotAGame { line: 2 })
        ));
        assert!(matches!(parse(""), Err(JournalDamage::Empty)));
        assert!(matches!(
            parse("{\"games\":3}\n"),
            Err(JournalDamage::NotAMatch(_))
        ));
    }

    #[test]
    fn a_damaged_journal_names_its_path_and_line() {
        let dir = std::env::temp_dir().join(format!("koma-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dir_text = dir.to_str().unwrap();
        std::fs::write(path_in(dir_text), text(&[game(1, None)]) + "{}\n").unwrap();
        let error = read(dir_text).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(
            &error,
            JournalError::Corrupt {
                damage: JournalDamage::Unreadable { line: 3, .. },
                ..
            }
        ));
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: line 3: ", path_in(dir_text).display())),
            "{error}"
        );
    }

    #[test]
    fn only_finished_pairs_count() {
        let played = [
            game(1, None),
            game(2, None),
            game(3, None),
            game(5, None),
            game(6, None),
        ];
        let rounds = |games| -> Vec<usize> {
            finished_pairs(&played, games)
                .iter()
                .map(|g| g.round)
                .collect()
        };
        // Pair 1 (games 3 and 4) was cut short: played again.
        assert_eq!(rounds(6), [1, 2, 5, 6]);
        // A shorter match counts only its own pairs.
        assert_eq!(rounds(4), [1, 2]);
        // An odd match's last pair is one game.
        assert_eq!(rounds(3), [1, 2, 3]);
    }

    #[test]
    fn differences_name_the_settings() {
        let was: Identity = [("seed".into(), "1".into()), ("tc".into(), "10+0.1".into())].into();
        let now: Identity = [("seed".into(), "2".into()), ("tc".into(), "10+0.1".into())].into();
        assert_eq!(differences(&was, &now), ["seed: was \"1\", now \"2\""]);
        assert!(differences(&was, &was).is_empty());
    }
}
