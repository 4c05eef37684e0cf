//! `koma serve`: the board in the browser. An axum server on 127.0.0.1 that
//! serves the embedded front end and the JSON + WebSocket API of
//! `docs/API.md`. The server is authoritative: the rules library decides
//! every move; the page shows what the server says.
//!
//! The code is in seven folders, each with a paragraph of its own: `http`
//! (the network edge: connections, limits, the HTTP routes and the
//! WebSocket), `csa` (the CSA network protocol's server, `--csa-port`,
//! another front end over the same games), `games` (the games apart from
//! HTTP: creating, moving, clocks, seats, watchers, the JSON answers),
//! `store` (where games are kept: SQLite, PostgreSQL or memory, and `koma
//! check`), `opponent` (the computer opponent and its pool of engines),
//! `study` (analysis, game review and mate search), `external` (the
//! engines people register, which `opponent` and `study` both use) and
//! `workers` (reviews and mate searches done by `koma worker` on other
//! machines); and `priority` says how their work shares the cores. This
//! file reads `koma serve`'s flags, opens the store and starts the server. The folders say where to look, not
//! layers: the store keeps what `games` and `study` define and they use
//! its seam, so paths cross both ways; only modules must not import each
//! other in a cycle (`crates/koma/tests/koma/workspace_layout.rs`).

mod csa;
mod external;
mod games;
mod http;
mod opponent;
mod priority;
mod store;
mod study;
pub mod workers;

pub use http::network::NetworkLimits;
pub use store::sqlite_check;

use games::service;
use http::{api, app, connections, network, rate};
use opponent::{computer, computer_pool};
use store::{memory_store, postgres_store, sqlite_store};
use study::analysis;

