//! The engine's tests: the search on known positions, with a network, and
//! beside the mate solver.
//!
//! One test binary, a module per concern: each file of `tests/` would
//! be a binary of its own, compiled and linked apart, and those were
//! most of the tests' build time.

mod mate_solver;
mod network;
mod search;
