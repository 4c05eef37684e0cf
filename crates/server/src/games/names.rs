//! The words the API uses for games, sides, endings and opponents, both
//! ways: written in answers, read from requests.

use koma_rules::{Color, EndReason, Outcome, Variant};
use serde::{Deserialize, Serialize};

/// The side's name as the game's players say it: Sente and Gote in the
/// shogi games, White and Black in Pawns-Only Chess.
pub fn color_name(variant: Variant, color: Color) -> &'static str {
    match (variant.is_shogi_family(), color) {
        (true, Color::Sente) => "sente",
        (true, Color::Gote) => "gote",
        (false, Color::Sente) => "white",
        (false, Color::Gote) => "black",
    }
}

/// The side's name with a capital, for sentences. Spear's players are
/// Black (who moves first) and White, as the seed and its protocol call
/// them; the API's words for them stay `sente` and `gote`.
pub fn color_title(variant: Variant, color: Color) -> &'static str {
    match (variant, color) {
        (Variant::Spear, Color::Sente) => "Black",
        (Variant::Spear, Color::Gote) => "White",
        (Variant::Pawns, Color::Sente) => "White",
        (Variant::Pawns, Color::Gote) => "Black",
        (_, Color::Sente) => "Sente",
        (_, Color::Gote) => "Gote",
    }
}

/// A side named in a request. Both families' words are understood with the
/// meaning "who moves first": in the shogi games (and the seed's Spear)
/// Black moves first, in chess White does.
pub fn parse_color(variant: Variant, text: &str) -> Option<Color> {
    let first = match (
        variant.is_shogi_family(),
        text.to_ascii_lowercase().as_str(),
    ) {
        (_, "sente") => true,
        (_, "gote") => false,
        (true, "black") | (false, "white") => true,
        (true, "white") | (false, "black") => false,
        _ => return None,
    };
    Some(if first { Color::Sente } else { Color::Gote })
}

/// The game's full name, for titles.
pub fn variant_title(variant: Variant) -> &'static str {
    match variant {
        Variant::Spear => "Spear Shogi",
        Variant::Minishogi => "Minishogi",
        Variant::Shogi => "Shogi",
        Variant::Pawns => "Pawns-Only Chess",
    }
}

/// The machine word of an ending, as `outcome.reason` says it.
pub fn reason_word(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Checkmate => "checkmate",
        EndReason::NoLegalMoves => "no-legal-moves",
        EndReason::KingCaptured => "king-captured",
        EndReason::LastRankReached => "last-rank",
        EndReason::AllPawnsCaptured => "no-pawns",
        EndReason::Stalemate => "stalemate",
        EndReason::Repetition => "repetition",
        EndReason::PerpetualCheck => "perpetual-check",
        EndReason::Resignation => "resignation",
        EndReason::Impasse => "impasse",
        EndReason::IllegalMove => "illegal-move",
        EndReason::Timeout => "timeout",
        EndReason::Abandoned => "abandoned",
    }
}

/// The ending a machine word names.
pub fn parse_reason(word: &str) -> Option<EndReason> {
    const ALL: [EndReason; 13] = [
        EndReason::Checkmate,
        EndReason::NoLegalMoves,
        EndReason::KingCaptured,
        EndReason::LastRankReached,
        EndReason::AllPawnsCaptured,
        EndReason::Stalemate,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::Resignation,
        EndReason::Impasse,
        EndReason::IllegalMove,
        EndReason::Timeout,
        EndReason::Abandoned,
    ];
    ALL.into_iter().find(|&reason| reason_word(reason) == word)
}

/// The sentence that announces the end: who won and why. `to_move` is the
/// side that would move next (the loser, for most endings).
pub fn outcome_message(variant: Variant, outcome: Outcome, to_move: Color) -> String {
    let title = |c| color_title(variant, c);
    let lower = |c: Color| color_name(variant, c);
    match (outcome.winner, outcome.reason) {
        (Some(w), EndReason::Checkmate) => format!("{} wins by checkmate.", title(w)),
        (Some(w), EndReason::NoLegalMoves) => {
            format!("{} wins: {} has no legal move.", title(w), title(!w))
        }
        (Some(w), EndReason::KingCaptured) => {
            format!("{} wins: {}'s king was captured.", title(w), title(!w))
        }
        (Some(w), EndReason::LastRankReached) => format!(
            "{} wins: a {} pawn reached the last rank.",
            title(w),
            lower(w)
        ),
        (Some(w), EndReason::AllPawnsCaptured) => {
            format!("{} wins: every {} pawn was captured.", title(w), lower(!w))
        }
        (Some(w), EndReason::PerpetualCheck) => {
            format!("{} wins: {} gave perpetual check.", title(w), title(!w))
        }
        (Some(w), EndReason::Resignation) => {
            format!("{} wins: {} resigned.", title(w), title(!w))
        }
        (Some(w), EndReason::Repetition) => format!(
            "{} wins: fourfold repetition (sennichite) loses for {}.",
            title(w),
            title(!w)
        ),
        (Some(w), EndReason::Impasse) => {
            format!("{} wins by impasse declaration.", title(w))
        }
        (Some(w), EndReason::IllegalMove) => {
            format!("{} wins: {} made an illegal move.", title(w), title(!w))
        }
        (Some(w), EndReason::Timeout) => {
            format!("{} wins: {} ran out of time.", title(w), title(!w))
        }
        (Some(w), reason) => format!("{} wins ({reason}).", title(w)),
        (None, EndReason::Stalemate) => {
            format!("Draw by stalemate: {} has no legal move.", title(to_move))
        }
        (None, EndReason::Repetition) => "Draw by fourfold repetition (sennichite).".into(),
        (None, EndReason::Impasse) => "Draw by impasse (jishogi).".into(),
        (None, EndReason::Abandoned) => "The game was abandoned.".into(),
        (None, reason) => format!("Draw ({reason})."),
    }
}