use axum::Router;
use clap::{Args, Parser};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How long stopping waits for open requests before it gives up on them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// `koma serve`: the graphical board in the browser.
#[derive(Args, Clone)]
#[command(
    about = "The board in the browser: serve the page and its API on 127.0.0.1",
    long_about = "The board in the browser.\n\n\
        Serves the page and its JSON + WebSocket API (docs/API.md) on 127.0.0.1 only, and \
        prints the address as its first line: `Koma is serving http://127.0.0.1:8080/`. Open \
        it in a browser to play Spear Shogi, minishogi, shogi or Pawns-Only Chess. The second \
        line says where the games are kept: in a SQLite file (--db, by default \
        $XDG_DATA_HOME/koma/games.sqlite3 or ~/.local/share/koma/games.sqlite3), where every \
        move is on the disk before it is acknowledged, so that games continue after a restart \
        or a crash; in PostgreSQL (--db postgres://user:password@host:port/dbname), which \
        several servers can share, each telling its watchers of the others' moves; or, with \
        --memory, in memory until the server stops (at most 256 MiB of games unless \
        --memory=SIZE says otherwise). The computer opponents think on at most \
        --computer-engines searches at once (one per core by default); more wait their turn, \
        and the page says so. Ctrl-C stops it."
)]
pub struct ServeArgs {
    /// The port to listen on; 0 takes any free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. By default 127.0.0.1, this machine only;
    /// 0.0.0.0 (or ::) lets other machines of the network in, to play
    /// through seat links. Koma speaks plain HTTP: beyond a network you
    /// trust, put it behind a proxy that adds TLS.
    #[arg(long, value_name = "ADDRESS", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    listen: IpAddr,
    /// Also open the page in the browser.
    #[arg(long)]
    open: bool,
    /// Also speak the CSA network protocol (1.2.1, as shogi-server and
    /// floodgate do) on this port of the --listen address, so that shogi
    /// engines' CSA clients log in (`LOGIN name koma-300-10`, or
    /// `%%GAME koma-300-10F *` in the extended mode), are matched by game
    /// name and play games kept, watched and downloaded like any other
    /// (docs/CSA.md, "Koma's CSA server"). 0 takes any free port; off
    /// unless given (4081 is shogi-server's).
    #[arg(long, value_name = "PORT")]
    csa_port: Option<u16>,
    /// Seconds a CSA connection has to log in before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    csa_login_timeout: u64,
    /// The SQLite file that keeps the games (created with its folder if
    /// missing), or a PostgreSQL database as
    /// postgres://user:password@host:port/dbname [default:
    /// $XDG_DATA_HOME/koma/games.sqlite3 or ~/.local/share/koma/games.sqlite3].
    #[arg(long, value_name = "PATH|URL")]
    db: Option<PathBuf>,
    /// Keep the games in memory only: they are lost when the server stops.
    /// At most SIZE of them (bytes, or e.g. 512M, 1G; at least 1M) are
    /// kept: past it the least recently used finished games are
    /// forgotten, and when only games in progress are left a new game is
    /// refused (503) [default SIZE: 256M].
    #[arg(long, value_name = "SIZE", conflicts_with = "db", num_args = 0..=1,
          require_equals = true, default_missing_value = memory_store::DEFAULT_MEMORY,
          value_parser = memory_store::parse_size)]
    memory: Option<usize>,
    /// Computer opponents' moves that may think at once, each on one
    /// core at a lower priority than the requests; more wait their turn,
    /// first come, first served [default: the cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    computer_engines: Option<u16>,
    /// Analyses that may think at once; more wait their turn [default: the
    /// cores less one, at least 1]. With --worker-keys, Koma's analyses
    /// that find every engine busy go to the workers, and 0 leaves the
    /// reviews, Koma's mate searches and analyses to the workers alone
    /// (registered engines then get one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=256))]
    analysis_engines: Option<u16>,
    /// The longest the engine analyses one position, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    analysis_seconds: u64,
    /// Registers a USI engine beside Koma's own, as NAME=COMMAND (e.g.
    /// --engine 'yaneuraou=/opt/yo/YaneuraOu-by-gcc'), for the board's
    /// analysis, review, mate search and computer opponent: it plays
    /// shogi, one thread, with its own options; give options, games and
    /// threads in --engines-file. Repeatable.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// A TOML file of engines to register: `[[engine]]` tables with
    /// `name`, `command`, optional `dir`, `protocol` (usi or uci), `games`
    /// (["shogi"] unless given) and `[engine.options]` (USI_Hash,
    /// Threads, EvalFile, …; Threads is the cores it takes).
    #[arg(long, value_name = "FILE")]
    engines_file: Option<PathBuf>,
    /// Seconds a registered engine's process waits for a job before it is
    /// stopped (it starts again when needed).
    #[arg(long, value_name = "SECONDS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    engine_idle: u64,
    /// The engine's budget for each position of a game review, in nodes
    /// (about a quarter of a second a position on one core).
    #[arg(long, value_name = "NODES", default_value_t = analysis::DEFAULT_REVIEW_NODES,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    review_nodes: u64,
    /// Seconds a request's headers have to arrive, counted from the
    /// connection's start or the end of the last answer (so also how long
    /// an idle keep-alive connection stays open).
    #[arg(long, value_name = "SECONDS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Seconds a request's body has to arrive once its headers have
    /// (`408` beyond).
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    body_timeout: u64,
    /// Seconds after which a connection on which no byte moved either way
    /// is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    idle_timeout: u64,
    /// Seconds of silence after which a WebSocket is pinged; it is closed
    /// (code 1001) if the ping is unanswered as long again.
    #[arg(long, value_name = "SECONDS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    ping_interval: u64,
    /// Connections open at once, in all; more are answered `503` and
    /// closed [default: what the open-file limit allows, at most 4096].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: Option<u32>,
    /// Connections open at once from one client (an IPv4 address or an
    /// IPv6 /64); more are answered `503` and closed.
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_client_connections: u32,
    /// HTTP requests a second one client may keep up, after a burst of
    /// three times as many (`429` beyond).
    #[arg(long, value_name = "N", default_value_t = rate::HTTP_PER_SECOND,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    requests_per_second: u32,
    /// Count clients by the last address of `X-Forwarded-For`, which the
    /// proxy in front of this server writes. Only behind such a proxy:
    /// otherwise any client could name itself.
    #[arg(long)]
    trust_proxy: bool,
    /// A name (HOST or HOST:PORT) this server is also reached by, through
    /// a proxy in front of it that passes the visitor's Host on (Caddy
    /// does; nginx sends its upstream's address unless told otherwise);
    /// repeatable. Listening on loopback, the server answers no other
    /// names than its own, against DNS rebinding.
    #[arg(long = "host", value_name = "NAME")]
    hosts: Vec<String>,
    /// Let workers on other machines (`koma worker`) do the board's game
    /// reviews and mate searches: FILE lists their keys, one a line as KEY
    /// or NAME KEY (`#` comments, blank lines skipped; a key is 16 or more
    /// letters, digits, '-', '_' or '.'). Reviews and searches by Koma's
    /// own engine then go to a queue (in the games' store:
    /// memory, SQLite or PostgreSQL, shared by the servers on one
    /// database), which the workers take from under `/api/worker/`, and the
    /// server's own engine too unless --analysis-engines 0
    /// (docs/WORKERS.md). Without it there are no worker routes.
    #[arg(long, value_name = "FILE")]
    worker_keys: Option<PathBuf>,
    /// Seconds a worker holds a job without reporting progress; then the
    /// job goes to the next worker that asks, and the late result is
    /// refused.
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(2..=3600))]
    worker_lease: u64,
}

