//! `koma worker`: reviews games, searches positions for mates and
//! analyses them for a `koma serve` on another machine
//! (`docs/WORKERS.md`). It asks the server for a job (`POST
//! /api/worker/acquire`, with the key the server's operator issued),
//! judges every position of a review's game with Koma's own engine, runs
//! Koma's mate solver on a mate search's position, or analyses a position
//! with its best lines (as the server's local review, search and analysis
//! do, `koma_server::workers::run`), reports its progress (an analysis's
//! lines as they deepen, [`analysis`]), which renews its lease, and posts
//! the result.
//! `--engines N` runs N such loops at once. An HTTP error or a server that cannot be
//! reached is retried after a pause that doubles up to a minute; a key the
//! server refuses stops it. Ctrl-C stops it: the jobs it held go back to
//! the queue when their leases run out.

mod analysis;
mod client;

use clap::Args;
use client::{Client, ClientError};
use koma_engine::SearchControl;
use koma_server::workers::protocol::JobKind;
use koma_server::workers::protocol::{JobJson, ProgressJson, ResultJson};
use koma_server::workers::run;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest pause between two tries after errors.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// How long an acquire waits on the server for a job.
const WAIT_SECONDS: u64 = 20;

/// `koma worker`'s flags.
#[derive(Args, Clone, Debug)]
#[command(
    about = "Review games, find mates and analyse for a koma serve on another machine \
        (docs/WORKERS.md)",
    long_about = "Review games, find mates and analyse for a koma serve on another machine.\n\n\
        Takes game-review, mate-search and analysis jobs from the server at --server (started \
        with --worker-keys), with the key its operator issued you (--key, or --key-file to keep \
        it out of the process list), runs Koma's own engine on every position of each game (its \
        mate solver on each mate search's position, its best lines on an analysed one), reports \
        the progress and sends the result, which the server checks and keeps. --engines N does \
        N jobs at once, one core each. On a terminal it prints a line per job. Errors of the \
        network or the server are retried after a pause; a refused key stops it. Ctrl-C \
        stops it: jobs it held go to other workers when their leases run out."
)]
pub struct WorkerArgs {
    /// The server's address, http://HOST:PORT/ or https://HOST/ (behind
    /// a TLS proxy).
    #[arg(long, value_name = "URL")]
    server: String,
    /// The worker key the server's operator issued.
    #[arg(
        long,
        value_name = "KEY",
        conflicts_with = "key_file",
        required_unless_present = "key_file"
    )]
    key: Option<String>,
    /// A file whose first line (not a `#` comment) is the key.
    #[arg(long, value_name = "FILE")]
    key_file: Option<PathBuf>,
    /// Jobs done at once, each on one core.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    engines: u16,
    /// The most nodes this worker searches a position, whatever the job
    /// asks (for a slow machine); the job's own budget when not given.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Certificates (PEM) of authorities to trust beside the usual web
    /// ones: for an https:// server whose certificate a private or
    /// self-made authority signed.
    #[arg(long, value_name = "PEM")]
    ca_file: Option<PathBuf>,
}

/// Why the worker stopped other than by Ctrl-C.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The key cannot be read.
    #[error("cannot read the key file {path}: {source}")]
    KeyFile {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The key file holds no key.
    #[error("the key file {0} holds no key")]
    NoKey(String),
    /// The URL is not one.
    #[error("--server {0} is not an http:// or https:// address")]
    BadUrl(String),
    /// The authorities' certificates cannot be read.
    #[error("cannot use the certificates of --ca-file {path}: {why}")]
    CaFile {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// The HTTP client or the runtime cannot start.
    #[error("cannot start: {0}")]
    Start(String),
    /// The server refused the key.
    #[error("the server refused the key ({0}): ask its operator for one")]
    Refused(String),
}

/// Runs `koma worker` until Ctrl-C, or until the server refuses its key.
pub fn run(args: WorkerArgs) -> Result<(), WorkerError> {
    run_worker(args)
}

fn read_key(args: &WorkerArgs) -> Result<String, WorkerError> {
    if let Some(key) = &args.key {
        return Ok(key.trim().to_owned());
    }
    let path = args.key_file.clone().unwrap_or_default();
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|source| WorkerError::KeyFile {
        path: shown.clone(),
        source,
    })?;
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .find(|line| !line.is_empty())
        .map(|line| line.split_whitespace().last().unwrap_or(line).to_owned())
        .ok_or(WorkerError::NoKey(shown))
}

