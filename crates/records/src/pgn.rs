//! PGN for Pawns-Only Chess (work in progress).