/// `ServeArgs` alone, to read flags given as words (tests, embedding).
#[derive(Parser)]
#[command(name = "koma serve")]
struct ServeCommand {
    #[command(flatten)]
    args: ServeArgs,
}

impl ServeArgs {
    /// The arguments of `koma serve FLAGS…`, read from `flags`
    /// (`["--memory", "--port", "0"]`); clap's error when they are wrong.
    pub fn from_flags<I, T>(flags: I) -> Result<ServeArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let words = std::iter::once(std::ffi::OsString::from("koma serve"))
            .chain(flags.into_iter().map(Into::into));
        ServeCommand::try_parse_from(words).map(|command| command.args)
    }

    /// The bounds on connections these arguments set.
    pub fn network_limits(&self) -> NetworkLimits {
        let seconds = Duration::from_secs;
        NetworkLimits {
            header_timeout: seconds(self.header_timeout),
            body_timeout: seconds(self.body_timeout),
            idle_timeout: seconds(self.idle_timeout),
            ping_interval: seconds(self.ping_interval),
            max_connections: {
                // Raised whether or not the flag is given: the count set
                // may need it.
                let allowed = network::connections_the_file_limit_allows();
                self.max_connections.map_or(
                    allowed.min(NetworkLimits::default().max_connections),
                    |max| max as usize,
                )
            },
            max_client_connections: self.max_client_connections as usize,
            requests_per_second: self.requests_per_second,
            trust_proxy: self.trust_proxy,
        }
    }

    /// The bounds on analysis these arguments set.
    fn analysis_limits(&self) -> analysis::AnalysisLimits {
        let mut limits = analysis::AnalysisLimits::default_for_this_machine();
        if let Some(engines) = self.analysis_engines {
            limits.engines = usize::from(engines).max(1);
        }
        limits.local = self.analysis_engines != Some(0);
        limits.seconds = self.analysis_seconds;
        limits.review_nodes = self.review_nodes;
        limits
    }
}

/// The store chosen by the arguments, and the sentence that says where.
/// Called outside the runtime's async threads: opening PostgreSQL waits
/// for its connections, which run on `runtime`.
fn open_store(
    args: &ServeArgs,
    runtime: &tokio::runtime::Handle,
) -> Result<(Box<dyn store::GameStore>, String), String> {
    if let Some(limit) = args.memory {
        return Ok((
            Box::new(memory_store::MemoryStore::new(limit)),
            // Scripts read this line: its form stays as it was.
            "Games are kept in memory only: they are lost when the server stops.".to_owned(),
        ));
    }
    let path = match &args.db {
        Some(path) => {
            if let Some(url) = path
                .to_str()
                .filter(|t| t.starts_with("postgres://") || t.starts_with("postgresql://"))
            {
                let store = postgres_store::PostgresStore::open(url, runtime.clone())?;
                let kept = format!("Games are kept in PostgreSQL at {}", store.shown());
                return Ok((Box::new(store), kept));
            }
            path.clone()
        }
        None => sqlite_store::default_path()?,
    };
    let store = sqlite_store::SqliteStore::open(&path)?;
    Ok((
        Box::new(store),
        format!("Games are kept in {}", path.display()),
    ))
}

