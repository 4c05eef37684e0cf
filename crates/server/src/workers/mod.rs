//! Game reviews, mate searches and analyses done by workers on other
//! machines (`koma worker`, `docs/WORKERS.md`): with `koma serve
//! --worker-keys FILE`, a review or a mate search asked for on the board
//! (and an analysis when the server's engines are busy) becomes a job
//! in a queue (`queue`: in memory, in the
//! SQLite games file or in PostgreSQL), which workers holding a key
//! (`keys`) take over HTTP under a lease, report progress on (`progress`
//! relays it to the board) and send the result of, checked (`check`,
//! `check_mate`, `check_analysis`) before it is kept as a local review is
//! (`service`), handed to the request waiting for the mate search
//! (`mate_jobs`), or relayed to the analysis's viewer
//! (`study::worker_analysis`). The server's own
//! engines take jobs too (`local`), unless `--analysis-engines 0`.
//! `protocol` and `run` are public: `koma worker` speaks the one and does
//! its jobs with the other.

pub(crate) mod check;
pub(crate) mod check_analysis;
pub(crate) mod check_mate;
pub(crate) mod keys;
pub(crate) mod local;
pub(crate) mod mate_jobs;
pub(crate) mod memory_jobs;
pub(crate) mod postgres_jobs;
pub(crate) mod progress;
pub mod protocol;
pub(crate) mod queue;
pub mod run;
pub(crate) mod service;
pub(crate) mod sqlite_jobs;
