//! Runs code generic over [`Position`](crate::Position) for a game chosen at run time.

/// `with_position!(variant, P => expression)` evaluates `expression` with `P`
/// bound to the position type of `variant`.
///
/// ```
/// use koma_rules::{with_position, Position, Variant};
///
/// let variant: Variant = "minishogi".parse().unwrap();
/// let moves = with_position!(variant, P => P::start().legal_moves().len());
/// assert_eq!(moves, 14);
/// ```
#[macro_export]
macro_rules! with_position {
    ($variant:expr, $p:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Spear => {
                type $p = $crate::SpearPosition;
                $body
            }
            $crate::Variant::Minishogi => {
                type $p = $crate::MinishogiPosition;
                $body
            }
            $crate::Variant::Shogi => {
                type $p = $crate::StandardShogiPosition;
                $body
            }
            $crate::Variant::Pawns => {
                type $p = $crate::PawnsPosition;
                $body
            }
        }
    };
}