/// Why `koma serve` could not start, or stopped by a failure. Each says
/// what failed in its sentence.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The server's runtime could not start.
    #[error("cannot start the server's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The games' store cannot be opened or listened to (a file or
    /// database that cannot be used, of a newer schema, or damaged).
    #[error("{0}")]
    Store(String),
    /// A registered engine is not configured right, or cannot start.
    #[error("{0}")]
    Engines(String),
    /// The workers' settings cannot be used (`--worker-keys`).
    #[error("{0}")]
    Workers(String),
    /// The address cannot be listened on (a port in use, say).
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The CSA port cannot be listened on.
    #[error("cannot listen for CSA players on {address}: {source}")]
    ListenCsa {
        /// The address.
        address: SocketAddr,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The server stopped by a failure of its own.
    #[error("the server failed: {0}")]
    Failed(String),
}

/// Runs the server until Ctrl-C (or SIGTERM).
pub fn run(args: ServeArgs) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let open = args.open;
    runtime.block_on(async move {
        let server = start(args).await?;
        // Before the address, so that whoever reads the address (a test,
        // a script) knows the warning is written too.
        if !server.address.ip().is_loopback() {
            let (address, port) = (server.address, server.address.port());
            eprintln!(
                "koma: listening on {address}: other machines of the network can reach this \
                 server at this machine's address, port {port}. Koma speaks plain HTTP; beyond \
                 a network you trust, put it behind a proxy that adds TLS."
            );
        }
        // Tests and scripts read this line to find the server: keep it
        // first and keep its form. Standard output flushes at the line's
        // end.
        println!("Koma is serving {}", server.url);
        println!("{}", server.kept);
        if let Some(csa) = server.csa_address {
            println!(
                "CSA players connect to {}:{}",
                shown_host(csa.ip()),
                csa.port()
            );
        }
        if open {
            open_browser(&server.url);
        }
        wait_for_signal().await;
        eprintln!("koma: stopping");
        server.stop().await
    })
}

/// A server running inside this process, from [`start`].
pub struct RunningServer {
    /// The address it listens on (the port chosen when `--port 0`).
    pub address: SocketAddr,
    /// The address of the CSA protocol's port, with `--csa-port`.
    pub csa_address: Option<SocketAddr>,
    /// The address to open in a browser on this machine.
    pub url: String,
    /// Where the games are kept, as a sentence.
    pub kept: String,
    /// The application it serves, without the listener: a request handed
    /// to it directly (tower's `oneshot`) reaches the same games as one
    /// sent over a connection. It needs what the listener adds: a
    /// `ConnectInfo<SocketAddr>` of its peer among its extensions, and a
    /// `Host` this server answers to.
    pub router: Router,
    stop: watch::Sender<bool>,
    server: tokio::task::JoinHandle<()>,
}

impl RunningServer {
    /// Stops accepting, closes every WebSocket (code 1001) and waits for
    /// open requests, at most a few seconds.
    pub async fn stop(self) -> Result<(), ServeError> {
        let _ = self.stop.send(true);
        match tokio::time::timeout(SHUTDOWN_GRACE * 2, self.server).await {
            Ok(Ok(())) | Err(_) => Ok(()),
            Ok(Err(e)) => Err(ServeError::Failed(e.to_string())),
        }
    }
}

