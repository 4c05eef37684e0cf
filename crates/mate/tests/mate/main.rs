//! The mate solver's tests: the problem suite of data/tsume.txt, the
//! tsume records of testdata/records, and mate lines played out to
//! checkmate (data/interpositions.txt).
//!
//! One test binary, a module per concern: each file of `tests/` would
//! be a binary of its own, compiled and linked apart, and those were
//! most of the tests' build time.

mod checkmate_lines;
mod real_tsume_records;
mod repetitions;
mod suite;
