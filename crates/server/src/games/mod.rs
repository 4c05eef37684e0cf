//! The games themselves, apart from HTTP: `service` creates, imports,
//! changes and exports them (the `Games` every handler holds), `turns` is
//! what players do to one (moves, takebacks, impasse, resignation) for the
//! seat whose token came with it (`seats`), `background` what happens
//! without a request (watchers told of changes, flags falling, the
//! computer's turn), `clock` their time controls, `live` a game of any of
//! the four kinds replayed from its stored form, `state` and
//! `stored_state` the JSON answers, `names` the API's words, `refusal` a
//! request refused with its reason; `details`, `record_notes`, `rematch`
//! (kept as `rematch_record`) and `game_id` complete a game's record;
//! `csa_games` makes the games of the CSA server.

mod background;
pub(crate) mod clock;
mod csa_games;
pub(crate) mod details;
pub(crate) mod game_id;
pub(crate) mod live;
pub(crate) mod names;
pub(crate) mod record_notes;
pub(crate) mod refusal;
pub(crate) mod rematch;
pub(crate) mod rematch_record;
pub(crate) mod seats;
pub(crate) mod service;
pub(crate) mod state;
mod stored_state;
mod turns;