/// Who plays the other side of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Opponent {
    /// A person at this screen (or anywhere with the game's address).
    Human,
    /// The computer, at `level`, playing `color` (the side's name): Koma's
    /// own engine, or the registered engine `engine`.
    Computer {
        /// How Koma's engine plays (a registered engine plays at its own
        /// strength, and this stays 20).
        level: Level,
        /// The computer's side, as [`color_name`] writes it.
        color: String,
        /// A registered engine's name (`koma serve --engine`); Koma's own
        /// when absent, as in every game kept before engines could be
        /// registered.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        engine: Option<String>,
    },
}

/// How the computer plays: Koma's engine at a strength, or (Pawns-Only
/// Chess) the perfect player. Kept and sent as the number or `"perfect"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Level {
    /// The engine at a strength from 1 (weakest) to 20.
    Strength(u8),
    /// The solver's moves: never lets a win go, never loses a draw,
    /// resists longest when lost.
    Perfect(PerfectTag),
}

/// The word `"perfect"`, the one non-number level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PerfectTag {
    /// `"perfect"`.
    Perfect,
}

impl Level {
    /// The perfect player.
    pub const PERFECT: Level = Level::Perfect(PerfectTag::Perfect);
}

/// Serde for [`Variant`] by its name (`"spear"`, ...).
pub mod variant_serde {
    use koma_rules::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the name.
    pub fn serialize<S: Serializer>(variant: &Variant, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(variant.name())
    }

    /// Reads a name.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Variant, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Serde for an optional impasse rule, written as its points: `"27"`.
pub mod impasse_serde {
    use koma_rules::ImpasseRule;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `"27"` or `"24"`, or null.
    pub fn serialize<S: Serializer>(
        rule: &Option<ImpasseRule>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match rule {
            Some(rule) => serializer.collect_str(rule),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `"27"` or `"24"`, or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<ImpasseRule>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|text| text.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_as_who_moves_first() {
        assert_eq!(parse_color(Variant::Spear, "black"), Some(Color::Sente));
        assert_eq!(parse_color(Variant::Pawns, "white"), Some(Color::Sente));
        assert_eq!(parse_color(Variant::Pawns, "gote"), Some(Color::Gote));
        assert_eq!(parse_color(Variant::Shogi, "purple"), None);
        assert_eq!(color_name(Variant::Pawns, Color::Gote), "black");
    }

    #[test]
    fn a_level_is_kept_as_its_number_or_perfect() {
        let perfect = Opponent::Computer {
            level: Level::PERFECT,
            color: "black".into(),
            engine: None,
        };
        let text = serde_json::to_string(&perfect).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"computer","level":"perfect","color":"black"}"#
        );
        assert_eq!(serde_json::from_str::<Opponent>(&text).unwrap(), perfect);
        // Games kept before "perfect" existed read as they were.
        let kept = r#"{"kind":"computer","level":7,"color":"gote"}"#;
        let Opponent::Computer { level, .. } = serde_json::from_str(kept).unwrap() else {
            panic!("a computer opponent");
        };
        assert_eq!(level, Level::Strength(7));
        assert!(serde_json::from_str::<Level>(r#""perfection""#).is_err());
    }

    #[test]
    fn every_reason_reads_back() {
        for reason in [
            EndReason::Checkmate,
            EndReason::KingCaptured,
            EndReason::Abandoned,
        ] {
            assert_eq!(parse_reason(reason_word(reason)), Some(reason));
        }
    }

    #[test]
    fn messages_name_the_winner_and_why() {
        let spear = outcome_message(
            Variant::Spear,
            Outcome::win(Color::Gote, EndReason::KingCaptured),
            Color::Sente,
        );
        assert_eq!(spear, "White wins: Black's king was captured.");
        let pawns = outcome_message(
            Variant::Pawns,
            Outcome::win(Color::Sente, EndReason::LastRankReached),
            Color::Gote,
        );
        assert_eq!(pawns, "White wins: a white pawn reached the last rank.");
    }
}
