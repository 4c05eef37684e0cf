//! The computer opponent of the board: `computer` picks its move (Koma's
//! engine at the level chosen, or `perfect`, Pawns-Only Chess's perfect
//! player), and `computer_pool` bounds how many of its searches think at
//! once, on threads of their own below the requests' priority.

pub(crate) mod computer;
pub(crate) mod computer_pool;
mod external;
mod perfect;