fn run_worker(args: WorkerArgs) -> Result<(), WorkerError> {
    let key = read_key(&args)?;
    let authorities = match &args.ca_file {
        Some(path) => client::authorities(path)?,
        None => Vec::new(),
    };
    let client = Client::new(&args.server, &key, &authorities)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| WorkerError::Start(e.to_string()))?;
    let shared = Arc::new(Shared {
        client,
        nodes: args.nodes,
        stopping: AtomicBool::new(false),
        verbose: std::io::stderr().is_terminal(),
        jobs: AtomicUsize::new(0),
    });
    let ended = runtime.block_on(async {
        let loops: Vec<_> = (0..args.engines)
            .map(|_| tokio::spawn(work_loop(shared.clone())))
            .collect();
        let mut first_error = None;
        let all = futures_join(loops);
        tokio::pin!(all);
        tokio::select! {
            results = &mut all => {
                first_error = results.into_iter().find_map(|r| r.err());
            }
            _ = koma_server::wait_for_signal() => {
                eprintln!("koma worker: stopping");
                shared.stopping.store(true, Ordering::SeqCst);
                let _ = all.await;
            }
        }
        eprintln!(
            "koma worker: {} jobs done",
            shared.jobs.load(Ordering::SeqCst)
        );
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    });
    // The searches stop within a thousand nodes of being told; nothing
    // else is left to wait for.
    runtime.shutdown_timeout(Duration::from_secs(2));
    ended
}

/// Waits for every loop; their ends.
async fn futures_join(
    loops: Vec<tokio::task::JoinHandle<Result<(), WorkerError>>>,
) -> Vec<Result<(), WorkerError>> {
    let mut ends = Vec::with_capacity(loops.len());
    for handle in loops {
        ends.push(handle.await.unwrap_or(Ok(())));
    }
    ends
}

/// What the loops share.
struct Shared {
    client: Client,
    nodes: Option<u64>,
    stopping: AtomicBool,
    verbose: bool,
    jobs: AtomicUsize,
}

