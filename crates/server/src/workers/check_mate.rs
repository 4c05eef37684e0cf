//! A worker's mate search answer, checked before it is kept: a mate's
//! line is legal move after move from the job's position and wins the
//! game for the side to move there (checkmate, or the king taken in
//! Spear), as a registered engine's line is checked
//! (`study/external_mate.rs`); its length as problems count it is odd (the
//! attacker moves first and last), within the line, and differs from the
//! line's by whole pairs (a useless interposition and its capture). "No
//! mate" and "unknown" carry no line. Anything else is garbage.

use super::check::played;
use super::protocol::MateResultJson;
use super::queue::JobSpec;
use crate::games::live::{AnyGame, Served};
use crate::study::external_mate::mating_line;
use koma_rules::{each_shogi_game, Game, Variant};

/// The longest mate line read from a worker: far beyond the longest
/// problem's (1525 plies), far below the result's size limit.
pub const MAX_MATE_LINE: usize = 4096;

/// `sent`, checked against job `spec`'s position, as it is kept; or why
/// it is garbage, as a sentence.
pub fn check_mate(spec: &JobSpec, sent: &MateResultJson) -> Result<MateResultJson, String> {
    let variant: Variant = spec
        .variant
        .parse()
        .map_err(|_| format!("The job's game {} is unknown.", spec.variant))?;
    let game = AnyGame::new(variant, Some(&spec.position))
        .map_err(|e| format!("The job's position cannot be read: {e}"))?;
    match sent.answer.as_str() {
        "nomate" | "unknown" if sent.line.is_empty() && sent.length == 0 => return Ok(sent.clone()),
        "nomate" | "unknown" => {
            return Err(format!(
                "the answer {:?} has a line or a length; only a mate has them.",
                sent.answer
            ))
        }
        "mate" => {}
        other => {
            return Err(format!(
                "the answer {:?} is none of \"mate\", \"nomate\" and \"unknown\".",
                other.chars().take(20).collect::<String>()
            ))
        }
    }
    let (length, plies) = (usize::from(sent.length), sent.line.len());
    if plies > MAX_MATE_LINE {
        return Err(format!(
            "the mate line has {plies} moves; at most {MAX_MATE_LINE} are read."
        ));
    }
    if length % 2 == 0 || length > plies || (plies - length) % 2 != 0 {
        return Err(format!(
            "a mate in {length} plies does not fit its line of {plies} moves (the length is \
             odd, the line as long or longer by whole pairs of moves)."
        ));
    }
    let mates = each_shogi_game!(AnyGame, &game,
        g => mates(g, &sent.line),
        pawns => Err("Pawns-Only Chess has no mates.".to_owned()));
    mates.map(|()| sent.clone())
}

/// Whether `line` is legal from `game`'s position and wins it for the
/// side to move; a sentence naming what is wrong if not.
fn mates<P: Served>(game: &Game<P>, line: &[String]) -> Result<(), String> {
    let root = game.position();
    if mating_line(root, line).is_some() {
        return Ok(());
    }
    // Say which move is wrong, or that the end is no mate.
    if let Err(index) = played(root, line) {
        let shown: String = line[index].chars().take(12).collect();
        return Err(format!(
            "move {} of the mate line ({shown}) is not legal there.",
            index + 1
        ));
    }
    Err("the mate line does not end in a win for the side to move: it is no mate.".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::queue::JobKind;

    fn spec(position: &str) -> JobSpec {
        JobSpec {
            kind: JobKind::Mate,
            game: "0000000000000001".to_owned(),
            variant: "shogi".to_owned(),
            position: position.to_owned(),
            moves: Vec::new(),
            nodes: 0,
            seconds: 1,
            lines: 0,
        }
    }

    fn answer(answer: &str, length: u16, line: &[&str]) -> MateResultJson {
        MateResultJson {
            answer: answer.to_owned(),
            length,
            line: line.iter().map(|m| (*m).to_owned()).collect(),
            nodes: 10,
            milliseconds: 1,
        }
    }

    #[test]
    fn a_mate_line_is_legal_mates_and_fits_its_length() {
        let one = spec("7nk/9/6P1P/9/9/9/9/9/4K4 b GS 1");
        assert!(check_mate(&one, &answer("mate", 1, &["G*1b"])).is_ok());
        assert!(check_mate(&one, &answer("nomate", 0, &[])).is_ok());
        assert!(check_mate(&one, &answer("unknown", 0, &[])).is_ok());
        let wrong = |sent: MateResultJson, says: &str| {
            let problem = check_mate(&one, &sent).unwrap_err();
            assert!(problem.contains(says), "{problem}");
        };
        wrong(answer("mate", 1, &["5a5b"]), "not legal");
        wrong(answer("mate", 1, &["S*1b"]), "no mate");
        wrong(answer("mate", 3, &["G*1b"]), "does not fit");
        wrong(answer("mate", 2, &["G*1b", "1a1b"]), "does not fit");
        wrong(answer("mate", 0, &[]), "does not fit");
        wrong(answer("nomate", 1, &[]), "only a mate");
        wrong(answer("maybe", 0, &[]), "none of");
        // A line to checkmate may be longer than the problem's count by
        // a useless interposition and its capture.
        let five = spec("9/2R3Slk/9/9/6+R2/9/9/9/K8 b BPbl 1");
        let line = ["3e1e", "L*1c", "B*2a", "1b1a", "1e1c", "B*1b", "1c1b"];
        assert!(check_mate(&five, &answer("mate", 5, &line)).is_ok());
        assert!(check_mate(&five, &answer("mate", 7, &line)).is_ok());
        let problem = check_mate(&five, &answer("mate", 5, &line[..5])).unwrap_err();
        assert!(problem.contains("no mate"), "{problem}");
    }
}
