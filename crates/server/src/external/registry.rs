//! The engines people register: `koma serve --engine NAME=COMMAND` and
//! `--engines-file FILE` (TOML, with options, games and threads per
//! engine). Read once at start; a mistake stops the server with a
//! sentence that names it.

use koma_rules::Variant;
use koma_usi::client::EngineConfig;
use koma_usi::ConfigError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The name of Koma's own engine, which no registered engine may take.
pub const BUILT_IN: &str = "koma";
/// The longest engine name.
const NAME_LIMIT: usize = 32;
/// The most threads an engine may say it uses.
const THREAD_LIMIT: u32 = 256;

/// A registered engine: how to start it, what to tell it, which games it
/// plays and how many cores it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalEngine {
    /// Its name on the board and in the API.
    pub name: String,
    /// The program, its arguments, folder, protocol and options.
    pub config: EngineConfig,
    /// The games it plays (shogi alone unless told).
    pub variants: Vec<Variant>,
    /// The cores one of its processes takes: its `Threads` option, else 1.
    pub threads: u32,
}

/// Why the registered engines cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// `--engine` without `NAME=COMMAND`.
    #[error("--engine {given:?}: expected NAME=COMMAND, as in --engine 'yaneuraou=/opt/yo/YaneuraOu-by-gcc'")]
    NotNameCommand {
        /// What was given.
        given: String,
    },
    /// A name that is empty, too long or has other characters.
    #[error("engine name {name:?}: a name is 1 to {NAME_LIMIT} of A-Z a-z 0-9 _ - .")]
    BadName {
        /// The name.
        name: String,
    },
    /// `koma`, which is Koma's own engine.
    #[error("engine name {name:?} is the name of Koma's own engine: choose another")]
    Reserved {
        /// The name.
        name: String,
    },
    /// Two engines of one name.
    #[error("two engines are named {name:?}")]
    Twice {
        /// The name.
        name: String,
    },
    /// The engines file cannot be read.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The engines file is not TOML of the expected form.
    #[error("{}: {message}", path.display())]
    Toml {
        /// The file.
        path: PathBuf,
        /// The TOML reader's sentence.
        message: String,
    },
    /// A command or protocol that cannot be read.
    #[error("engine {name}: {source}")]
    Config {
        /// The engine.
        name: String,
        /// Why.
        source: ConfigError,
    },
    /// An option value that is not text, a number or true/false.
    #[error("engine {name}: option {option} must be text, a number or true/false")]
    OptionValue {
        /// The engine.
        name: String,
        /// The option.
        option: String,
    },
    /// A `Threads` that is not a count of cores.
    #[error("engine {name}: Threads {value:?} is not a number from 1 to {THREAD_LIMIT}")]
    Threads {
        /// The engine.
        name: String,
        /// What was given.
        value: String,
    },
    /// A game Koma does not know, or none.
    #[error("engine {name}: {problem}")]
    Games {
        /// The engine.
        name: String,
        /// What is wrong.
        problem: String,
    },
}

/// The engines file: `[[engine]]` tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnginesFile {
    #[serde(default)]
    engine: Vec<EngineTable>,
}

/// One `[[engine]]` of the engines file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineTable {
    name: String,
    command: String,
    dir: Option<String>,
    protocol: Option<String>,
    games: Option<Vec<String>>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
}

/// Reads the engines of `--engine` flags and of the engines file, checks
/// their names (unique, not Koma's own) and returns them in the order
/// given, the file's first.
pub fn read(flags: &[String], file: Option<&Path>) -> Result<Vec<ExternalEngine>, RegistryError> {
    let mut engines = match file {
        Some(path) => read_file(path)?,
        None => Vec::new(),
    };
    for flag in flags {
        engines.push(from_flag(flag)?);
    }
    for (index, engine) in engines.iter().enumerate() {
        check_name(&engine.name)?;
        if engines[..index].iter().any(|e| e.name == engine.name) {
            return Err(RegistryError::Twice {
                name: engine.name.clone(),
            });
        }
    }
    Ok(engines)
}

/// `NAME=COMMAND`: an engine of shogi with no options.
fn from_flag(flag: &str) -> Result<ExternalEngine, RegistryError> {
    let (name, command) = flag
        .split_once('=')
        .filter(|(name, command)| !name.trim().is_empty() && !command.trim().is_empty())
        .ok_or_else(|| RegistryError::NotNameCommand {
            given: flag.to_owned(),
        })?;
    let name = name.trim().to_owned();
    let config = EngineConfig::parse(&[format!("cmd={command}")]).map_err(|source| {
        RegistryError::Config {
            name: name.clone(),
            source,
        }
    })?;
    Ok(ExternalEngine {
        name,
        config,
        variants: vec![Variant::Shogi],
        threads: 1,
    })
}

fn read_file(path: &Path) -> Result<Vec<ExternalEngine>, RegistryError> {
    let text = std::fs::read_to_string(path).map_err(|source| RegistryError::File {
        path: path.to_owned(),
        source,
    })?;
    let file: EnginesFile = toml::from_str(&text).map_err(|e| RegistryError::Toml {
        path: path.to_owned(),
        message: e.to_string().trim_end().to_owned(),
    })?;
    file.engine.into_iter().map(from_table).collect()
}

