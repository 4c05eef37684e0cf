//! What an impasse declaration gives: the rules that judge it and why one
//! can fail (the counting is in `impasse.rs`).

use std::fmt;
use std::str::FromStr;

/// The rule that judges an impasse declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ImpasseRule {
    /// The 27-point rule of computer shogi (CSA, USI `bestmove win`).
    #[default]
    TwentySeven,
    /// The 24-point rule of human play: 31 points win, 24 draw.
    TwentyFour,
}

impl ImpasseRule {
    /// The rule's number: 27 or 24.
    pub const fn points(self) -> u32 {
        match self {
            ImpasseRule::TwentySeven => 27,
            ImpasseRule::TwentyFour => 24,
        }
    }
}

impl fmt::Display for ImpasseRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.points())
    }
}

/// A text that names no impasse rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownImpasseRule(pub String);

impl fmt::Display for UnknownImpasseRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not an impasse rule: expected 27 or 24 (points)",
            self.0
        )
    }
}

impl std::error::Error for UnknownImpasseRule {}

impl FromStr for ImpasseRule {
    type Err = UnknownImpasseRule;

    /// `27` or `24`.
    fn from_str(text: &str) -> Result<ImpasseRule, UnknownImpasseRule> {
        match text.trim() {
            "27" => Ok(ImpasseRule::TwentySeven),
            "24" => Ok(ImpasseRule::TwentyFour),
            other => Err(UnknownImpasseRule(other.to_owned())),
        }
    }
}

/// What a declaration by the side to move would give now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    /// The declarer wins.
    Win,
    /// A draw (the 24-point rule, 24 to 30 points).
    Draw,
    /// The declaration would be invalid, for this reason.
    Invalid(Shortfall),
}

/// Why a declaration is not valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// The game has no impasse rule (only standard shogi has one).
    NoRule,
    /// The declarer is in check.
    InCheck,
    /// The declarer's king is not in the enemy camp.
    KingOutsideCamp,
    /// Fewer than ten other pieces in the enemy camp.
    FewPieces {
        /// Pieces there now.
        in_camp: u32,
    },
    /// Not enough points.
    FewPoints {
        /// Points held now.
        points: u32,
        /// Points needed for the least a declaration can give.
        needed: u32,
    },
}

impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shortfall::NoRule => f.write_str("this game has no impasse rule"),
            Shortfall::InCheck => f.write_str("the king is in check"),
            Shortfall::KingOutsideCamp => f.write_str("the king is not in the enemy camp"),
            Shortfall::FewPieces { in_camp } => write!(
                f,
                "{in_camp} other pieces are in the enemy camp; 10 are needed"
            ),
            Shortfall::FewPoints { points, needed } => {
                write!(f, "{points} points are held; {needed} are needed")
            }
        }
    }
}
