//! Impasse (入玉宣言): when both kings have entered the enemy camp and
//! neither can be mated, the side to move may declare, and the points it
//! holds decide the game.
//!
//! A declaration is judged for the side to move: its king stands in the
//! enemy camp (the three far ranks), at least ten of its other pieces stand
//! there, it is not in check, and it holds enough points, counting the
//! pieces in the camp and in hand (rook and bishop, promoted or not, 5
//! each; every other piece 1; the king nothing).
//!
//! - The **27-point rule** ([`ImpasseRule::TwentySeven`], CSA and USI's
//!   `bestmove win`): 28 points for Sente, 27 for Gote, win; fewer, the
//!   declaration is invalid.
//! - The **24-point rule** ([`ImpasseRule::TwentyFour`], the JSA's rule for
//!   amateur play): 31 points or more win, 24 to 30 draw; fewer, the
//!   declaration is invalid.
//!
//! Only standard shogi has the rule: the 5×5 games have no impasse.

use crate::declaration::{Declaration, ImpasseRule, Shortfall};
use crate::{Color, Role, ShogiPosition, ShogiVariant, Variant};

/// What counts for a declaration, for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImpasseCount {
    /// Whether the side's king stands in the enemy camp.
    pub king_in_camp: bool,
    /// The side's other pieces in the enemy camp.
    pub pieces_in_camp: u32,
    /// Points in the camp and in hand.
    pub points: u32,
}

/// A piece's points: rook and bishop (promoted or not) 5, others 1.
const fn points_of(role: Role) -> u32 {
    match role.unpromoted() {
        Role::Rook | Role::Bishop => 5,
        Role::King => 0,
        _ => 1,
    }
}

impl<V: ShogiVariant> ShogiPosition<V> {
    /// The king, pieces and points `color` would declare with.
    ///
    /// ```
    /// use koma_rules::{Color, ImpasseCount, Position, StandardShogiPosition};
    ///
    /// let start = StandardShogiPosition::start();
    /// assert_eq!(
    ///     start.impasse_count(Color::Sente),
    ///     ImpasseCount { king_in_camp: false, pieces_in_camp: 0, points: 0 }
    /// );
    /// ```
    pub fn impasse_count(&self, color: Color) -> ImpasseCount {
        let camp = V::SPEC.zone(color);
        let mut pieces_in_camp = 0;
        let mut points = 0;
        for square in self.by_color(color).intersect(camp).iter() {
            let role = self.piece_at(square).map(|p| p.role);
            if let Some(role) = role.filter(|r| *r != Role::King) {
                pieces_in_camp += 1;
                points += points_of(role);
            }
        }
        for (role, count) in self.hand(color).iter() {
            points += points_of(role) * u32::from(count);
        }
        ImpasseCount {
            king_in_camp: self.king(color).is_some_and(|king| camp.contains(king)),
            pieces_in_camp,
            points,
        }
    }

