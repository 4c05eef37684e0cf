//! The mate solver's tests: the problem suite of data/tsume.txt and the
//! tsume records of testdata/records.
//!
//! One test binary, a module per concern: each file of `tests/` would
//! be a binary of its own, compiled and linked apart, and those were
//! most of the tests' build time.

mod real_tsume_records;
mod suite;
