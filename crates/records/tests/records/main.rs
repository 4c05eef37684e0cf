//! Koma's record tests: readers and writers, round trips, real records,
//! notations.
//!
//! One test binary, a module per concern: each file of `tests/` would be a
//! binary of its own, compiled and linked apart, and those were most of the
//! tests' build time.

mod common;
mod cross_check;
mod errors;
mod handicap_round_trips;
mod kif_round_trips;
mod notation_table;
mod pgn;
mod real_csa_records;
mod real_kif_records;
mod record_text;
mod round_trips;