/// The engines `args` register, each started once (on a blocking thread)
/// so that one that cannot run stops the server before anyone connects.
async fn open_external_engines(
    args: &ServeArgs,
) -> Result<Arc<external::pool::ExternalEngines>, String> {
    let engines = external::registry::read(&args.engines, args.engines_file.as_deref())
        .map_err(|e| e.to_string())?;
    let pool = external::pool::ExternalEngines::new(engines, Duration::from_secs(args.engine_idle));
    let starting = pool.clone();
    tokio::task::spawn_blocking(move || starting.start_each())
        .await
        .map_err(|e| format!("cannot start the engines: {e}"))?
        .map_err(|e| format!("a registered engine cannot start: {e}"))?;
    Ok(pool)
}

/// Opens the games' store `args` choose and the games on it (their
/// watchers listening to the store): the games, and the sentence that
/// says where they are kept.
async fn open_games(
    args: &ServeArgs,
    external: &Arc<external::pool::ExternalEngines>,
) -> Result<(Arc<service::Games>, String), String> {
    let runtime = tokio::runtime::Handle::current();
    // On a blocking thread, as PostgreSQL waits for its connections, which
    // run on `runtime`.
    let opening = args.clone();
    let (store, kept) = tokio::task::spawn_blocking(move || open_store(&opening, &runtime))
        .await
        .map_err(|e| format!("cannot open the games: {e}"))??;
    let games = Arc::new(service::Games::new(
        store,
        Some(Arc::new(computer::EnginePicker::new(external.clone()))),
        args.computer_engines.map_or_else(
            computer_pool::ComputerPool::engines_for_this_machine,
            usize::from,
        ),
    ));
    // On a blocking thread too, as it may wait for the database.
    let listening = games.clone();
    tokio::task::spawn_blocking(move || listening.listen_to_store())
        .await
        .map_err(|e| format!("cannot listen to the games database: {e}"))??;
    Ok((games, kept))
}

/// The workers `args` allow (`--worker-keys`), their queue in the games'
/// store, or `None`.
fn open_workers(
    args: &ServeArgs,
    games: &Arc<service::Games>,
) -> Result<Option<Arc<workers::service::Workers>>, String> {
    let Some(path) = &args.worker_keys else {
        if args.analysis_engines == Some(0) {
            return Err(
                "--analysis-engines 0 leaves the reviews to workers: it needs --worker-keys FILE"
                    .to_owned(),
            );
        }
        return Ok(None);
    };
    let keys = workers::keys::WorkerKeys::read(path).map_err(|e| e.to_string())?;
    let queue = games.job_queue()?;
    Ok(Some(Arc::new(workers::service::Workers::new(
        keys,
        queue,
        Duration::from_secs(args.worker_lease),
        args.review_nodes,
        games.clone(),
    ))))
}

/// The address to open on this machine for a server listening on
/// `listen`: the loopback one when listening on every interface (0.0.0.0
/// cannot be opened).
fn shown_host(listen: IpAddr) -> String {
    match listen {
        ip if ip.is_unspecified() => "127.0.0.1".to_owned(),
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    }
}

/// The application over `games` as a server on `port` serves it: the API,
/// the WebSocket and the page, its WebSockets closing when `stopping`
/// turns true.
fn application(
    args: &ServeArgs,
    games: Arc<service::Games>,
    external: Arc<external::pool::ExternalEngines>,
    workers: Option<Arc<workers::service::Workers>>,
    port: u16,
    stopping: watch::Receiver<bool>,
) -> Router {
    let limits = args.network_limits();
    let analyses = Arc::new(analysis::Analyses::new(args.analysis_limits(), external));
    if let Some(workers) = &workers {
        let _ = analyses.workers.set(workers.clone());
        if args.analysis_engines != Some(0) {
            workers::local::start(workers.clone(), stopping.clone());
        }
    }
    api::router(app::App {
        games,
        shutdown: stopping,
        hosts: args.listen.is_loopback().then(|| {
            let mut hosts = app::App::loopback_hosts(port);
            hosts.push(format!("{}:{port}", shown_host(args.listen)));
            hosts.extend(args.hosts.iter().map(|name| name.trim().to_owned()));
            Arc::new(hosts)
        }),
        limits: Arc::new(app::Limits::new(
            limits.requests_per_second,
            limits.trust_proxy,
        )),
        body_timeout: limits.body_timeout,
        ping_interval: limits.ping_interval,
        mate_searches: Arc::new(tokio::sync::Semaphore::new(app::App::mate_turns() as usize)),
        mate_turns: app::App::mate_turns(),
        analyses,
        workers,
    })
}

