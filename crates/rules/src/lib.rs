//! The rules of Koma's games: Spear Shogi, shogi, minishogi and Pawns-Only
//! Chess. Pure: no I/O.
//!
//! # A short tour
//!
//! Every game implements [`Position`]: parse a position from its notation
//! (SFEN or FEN), list legal moves, play them, ask whether the game is over.
//! The shogi-like games share one generic [`ShogiPosition`], parameterised by
//! a game marker ([`Spear`], [`Minishogi`], [`Shogi`]) whose [`Spec`] holds
//! what is data (board size, pieces and how they move, promotion zone) and
//! whose own module holds what is genuinely different code (Spear has no
//! check and ends when a king is captured). [`PawnsPosition`] is Pawns-Only
//! Chess. [`Game`] adds history, undo, repetition and results.
//!
//! ```
//! use koma_rules::{Game, Position, ShogiPosition, Spear};
//!
//! let mut game = Game::new(ShogiPosition::<Spear>::start());
//! game.play_text("5d5c").unwrap();
//! assert_eq!(game.position().to_text(), "lbsgk/4p/P4/5/KGSBL w - 2");
//! game.undo();
//! assert_eq!(game.position().perft(3), 2887);
//! ```
//!
//! Every board lives on one 9×9 grid of [`Square`]s stored in a `u128`
//! [`Bitboard`]; the 5×5 and 8×8 boards are masks of it.
#![warn(missing_docs)]

mod attacks;
mod bitboard;
mod checks;
mod color;
mod declaration;
mod dispatch;
mod game;
mod handicap;
mod impasse;
mod mate_one;
mod movegen;
mod moves;
mod outcome;
pub mod pawns;
pub mod pawns_board;
mod pawns_fen;
mod position;
mod position_error;
mod role;
mod seed_notation;
mod setup;
mod sfen;
mod sfen_error;
mod shogi_position;
mod spec;
mod square;
mod usi;
mod variant;
mod variants;
mod zobrist;

pub use attacks::{attacks, between, line, Movement};
pub use bitboard::{Bitboard, Squares};
pub use checks::CheckSquares;
pub use color::Color;
pub use declaration::{Declaration, ImpasseRule, Shortfall, UnknownImpasseRule};
pub use game::{Game, GameError};
pub use handicap::{Handicap, UnknownHandicap};
pub use impasse::ImpasseCount;
pub use moves::{Move, MoveList, MoveSet, MAX_MOVES};
pub use outcome::{EndReason, Outcome};
pub use pawns::{FenError, PawnsPosition, UciMoveError};
pub use position::{IllegalMove, IllegalReason, MoveError, Position};
pub use position_error::PositionError;
pub use role::{Piece, Role};
pub use seed_notation::{seed_letter, seed_move, seed_square, SeedMoveError};
pub use setup::{SetupError, SetupProblem};
pub use sfen::{parse_sfen, parse_sfen_unchecked, write_sfen};
pub use sfen_error::{SfenError, SfenSyntaxError};
pub use shogi_position::{Hand, ShogiPosition, ShogiVariant};
pub use spec::{PromotionRule, Spec};
pub use square::{ParseSquareError, Square};
pub use usi::{parse_usi_move, write_usi_move, UsiMoveError};
pub use variant::{UnknownVariant, Variant};
pub use variants::{Minishogi, Shogi, Spear};

/// Spear Shogi positions.
pub type SpearPosition = ShogiPosition<Spear>;
/// Minishogi positions.
pub type MinishogiPosition = ShogiPosition<Minishogi>;
/// Standard shogi positions.
pub type StandardShogiPosition = ShogiPosition<Shogi>;
