//! The server's tests, in one test program (each file of `tests/` would be
//! a program of its own, compiled and linked apart). Every server runs
//! inside this process (`common::server`): HTTP requests go straight to
//! its router, WebSockets and hostile connections through a free port of
//! loopback. What needs a `koma` process of its own (`kill -9`, signals,
//! what it prints, its threads) is crates/koma/tests/koma/serve_process.rs.

mod common;

mod analysis;
mod api;
mod clocks;
mod computer;
mod csa;
mod csa_client;
mod csa_endings;
mod csa_handicap;
mod csa_lobby;
mod external_engines;
mod external_opponent;
mod flooding;
mod hostile_clients;
mod memory;
mod persistence;
mod postgres;
mod record_text;
mod records;
mod refusals;
mod review;
mod seats;
mod worker_analyses;
mod worker_mates;
mod workers;
