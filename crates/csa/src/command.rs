//! `koma csa`: the command line, the engine it starts, Ctrl-C.

use crate::engine::process_factory;
use crate::message::{GameResult, TurnPreference};
use crate::{client, CsaError, GameRequest, Settings};
use clap::Args;
use koma_usi::client::EngineConfig;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// shogi-server's port, and floodgate's.
const DEFAULT_PORT: u16 = 4081;

/// Arguments of `koma csa`.
#[derive(Args, Debug)]
#[command(
    about = "Play shogi on a CSA server (floodgate, shogi-server) with Koma's engine or any USI engine",
    long_about = "Play shogi on a CSA server (protocol 1.2.1, as floodgate and shogi-server \
        speak it) with Koma's engine or any USI engine.\n\n\
        Without --game the client logs in (LOGIN name password) and plays the games the \
        server offers; shogi-server reads a game name in the password \
        (--password floodgate-300-10F,secret). With --game NAME it logs in in shogi-server's \
        extended mode (x1) and asks for that game with %%GAME (or %%CHALLENGE with \
        --challenge): floodgate-300-10F on floodgate, or a name of your own such as \
        koma-60-5 (60 s and 5 s byoyomi) or koma-300-10F (300 s and 10 s a move, Fischer) \
        that two clients give to be paired.\n\n\
        The engine is told the clock the server announced, less a margin for the network \
        that grows with the delay the server's times show. It resigns (%TORYO) when the \
        engine does, declares (%KACHI) when the engine answers bestmove win and the 27-point \
        rule holds, and sends floodgate's '* score pv comment with each move. Each game's \
        record is saved as CSA in --records. A lost connection is reported and the client \
        logs in again; a game in progress is then lost, as on floodgate. Ctrl-C logs out."
)]
pub struct CsaArgs {
    /// The server, `HOST` or `HOST:PORT` (port 4081 if not given).
    #[arg(long)]
    server: String,
    /// The login name.
    #[arg(long)]
    user: String,
    /// The password.
    #[arg(long)]
    password: String,
    /// The USI engine, a command line ("/path/engine --flag"); default:
    /// this program as `koma usi`.
    #[arg(long)]
    engine: Option<String>,
    /// An engine option, `NAME=VALUE` (repeatable): `USI_Hash=256`,
    /// `Threads=4`, `Skill=10`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Ask for this game with %%GAME in shogi-server's extended mode.
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
    /// With --game: join a player waiting for it (%%CHALLENGE).
    #[arg(long, requires = "game")]
    challenge: bool,
    /// With --game: the side wanted, + (sente), - (gote) or * (either;
    /// floodgate's games take only this).
    #[arg(long, default_value = "*", requires = "game")]
    turn: TurnPreference,
    /// How many games to play.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Save each game's record here as CSA (`<Game_ID>.csa`).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Send an empty line after this many seconds of silence (shogi-server
    /// takes one at most every 30 s).
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(30..))]
    keep_alive: Option<u64>,
    /// Milliseconds kept back from every move's time, besides the network
    /// delay measured.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    margin: u64,
    /// Seconds before logging in again after a lost connection (doubled
    /// after each failure, up to 60).
    #[arg(long, value_name = "SECS", default_value_t = 5)]
    reconnect_delay: u64,
    /// Do not send the '* score pv comment after moves.
    #[arg(long)]
    no_comments: bool,
    /// Show the protocol's lines on stderr (the password hidden).
    #[arg(long)]
    verbose: bool,
}

/// Runs `koma csa`.
pub fn run(args: CsaArgs) -> Result<(), CsaError> {
    let (settings, config) = settings(args)?;
    let stop = Arc::new(AtomicBool::new(false));
    watch_ctrl_c(Arc::clone(&stop));
    let report = client::play(&settings, process_factory(config), &stop)?;
    let count = |wanted: GameResult| {
        report
            .games
            .iter()
            .filter(|game| game.result == Some(wanted))
            .count()
    };
    let draws = count(GameResult::Draw) + count(GameResult::Censored);
    eprintln!(
        "koma csa: {} game(s): {} won, {} lost, {} drawn, {} without a result{}",
        report.games.len(),
        count(GameResult::Win),
        count(GameResult::Lose),
        draws,
        report.games.iter().filter(|g| g.result.is_none()).count() + count(GameResult::Chudan),
        if report.interrupted {
            "; stopped by Ctrl-C"
        } else {
            ""
        }
    );
    Ok(())
}

