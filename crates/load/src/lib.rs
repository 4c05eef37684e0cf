//! `koma load`: a load test of a local `koma serve`. Keeps a number of
//! shared games going at once, each played with random legal moves by two
//! players on their own WebSockets, and reports games and moves a second,
//! move latency and errors.
//!
//! One file per concern: `args` (the command line and the loopback check),
//! `client` (HTTP, WebSocket and the pace of each socket), `context` (what
//! the slots share, and their random numbers), `session` (the slots that
//! play one game after another), `game` (one game), `stats` (counts and
//! latencies) and `report` (progress and the result). `--hostile` replays
//! attacks instead (`hostile`).

mod args;
mod client;
mod context;
mod game;
pub mod hostile;
mod report;
mod session;
mod stats;

pub use args::LoadArgs;

/// Why `koma load` failed: the tool could not run, the server could not be
/// used, or it did not hold.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The tool's own runtime could not start.
    #[error("cannot start the tool's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The server cannot be reached, or is not `koma serve`, or cannot be
    /// attacked as asked; the sentence says which.
    #[error("{0}")]
    Unusable(String),
    /// The server answered with errors under load.
    #[error("{0} error(s) during the load, where a correct server gives none")]
    ServerErrors(u64),
    /// The server did not hold against these attacks (`--hostile`).
    #[error("the server did not hold against {} attack(s): {}", .0.len(), .0.join(", "))]
    DidNotHold(Vec<String>),
    /// A game of the load failed inside the tool: a bug of the tool.
    #[error("a game of the load failed inside the tool: {0}")]
    Tool(String),
}

use context::Context;
use report::{Progress, Report};
use stats::{ErrorKind, Latencies, Summary};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;
use tokio::time::{sleep_until, timeout};

/// How often the progress bar is updated.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// How long the games may take to close their sockets once the run stops.
const FINISH_WAIT: Duration = Duration::from_secs(10);

/// Runs the load and prints its report; an error when the server could
/// not be used, or when it made any errors.
pub fn run(args: LoadArgs) -> Result<(), LoadError> {
    if args.hostile.hostile {
        return hostile::run(&args);
    }
    // One thread: the server under test shares the machine's cores with
    // the tool, which needs little (it reads and sends small messages).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(LoadError::Runtime)?;
    let report = runtime.block_on(load(&args))?;
    if args.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.table());
    }
    match report.error_count() {
        0 => Ok(()),
        count => Err(LoadError::ServerErrors(count)),
    }
}

async fn load(args: &LoadArgs) -> Result<Report, LoadError> {
    let target = args.url.clone();
    // A wrong port or another program gets one sentence here, rather than
    // a run of counted errors.
    match client::request(&target, None, "GET", "/api/variants", "").await {
        Ok((200, _)) => {}
        Ok((status, _)) => {
            return Err(LoadError::Unusable(format!(
                "{} answered {status} to GET /api/variants: is it `koma serve`?",
                target.url()
            )))
        }
        Err(failure) => return Err(LoadError::Unusable(failure.message)),
    }
    let ctx = Arc::new(Context::new(
        target,
        args.variant,
        Duration::from_millis(args.pace),
        args.seed,
        args.max_moves,
    ));
    let progress = Progress::new(args.duration);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.duration);
    let mut slots = JoinSet::new();
    for slot in 0..u64::from(args.games) {
        slots.spawn(session::run_slot(ctx.clone(), slot));
    }
    let mut stop = ctx.stop.subscribe();
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    loop {
        tokio::select! {
            _ = sleep_until(deadline.into()) => break,
            _ = stop.wait_for(|&stopped| stopped) => break,
            _ = tick.tick() => progress.update(start.elapsed(), &ctx.counters),
        }
    }
    let elapsed = start.elapsed();
    ctx.stop.send_replace(true);
    let mut latencies = Latencies::default();
    let mut broken = None;
    let gathered = timeout(FINISH_WAIT, async {
        while let Some(joined) = slots.join_next().await {
            match joined {
                Ok(slot) => latencies.merge(slot),
                Err(e) => broken = Some(e.to_string()),
            }
        }
    })
    .await;
    progress.finish();
    if let Some(why) = broken {
        return Err(LoadError::Tool(why));
    }
    if gathered.is_err() {
        // Dropping the set ends them; their latencies are left out.
        eprintln!(
            "koma: {} games had not closed {} s after the stop",
            slots.len(),
            FINISH_WAIT.as_secs()
        );
    }
    let counters = &ctx.counters;
    let moves = counters.moves.load(Ordering::Relaxed);
    Ok(Report {
        url: ctx.target.url(),
        variant: args.variant.name(),
        concurrent: args.games,
        seed: args.seed,
        elapsed,
        capped: moves >= args.max_moves,
        games_completed: counters.games.load(Ordering::Relaxed),
        moves,
        mover: Summary::of(&mut latencies.mover),
        opponent: Summary::of(&mut latencies.opponent),
        errors: ErrorKind::ALL
            .iter()
            .map(|&kind| (kind, counters.errors_of(kind)))
            .collect(),
        first_error: counters.first_error(),
    })
}
