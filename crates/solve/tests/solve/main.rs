//! The solver's tests: certificates, compact tables, and a solve's state on
//! disk.
//!
//! One test binary, a module per concern: each file of `tests/` would
//! be a binary of its own, compiled and linked apart, and those were
//! most of the tests' build time.

mod certificates;
mod compact;
mod state;
