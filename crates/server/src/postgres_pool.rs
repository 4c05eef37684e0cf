//! The connections of the PostgreSQL store: where the database is and how
//! to name it without its password ([`Target`]), and a small pool of
//! connections that replaces broken ones ([`Pool`]).
//!
//! The `postgres` client is synchronous and must not be used (nor dropped)
//! on tokio's async threads: the store is called from its blocking threads,
//! and connections the store still holds when dropped are dropped on a
//! thread of their own ([`drop_apart`]).

use postgres::config::Host;
use postgres::{Client, Config, NoTls};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::store::StoreError;

/// The most connections one server keeps to the database (beside the one
/// that listens): enough for the blocking threads that use it at once,
/// few enough for PostgreSQL's default of 100 to serve several servers.
const POOL_SIZE: usize = 8;

/// How long a change waits for a free connection before it fails.
const POOL_WAIT: Duration = Duration::from_secs(30);

/// How long connecting may take before it fails, unless the URL says.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a change waits for another server's change to the same game,
/// as the SQLite store's busy timeout.
const LOCK_TIMEOUT: &str = "10s";

/// A connection unused for this long is checked before it is used again:
/// the server may have restarted meanwhile.
const IDLE_CHECK: Duration = Duration::from_secs(5);

/// Where the database is, and how to speak of it without its password.
#[derive(Clone)]
pub struct Target {
    config: Config,
    /// `postgres://user@host:port/dbname`.
    pub shown: String,
    /// The password as written in the URL and as decoded, to be cut out of
    /// any message that might quote it.
    secrets: Vec<String>,
}

impl Target {
    /// Reads a `postgres://` or `postgresql://` URL.
    pub fn parse(url: &str) -> Result<Target, String> {
        let mut config: Config = url.parse().map_err(|e: postgres::Error| {
            // Not quoted: where the password is in a URL that cannot be read
            // is not known.
            format!(
                "the --db URL is not a PostgreSQL URL like \
                 postgres://user:password@host:port/dbname ({})",
                describe(&e)
            )
        })?;
        // The password as written (perhaps percent-encoded), from the
        // authority part `user:password@host`, and as read.
        let mut secrets: Vec<String> = url
            .split_once("://")
            .map(|(_, rest)| rest.split(['/', '?']).next().unwrap_or(""))
            .and_then(|authority| authority.rsplit_once('@'))
            .and_then(|(user, _)| user.split_once(':'))
            .map(|(_, password)| password.to_owned())
            .into_iter()
            .collect();
        if let Some(password) = config.get_password() {
            secrets.push(String::from_utf8_lossy(password).into_owned());
        }
        // Longest first, so that a password that contains another's text
        // is cut whole.
        secrets.retain(|s| !s.is_empty());
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        if config.get_hosts().is_empty() && config.get_hostaddrs().is_empty() {
            config.host("localhost");
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("koma serve");
        }
        let shown = Self::show(&config);
        Ok(Target {
            config,
            shown,
            secrets,
        })
    }

    /// The URL without its password and options.
    fn show(config: &Config) -> String {
        let ports = config.get_ports();
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .map(|host| match host {
                Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                Host::Unix(path) => path.to_string_lossy().replace('/', "%2F"),
            })
            .enumerate()
            .map(|(i, host)| {
                let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
                format!("{host}:{port}")
            })
            .collect();
        let hosts = if hosts.is_empty() {
            let addresses: Vec<String> = config
                .get_hostaddrs()
                .iter()
                .map(|a| a.to_string())
                .collect();
            addresses.join(",")
        } else {
            hosts.join(",")
        };
        let user = config
            .get_user()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        let dbname = config.get_dbname().or(config.get_user()).unwrap_or("");
        format!("postgres://{user}{hosts}/{dbname}")
    }

    /// `text` with the password cut out.
    pub fn redact(&self, text: &str) -> String {
        redact_with(&self.secrets, text)
    }

    /// A new connection, set up for the store.
    pub fn connect(&self) -> Result<Client, postgres::Error> {
        let mut client = self.config.connect(NoTls)?;
        // A commit is on the server's disk before a change is acknowledged,
        // whatever the server's default.
        client.batch_execute(&format!(
            "SET lock_timeout = '{LOCK_TIMEOUT}'; SET synchronous_commit = on"
        ))?;
        Ok(client)
    }

    /// A sentence about an error while using the database.
    pub fn failed(&self, error: &postgres::Error) -> StoreError {
        StoreError::Failed(format!(
            "The games database failed: {}.",
            self.redact(&describe(error))
        ))
    }
}

/// `text` with each of `secrets` replaced by `***`. No message of the
/// client is known to quote the password: this makes sure of it.
fn redact_with(secrets: &[String], text: &str) -> String {
    secrets.iter().fold(text.to_owned(), |text, secret| {
        text.replace(secret.as_str(), "***")
    })
}

/// What went wrong, in one line: the server's own message if it sent one.
pub fn describe(error: &postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return db.message().to_owned();
    }
    match std::error::Error::source(error) {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    }
}

