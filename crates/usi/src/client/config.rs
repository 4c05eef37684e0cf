//! How to start an engine and what to tell it: the `KEY=VALUE` words of
//! `--engine1`, `--engine2` and `--each`.

use crate::{ConfigError, Dialect};

/// How to start an engine and what to tell it, from `--engine1 …`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name given with `name=`; else the engine's own `id name`.
    pub name: Option<String>,
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory (`dir=`).
    pub dir: Option<String>,
    /// The protocol (`proto=`); else the game's usual one.
    pub protocol: Option<Dialect>,
    /// `option.Name=Value` settings, in the order given.
    pub options: Vec<(String, String)>,
    /// The process's nice value (Unix), every thread of it, if not its
    /// parent's: a server runs its analyses at 19 and its computer
    /// opponents at 10, so that neither slows the requests. Not a
    /// `KEY=VALUE` word; the program that starts the engine decides.
    pub nice: Option<i32>,
}

impl EngineConfig {
    /// Reads `KEY=VALUE` words: `cmd=`, `name=`, `proto=usi|uci`, `dir=`,
    /// `arg=` (one more argument), `option.NAME=VALUE`. A first word without
    /// `=` is the command. A command is split into words as a shell would
    /// (quotes group), so `cmd="koma usi"` runs `koma` with `usi`.
    pub fn parse(words: &[String]) -> Result<EngineConfig, ConfigError> {
        let mut config = EngineConfig::default();
        for (index, word) in words.iter().enumerate() {
            let (key, value) = match word.split_once('=') {
                Some((key, value)) if !key.contains(char::is_whitespace) => (key, value),
                _ if index == 0 => ("cmd", word.as_str()),
                _ => return Err(ConfigError::NotKeyValue { word: word.clone() }),
            };
            match key {
                "cmd" => {
                    let mut command = split_words(value)?.into_iter();
                    config.program = command.next().ok_or(ConfigError::NoProgram)?;
                    config.args.extend(command);
                }
                "arg" => config.args.push(value.to_owned()),
                "name" => config.name = Some(value.to_owned()),
                "dir" => config.dir = Some(value.to_owned()),
                "proto" => config.protocol = Some(Dialect::parse(value)?),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        config.options.retain(|(name, _)| name != option);
                        config.options.push((option.to_owned(), value.to_owned()));
                    }
                    _ => {
                        return Err(ConfigError::UnknownSetting {
                            key: key.to_owned(),
                        })
                    }
                },
            }
        }
        Ok(config)
    }

    /// Adds the settings common to both engines (`--each`); the engine's
    /// own settings win.
    pub fn with_defaults(mut self, each: &EngineConfig) -> EngineConfig {
        if self.program.is_empty() {
            self.program = each.program.clone();
            self.args = each.args.clone();
        }
        self.dir = self.dir.or_else(|| each.dir.clone());
        self.protocol = self.protocol.or(each.protocol);
        let mut options = each.options.clone();
        options.retain(|(name, _)| !self.options.iter().any(|(own, _)| own == name));
        options.append(&mut self.options);
        self.options = options;
        self
    }
}

/// Splits a command line into words: blanks separate, quotes group, a
/// backslash escapes the next character.
fn split_words(text: &str) -> Result<Vec<String>, ConfigError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (q, '\\') if q != Some('\'') => {
                if let Some(next) = chars.next() {
                    word.get_or_insert_with(String::new).push(next);
                }
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(ConfigError::UnclosedQuote {
            command: text.to_owned(),
        });
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UnknownDialect;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn engine_settings_parse() {
        let config = EngineConfig::parse(&words(
            "cmd=/tmp/fsf name=FSF proto=usi option.Threads=1 option.Hash=64 option.Threads=2",
        ))
        .unwrap();
        assert_eq!(config.program, "/tmp/fsf");
        assert_eq!(config.name.as_deref(), Some("FSF"));
        assert_eq!(config.protocol, Some(Dialect::Usi));
        assert_eq!(
            config.options,
            vec![
                ("Hash".to_owned(), "64".to_owned()),
                ("Threads".to_owned(), "2".to_owned())
            ]
        );
        let bare = EngineConfig::parse(&["koma usi --flag".to_owned()]).unwrap();
        assert_eq!(bare.program, "koma");
        assert_eq!(bare.args, ["usi", "--flag"]);
        let quoted = EngineConfig::parse(&[r#"cmd="/a b/engine" 'x y' z\ w"#.to_owned()]).unwrap();
        assert_eq!(quoted.program, "/a b/engine");
        assert_eq!(quoted.args, ["x y", "z w"]);
        assert!(matches!(
            EngineConfig::parse(&words("cmd=x bogus")),
            Err(ConfigError::NotKeyValue { word }) if word == "bogus"
        ));
        assert!(matches!(
            EngineConfig::parse(&words("cmd=x proto=xboard")),
            Err(ConfigError::UnknownProtocol(UnknownDialect { text })) if text == "xboard"
        ));
        assert!(matches!(
            EngineConfig::parse(&words("cmd=x colour=red")),
            Err(ConfigError::UnknownSetting { key }) if key == "colour"
        ));
        assert!(matches!(
            EngineConfig::parse(&["cmd=\"x".to_owned()]),
            Err(ConfigError::UnclosedQuote { .. })
        ));
        assert_eq!(
            EngineConfig::parse(&words("cmd=")),
            Err(ConfigError::NoProgram)
        );
        // The sentence people read at the command line.
        assert_eq!(
            EngineConfig::parse(&words("cmd=x colour=red"))
                .unwrap_err()
                .to_string(),
            "unknown engine setting \"colour\""
        );
    }

    #[test]
    fn common_settings_fill_in() {
        let each =
            EngineConfig::parse(&words("option.Hash=16 option.Threads=1 proto=usi")).unwrap();
        let own = EngineConfig::parse(&words("cmd=e option.Hash=64")).unwrap();
        let merged = own.with_defaults(&each);
        assert_eq!(merged.protocol, Some(Dialect::Usi));
        assert_eq!(
            merged.options,
            vec![
                ("Threads".to_owned(), "1".to_owned()),
                ("Hash".to_owned(), "64".to_owned())
            ]
        );
    }
}
