//! "Find mate" on the board: the mate solver (`koma-mate`) on a position
//! of a game, its answer with the line written for people, each step with
//! the position after it so the page can show it without changing the game.
//!
//! Mate search helps whoever asks, so it is only for positions where that
//! helps nobody against anybody: a game between people at one screen, or a
//! finished game (an imported record is one). Searches are bounded in time
//! and in number: beyond the server's count (`App::mate_searches`) they
//! wait their turn.

use crate::games::live::{AnyGame, Served};
use crate::games::names::Opponent;
use crate::games::refusal::Refusal;
use crate::games::seats::Mode;
use crate::games::state::MoveJson;
use axum::http::StatusCode;
use koma_mate::{MateAnswer, MateLimits, MateSearch, Solver};
use koma_rules::{each_shogi_game, Game, Position};
use serde::Serialize;
use std::time::Duration;

/// The longest a search may be asked to run.
pub const MAX_SECONDS: u64 = 30;
/// How long a search runs when the page does not say.
pub const DEFAULT_SECONDS: u64 = 10;
/// The solver's table, MiB.
const TABLE_MEGABYTES: usize = 64;

/// `GET /api/games/{id}/mate`: what the solver found.
#[derive(Clone, Debug, Serialize)]
pub struct MateJson {
    /// The move (ply) whose position was searched.
    pub ply: usize,
    /// The engine that searched: `"koma"` (Koma's own solver) or a
    /// registered one's name.
    pub engine: String,
    /// `"mate"`, `"nomate"` or `"unknown"` (the time ran out).
    pub answer: &'static str,
    /// A mate's length in plies as problems count it (useless
    /// interpositions not counted).
    pub length: u16,
    /// The mate line, each move as the game's moves are written (with the
    /// position after it), to checkmate on the board: longer than `length`
    /// by any useless interpositions and their captures; empty otherwise.
    pub line: Vec<MoveJson>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, milliseconds.
    pub milliseconds: u64,
}

/// Whether analysis and mate search may be asked for in this game now.
pub fn allowed(game: &AnyGame, mode: Mode, opponent: &Opponent) -> Result<(), Refusal> {
    let between_people_here = mode == Mode::Local && matches!(opponent, Opponent::Human);
    if game.outcome().is_some() || between_people_here {
        Ok(())
    } else {
        Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "Analysis and mate search are for finished games and games between people at \
             one screen: no help while an opponent cannot see it.",
        ))
    }
}

/// Searches the position after move `ply` of `game` for `seconds`.
pub fn find_mate(game: &AnyGame, ply: usize, seconds: u64) -> Result<MateJson, Refusal> {
    find_mate_within(game, ply, seconds, None)
}

/// Searches the position after move `ply` of `game` for `seconds`, and
/// at most `nodes` nodes if given: the board's search, and a worker's
/// mate search job (`workers/run.rs`).
pub fn find_mate_within(
    game: &AnyGame,
    ply: usize,
    seconds: u64,
    nodes: Option<u64>,
) -> Result<MateJson, Refusal> {
    let limits = MateLimits {
        time: Some(Duration::from_secs(seconds.clamp(1, MAX_SECONDS))),
        nodes,
        table_megabytes: TABLE_MEGABYTES,
        short_first: true,
    };
    each_shogi_game!(AnyGame, game, g => search(g, ply, &limits), pawns => Err(no_king()))
}

/// Pawns-Only Chess's refusal: no king, no mate.
pub(super) fn no_king() -> Refusal {
    Refusal::bad_request("Pawns-Only Chess has no king: there is no mate to find.")
}

/// The position after move `ply` of `game`, if it is one to search for
/// mate, whichever engine searches.
pub(super) fn searched<P: Served>(game: &Game<P>, ply: usize) -> Result<&P, Refusal> {
    let Some(root) = game.positions().get(ply) else {
        return Err(Refusal::bad_request(format!(
            "The game has no move {ply}: it has {}.",
            game.moves().len()
        )));
    };
    // Every position a game reaches passes the rules' check; one set up
    // otherwise (an editor's, without the defender's king) has nothing to
    // mate, and saying "no mate" would hide that.
    if let Err(error) = root.validate() {
        return Err(Refusal::bad_request(format!(
            "This position has no mate to search: {error}."
        )));
    }
    Ok(root)
}

/// The text (SFEN) of the position after move `ply` of `game`, if it is
/// one to search for mate: what a mate search job carries to a worker.
pub fn searched_text(game: &AnyGame, ply: usize) -> Result<String, Refusal> {
    each_shogi_game!(AnyGame, game,
        g => searched(g, ply).map(|root| root.to_text()),
        pawns => Err(no_king()))
}

/// What Koma's solver found on the position after move `ply` of `game`,
/// as a worker reported it and the server checked it: written for people
/// as a local search's answer is.
pub struct Found<'a> {
    /// `"mate"`, `"nomate"` or `"unknown"`.
    pub answer: &'a str,
    /// The mate's length as problems count it.
    pub length: u16,
    /// The line to checkmate, USI.
    pub line: &'a [String],
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, milliseconds.
    pub milliseconds: u64,
}

