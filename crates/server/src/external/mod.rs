//! Engines people register beside Koma's own (`koma serve --engine
//! NAME=COMMAND`, `--engines-file FILE`): any program that speaks USI (or
//! UCI for Pawns-Only Chess), YaneuraOu with the network of one's choice,
//! Fairy-Stockfish, Koma itself. `registry` reads them; `pool` keeps their
//! processes warm between jobs and replaces one that dies. The board's
//! analysis runs on them through `study::analysis`, under the same bounded
//! pool of permits as Koma's own analyses, each process taking as many as
//! its `Threads`.

pub(crate) mod pool;
pub(crate) mod registry;
