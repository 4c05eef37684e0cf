//! The client's loop: log in, ask for a game, agree, play, save the
//! record, and again until enough games are played; log in again after a
//! lost connection; `LOGOUT` at the end or on Ctrl-C.

use crate::connection::ServerConnection;
use crate::engine::{EngineFactory, EngineSlot};
use crate::message::{ClientCommand, ServerMessage};
use crate::session::{self, GameReport, Table, POLL};
use crate::summary::GameSummary;
use crate::{record, CsaError, Settings};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long the server may take to answer `LOGIN` or `LOGOUT`.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// The pause between a plain-mode game and the next login.
const PLAIN_MODE_PAUSE: Duration = Duration::from_millis(500);
/// The longest wait between attempts to log in again.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// What the client did.
#[derive(Debug, Default)]
pub struct Report {
    /// Every game started, in order, with its result.
    pub games: Vec<GameReport>,
    /// How many times the connection was lost (or given up after an
    /// illegal move from the server) and the client logged in again.
    pub reconnections: usize,
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
}

/// Plays `settings.games` games on the server, with engines from
/// `factory`, until done or `stop` is set.
pub fn play(
    settings: &Settings,
    factory: EngineFactory,
    stop: &AtomicBool,
) -> Result<Report, CsaError> {
    let mut engine = EngineSlot::new(factory);
    // An engine that cannot start is found before anything is sent.
    engine.get()?;
    let mut report = Report::default();
    let result = run(settings, &mut engine, stop, &mut report);
    engine.quit();
    match result {
        Ok(()) => Ok(report),
        Err(CsaError::Interrupted) => {
            report.interrupted = true;
            Ok(report)
        }
        Err(error) => Err(error),
    }
}

