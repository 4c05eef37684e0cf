//! The koma binary's tests: each program run as a person or a script runs
//! it (consoles, records, the engine's protocol, matches, mate, training,
//! the server's process), and the workspace's layout.
//!
//! One test binary, a module per concern: each file of `tests/` would
//! be a binary of its own, compiled and linked apart, and those were
//! most of the tests' build time.

mod analyze_command;
mod command_line;
mod common;
mod console_computer;
mod convert;
mod engine_protocol;
mod golden;
mod load_tool;
mod match_runner;
mod mate_command;
mod positions;
mod record_console;
mod selfplay_command;
#[path = "common/serve_client.rs"]
mod serve_client;
mod serve_damage;
mod serve_engines;
mod serve_process;
mod solve_pawns;
mod spear_random;
mod terminal;
mod train_command;
mod worker_https;
mod worker_process;
mod workspace_layout;