impl Shared {
    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

/// One engine's loop: acquire, review, report, until stopped.
async fn work_loop(shared: Arc<Shared>) -> Result<(), WorkerError> {
    let mut backoff = Duration::from_secs(1);
    while !shared.stopping() {
        // A long poll pending when Ctrl-C comes is given up at once.
        let acquired = tokio::select! {
            acquired = shared.client.acquire(WAIT_SECONDS) => acquired,
            () = stopped(&shared) => break,
        };
        let outcome = match acquired {
            Ok(Some(job)) => do_job(&shared, job).await,
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        };
        match outcome {
            Ok(()) => backoff = Duration::from_secs(1),
            Err(ClientError::Unauthorized(message)) => {
                shared.stopping.store(true, Ordering::SeqCst);
                return Err(WorkerError::Refused(message));
            }
            Err(e) => {
                eprintln!("koma worker: {e}; trying again in {} s", backoff.as_secs());
                let until = Instant::now() + backoff;
                while Instant::now() < until && !shared.stopping() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
    Ok(())
}

/// Returns once the worker is stopping.
async fn stopped(shared: &Shared) {
    while !shared.stopping() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Does `job`: the engine on a blocking thread, progress reported (and the
/// lease renewed) at most a second apart and at least three times a lease,
/// then the result.
async fn do_job(shared: &Arc<Shared>, mut job: JobJson) -> Result<(), ClientError> {
    match job.kind {
        JobKind::Mate => return do_mate(shared, job).await,
        JobKind::Analysis => return analysis::do_analysis(shared, job).await,
        JobKind::Review => {}
    }
    let started = Instant::now();
    let total = job.moves.len() + 1;
    if let Some(cap) = shared.nodes {
        job.nodes = job.nodes.min(cap);
    }
    let control = SearchControl::new(false);
    let done = Arc::new(AtomicUsize::new(0));
    let searching = {
        let (job, control, done) = (job.clone(), control.clone(), done.clone());
        tokio::task::spawn_blocking(move || {
            let mut progress = |count: usize, _total: usize| done.store(count, Ordering::SeqCst);
            run::review_job(&job, &control, &mut progress)
        })
    };
    tokio::pin!(searching);
    let renew = Duration::from_secs(job.lease_seconds.max(3) / 3);
    let every = renew.min(Duration::from_secs(1));
    let (mut reported, mut last_report) = (0usize, Instant::now());
    let finished = loop {
        tokio::select! {
            finished = &mut searching => break finished,
            _ = tokio::time::sleep(every) => {}
        }
        if shared.stopping() {
            control.stop();
            continue;
        }
        let now = done.load(Ordering::SeqCst);
        if now != reported || last_report.elapsed() >= renew {
            let report = ProgressJson {
                lease: job.lease.clone(),
                done: now,
                analysis: None,
            };
            match shared.client.progress(&job.id, &report).await {
                Ok(()) => {
                    reported = now;
                    last_report = Instant::now();
                }
                Err(ClientError::Lost(message)) => {
                    eprintln!("koma worker: job {} is lost: {message}", job.id);
                    control.stop();
                }
                Err(e @ ClientError::Unauthorized(_)) => {
                    control.stop();
                    return Err(e);
                }
                // A moment's trouble: the next report may pass, within the lease.
                Err(e) => eprintln!("koma worker: progress of job {}: {e}", job.id),
            }
        }
    };
    let positions = match finished {
        Ok(Ok(positions)) => positions,
        Ok(Err(run::RunError::Stopped)) | Err(_) => return Ok(()),
        Ok(Err(e)) => {
            eprintln!("koma worker: job {} cannot be done: {e}", job.id);
            return Ok(());
        }
    };
    let result = ResultJson {
        lease: job.lease.clone(),
        positions,
        mate: None,
        analysis: None,
    };
    let what = format!(
        "game {}, {}, {total} positions at {} nodes",
        job.game, job.variant, job.nodes
    );
    send(shared, &job, &result, &what, started).await
}

/// Does mate search `job`: Koma's mate solver on a blocking thread, the
/// lease renewed while it runs (it lasts the job's seconds at most), then
/// the answer.
async fn do_mate(shared: &Arc<Shared>, job: JobJson) -> Result<(), ClientError> {
    let started = Instant::now();
    let searching = {
        let job = job.clone();
        tokio::task::spawn_blocking(move || run::mate_job(&job))
    };
    tokio::pin!(searching);
    let renew = Duration::from_secs(job.lease_seconds.max(3) / 3);
    let mut renewed = Instant::now();
    let finished = loop {
        tokio::select! {
            finished = &mut searching => break finished,
            _ = tokio::time::sleep(renew.min(Duration::from_secs(1))) => {}
        }
        if shared.stopping() {
            // The solver stops by itself within the job's seconds; the
            // job goes to another worker when its lease runs out.
            return Ok(());
        }
        if renewed.elapsed() < renew {
            continue;
        }
        renewed = Instant::now();
        let report = ProgressJson {
            lease: job.lease.clone(),
            done: 0,
            analysis: None,
        };
        match shared.client.progress(&job.id, &report).await {
            Ok(()) => {}
            Err(ClientError::Lost(message)) => {
                eprintln!("koma worker: job {} is lost: {message}", job.id);
                return Ok(());
            }
            Err(e @ ClientError::Unauthorized(_)) => return Err(e),
            Err(e) => eprintln!("koma worker: progress of job {}: {e}", job.id),
        }
    };
    let answer = match finished {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => {
            eprintln!("koma worker: job {} cannot be done: {e}", job.id);
            return Ok(());
        }
        Err(_) => return Ok(()),
    };
    let what = format!(
        "game {}, {}, a mate search of {} s: {}",
        job.game, job.variant, job.seconds, answer.answer
    );
    let result = ResultJson {
        lease: job.lease.clone(),
        positions: Vec::new(),
        mate: Some(answer),
        analysis: None,
    };
    send(shared, &job, &result, &what, started).await
}

/// Sends `result` of `job` (`what` it was, for the line printed on a
/// terminal), tried again after network errors.
async fn send(
    shared: &Arc<Shared>,
    job: &JobJson,
    result: &ResultJson,
    what: &str,
    started: Instant,
) -> Result<(), ClientError> {
    let mut backoff = Duration::from_secs(1);
    loop {
        match shared.client.result(&job.id, result).await {
            Ok(status) => {
                shared.jobs.fetch_add(1, Ordering::SeqCst);
                if shared.verbose {
                    eprintln!(
                        "koma worker: job {} ({what}): {status} in {:.1} s",
                        job.id,
                        started.elapsed().as_secs_f64()
                    );
                }
                return Ok(());
            }
            Err(ClientError::Lost(message) | ClientError::Refused(message)) => {
                eprintln!(
                    "koma worker: the result of job {} is refused: {message}",
                    job.id
                );
                return Ok(());
            }
            Err(e @ ClientError::Unauthorized(_)) => return Err(e),
            Err(e) if shared.stopping() => {
                eprintln!("koma worker: the result of job {} is lost: {e}", job.id);
                return Ok(());
            }
            Err(e) => {
                eprintln!(
                    "koma worker: sending the result of job {}: {e}; trying again in {} s",
                    job.id,
                    backoff.as_secs()
                );
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: WorkerArgs,
    }

    fn args(words: &[&str]) -> Result<WorkerArgs, clap::Error> {
        let words = std::iter::once("koma worker").chain(words.iter().copied());
        Command::try_parse_from(words).map(|command| command.args)
    }

    #[test]
    fn a_key_is_given_once_and_read_from_its_file() {
        assert!(args(&["--server", "http://127.0.0.1:1/"]).is_err());
        assert!(args(&["--server", "http://x/", "--key", "a", "--key-file", "f"]).is_err());
        let dir = std::env::temp_dir().join(format!("koma-worker-key-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("key");
        std::fs::write(&file, "# mine\n\nalice  0123456789abcdef0123  \n").unwrap();
        let given = args(&[
            "--server",
            "http://x/",
            "--key-file",
            file.to_str().unwrap(),
        ])
        .unwrap();
        assert_eq!(read_key(&given).unwrap(), "0123456789abcdef0123");
        std::fs::write(&file, "# none\n").unwrap();
        assert!(matches!(read_key(&given), Err(WorkerError::NoKey(_))));
        let _ = std::fs::remove_dir_all(&dir);
        let given = args(&["--server", "http://x/", "--key", " k3y "]).unwrap();
        assert_eq!(read_key(&given).unwrap(), "k3y");
        assert_eq!(given.engines, 1);
    }

    #[test]
    fn the_server_is_an_http_or_https_address() {
        assert!(Client::new("https://koma.example.org/", "k", &[]).is_ok());
        assert!(Client::new("http://127.0.0.1:8080", "k", &[]).is_ok());
        for wrong in ["ftp://x/", "127.0.0.1:8080", "http://", ""] {
            assert!(
                matches!(Client::new(wrong, "k", &[]), Err(WorkerError::BadUrl(_))),
                "{wrong}"
            );
        }
    }
}
