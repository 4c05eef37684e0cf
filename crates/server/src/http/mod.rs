//! The server's edge: what arrives over the network and how it is
//! answered. `network` accepts connections within their caps
//! (`connections`) and timeouts (`idle_io`), `client` says who a client is
//! and `rate` how fast it may go; `api` is the HTTP routes and `ws` the
//! WebSocket (its frames and closings by hand in `ws_protocol`), both
//! reading the changes players send as `requests` and refusing bad JSON
//! alike (`json_errors`); `app` is what their handlers share, and `assets`
//! the page; `worker_routes` are the workers' API (`--worker-keys`), whose
//! bodies are read as the API's are (`bodies`). Nothing here decides a
//! game: that is `games`.

pub(crate) mod api;
pub(crate) mod app;
mod assets;
mod bodies;
pub(crate) mod client;
pub(crate) mod connections;
mod idle_io;
mod json_errors;
pub(crate) mod network;
pub(crate) mod rate;
pub(crate) mod requests;
mod worker_routes;
mod ws;
mod ws_protocol;
