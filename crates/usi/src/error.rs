//! Why the protocol's two sides fail, at the crate's boundary: an engine
//! setting that cannot be read ([`ConfigError`]), an engine program that
//! cannot be started or broke off its handshake ([`StartError`]), an
//! engine that stopped answering in a game ([`Failure`]), and `koma usi`
//! asked for a game its protocol does not play ([`RunError`]).

use crate::dialect::{Dialect, UnknownDialect};
use koma_rules::Variant;

/// Why the `KEY=VALUE` words of an engine (`--engine1 …`, `proto=`) are
/// not settings Koma can use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A word after the first without `=`.
    #[error("{word:?}: expected KEY=VALUE (cmd=, name=, proto=, dir=, arg=, option.NAME=)")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// `cmd=` with nothing after it.
    #[error("cmd= names no program")]
    NoProgram,
    /// A command with a quote never closed.
    #[error("unclosed quote in {command:?}")]
    UnclosedQuote {
        /// The command as given.
        command: String,
    },
    /// `proto=` naming neither USI nor UCI.
    #[error(transparent)]
    UnknownProtocol(#[from] UnknownDialect),
    /// A key that is none of the settings.
    #[error("unknown engine setting {key:?}")]
    UnknownSetting {
        /// The key.
        key: String,
    },
}

/// What the client was waiting for when an engine failed its handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandshakeStep {
    /// `usi`/`uci`, answered by `usiok`/`uciok`.
    Hello(Dialect),
    /// `setoption` (no answer, but the engine's input may break).
    SetOption,
    /// `isready`, answered by `readyok`.
    IsReady,
}

impl std::fmt::Display for HandshakeStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HandshakeStep::Hello(dialect) => dialect.command(),
            HandshakeStep::SetOption => "setoption",
            HandshakeStep::IsReady => "isready",
        })
    }
}

/// Why an engine program is not ready to play
/// ([`crate::client::Engine::start`]).
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The program could not be run (not found, not executable…).
    #[error("cannot start {program:?}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The engine exited (its output closed or its input broke) during
    /// the handshake.
    #[error("{label} ({program}): exited during {step}")]
    Crashed {
        /// The engine's label in the traffic log.
        label: String,
        /// The program.
        program: String,
        /// What it was told last.
        step: HandshakeStep,
    },
    /// The engine gave no answer in time during the handshake.
    #[error("{label} ({program}): no answer to {step}")]
    TimedOut {
        /// The engine's label in the traffic log.
        label: String,
        /// The program.
        program: String,
        /// What it did not answer.
        step: HandshakeStep,
    },
}

impl StartError {
    /// The error of engine `label` (`program`) that failed at `step` of
    /// setting it up.
    pub fn during(label: &str, program: &str, step: HandshakeStep, failure: Failure) -> StartError {
        let (label, program) = (label.to_owned(), program.to_owned());
        match failure {
            Failure::Crashed => StartError::Crashed {
                label,
                program,
                step,
            },
            Failure::TimedOut => StartError::TimedOut {
                label,
                program,
                step,
            },
        }
    }
}

/// Why an engine gave no answer during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// Its output closed or its input broke: it exited.
    #[error("the engine exited")]
    Crashed,
    /// No answer before the deadline.
    #[error("the engine did not answer in time")]
    TimedOut,
}

/// Why `koma usi`/`koma uci` cannot run ([`crate::engine::run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// A game that the other protocol plays (Pawns-Only Chess over USI,
    /// a shogi game over UCI).
    #[error("{} is not played over {}", variant.name(), dialect.name())]
    WrongProtocol {
        /// The game asked for.
        variant: Variant,
        /// The protocol spoken.
        dialect: Dialect,
    },
}
