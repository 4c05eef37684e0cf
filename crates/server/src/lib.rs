//! `koma serve`: the board in the browser. An axum server on 127.0.0.1 that
//! serves the embedded front end and the JSON + WebSocket API of
//! `docs/API.md`. The server is authoritative: the rules library decides
//! every move; the page shows what the server says.
//!
//! One file per concern: `app` (what handlers share), `api` (HTTP routes
//! and limits), `ws` (WebSocket),
//! `service` (creating, importing and changing games), `turns` (moves,
//! takebacks, resignations), `background` (watchers, flags, the computer's
//! turn), `requests` (the changes players send), `refusal` (errors),
//! `seats` (who may act), `clock` (time controls), `rate` (per-connection
//! limits), `live` (a replayed game of any kind), `state` (the JSON
//! answers), `stored_state` (a kept game's answer), `store` (where games are kept): `sqlite_store` (kept in a
//! file), `postgres_store` (kept in PostgreSQL, shared by several servers,
//! with `postgres_pool` and `postgres_listen`)
//! and `store_row` (a game as their row), `names` (the API's words),
//! `computer` (the engine as opponent), `computer_pool` (the engines its
//! moves share), `memory_store` (games kept in memory, bounded in bytes),
//! `assets` (the page).

mod analysis;
mod api;
mod app;
mod assets;
mod background;
mod clock;
mod computer;
mod computer_pool;
mod live;
mod mate;
mod memory_store;
mod names;
mod perfect;
mod postgres_listen;
mod postgres_pool;
mod postgres_store;
mod rate;
mod record_notes;
mod refusal;
mod requests;
mod review;
mod review_kept;
mod seats;
mod service;
mod sqlite_store;
mod state;
mod store;
mod store_row;
mod stored_state;
mod turns;
mod ws;

use axum::serve::ListenerExt;
use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How long stopping waits for open requests before it gives up on them.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// `koma serve`: the graphical board in the browser.
#[derive(Args)]
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
    /// cores less one, at least 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    analysis_engines: Option<u16>,
    /// The longest the engine analyses one position, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    analysis_seconds: u64,
    /// The engine's budget for each position of a game review, in nodes
    /// (about a quarter of a second a position on one core).
    #[arg(long, value_name = "NODES", default_value_t = analysis::DEFAULT_REVIEW_NODES,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    review_nodes: u64,
}

impl ServeArgs {
    /// The bounds on analysis these arguments set.
    fn analysis_limits(&self) -> analysis::AnalysisLimits {
        let mut limits = analysis::AnalysisLimits::default_for_this_machine();
        if let Some(engines) = self.analysis_engines {
            limits.engines = usize::from(engines);
        }
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

/// Runs the server until Ctrl-C (or SIGTERM).
pub fn run(args: ServeArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    // Opened before the address is printed: a database that cannot be used
    // stops the server before anyone is told to connect.
    let (store, kept) = open_store(&args, runtime.handle())?;
    runtime.block_on(serve(args, store, kept))
}

async fn serve(
    args: ServeArgs,
    store: Box<dyn store::GameStore>,
    kept: String,
) -> Result<(), String> {
    let games = Arc::new(service::Games::new(
        store,
        Some(Arc::new(computer::EnginePicker::default())),
        args.computer_engines.map_or_else(
            computer_pool::ComputerPool::engines_for_this_machine,
            usize::from,
        ),
    ));
    // Before the address too; on a blocking thread, as it may wait for
    // the database.
    let listening = games.clone();
    tokio::task::spawn_blocking(move || listening.listen_to_store())
        .await
        .map_err(|e| format!("cannot listen to the games database: {e}"))??;
    let address = SocketAddr::from((args.listen, args.port));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot tell the port listened on: {e}"))?
        .port();
    // The address to open here: the loopback one when listening on every
    // interface (0.0.0.0 cannot be opened).
    let shown = match args.listen {
        ip if ip.is_unspecified() => "127.0.0.1".to_owned(),
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    let url = format!("http://{shown}:{port}/");
    // Tests and scripts read this line to find the server: keep it first
    // and keep its form. Standard output flushes at the line's end.
    println!("Koma is serving {url}");
    println!("{kept}");
    if !args.listen.is_loopback() {
        eprintln!(
            "koma: listening on {address}: other machines of the network can reach this server \
             at this machine's address, port {port}. Koma speaks plain HTTP; beyond a network \
             you trust, put it behind a proxy that adds TLS."
        );
    }
    if args.open {
        open_browser(&url);
    }
    let (stop, stopping) = watch::channel(false);
    let app = api::router(app::App {
        games,
        shutdown: stopping.clone(),
        hosts: args.listen.is_loopback().then(|| {
            let mut hosts = app::App::loopback_hosts(port);
            hosts.push(format!("{shown}:{port}"));
            Arc::new(hosts)
        }),
        limits: Arc::default(),
        mate_searches: app::App::mate_searches(),
        analyses: Arc::new(analysis::Analyses::new(args.analysis_limits())),
    });
    // Each state is one small WebSocket frame: sent at once, not held back
    // for the peer's acknowledgement of the last one (Nagle's algorithm,
    // which added about 40 ms to what a watcher saw).
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    let mut stopped = stopping.clone();
    let server = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stopped.wait_for(|&stop| stop).await;
        })
        .await
    });
    wait_for_signal().await;
    eprintln!("koma: stopping");
    // WebSocket sessions watch this too and close, so that the graceful
    // shutdown does not wait for them forever.
    let _ = stop.send(true);
    match tokio::time::timeout(SHUTDOWN_GRACE, server).await {
        Ok(Ok(Ok(()))) | Err(_) => Ok(()),
        Ok(Ok(Err(e))) => Err(format!("the server failed: {e}")),
        Ok(Err(e)) => Err(format!("the server failed: {e}")),
    }
}

/// Ctrl-C, or SIGTERM where there is one.
async fn wait_for_signal() {
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
        // No way to hear Ctrl-C: serve until killed.
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
