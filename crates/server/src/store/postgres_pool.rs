//! The connections of the PostgreSQL store: where the database is and how
//! to name it without its password ([`Target`]), and the pool of
//! connections that replaces broken ones ([`Pool`], deadpool-postgres's).
//!
//! The connections are tokio-postgres's: each runs as a task on the
//! server's runtime, and the store's calls (made on tokio's blocking
//! threads, like the SQLite store's) wait for their futures there.

use deadpool_postgres::{
    ClientWrapper, Hook, HookError, Manager, ManagerConfig, Object, PoolError, QueueMode,
    RecyclingMethod, Runtime, Timeouts,
};
use std::time::Duration;
use tokio_postgres::config::Host;
use tokio_postgres::tls::NoTlsStream;
use tokio_postgres::{Client, Config, Connection, NoTls, Socket};

use super::StoreError;

/// The pool of connections to the games database.
pub type Pool = deadpool_postgres::Pool;

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
        let mut config: Config = url.parse().map_err(|e: tokio_postgres::Error| {
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

    /// A new connection outside the pool, with the connection itself,
    /// which the caller drives; it sets it up with [`setup`].
    pub async fn connect(
        &self,
    ) -> Result<(Client, Connection<Socket, NoTlsStream>), tokio_postgres::Error> {
        self.config.connect(NoTls).await
    }

    /// A sentence about an error while using the database.
    pub fn failed(&self, error: &tokio_postgres::Error) -> StoreError {
        StoreError::Failed(format!(
            "The games database failed: {}.",
            self.redact(&describe(error))
        ))
    }

    /// A pool of up to [`POOL_SIZE`] connections (none made yet): each new
    /// one is set up for the store; one idle for [`IDLE_CHECK`] is checked
    /// before it is used again, and a closed one is replaced.
    pub fn pool(&self) -> Result<Pool, String> {
        let manager = Manager::from_config(
            self.config.clone(),
            NoTls,
            ManagerConfig {
                // Closed connections are dropped; the check of idle ones
                // is the hook below.
                recycling_method: RecyclingMethod::Fast,
            },
        );
        Pool::builder(manager)
            .max_size(POOL_SIZE)
            .timeouts(Timeouts {
                wait: Some(POOL_WAIT),
                // Connecting has the URL's own timeout (CONNECT_TIMEOUT
                // unless it says), the check below its own.
                create: None,
                recycle: None,
            })
            .runtime(Runtime::Tokio1)
            // The connection used last is used again, so that the others
            // can stay idle (and be checked once they have been long).
            .queue_mode(QueueMode::Lifo)
            .post_create(Hook::async_fn(|client: &mut ClientWrapper, _| {
                Box::pin(async move {
                    client
                        .batch_execute(&setup())
                        .await
                        .map_err(HookError::Backend)
                })
            }))
            .pre_recycle(Hook::async_fn(|client: &mut ClientWrapper, metrics| {
                let idle = metrics.last_used() >= IDLE_CHECK;
                Box::pin(async move {
                    if idle {
                        check(client).await.map_err(HookError::message)?;
                    }
                    Ok(())
                })
            }))
            .build()
            .map_err(|e| format!("cannot make a pool of connections to the games database: {e}"))
    }

    /// A sentence about a pool that gave no connection.
    pub fn unavailable(&self, error: PoolError) -> StoreError {
        StoreError::Failed(match error {
            PoolError::Timeout(_) => {
                "The games database is busy: no connection was free in 30 seconds.".into()
            }
            other => format!(
                "The games database cannot be reached: {}.",
                self.redact(&describe_pool(&other))
            ),
        })
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
pub fn describe(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return db.message().to_owned();
    }
    match std::error::Error::source(error) {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    }
}

/// The error of a check that got no answer in time, in the words of the
/// client's own timeout.
pub const NO_ANSWER: &str = "timeout waiting for server";

/// Whether `client` answers a trivial query within [`CONNECT_TIMEOUT`];
/// if not, what went wrong.
pub async fn check(client: &Client) -> Result<(), String> {
    match tokio::time::timeout(CONNECT_TIMEOUT, client.simple_query("")).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(error)) => Err(describe(&error)),
        Err(_) => Err(NO_ANSWER.to_owned()),
    }
}

/// What a pool that gave no connection met, in one line.
pub fn describe_pool(error: &PoolError) -> String {
    match error {
        PoolError::Backend(error) | PoolError::PostCreateHook(HookError::Backend(error)) => {
            describe(error)
        }
        other => other.to_string(),
    }
}

/// The statements that set up each new connection: a change waits at most
/// [`LOCK_TIMEOUT`] for another's lock, and a commit is on the server's
/// disk before a change is acknowledged, whatever the server's default.
pub fn setup() -> String {
    format!("SET lock_timeout = '{LOCK_TIMEOUT}'; SET synchronous_commit = on")
}

/// Whether `error`, met on `client`, means that the connection is lost; if
/// so the connection is not given back to the pool, and neither are the
/// idle ones, most likely lost too (the server restarted), so that the
/// next connection is a new one.
pub fn lost(pool: &Pool, client: Object, error: &tokio_postgres::Error) -> bool {
    // The server's last words (57P01: "terminating connection due to
    // administrator command") arrive as the answer to the next query,
    // before the client has seen the connection close.
    let class = error.code().map(|code| code.code()).unwrap_or("");
    let lost = client.is_closed()
        || error.is_closed()
        || class.starts_with("57P")
        || class.starts_with("08")
        || std::error::Error::source(error).is_some_and(|e| e.is::<std::io::Error>());
    if lost {
        drop(Object::take(client));
        pool.retain(|_, _| false);
    }
    lost
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