/// Drops connections on a thread of their own: dropping one runs its own
/// small runtime, which tokio forbids on its async threads.
fn drop_apart(clients: Vec<Client>) {
    if clients.is_empty() {
        return;
    }
    if let Ok(thread) = std::thread::Builder::new().spawn(move || drop(clients)) {
        let _ = thread.join();
    }
}

/// Up to [`POOL_SIZE`] connections, reused; a broken one is dropped and a
/// new one made on the next use.
pub struct Pool {
    /// The database.
    pub target: Target,
    state: Mutex<PoolState>,
    freed: Condvar,
}

struct PoolState {
    /// Connections not in use, with when they were last used.
    idle: Vec<(Client, Instant)>,
    /// Connections in use or idle.
    open: usize,
}

/// A connection taken from the pool, given back when dropped.
pub struct Lease<'a> {
    pool: &'a Pool,
    client: Option<Client>,
}

impl Pool {
    /// A pool for `target` holding `first`, a connection already made.
    pub fn new(target: Target, first: Client) -> Pool {
        Pool {
            target,
            state: Mutex::new(PoolState {
                idle: vec![(first, Instant::now())],
                open: 1,
            }),
            freed: Condvar::new(),
        }
    }

    /// Closes the idle connections (on a thread of their own).
    pub fn close(&self) {
        let idle = {
            let mut state = self.lock();
            state.open -= state.idle.len();
            std::mem::take(&mut state.idle)
        };
        self.freed.notify_all();
        drop_apart(idle.into_iter().map(|(client, _)| client).collect());
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        // The state is two plain fields, sound even after a panic.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A connection: an idle one that still works, or a new one.
    pub fn get(&self) -> Result<Lease<'_>, StoreError> {
        let deadline = Instant::now() + POOL_WAIT;
        let mut state = self.lock();
        loop {
            if let Some((mut client, used)) = state.idle.pop() {
                drop(state);
                if used.elapsed() < IDLE_CHECK || client.is_valid(CONNECT_TIMEOUT).is_ok() {
                    return Ok(Lease {
                        pool: self,
                        client: Some(client),
                    });
                }
                drop(client);
                state = self.lock();
                state.open -= 1;
                continue;
            }
            if state.open < POOL_SIZE {
                state.open += 1;
                drop(state);
                return match self.target.connect() {
                    Ok(client) => Ok(Lease {
                        pool: self,
                        client: Some(client),
                    }),
                    Err(error) => {
                        self.lock().open -= 1;
                        self.freed.notify_one();
                        Err(StoreError::Failed(format!(
                            "The games database cannot be reached: {}.",
                            self.target.redact(&describe(&error))
                        )))
                    }
                };
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(StoreError::Failed(
                    "The games database is busy: no connection was free in 30 seconds.".into(),
                ));
            }
            state = self
                .freed
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Lease<'_> {
    /// The connection.
    pub fn client(&mut self) -> &mut Client {
        self.client
            .as_mut()
            .expect("a lease holds its client until dropped")
    }

    /// Whether `error`, met on this connection, means that the connection
    /// is lost; if so it is not given back to the pool, and neither are the
    /// idle ones, most likely lost too (the server restarted), so that the
    /// next connection is a new one.
    pub fn lost(&mut self, error: &postgres::Error) -> bool {
        // The server's last words (57P01: "terminating connection due to
        // administrator command") arrive as the answer to the next query,
        // before the client has seen the connection close.
        let class = error.code().map(|code| code.code()).unwrap_or("");
        let lost = self.client().is_closed()
            || error.is_closed()
            || class.starts_with("57P")
            || class.starts_with("08")
            || std::error::Error::source(error).is_some_and(|e| e.is::<std::io::Error>());
        if lost {
            if let Some(client) = self.client.take() {
                self.pool.lock().open -= 1;
                self.pool.freed.notify_one();
                drop(client);
            }
            self.pool.close();
        }
        lost
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        let mut state = self.pool.lock();
        if client.is_closed() {
            state.open -= 1;
            drop(state);
            drop(client);
        } else {
            state.idle.push((client, Instant::now()));
            drop(state);
        }
        self.pool.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_is_shown_without_its_password() {
        let target = Target::parse("postgres://alice:s%40cret-pw@db.example:6543/games").unwrap();
        assert_eq!(target.shown, "postgres://alice@db.example:6543/games");
        assert_eq!(
            target.redact("x s%40cret-pw y s@cret-pw z"),
            "x *** y *** z"
        );
        let target = Target::parse("postgresql://bob@localhost").unwrap();
        assert_eq!(target.shown, "postgres://bob@localhost:5432/bob");
        let target = Target::parse("postgresql:///koma?host=/run/postgresql&user=carol").unwrap();
        assert_eq!(
            target.shown,
            "postgres://carol@%2Frun%2Fpostgresql:5432/koma"
        );
        let error = Target::parse("postgres://dave:hunter22@host:notaport/db")
            .err()
            .unwrap();
        assert!(!error.contains("hunter22"), "{error}");
        assert!(error.contains("not a PostgreSQL URL"), "{error}");
    }
}