fn from_table(table: EngineTable) -> Result<ExternalEngine, RegistryError> {
    let name = table.name;
    let config_error = |source| RegistryError::Config {
        name: name.clone(),
        source,
    };
    let mut words = vec![format!("cmd={}", table.command)];
    if let Some(dir) = table.dir {
        words.push(format!("dir={dir}"));
    }
    if let Some(protocol) = table.protocol {
        words.push(format!("proto={protocol}"));
    }
    let mut threads = 1;
    for (option, value) in &table.options {
        let text = match value {
            toml::Value::String(text) => text.clone(),
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Float(x) => x.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => {
                return Err(RegistryError::OptionValue {
                    name: name.clone(),
                    option: option.clone(),
                })
            }
        };
        if option.eq_ignore_ascii_case("Threads") {
            threads = text
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=THREAD_LIMIT).contains(n))
                .ok_or_else(|| RegistryError::Threads {
                    name: name.clone(),
                    value: text.clone(),
                })?;
        }
        words.push(format!("option.{option}={text}"));
    }
    let config = EngineConfig::parse(&words).map_err(config_error)?;
    let variants = match table.games {
        None => vec![Variant::Shogi],
        Some(games) => {
            let mut variants = Vec::new();
            for game in &games {
                let variant = game.parse::<Variant>().map_err(|e| RegistryError::Games {
                    name: name.clone(),
                    problem: e.to_string(),
                })?;
                if !variants.contains(&variant) {
                    variants.push(variant);
                }
            }
            if variants.is_empty() {
                return Err(RegistryError::Games {
                    name,
                    problem: "games = [] names no game: leave it out for shogi".to_owned(),
                });
            }
            variants
        }
    };
    Ok(ExternalEngine {
        name,
        config,
        variants,
        threads,
    })
}

fn check_name(name: &str) -> Result<(), RegistryError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if name.is_empty() || name.len() > NAME_LIMIT || !name.chars().all(allowed) {
        return Err(RegistryError::BadName {
            name: name.to_owned(),
        });
    }
    if name.eq_ignore_ascii_case(BUILT_IN) {
        return Err(RegistryError::Reserved {
            name: name.to_owned(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn flags(words: &[&str]) -> Result<Vec<ExternalEngine>, RegistryError> {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        read(&words, None)
    }

    #[test]
    fn a_flag_names_an_engine_of_shogi() {
        let engines = flags(&["yo=/opt/yo/YaneuraOu --flag", "fsf = fairy-stockfish"]).unwrap();
        assert_eq!(engines[0].name, "yo");
        assert_eq!(engines[0].config.program, "/opt/yo/YaneuraOu");
        assert_eq!(engines[0].config.args, ["--flag"]);
        assert_eq!(engines[0].variants, [Variant::Shogi]);
        assert_eq!(engines[1].name, "fsf");
        assert_eq!(engines[1].threads, 1);
    }

    #[test]
    fn bad_flags_are_named() {
        let message = |words: &[&str]| flags(words).unwrap_err().to_string();
        assert!(message(&["yo"]).contains("expected NAME=COMMAND"));
        assert!(message(&["=x"]).contains("expected NAME=COMMAND"));
        assert!(message(&["yo="]).contains("expected NAME=COMMAND"));
        assert!(message(&["Koma=x"]).contains("Koma's own engine"));
        assert!(message(&["a b=x"]).contains("1 to 32 of"));
        assert!(message(&["yo=a", "yo=b"]).contains("two engines are named \"yo\""));
        assert!(matches!(
            flags(&["yo=\"x"]),
            Err(RegistryError::Config { .. })
        ));
    }

    fn file(text: &str) -> Result<Vec<ExternalEngine>, RegistryError> {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        read(&[], Some(file.path()))
    }

    #[test]
    fn the_file_gives_options_games_and_threads() {
        let engines = file(
            r#"
            [[engine]]
            name = "yo"
            command = "/opt/yo/YaneuraOu"
            dir = "/opt/yo"
            [engine.options]
            USI_Hash = 256
            Threads = 2
            EvalFile = "eval/nn.bin"
            USI_OwnBook = false

            [[engine]]
            name = "fsf"
            command = "fairy-stockfish"
            protocol = "usi"
            games = ["minishogi", "shogi", "spear"]
            "#,
        )
        .unwrap();
        let yo = &engines[0];
        assert_eq!(yo.threads, 2);
        assert_eq!(yo.config.dir.as_deref(), Some("/opt/yo"));
        let options: Vec<(&str, &str)> = yo
            .config
            .options
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            options,
            [
                ("EvalFile", "eval/nn.bin"),
                ("Threads", "2"),
                ("USI_Hash", "256"),
                ("USI_OwnBook", "false")
            ]
        );
        assert_eq!(
            engines[1].variants,
            [Variant::Minishogi, Variant::Shogi, Variant::Spear]
        );
    }

    #[test]
    fn a_wrong_file_is_named() {
        let message = |text: &str| file(text).unwrap_err().to_string();
        assert!(message("[[engine]]\nname = \"yo\"\n").contains("command"));
        assert!(
            message("[[engine]]\nname = \"yo\"\ncommand = \"x\"\ncolour = 1\n").contains("colour")
        );
        let threads = "[[engine]]\nname = \"yo\"\ncommand = \"x\"\n[engine.options]\nThreads = 0\n";
        assert!(message(threads).contains("Threads \"0\""));
        let games = "[[engine]]\nname = \"yo\"\ncommand = \"x\"\ngames = [\"go\"]\n";
        assert!(message(games).contains("unknown game \"go\""));
        let nested = "[[engine]]\nname = \"yo\"\ncommand = \"x\"\n[engine.options]\nX = [1]\n";
        assert!(message(nested).contains("option X"));
        let missing = read(&[], Some(Path::new("/nonexistent/engines.toml"))).unwrap_err();
        assert!(matches!(missing, RegistryError::File { .. }), "{missing}");
        assert!(file("").unwrap().is_empty());
    }
}
