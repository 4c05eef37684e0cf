//! A worker's analysis, checked before the board sees any of it (each
//! progress report's lines as well as the last): at most the lines the
//! job asked for, none where the game is over, each with a first move
//! of its own, every move legal where it is played, every score in the
//! engine's range. Lines that fail are garbage: refused whole.

use super::check::{checked_score, played, MAX_PV};
use super::protocol::{AnalysisLineJson, AnalysisResultJson};
use super::queue::JobSpec;
use crate::games::live::AnyGame;
use koma_rules::{each_game, Game, Move, Position, Variant};

/// The game of analysis job `spec`, replayed to the position analysed;
/// or why it cannot be, as a sentence.
pub fn analysed_game(spec: &JobSpec) -> Result<AnyGame, String> {
    let variant: Variant = spec
        .variant
        .parse()
        .map_err(|_| format!("The job's game {} is unknown.", spec.variant))?;
    AnyGame::replay(variant, &spec.position, &spec.moves, None)
        .map_err(|e| format!("The job's game cannot be replayed: {e}"))
}

/// `sent` if it is a true analysis of job `spec`'s position; why not
/// otherwise, as a sentence.
pub fn check_analysis(
    spec: &JobSpec,
    sent: &AnalysisResultJson,
) -> Result<AnalysisResultJson, String> {
    let game = analysed_game(spec)?;
    if sent.lines.len() > spec.lines as usize {
        return Err(format!(
            "The analysis sends {} lines; the job asked for {}.",
            sent.lines.len(),
            spec.lines
        ));
    }
    each_game!(AnyGame, &game, g => check_lines(g, &sent.lines))?;
    Ok(sent.clone())
}

fn check_lines<P: Position>(game: &Game<P>, lines: &[AnalysisLineJson]) -> Result<(), String> {
    let root = &game.positions()[game.positions().len() - 1];
    if root.legal_moves().is_empty() && !lines.is_empty() {
        return Err("The analysis sends lines where the game is over.".to_owned());
    }
    let mut firsts = Vec::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        let moves =
            line_moves(root, line).map_err(|problem| format!("Line {}: {problem}", index + 1))?;
        if firsts.contains(&moves[0]) {
            return Err(format!(
                "Line {} begins with the move of an earlier line ({}).",
                index + 1,
                line.pv[0]
            ));
        }
        firsts.push(moves[0]);
    }
    Ok(())
}

/// The moves of `line` played from `root`, each legal where it is played,
/// its score in the engine's range; or why not.
pub fn line_moves<P: Position>(root: &P, line: &AnalysisLineJson) -> Result<Vec<Move>, String> {
    checked_score::<P>(&line.score)?;
    if line.pv.is_empty() {
        return Err("the line has no move.".to_owned());
    }
    if line.pv.len() > MAX_PV {
        return Err(format!(
            "the line has {} moves; at most {MAX_PV} are read.",
            line.pv.len()
        ));
    }
    played(root, &line.pv).map_err(|index| {
        format!(
            "move {} of the line ({}) is not legal there.",
            index + 1,
            line.pv[index].chars().take(16).collect::<String>()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::check::CP_LIMIT;
    use crate::workers::protocol::ScoreJson;
    use crate::workers::queue::JobKind;

    fn spec(moves: &[&str], lines: u32) -> JobSpec {
        JobSpec {
            kind: JobKind::Analysis,
            game: "0123456789abcdef".into(),
            variant: "shogi".into(),
            position: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            nodes: 0,
            seconds: 5,
            lines,
        }
    }

    fn line(cp: i32, pv: &[&str]) -> AnalysisLineJson {
        AnalysisLineJson {
            score: ScoreJson::Cp(cp),
            pv: pv.iter().map(|m| m.to_string()).collect(),
        }
    }

    fn analysis(lines: Vec<AnalysisLineJson>) -> AnalysisResultJson {
        AnalysisResultJson {
            depth: 10,
            nodes: 1000,
            milliseconds: 20,
            lines,
        }
    }

    #[test]
    fn true_lines_from_the_position_after_the_moves_pass() {
        let sent = analysis(vec![
            line(40, &["3c3d", "2g2f"]),
            line(20, &["8c8d", "2g2f", "8d8e"]),
        ]);
        assert_eq!(check_analysis(&spec(&["7g7f"], 2), &sent), Ok(sent));
    }

    #[test]
    fn garbage_is_refused_with_the_reason() {
        let job = spec(&["7g7f"], 2);
        let refused = |lines: Vec<AnalysisLineJson>| {
            check_analysis(&job, &analysis(lines)).expect_err("garbage")
        };
        // Sente's move where gote is to move.
        assert!(refused(vec![line(0, &["2g2f"])]).contains("move 1 of the line"));
        assert!(refused(vec![line(0, &["3c3d", "3d3e", "3e3f"])]).contains("move 2"));
        assert!(refused(vec![line(0, &[])]).contains("no move"));
        assert!(refused(vec![line(CP_LIMIT + 1, &["3c3d"])]).contains("range"));
        assert!(
            refused(vec![line(0, &["3c3d"]), line(0, &["3c3d", "2g2f"])]).contains("earlier line")
        );
        let three = vec![line(0, &["3c3d"]), line(0, &["8c8d"]), line(0, &["1c1d"])];
        assert!(refused(three).contains("asked for 2"));
        let mate = AnalysisLineJson {
            score: ScoreJson::Mate {
                winner: "nobody".into(),
                plies: 3,
            },
            pv: vec!["3c3d".into()],
        };
        assert!(refused(vec![mate]).contains("winner"));
    }

    #[test]
    fn a_finished_game_has_no_lines() {
        // Gote is mated: the fool's mate of shogi is long, so a position.
        let mut job = spec(&[], 1);
        job.position = "4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1".into();
        assert!(check_analysis(&job, &analysis(vec![line(0, &["5a4a"])]))
            .expect_err("the game is over")
            .contains("over"));
        assert!(check_analysis(&job, &analysis(Vec::new())).is_ok());
    }
}
