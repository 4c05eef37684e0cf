//! Each game's record: headers from the summary, the moves with the times
//! the server charged and our comments, the ending from the server's
//! result, written as CSA with `koma_records::csa::write`.

use crate::message::{EndReason, GameResult, Special};
use crate::summary::GameSummary;
use koma_records::{csa, Ending, Record};
use koma_rules::{Color, StandardShogiPosition};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A record for the game `summary` offers, played on `server`, started now.
pub(crate) fn new_record(summary: &GameSummary, server: &str) -> Record<StandardShogiPosition> {
    let mut record = Record::new(summary.start);
    record.moves = summary.moves.clone();
    let headers = &mut record.headers;
    headers.sente = Some(summary.sente.clone());
    headers.gote = Some(summary.gote.clone());
    headers.event = Some(summary.game_id.clone());
    headers.site = Some(server.to_owned());
    headers.start_time = Some(date_text(now()));
    headers.time_control = summary.time.time_limit_header();
    if summary.time.increment > 0 {
        // V2.2 has no Fischer field; shogi-server writes it as a comment too.
        record.comments.push(format!(
            "Increment:{}",
            summary.time.duration(summary.time.increment).as_secs()
        ));
    }
    record
}

/// The record's ending for what the server said, with `to_move` the side
/// to move after the last move and `us` our side. None where CSA V2.2 has
/// no ending that says it (perpetual check given by the side to move).
pub(crate) fn ending(
    reason: Option<EndReason>,
    special: Option<Special>,
    result: Option<GameResult>,
    us: Color,
    to_move: Color,
) -> Option<Ending> {
    let winner = match result? {
        GameResult::Win => Some(us),
        GameResult::Lose => Some(!us),
        GameResult::Chudan => return Some(Ending::Abandoned),
        GameResult::Draw | GameResult::Censored => None,
    };
    Some(match reason? {
        EndReason::Resign => Ending::Resignation,
        EndReason::TimeUp => Ending::Timeout,
        EndReason::IllegalMove => Ending::IllegalMove,
        EndReason::Sennichite => Ending::Repetition,
        EndReason::MaxMoves => Ending::Draw,
        EndReason::OuteSennichite if winner == Some(to_move) => Ending::PerpetualCheck,
        EndReason::OuteSennichite => return None,
        EndReason::Jishogi if special == Some(Special::Declare) && winner == Some(to_move) => {
            Ending::ImpasseWin
        }
        EndReason::Jishogi => Ending::Impasse,
    })
}

/// Writes the record as `DIR/<game id>.csa` (`<game id>-2.csa`… if that
/// exists: a record is never overwritten) and returns the path.
pub(crate) fn save(
    dir: &Path,
    game_id: &str,
    record: &Record<StandardShogiPosition>,
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let mut ended = record.clone();
    ended.headers.end_time = Some(date_text(now()));
    let text = csa::write(&ended);
    let name = file_name(game_id);
    let mut number = 1u64;
    loop {
        let path = match number {
            1 => dir.join(format!("{name}.csa")),
            n => dir.join(format!("{name}-{n}.csa")),
        };
        // create_new: another client saving in the same folder cannot
        // slip in between the check and the write.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut file) => {
                std::io::Write::write_all(&mut file, text.as_bytes())?;
                return Ok(path);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => number += 1,
            Err(error) => return Err(error),
        }
    }
}

/// The game id with anything a file name should not hold replaced by `_`
/// (the id comes from the server).
fn file_name(game_id: &str) -> String {
    let name: String = game_id
        .chars()
        .take(200)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match name.trim_start_matches('.') {
        "" => "game".to_owned(),
        name => name.to_owned(),
    }
}

/// Seconds since 1970, now.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `2026/11/28 05:30:00` (UTC), CSA's form of `$START_TIME`.
fn date_text(seconds: u64) -> String {
    let utc = i64::try_from(seconds)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}/{:02}/{:02} {:02}:{:02}:{:02}",
        utc.year(),
        u8::from(utc.month()),
        utc.day(),
        utc.hour(),
        utc.minute(),
        utc.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_in_utc() {
        assert_eq!(date_text(0), "1970/01/01 00:00:00");
        assert_eq!(date_text(1_795_843_845), "2026/11/28 05:30:45");
    }

    #[test]
    fn server_ids_make_safe_file_names() {
        assert_eq!(
            file_name("wdoor+floodgate-300-10F+a+b+20261128053000"),
            "wdoor+floodgate-300-10F+a+b+20261128053000"
        );
        assert_eq!(file_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(file_name(".."), "game");
        assert_eq!(file_name(""), "game");
    }

    #[test]
    fn results_become_endings() {
        use Color::{Gote, Sente};
        let lose = Some(GameResult::Lose);
        let win = Some(GameResult::Win);
        let resign = Some(EndReason::Resign);
        assert_eq!(
            ending(resign, Some(Special::Resign), lose, Sente, Sente),
            Some(Ending::Resignation)
        );
        let jishogi = Some(EndReason::Jishogi);
        assert_eq!(
            ending(jishogi, Some(Special::Declare), win, Gote, Gote),
            Some(Ending::ImpasseWin)
        );
        let perpetual = Some(EndReason::OuteSennichite);
        assert_eq!(
            ending(perpetual, None, win, Gote, Gote),
            Some(Ending::PerpetualCheck)
        );
        assert_eq!(ending(perpetual, None, lose, Gote, Gote), None);
        assert_eq!(
            ending(
                Some(EndReason::MaxMoves),
                None,
                Some(GameResult::Censored),
                Sente,
                Gote
            ),
            Some(Ending::Draw)
        );
        assert_eq!(
            ending(None, None, Some(GameResult::Chudan), Sente, Gote),
            Some(Ending::Abandoned)
        );
        assert_eq!(ending(resign, None, None, Sente, Gote), None);
    }
}