impl Found<'_> {
    /// The answer to `GET /api/games/{id}/mate`, as a local search gives it.
    pub fn written(&self, game: &AnyGame, ply: usize) -> Result<MateJson, Refusal> {
        each_shogi_game!(AnyGame, game, g => self.write(g, ply), pawns => Err(no_king()))
    }

    fn write<P: Served>(&self, game: &Game<P>, ply: usize) -> Result<MateJson, Refusal> {
        let root = searched(game, ply)?;
        let answer = match self.answer {
            "mate" => "mate",
            "nomate" => "nomate",
            _ => "unknown",
        };
        // Checked when it came; read again as moves of this position.
        let mut at = root.clone();
        let mut moves = Vec::with_capacity(self.line.len());
        for text in self.line {
            let m = at
                .parse_move(text)
                .ok()
                .filter(|&m| at.is_legal(m))
                .ok_or_else(|| Refusal::internal("a mate line kept is not legal"))?;
            at.play_unchecked(m);
            moves.push(m);
        }
        let previous = ply.checked_sub(1).map(|i| game.moves()[i]);
        Ok(MateJson {
            ply,
            engine: crate::external::registry::BUILT_IN.to_owned(),
            answer,
            length: self.length,
            line: MoveJson::line(root, &moves, previous),
            nodes: self.nodes,
            milliseconds: self.milliseconds,
        })
    }
}

fn search<P: Served + MateSearch>(
    game: &Game<P>,
    ply: usize,
    limits: &MateLimits,
) -> Result<MateJson, Refusal> {
    let root = searched(game, ply)?;
    let mut solver = Solver::new(limits.table_megabytes);
    let Some(report) = root.solve_mate(&mut solver, limits, None) else {
        return Err(Refusal::bad_request("This game has no mates."));
    };
    let (answer, moves) = match report.answer {
        MateAnswer::Mate(line) => ("mate", line),
        MateAnswer::NoMate => ("nomate", Vec::new()),
        MateAnswer::Unknown => ("unknown", Vec::new()),
    };
    let previous = ply.checked_sub(1).map(|i| game.moves()[i]);
    let line = MoveJson::line(root, &moves, previous);
    Ok(MateJson {
        ply,
        engine: crate::external::registry::BUILT_IN.to_owned(),
        answer,
        length: report.length,
        line,
        nodes: report.nodes,
        milliseconds: report.elapsed.as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::Variant;

    #[test]
    fn a_mate_is_found_and_written_for_people() {
        let game = AnyGame::new(Variant::Shogi, Some("7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1")).unwrap();
        let found = find_mate(&game, 0, 5).unwrap();
        assert_eq!(found.answer, "mate");
        assert_eq!(found.length, 1);
        assert_eq!(found.line.len(), 1);
        assert_eq!(found.line[0].usi, "G*1b");
        assert_eq!(found.line[0].notation, "☗１二金打");
        assert_eq!(found.line[0].color, "sente");
        assert!(found.line[0].check);
        assert!(found.line[0].position.starts_with("7nk/8G/"));
        let start = AnyGame::new(Variant::Shogi, None).unwrap();
        assert_eq!(find_mate(&start, 0, 1).unwrap().answer, "nomate");
        assert!(find_mate(&start, 3, 1).is_err());
        let pawns = AnyGame::new(Variant::Pawns, None).unwrap();
        assert!(find_mate(&pawns, 0, 1).is_err());
    }

    #[test]
    fn the_line_goes_on_to_checkmate_and_the_length_counts_as_problems_do() {
        // Mate in 5 ending on a dragon's check that gote's bishop could
        // block: the line shows the drop and its capture too.
        let sfen = "9/2R3Slk/9/9/6+R2/9/9/9/K8 b BPbl 1";
        let game = AnyGame::new(Variant::Shogi, Some(sfen)).unwrap();
        let found = find_mate(&game, 0, 10).unwrap();
        assert_eq!(found.answer, "mate");
        assert_eq!(found.length, 5);
        let usi: Vec<&str> = found.line.iter().map(|m| m.usi.as_str()).collect();
        assert_eq!(
            usi,
            ["3e1e", "L*1c", "B*2a", "1b1a", "1e1c", "B*1b", "1c1b"]
        );
        let last = found.line.last().unwrap();
        let end = koma_rules::parse_sfen::<koma_rules::Shogi>(&last.position).unwrap();
        assert!(last.check && !end.has_legal_move());
    }

    #[test]
    fn a_position_without_the_defenders_king_is_refused_not_called_no_mate() {
        let kingless =
            koma_rules::parse_sfen_unchecked::<koma_rules::Shogi>("9/9/9/9/9/9/9/9/4K4 b 2G 1")
                .unwrap()
                .checked()
                .unwrap_err()
                .ignore_missing_king()
                .unwrap();
        let game = AnyGame::Shogi(Game::new(kingless));
        let refused = find_mate(&game, 0, 1).unwrap_err();
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert!(
            refused.message.contains("Gote has no king"),
            "{}",
            refused.message
        );
        // Nor can such a game be started: the position is refused first.
        let started = AnyGame::new(Variant::Shogi, Some("9/9/9/9/9/9/9/9/4K4 b 2G 1"));
        assert!(started.unwrap_err().contains("Gote has no king"));
    }

    #[test]
    fn only_finished_games_and_games_between_people_here_are_searched() {
        let game = AnyGame::new(Variant::Shogi, None).unwrap();
        let computer = Opponent::Computer {
            level: crate::games::names::Level::Strength(20),
            color: "gote".into(),
            engine: None,
        };
        assert!(allowed(&game, Mode::Local, &Opponent::Human).is_ok());
        assert!(allowed(&game, Mode::Shared, &Opponent::Human).is_err());
        assert!(allowed(&game, Mode::Local, &computer).is_err());
        let mut finished = game.clone();
        finished.resign(koma_rules::Color::Sente).unwrap();
        assert!(allowed(&finished, Mode::Local, &computer).is_ok());
        assert!(allowed(&finished, Mode::Shared, &Opponent::Human).is_ok());
    }
}
