//! Koma's record readers and writers checked against independent ones from
//! crates.io (dev-dependencies, see Cargo.toml):
//!
//! - rsshogi: CSA, USI `position`, KIF and KI2 readers and writers, and its
//!   own move generator to play random games in its own types;
//! - nozaq's `csa`: a nom CSA V2.2 parser and writer, read here through a
//!   small board tracker that turns its moves into USI;
//! - shogi-kifu-converter: CSA (through `csa`, plus its own replay), KIF
//!   and KI2 readers; CSA, KIF and (through shogi_core) USI writers;
//! - haitaka: SFEN and USI moves, with its own legality check.
//!
//! 1. What Koma writes (random legal games: CSA, USI, KIF), the others
//!    read as the same game. 2. What the others write (their own random
//!    games, or their reading of real records), Koma reads as the same
//!    game. 3. The real records read the same everywhere. 4. KIF and
//!    KI2 likewise. Moves are compared as USI strings, start positions as
//!    the first three SFEN fields (CSA has no move number), endings by kind
//!    and winner. Where another crate is wrong, a constant names the file
//!    and says why.
//!
//! One file to each of 1.-4., and one to each other crate's side
//! ([`rs`], [`nozaq`], [`skc`]); [`games`] has Koma's random games and how
//! games are compared, [`testdata`] the real records of `testdata/records`.

mod games;
mod nozaq;
mod rs;
mod skc;
mod testdata;

mod kif_and_ki2;
mod koma_writes;
mod others_write;
mod real_records;
