//! A registered engine as the computer opponent: its process lent from
//! the pool (kept to the game from move to move, at the computer
//! opponents' priority), the game sent from its start as `position …
//! moves …`, and `go` with the clocks as they stand, so that the engine
//! manages its own time as in any USI game (or a fixed time per move in
//! a game without a clock). Its answer is checked before it is played: a
//! move the rules refuse, or a false impasse declaration, loses the game
//! as it does on shogi-server; an engine that cannot start, or dies or
//! hangs twice, abandons it.

use crate::external::pool::{ExternalEngines, Job};
use crate::games::live::{AnyGame, Served};
use crate::games::service::{ClockNow, ComputerTurn, Reply};
use crate::priority::Work;
use koma_rules::{each_game, Declaration, Game};
use koma_usi::client::{position_command, BestMove, Engine, Failure};
use koma_usi::Dialect;
use std::sync::Arc;
use std::time::Duration;

/// Kept back from the engine's time for the way to the board and back.
const MARGIN: Duration = Duration::from_millis(300);
/// How long past its time an engine may answer before it is taken for
/// hung: past its time it has lost on the clock anyway, but a game
/// without a clock has only this.
const PATIENCE: Duration = Duration::from_secs(10);

/// Plays the computer's turn on the registered engine the turn names.
pub(super) fn pick(
    external: &Arc<ExternalEngines>,
    turn: &ComputerTurn<'_>,
    name: &str,
    think: Duration,
) -> Reply {
    let variant = turn.game.variant();
    let engine = match external.for_game(name, variant) {
        Ok(engine) => engine.clone(),
        // Registered when the game began, not since the server restarted.
        Err(sentence) => return Reply::Failed(sentence),
    };
    let game_id = turn.game_id.to_string();
    let job = Job {
        work: Work::Opponent,
        game: &game_id,
    };
    let mut failure = String::new();
    for _attempt in 0..2 {
        let mut lent = match external.lend(&engine, variant, job) {
            Ok(lent) => lent,
            Err(e) => return Reply::Failed(format!("the engine {name} cannot start: {e}")),
        };
        let answer = each_game!(AnyGame, turn.game, g => ask(g, lent.process(), turn, think));
        match answer {
            Ok(reply) => return named(reply, name),
            Err(e) => {
                // Dead or hung: killed, and the move asked once more of a
                // new process.
                failure = e.to_string();
                lent.broken();
            }
        }
    }
    Reply::Failed(format!("the engine {name} stopped answering ({failure})"))
}

/// `reply` with the engine's name in its sentence.
fn named(reply: Reply, name: &str) -> Reply {
    match reply {
        Reply::Illegal(what) => Reply::Illegal(format!("the engine {name} {what}")),
        other => other,
    }
}

/// Asks the engine for its move in `game` and checks it.
fn ask<P: Served>(
    game: &Game<P>,
    process: &mut Engine,
    turn: &ComputerTurn<'_>,
    think: Duration,
) -> Result<Reply, Failure> {
    let dialect = process.dialect();
    let position = position_command(game.start(), game.moves(), dialect);
    let (go, allowed) = match turn.clock {
        Some(clock) => clock_go(&clock, game.position().turn().index(), dialect),
        None => fixed_go(think, dialect),
    };
    let thought = process.think(&position, &go, allowed + PATIENCE)?;
    let now = game.position();
    Ok(match thought.best {
        BestMove::Move(text) => match now.parse_move(&text).ok().filter(|&m| now.is_legal(m)) {
            Some(m) => Reply::Move(P::move_to_text(m)),
            None => Reply::Illegal(format!(
                "played {:?}, not a legal move",
                text.chars().take(16).collect::<String>()
            )),
        },
        BestMove::Resign => Reply::Resign,
        BestMove::Win => match turn.impasse.map(|rule| game.impasse_declaration(rule)) {
            Some(Declaration::Win | Declaration::Draw) => Reply::Declare,
            _ => Reply::Illegal("declared impasse without the right to".to_owned()),
        },
        // An engine with no move has none: it is mated, or stalemated
        // where that loses. The game's rules have ended it already if so.
        BestMove::NoMove => Reply::Resign,
    })
}

/// `go` for a timed game: both sides' main time, and the byoyomi or the
/// increments, with [`MARGIN`] kept back from the engine's own (from its
/// byoyomi or increment first, then its main time); and how long the
/// move may take in all.
fn clock_go(clock: &ClockNow, turn: usize, dialect: Dialect) -> (String, Duration) {
    let margin = MARGIN.as_millis() as u64;
    let mut main = clock.main_ms;
    let (mut byoyomi, increment) = (clock.byoyomi_ms, clock.increment_ms);
    let extra = if increment > 0 { increment } else { byoyomi };
    let from_extra = margin.min(extra);
    main[turn] = main[turn].saturating_sub(margin - from_extra);
    let mut increments = [increment; 2];
    if increment > 0 {
        increments[turn] -= from_extra;
    } else {
        byoyomi -= from_extra;
    }
    let [first, second] = main;
    let go = match dialect {
        Dialect::Usi if increment > 0 => format!(
            "btime {first} wtime {second} binc {} winc {}",
            increments[0], increments[1]
        ),
        Dialect::Usi => format!("btime {first} wtime {second} byoyomi {byoyomi}"),
        // UCI's White moves first: its clock is the first mover's.
        Dialect::Uci => format!(
            "wtime {first} btime {second} winc {} binc {}",
            increments[0], increments[1]
        ),
    };
    let allowed = clock.main_ms[turn] + clock.byoyomi_ms + clock.increment_ms;
    (go, Duration::from_millis(allowed))
}

/// `go` for a game without a clock: `think` a move.
fn fixed_go(think: Duration, dialect: Dialect) -> (String, Duration) {
    let ms = think.as_millis();
    let go = match dialect {
        Dialect::Usi => format!("btime 0 wtime 0 byoyomi {ms}"),
        Dialect::Uci => format!("movetime {ms}"),
    };
    (go, think)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_comes_from_the_byoyomi_first_then_the_main_time() {
        let clock = ClockNow {
            main_ms: [60_000, 50_000],
            byoyomi_ms: 5_000,
            increment_ms: 0,
        };
        let (go, allowed) = clock_go(&clock, 1, Dialect::Usi);
        assert_eq!(go, "btime 60000 wtime 50000 byoyomi 4700");
        assert_eq!(allowed, Duration::from_millis(55_000));
        let sudden = ClockNow {
            byoyomi_ms: 100,
            ..clock
        };
        let (go, _) = clock_go(&sudden, 0, Dialect::Usi);
        assert_eq!(go, "btime 59800 wtime 50000 byoyomi 0");
    }

    #[test]
    fn fischer_clocks_give_increments_each_side_and_uci_names_white_first() {
        let clock = ClockNow {
            main_ms: [10_000, 9_000],
            byoyomi_ms: 0,
            increment_ms: 1_000,
        };
        let (go, _) = clock_go(&clock, 0, Dialect::Usi);
        assert_eq!(go, "btime 10000 wtime 9000 binc 700 winc 1000");
        let (go, _) = clock_go(&clock, 1, Dialect::Uci);
        assert_eq!(go, "wtime 10000 btime 9000 winc 1000 binc 700");
    }

    #[test]
    fn a_game_without_a_clock_gives_a_fixed_time() {
        let second = Duration::from_secs(1);
        assert_eq!(
            fixed_go(second, Dialect::Usi).0,
            "btime 0 wtime 0 byoyomi 1000"
        );
        assert_eq!(fixed_go(second, Dialect::Uci).0, "movetime 1000");
    }
}
