//! Why a record's start position is not one of its game: the rules' own
//! error, whichever game the record is of.

use koma_rules::{FenError, Position, SfenError};

/// Why a record's start position, written as its game's SFEN (or FEN for
/// Pawns-Only Chess), is not a position of the game: the rules' own error,
/// which tells a typo from an impossible position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartPositionError {
    /// A shogi game's SFEN.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// Pawns-Only Chess's FEN.
    #[error(transparent)]
    Fen(#[from] FenError),
}

impl StartPositionError {
    /// The error of `P::from_text`, whichever game `P` is: each game's
    /// position text is SFEN or FEN, so it is one of the two.
    pub(crate) fn of<P: Position>(error: P::SetupError) -> StartPositionError {
        let boxed: Box<dyn std::any::Any> = Box::new(error);
        match boxed.downcast::<SfenError>() {
            Ok(sfen) => StartPositionError::Sfen(*sfen),
            Err(other) => StartPositionError::Fen(
                *other
                    .downcast::<FenError>()
                    .expect("every game's position text is SFEN or FEN"),
            ),
        }
    }
}
