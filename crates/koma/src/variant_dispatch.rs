//! Runs code generic over [`koma_rules::Position`] for a game chosen at run time.

/// `with_position!(variant, P => expression)` evaluates `expression` with `P`
/// bound to the position type of `variant`.
macro_rules! with_position {
    ($variant:expr, $p:ident => $body:expr) => {
        match $variant {
            koma_rules::Variant::Spear => {
                type $p = koma_rules::SpearPosition;
                $body
            }
            koma_rules::Variant::Minishogi => {
                type $p = koma_rules::MinishogiPosition;
                $body
            }
            koma_rules::Variant::Shogi => {
                type $p = koma_rules::StandardShogiPosition;
                $body
            }
            koma_rules::Variant::Pawns => {
                type $p = koma_rules::PawnsPosition;
                $body
            }
        }
    };
}

pub(crate) use with_position;