/// The settings and the engine of the command line.
fn settings(args: CsaArgs) -> Result<(Settings, EngineConfig), CsaError> {
    for (what, value) in [("--user", &args.user), ("--password", &args.password)] {
        if value.is_empty() || value.contains(char::is_whitespace) {
            return Err(CsaError::Setting(format!(
                "{what} must be one word without blanks (LOGIN sends it between spaces)"
            )));
        }
    }
    let server = if args.server.rsplit_once(':').is_some_and(|(host, port)| {
        !host.is_empty() && !host.ends_with(':') && port.parse::<u16>().is_ok()
    }) {
        args.server.clone()
    } else {
        format!("{}:{DEFAULT_PORT}", args.server)
    };
    let mut config = match &args.engine {
        Some(command) => EngineConfig::parse(&[format!("cmd={command}")]),
        None => {
            let program = std::env::current_exe()
                .map_err(|e| CsaError::Engine(format!("cannot find this program: {e}")))?;
            Ok(EngineConfig {
                name: Some("Koma".to_owned()),
                program: program.to_string_lossy().into_owned(),
                args: vec!["usi".to_owned()],
                ..EngineConfig::default()
            })
        }
    }
    .map_err(|e| CsaError::Setting(e.to_string()))?;
    for option in &args.options {
        let (name, value) = option.split_once('=').ok_or_else(|| {
            CsaError::Setting(format!("--option {option:?}: expected NAME=VALUE"))
        })?;
        config.options.retain(|(known, _)| known != name);
        config.options.push((name.to_owned(), value.to_owned()));
    }
    let game = args.game.map(|name| GameRequest {
        name,
        turn: args.turn,
        challenge: args.challenge,
    });
    let settings = Settings {
        server,
        user: args.user,
        password: args.password,
        game,
        games: usize::try_from(args.games).unwrap_or(usize::MAX),
        records: args.records,
        keep_alive: args.keep_alive.map(Duration::from_secs),
        margin: Duration::from_millis(args.margin),
        reconnect_delay: Duration::from_secs(args.reconnect_delay),
        comments: !args.no_comments,
        verbose: args.verbose,
    };
    Ok((settings, config))
}

/// Sets `stop` on Ctrl-C, through tokio's signal handling (already in the
/// tree for `koma serve`) on a thread of its own.
fn watch_ctrl_c(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("koma csa: Ctrl-C: logging out");
                stop.store(true, Ordering::Relaxed);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: CsaArgs,
    }

    fn parse(line: &str) -> Result<(Settings, EngineConfig), String> {
        let words = std::iter::once("koma-csa").chain(line.split(' '));
        let cli = Cli::try_parse_from(words).map_err(|e| e.to_string())?;
        settings(cli.args).map_err(|e| e.to_string())
    }

    #[test]
    fn command_lines_become_settings() {
        let (settings, config) = parse(
            "--server localhost --user koma --password pw --game koma-60-5 --turn - \
             --option USI_Hash=64 --option Threads=2 --games 3",
        )
        .unwrap();
        assert_eq!(settings.server, "localhost:4081");
        assert_eq!(settings.games, 3);
        assert_eq!(
            settings.game,
            Some(GameRequest {
                name: "koma-60-5".into(),
                turn: TurnPreference::Gote,
                challenge: false
            })
        );
        assert_eq!(config.args, ["usi"]);
        assert_eq!(config.options.len(), 2);
        let (settings, config) =
            parse("--server 127.0.0.1:4000 --user a --password b --engine /e/yaneuraou").unwrap();
        assert_eq!(settings.server, "127.0.0.1:4000");
        assert_eq!(config.program, "/e/yaneuraou");
        assert!(settings.game.is_none() && settings.comments);
        assert!(parse("--server h --user a --password b --keep-alive 10").is_err());
        assert!(parse("--server h --user a --password b --option Hash").is_err());
        assert!(parse("--server h --user a --password b --games 0").is_err());
        assert!(parse("--server h --user a --password b --challenge").is_err());
        assert!(parse("--server h --user a --password b --turn +").is_err());
    }
}
