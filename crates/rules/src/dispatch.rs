//! Runs code generic over [`Position`](crate::Position) for a game chosen at
//! run time, and holds values of any game: the one way Koma dispatches on
//! the game.

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

/// `with_shogi_game!(variant, V => expression, pawns => otherwise)`
/// evaluates `expression` with `V` bound to the [`ShogiVariant`] of a game
/// with kings and hands (Spear, minishogi, shogi), and `otherwise` for
/// Pawns-Only Chess, which has neither.
///
/// [`ShogiVariant`]: crate::ShogiVariant
///
/// ```
/// use koma_rules::{with_shogi_game, Position, ShogiPosition, Variant};
///
/// let start_length = |variant: Variant| {
///     with_shogi_game!(variant,
///         V => Some(ShogiPosition::<V>::start().to_text().len()),
///         pawns => None)
/// };
/// assert!(start_length(Variant::Shogi).is_some());
/// assert_eq!(start_length(Variant::Pawns), None);
/// ```
#[macro_export]
macro_rules! with_shogi_game {
    ($variant:expr, $v:ident => $body:expr, pawns => $pawns:expr) => {
        match $variant {
            $crate::Variant::Spear => {
                type $v = $crate::Spear;
                $body
            }
            $crate::Variant::Minishogi => {
                type $v = $crate::Minishogi;
                $body
            }
            $crate::Variant::Shogi => {
                type $v = $crate::Shogi;
                $body
            }
            $crate::Variant::Pawns => $pawns,
        }
    };
}

/// `game_enum! { /// docs  pub enum Name of Wrapper; }` defines `Name`, one
/// case per game (`Spear`, `Minishogi`, `Shogi`, `Pawns`) holding
/// `Wrapper<P>` for that game's position type `P`, with `Name::variant`,
/// `Name::wrap` and `Name::into_inner`. [`each_game!`] runs code on whichever
/// case a value is.
///
/// ```
/// use koma_rules::{each_game, game_enum, Position, SpearPosition, Variant};
///
/// /// A position with a note.
/// #[derive(Clone, Debug)]
/// pub struct Noted<P> {
///     position: P,
///     note: &'static str,
/// }
///
/// game_enum! {
///     /// A noted position of any game.
///     #[derive(Clone, Debug)]
///     pub enum AnyNoted of Noted;
/// }
///
/// let noted = AnyNoted::wrap(Noted { position: SpearPosition::start(), note: "start" });
/// assert_eq!(noted.variant(), Variant::Spear);
/// let start_moves = SpearPosition::start().legal_moves().len();
/// assert_eq!(each_game!(AnyNoted, &noted, n => n.position.legal_moves().len()), start_moves);
/// assert!(noted.clone().into_inner::<SpearPosition>().is_some());
/// assert!(noted.into_inner::<koma_rules::PawnsPosition>().is_none());
/// ```
#[macro_export]
macro_rules! game_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident of $wrapper:ident;) => {
        $(#[$meta])*
        $vis enum $name {
            /// Spear Shogi.
            Spear($wrapper<$crate::SpearPosition>),
            /// Minishogi.
            Minishogi($wrapper<$crate::MinishogiPosition>),
            /// Shogi.
            Shogi($wrapper<$crate::StandardShogiPosition>),
            /// Pawns-Only Chess.
            Pawns($wrapper<$crate::PawnsPosition>),
        }

        impl $name {
            /// `inner`, of the game `P`, in the case that names its game.
            $vis fn wrap<P: $crate::Position>(inner: $wrapper<P>) -> $name {
                let boxed: ::std::boxed::Box<dyn ::std::any::Any> = ::std::boxed::Box::new(inner);
                // P::VARIANT names P's type: each downcast is to P itself.
                let wrong = "a position type's VARIANT names its type";
                match P::VARIANT {
                    $crate::Variant::Spear => $name::Spear(*boxed.downcast().expect(wrong)),
                    $crate::Variant::Minishogi => {
                        $name::Minishogi(*boxed.downcast().expect(wrong))
                    }
                    $crate::Variant::Shogi => $name::Shogi(*boxed.downcast().expect(wrong)),
                    $crate::Variant::Pawns => $name::Pawns(*boxed.downcast().expect(wrong)),
                }
            }

            /// What is inside, if it is of the game `P`.
            $vis fn into_inner<P: $crate::Position>(self) -> ::std::option::Option<$wrapper<P>> {
                let boxed: ::std::boxed::Box<dyn ::std::any::Any> =
                    $crate::each_game!($name, self, inner => ::std::boxed::Box::new(inner));
                boxed.downcast::<$wrapper<P>>().ok().map(|inner| *inner)
            }

            /// The game.
            $vis fn variant(&self) -> $crate::Variant {
                match self {
                    $name::Spear(_) => $crate::Variant::Spear,
                    $name::Minishogi(_) => $crate::Variant::Minishogi,
                    $name::Shogi(_) => $crate::Variant::Shogi,
                    $name::Pawns(_) => $crate::Variant::Pawns,
                }
            }
        }
    };
}

/// `each_game!(Name, value, inner => expression)` evaluates `expression`
/// with `inner` bound to what the [`game_enum!`] `value` holds, whatever
/// its game.
#[macro_export]
macro_rules! each_game {
    ($name:ident, $value:expr, $inner:ident => $body:expr) => {
        match $value {
            $name::Spear($inner) => $body,
            $name::Minishogi($inner) => $body,
            $name::Shogi($inner) => $body,
            $name::Pawns($inner) => $body,
        }
    };
}

/// `each_shogi_game!(Name, value, inner => expression, pawns => otherwise)`:
/// [`each_game!`] for code that only the games with kings and hands
/// (Spear, minishogi, shogi) can run; `otherwise` stands for Pawns-Only
/// Chess.
#[macro_export]
macro_rules! each_shogi_game {
    ($name:ident, $value:expr, $inner:ident => $body:expr, pawns => $pawns:expr) => {
        match $value {
            $name::Spear($inner) => $body,
            $name::Minishogi($inner) => $body,
            $name::Shogi($inner) => $body,
            $name::Pawns(_) => $pawns,
        }
    };
}
