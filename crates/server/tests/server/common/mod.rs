//! What the server's tests share: `server` (a server in the test's own
//! process, spoken to through blocking calls), `client` (its answers,
//! the seat tokens of the games created and the WebSocket helpers),
//! `files` (temporary folders and the workspace's real records),
//! `postgres` (a database of its own for each PostgreSQL test) and `raw`
//! (the hand-made HTTP and frames of a hostile client).

// Each test module uses a part of these.
#![allow(dead_code, unused_imports)]

pub mod client;
pub mod files;
pub mod postgres;
pub mod raw;
pub mod server;

pub use client::{next_of, receive, send, send_json, token, usi_list, Client, Reply};
pub use files::TempDir;
pub use server::{start, start_with, try_start_with, Server};