/// The application over the games `args` choose, without a listener: the
/// router that tests drive with tower's `oneshot` (as axum's
/// `examples/testing` does), request by request. It answers to the `Host`
/// `127.0.0.1:PORT` of `--port` (8080 unless given; `localhost` too), and
/// each request needs a `ConnectInfo<SocketAddr>` of its peer among its
/// extensions, as the listener adds. WebSockets cannot open on it: they
/// need a connection to take over (see [`start`] and
/// [`RunningServer::router`]).
#[doc(hidden)]
pub async fn router(args: ServeArgs) -> Result<Router, ServeError> {
    let external = open_external_engines(&args)
        .await
        .map_err(ServeError::Engines)?;
    let (games, _) = open_games(&args, &external)
        .await
        .map_err(ServeError::Store)?;
    let workers = open_workers(&args, &games).map_err(ServeError::Workers)?;
    // No server stops it; the signal is for WebSockets, which need a
    // connection and so never open here.
    let (_, stopping) = watch::channel(false);
    Ok(application(
        &args, games, external, workers, args.port, stopping,
    ))
}

/// Opens the games' store and starts serving on the runtime this is
/// called on; returns once the server listens. Nothing is printed: `run`
/// says where it serves.
pub async fn start(args: ServeArgs) -> Result<RunningServer, ServeError> {
    // Opened before listening: a database that cannot be used stops the
    // server before anyone is told to connect.
    let external = open_external_engines(&args)
        .await
        .map_err(ServeError::Engines)?;
    let (games, kept) = open_games(&args, &external)
        .await
        .map_err(ServeError::Store)?;
    let workers = open_workers(&args, &games).map_err(ServeError::Workers)?;
    let address = SocketAddr::from((args.listen, args.port));
    let listen = |source| ServeError::Listen { address, source };
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(listen)?;
    let address = listener.local_addr().map_err(listen)?;
    let port = address.port();
    let url = format!("http://{}:{port}/", shown_host(args.listen));
    let limits = args.network_limits();
    let (stop, stopping) = watch::channel(false);
    let mut csa_listener = None;
    let mut csa_address = None;
    if let Some(csa_port) = args.csa_port {
        let address = SocketAddr::from((args.listen, csa_port));
        let listen = |source| ServeError::ListenCsa { address, source };
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(listen)?;
        csa_address = Some(listener.local_addr().map_err(listen)?);
        csa_listener = Some(listener);
    }
    let router = application(
        &args,
        games.clone(),
        external,
        workers,
        port,
        stopping.clone(),
    );
    let connections =
        connections::Connections::new(limits.max_connections, limits.max_client_connections);
    if let Some(listener) = csa_listener {
        let limits = csa::CsaLimits {
            login_timeout: Duration::from_secs(args.csa_login_timeout),
        };
        tokio::spawn(csa::serve(
            listener,
            games,
            connections.clone(),
            limits,
            stopping.clone(),
        ));
    }
    let server = tokio::spawn(network::serve(
        listener,
        router.clone(),
        limits,
        connections,
        stopping,
        SHUTDOWN_GRACE,
    ));
    Ok(RunningServer {
        address,
        csa_address,
        url,
        kept,
        router,
        stop,
        server,
    })
}

/// Returns at Ctrl-C, or SIGTERM where there is one: how `koma serve` and
/// `koma worker` hear that they are to stop.
pub async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
    }
    if tokio::signal::ctrl_c().await.is_err() {
        // No way to hear Ctrl-C: run until killed.
        std::future::pending::<()>().await;
    }
}

/// Asks the desktop to open `url`; says so when it cannot.
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(command)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!("koma: cannot open a browser ({command}: {e}); open {url} yourself");
    }
}
