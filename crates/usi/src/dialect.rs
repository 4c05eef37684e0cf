//! The two protocols, USI and UCI: which one a game speaks and their names.

use koma_rules::Variant;

/// A `proto=` naming neither USI nor UCI.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("proto={text}: expected usi or uci")]
pub struct UnknownDialect {
    /// What was given.
    pub text: String,
}

/// Which protocol is spoken: USI for the shogi games, UCI for Pawns-Only
/// Chess. The engine side answers in it and the client talks to an engine
/// in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Shogi Interface.
    Usi,
    /// The Universal Chess Interface.
    Uci,
}

impl Dialect {
    /// The dialect engines of `variant` speak unless told otherwise.
    ///
    /// ```
    /// use koma_rules::Variant;
    /// use koma_usi::Dialect;
    ///
    /// assert_eq!(Dialect::default_for(Variant::Minishogi), Dialect::Usi);
    /// assert_eq!(Dialect::default_for(Variant::Pawns), Dialect::Uci);
    /// ```
    pub fn default_for(variant: Variant) -> Dialect {
        if variant.is_shogi_family() {
            Dialect::Usi
        } else {
            Dialect::Uci
        }
    }

    /// Reads `usi` or `uci` (in any case), as `proto=` gives it.
    pub fn parse(text: &str) -> Result<Dialect, UnknownDialect> {
        match text.to_ascii_lowercase().as_str() {
            "usi" => Ok(Dialect::Usi),
            "uci" => Ok(Dialect::Uci),
            _ => Err(UnknownDialect {
                text: text.to_owned(),
            }),
        }
    }

    /// The lower-case word that opens the conversation: `usi` or `uci`.
    pub fn command(self) -> &'static str {
        match self {
            Dialect::Usi => "usi",
            Dialect::Uci => "uci",
        }
    }

    /// The protocol's name in prose: `USI` or `UCI`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Usi => "USI",
            Dialect::Uci => "UCI",
        }
    }
}
