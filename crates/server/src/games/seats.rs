//! Who may act in a game: a secret token per seat. Whoever holds a seat's
//! token plays that side; anyone else who knows the game's id only watches.
//!
//! Tokens are 128 random bits from the operating system, compared in
//! constant time (so that the time of a refusal tells nothing about how
//! much of a guess was right), and never printed: their `Debug` hides them.

use koma_rules::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use subtle::ConstantTimeEq;

/// The bytes of a token: 128 bits.
const TOKEN_BYTES: usize = 16;

/// A seat's secret, written as 32 lower-case hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct Token([u8; TOKEN_BYTES]);

impl Token {
    /// A fresh random token.
    pub fn random() -> Result<Token, String> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("the operating system gave no random numbers: {e}"))?;
        Ok(Token(bytes))
    }

    /// The token as it goes into a seat link: 32 hex digits.
    pub fn reveal(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads 32 hex digits (either case); anything else is no token.
    pub fn parse(text: &str) -> Option<Token> {
        let bytes = text.as_bytes();
        if bytes.len() != TOKEN_BYTES * 2 {
            return None;
        }
        let mut out = [0u8; TOKEN_BYTES];
        for (slot, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            let digit = |b: u8| (b as char).to_digit(16);
            *slot = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
        }
        Some(Token(out))
    }

    /// Whether `self` and `other` are the same token, in time that does not
    /// depend on where they differ.
    pub fn matches(&self, other: &Token) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(hidden)")
    }
}

impl Serialize for Token {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.reveal())
    }
}

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Token, D::Error> {
        let text = String::deserialize(deserializer)?;
        Token::parse(&text).ok_or_else(|| serde::de::Error::custom("a token is 32 hex digits"))
    }
}

/// The tokens of a game's two seats, first mover's first. A side the
/// computer plays has no token: nobody may move for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    /// Sente's (White's in pawns) token.
    pub first: Option<Token>,
    /// Gote's (Black's in pawns) token.
    pub second: Option<Token>,
}

impl Seats {
    /// Fresh tokens for the sides in `people` (the others get none).
    pub fn random(people: impl Fn(Color) -> bool) -> Result<Seats, String> {
        let token = |color| people(color).then(Token::random).transpose();
        Ok(Seats {
            first: token(Color::Sente)?,
            second: token(Color::Gote)?,
        })
    }

    /// The token of `color`'s seat.
    pub fn of(&self, color: Color) -> Option<&Token> {
        match color {
            Color::Sente => self.first.as_ref(),
            Color::Gote => self.second.as_ref(),
        }
    }

    /// The side whose token `token` is. Both seats are compared, whatever
    /// the first comparison says, so that the time taken tells nothing.
    pub fn side_of(&self, token: &Token) -> Option<Color> {
        let first = self.first.as_ref().is_some_and(|t| t.matches(token));
        let second = self.second.as_ref().is_some_and(|t| t.matches(token));
        match (first, second) {
            (true, _) => Some(Color::Sente),
            (false, true) => Some(Color::Gote),
            (false, false) => None,
        }
    }
}

/// How a game's seats are used, which decides what an undo does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Both seats (or the one against the computer) are held by one page:
    /// an undo takes back at once.
    #[default]
    Local,
    /// Each seat is held by its own player, through a seat link: taking a
    /// move back needs both players.
    Shared,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_read_back() {
        let token = Token::random().unwrap();
        let text = token.reveal();
        assert_eq!(text.len(), 32);
        assert!(text.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(Token::parse(&text), Some(token.clone()));
        assert_eq!(Token::parse(&text.to_uppercase()), Some(token.clone()));
        assert_ne!(Token::random().unwrap(), token);
        for bad in [
            "",
            "12",
            &text[1..],
            &format!("{text}0"),
            &text.replacen(&text[..1], "g", 1),
        ] {
            assert_eq!(Token::parse(bad), None, "{bad:?}");
        }
        // Multi-byte characters never reach the digit reader's indexing.
        assert_eq!(Token::parse(&"é".repeat(16)), None);
    }

    #[test]
    fn tokens_never_show_in_debug_output() {
        let token = Token::random().unwrap();
        let seats = Seats {
            first: Some(token.clone()),
            second: None,
        };
        let shown = format!("{seats:?} {token:?}");
        assert!(!shown.contains(&token.reveal()), "{shown}");
        assert!(shown.contains("hidden"), "{shown}");
    }

    #[test]
    fn a_token_names_its_side_and_nothing_else() {
        let seats = Seats::random(|_| true).unwrap();
        let first = seats.first.clone().unwrap();
        let second = seats.second.clone().unwrap();
        assert_eq!(seats.side_of(&first), Some(Color::Sente));
        assert_eq!(seats.side_of(&second), Some(Color::Gote));
        assert_eq!(seats.side_of(&Token::random().unwrap()), None);
        let mut almost = first.clone();
        almost.0[TOKEN_BYTES - 1] ^= 1;
        assert_eq!(seats.side_of(&almost), None);
        let against_computer = Seats::random(|c| c == Color::Sente).unwrap();
        assert!(against_computer.second.is_none());
        assert_eq!(against_computer.side_of(&second), None);
    }
}
