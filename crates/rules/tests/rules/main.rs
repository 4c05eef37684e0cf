//! The rules' tests: edge cases, perft, properties against a reference,
//! setups and notations.
//!
//! One test binary, a module per concern: each file of `tests/` would
//! be a binary of its own, compiled and linked apart, and those were
//! most of the tests' build time.

mod attackers;
mod captures;
mod edge_cases;
mod fuzz_notation;
mod gives_check;
mod is_legal;
mod mate_one;
mod perft;
mod properties;
mod reference;
mod setup;