fn run(
    settings: &Settings,
    engine: &mut EngineSlot,
    stop: &AtomicBool,
    report: &mut Report,
) -> Result<(), CsaError> {
    let mut backoff = settings.reconnect_delay;
    let mut ever_connected = false;
    while report.games.len() < settings.games {
        let mut connection = match login(settings) {
            Ok(connection) => connection,
            Err(error @ (CsaError::Connect { .. } | CsaError::ConnectionLost(_)))
                if ever_connected =>
            {
                eprintln!(
                    "koma csa: {error}; trying again in {} s",
                    backoff.as_secs_f64()
                );
                wait(backoff, stop)?;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
            Err(error) => return Err(error),
        };
        ever_connected = true;
        backoff = settings.reconnect_delay;
        match games_on(&mut connection, settings, engine, stop, report) {
            // After a plain-mode game: a moment for shogi-server to end the
            // closed session, so that the next login does not find it
            // still there ("login forcibly, nudging the former player").
            Ok(()) if settings.game.is_none() && report.games.len() < settings.games => {
                wait(PLAIN_MODE_PAUSE, stop)?;
            }
            Ok(()) => {}
            Err(CsaError::Interrupted) => {
                logout(&mut connection);
                return Err(CsaError::Interrupted);
            }
            Err(error @ (CsaError::Engine(_) | CsaError::Refused(_))) => {
                logout(&mut connection);
                return Err(error);
            }
            Err(error) => {
                report.reconnections += 1;
                let in_game = report
                    .games
                    .last()
                    .filter(|game| game.result.is_none())
                    .map(|game| {
                        format!(" (game {} is lost, as on floodgate)", game.summary.game_id)
                    })
                    .unwrap_or_default();
                eprintln!(
                    "koma csa: {error}{in_game}; logging in again in {} s",
                    backoff.as_secs_f64()
                );
                connection.close();
                wait(backoff, stop)?;
            }
        }
    }
    Ok(())
}

/// Connects and logs in; `LOGIN:incorrect` is final.
fn login(settings: &Settings) -> Result<ServerConnection, CsaError> {
    let mut connection = ServerConnection::connect(&settings.server, settings.verbose)?;
    connection.send(&ClientCommand::Login {
        user: settings.user.clone(),
        password: settings.password.clone(),
        extended: settings.game.is_some(),
    })?;
    let deadline = Instant::now() + ANSWER_TIMEOUT;
    while Instant::now() < deadline {
        let Some(line) = connection.receive(POLL)? else {
            continue;
        };
        match ServerMessage::parse(&line) {
            Ok(ServerMessage::LoginOk { .. }) => return Ok(connection),
            Ok(ServerMessage::LoginIncorrect) => {
                return Err(CsaError::LoginRefused {
                    user: settings.user.clone(),
                })
            }
            Ok(ServerMessage::KeepAlive) => {}
            _ => eprintln!("koma csa: ignored before login: {line:?}"),
        }
    }
    Err(CsaError::ConnectionLost(
        "the server did not answer LOGIN".to_owned(),
    ))
}

/// `LOGOUT`, and a short wait for `LOGOUT:completed`.
fn logout(connection: &mut ServerConnection) {
    if connection.send(&ClientCommand::Logout).is_err() {
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        match connection.receive(POLL) {
            Ok(Some(line)) if line.starts_with("LOGOUT:") => break,
            Ok(_) => {}
            Err(_) => break,
        }
    }
    connection.close();
}

/// Sleeps `duration`, unless Ctrl-C comes first.
fn wait(duration: Duration, stop: &AtomicBool) -> Result<(), CsaError> {
    let end = Instant::now() + duration;
    while Instant::now() < end {
        if stop.load(Ordering::Relaxed) {
            return Err(CsaError::Interrupted);
        }
        std::thread::sleep(POLL.min(end.saturating_duration_since(Instant::now())));
    }
    Ok(())
}

/// Games on one connection. In extended mode (`%%GAME`) the client asks
/// again after each game and logs out after the last; in plain CSA mode
/// shogi-server ends the session with the game, so the client closes the
/// connection and logs in again for the next.
fn games_on(
    connection: &mut ServerConnection,
    settings: &Settings,
    engine: &mut EngineSlot,
    stop: &AtomicBool,
    report: &mut Report,
) -> Result<(), CsaError> {
    loop {
        if let Some(request) = &settings.game {
            connection.send(&request.command())?;
        }
        let summary = match await_game(connection, settings, stop)? {
            Some(summary) => summary,
            // Withdrawn before it started: ask again.
            None => continue,
        };
        let mut table = Table {
            connection,
            engine,
            settings,
            stop,
        };
        let (mut game, error) = session::play(&mut table, summary);
        if let Some(dir) = &settings.records {
            match record::save(dir, &game.summary.game_id, &game.record) {
                Ok(path) => game.record_file = Some(path),
                Err(e) => eprintln!("koma csa: cannot save the record in {}: {e}", dir.display()),
            }
        }
        eprintln!("koma csa: {}", game.line(report.games.len() + 1));
        report.games.push(game);
        if let Some(error) = error {
            return Err(error);
        }
        if settings.game.is_none() {
            // In plain CSA mode shogi-server ends the player's session with
            // the game, and logs an error for any line read after it
            // ("write thread is dead"), LOGOUT included: close instead.
            connection.close();
            return Ok(());
        }
        if report.games.len() >= settings.games {
            logout(connection);
            return Ok(());
        }
    }
}

/// Waits for a game summary, agrees, and waits for `START`. None if the
/// offer was withdrawn (`REJECT`).
fn await_game(
    connection: &mut ServerConnection,
    settings: &Settings,
    stop: &AtomicBool,
) -> Result<Option<GameSummary>, CsaError> {
    let mut block: Option<Vec<String>> = None;
    let mut agreed: Option<GameSummary> = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Err(CsaError::Interrupted);
        }
        if let Some(every) = settings.keep_alive {
            if connection.idle() >= every {
                connection.send(&ClientCommand::KeepAlive)?;
            }
        }
        let Some(line) = connection.receive(POLL)? else {
            continue;
        };
        if let Some(lines) = &mut block {
            if line.trim() != "END Game_Summary" {
                lines.push(line);
                continue;
            }
            let lines = block.take().unwrap_or_default();
            match GameSummary::parse(&lines) {
                Ok(summary) => {
                    connection.send(&ClientCommand::Agree)?;
                    agreed = Some(summary);
                }
                Err(error) => {
                    eprintln!("koma csa: refusing the game offered: {error}");
                    connection.send(&ClientCommand::Reject)?;
                }
            }
            continue;
        }
        match ServerMessage::parse(&line) {
            Ok(ServerMessage::SummaryBegins) => block = Some(Vec::new()),
            Ok(ServerMessage::Start { game_id }) => match agreed.take() {
                Some(summary) => {
                    if summary.game_id != game_id {
                        eprintln!(
                            "koma csa: START:{game_id} for the game offered as {}",
                            summary.game_id
                        );
                    }
                    return Ok(Some(summary));
                }
                None => eprintln!("koma csa: START:{game_id} for a game not agreed; ignored"),
            },
            Ok(ServerMessage::Reject { game_id }) => {
                eprintln!("koma csa: the game {game_id} was withdrawn (REJECT)");
                if settings.game.is_some() {
                    return Ok(None);
                }
                agreed = None;
            }
            Ok(ServerMessage::KeepAlive) => {}
            // shogi-server refuses a game name or a side this way; waiting
            // on would wait for ever.
            Ok(ServerMessage::Notice(text)) if text.starts_with("##[ERROR]") => {
                return Err(CsaError::Refused(text));
            }
            Ok(ServerMessage::Notice(text)) => eprintln!("koma csa: server: {text}"),
            Ok(other) => eprintln!("koma csa: ignored while waiting for a game: {other:?}"),
            Err(malformed) => eprintln!("koma csa: ignored: {malformed}"),
        }
    }
}