    /// What a declaration by the side to move would give under `rule`.
    ///
    /// ```
    /// use koma_rules::{Declaration, ImpasseRule, Position, Shortfall, StandardShogiPosition};
    ///
    /// // Sente's king and 11 pieces in Gote's camp: 19 points there, 9 in hand.
    /// let entered = StandardShogiPosition::from_text(
    ///     "+R+B+S+SKGG+N+N/+L+L5P1/9/9/9/9/9/9/k8 b R4P 1").unwrap();
    /// assert_eq!(entered.impasse_declaration(ImpasseRule::TwentySeven), Declaration::Win);
    /// assert_eq!(entered.impasse_declaration(ImpasseRule::TwentyFour), Declaration::Draw);
    /// let start = StandardShogiPosition::start();
    /// assert_eq!(
    ///     start.impasse_declaration(ImpasseRule::TwentySeven),
    ///     Declaration::Invalid(Shortfall::KingOutsideCamp)
    /// );
    /// ```
    pub fn impasse_declaration(&self, rule: ImpasseRule) -> Declaration {
        if V::VARIANT != Variant::Shogi {
            return Declaration::Invalid(Shortfall::NoRule);
        }
        // The king's square first: the search asks at every node, and
        // almost always the answer is no.
        let turn = self.turn();
        let camp = V::SPEC.zone(turn);
        if !self.king(turn).is_some_and(|king| camp.contains(king)) {
            return Declaration::Invalid(Shortfall::KingOutsideCamp);
        }
        if self.checkers().any() {
            return Declaration::Invalid(Shortfall::InCheck);
        }
        let count = self.impasse_count(turn);
        if count.pieces_in_camp < 10 {
            return Declaration::Invalid(Shortfall::FewPieces {
                in_camp: count.pieces_in_camp,
            });
        }
        let short = |needed| {
            Declaration::Invalid(Shortfall::FewPoints {
                points: count.points,
                needed,
            })
        };
        match rule {
            ImpasseRule::TwentySeven => {
                let needed = turn.select(28, 27);
                if count.points >= needed {
                    Declaration::Win
                } else {
                    short(needed)
                }
            }
            ImpasseRule::TwentyFour => match count.points {
                31.. => Declaration::Win,
                24..=30 => Declaration::Draw,
                _ => short(24),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MinishogiPosition, Position, StandardShogiPosition};

    fn position(sfen: &str) -> StandardShogiPosition {
        StandardShogiPosition::from_text(sfen).unwrap()
    }

    #[test]
    fn counts_follow_the_rule() {
        // Sente: king on 5a and ten pieces in the camp (dragon and horse 5
        // each, eight others 1), 18 points there; the hand as given.
        let board = "+R+BSSKGG+N+N/LL7/9/9/9/9/9/9/k8";
        let with_hand = |hand: &str, turn: &str| position(&format!("{board} {turn} {hand} 1"));
        assert_eq!(
            with_hand("-", "b").impasse_count(Color::Sente),
            ImpasseCount {
                king_in_camp: true,
                pieces_in_camp: 10,
                points: 18
            }
        );
        let at = |hand: &str, rule| with_hand(hand, "b").impasse_declaration(rule);
        assert_eq!(
            at("R4P", ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::FewPoints {
                points: 27,
                needed: 28
            })
        );
        assert_eq!(at("R5P", ImpasseRule::TwentySeven), Declaration::Win);
        assert_eq!(at("R5P", ImpasseRule::TwentyFour), Declaration::Draw);
        assert_eq!(at("RP", ImpasseRule::TwentyFour), Declaration::Draw);
        assert_eq!(
            at("R", ImpasseRule::TwentyFour),
            Declaration::Invalid(Shortfall::FewPoints {
                points: 23,
                needed: 24
            })
        );
        assert_eq!(at("RB3P", ImpasseRule::TwentyFour), Declaration::Win);
        assert_eq!(
            at("P", ImpasseRule::TwentyFour),
            Declaration::Invalid(Shortfall::FewPoints {
                points: 19,
                needed: 24
            })
        );
        // Gote's king stands in its enemy camp (rank i) but alone.
        assert_eq!(
            with_hand("-", "w").impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::FewPieces { in_camp: 0 })
        );
    }

    #[test]
    fn gote_needs_27_and_sente_28() {
        // Gote: king on 5i, ten pieces on ranks g and h, 18 points there
        // and 9 in hand.
        let gote = position("K8/9/9/9/9/9/ll7/+r+bssgg+n+n1/4k4 w r4p 1");
        assert_eq!(
            gote.impasse_count(Color::Gote),
            ImpasseCount {
                king_in_camp: true,
                pieces_in_camp: 10,
                points: 27
            }
        );
        assert_eq!(
            gote.impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Win
        );
        let nine = position("K8/9/9/9/9/9/l8/+r+bssgg+n+n1/4k4 w r4p 1");
        assert_eq!(
            nine.impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::FewPieces { in_camp: 9 })
        );
        let outside = position("K8/9/9/9/9/4k4/ll7/+r+bssgg+n+n1/9 w r4p 1");
        assert_eq!(
            outside.impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::KingOutsideCamp)
        );
        // The same count for Sente, mirrored: 27 points are not enough.
        let sente = position("4K4/1+N+NGGSS+B+R/7LL/9/9/9/9/9/8k b R4P 1");
        assert_eq!(sente.impasse_count(Color::Sente).points, 27);
        assert_eq!(
            sente.impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::FewPoints {
                points: 27,
                needed: 28
            })
        );
    }

    #[test]
    fn check_forbids_and_small_games_have_no_rule() {
        // Enough of everything, but Gote's rook on 5e checks the king on 5a.
        let checked = position("+R+BSSKGG+N+N/LL7/9/9/4r4/9/9/9/k8 b B5P 1");
        assert!(checked.is_check());
        assert_eq!(
            checked.impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::InCheck)
        );
        assert_eq!(
            MinishogiPosition::start().impasse_declaration(ImpasseRule::TwentySeven),
            Declaration::Invalid(Shortfall::NoRule)
        );
    }

    #[test]
    fn rules_are_read_by_number() {
        assert_eq!("27".parse(), Ok(ImpasseRule::TwentySeven));
        assert_eq!(" 24".parse(), Ok(ImpasseRule::TwentyFour));
        let unknown = "25".parse::<ImpasseRule>().unwrap_err();
        assert_eq!(unknown, crate::UnknownImpasseRule("25".into()));
        assert!(unknown.to_string().contains("27 or 24"));
        assert_eq!(ImpasseRule::default().to_string(), "27");
    }
}
