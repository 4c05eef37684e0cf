//! A PostgreSQL database of its own for each test, dropped at the end.
//!
//! With `KOMA_TEST_POSTGRES` set (the URL of a server where its user may
//! `CREATE DATABASE`, as `.ci/run` sets up), a database with a random name
//! is created there. Otherwise a private server is started: `initdb` in a
//! temporary folder and `postgres` on a free loopback port, with its socket
//! in that folder, stopped and deleted at the end. When neither can be had
//! (running as root without the variable: `initdb` refuses root), the test
//! fails with a sentence saying how to run it; it never passes unchecked.

use std::hash::{BuildHasher, Hasher};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A database for one test, dropped with it.
pub struct TestDatabase {
    /// `postgres://…/NAME`, for `koma serve --db`.
    pub url: String,
    /// The password in `url`, if any, which no output may show.
    pub password: Option<String>,
    owner: Owner,
}

enum Owner {
    /// A database on the server of `KOMA_TEST_POSTGRES`.
    Shared { admin: String, name: String },
    /// A server of our own, stopped when dropped.
    Private { _server: Cluster },
}

/// A private PostgreSQL server, stopped and deleted when dropped.
struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    child: Child,
    port: u16,
}

/// A name that no other test, run or process uses.
fn unique(prefix: &str) -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNT.fetch_add(1, Ordering::Relaxed));
    format!(
        "{prefix}_{}_{:012x}",
        std::process::id(),
        hasher.finish() >> 16
    )
}

/// `url` with its database name replaced by `name`.
fn with_dbname(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[start..].find('/') {
        Some(slash) => &base[..start + slash],
        None => base,
    };
    format!("{base}/{name}{query}")
}

/// The password written in `url`, if any.
fn password_of(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let user = authority.rsplit_once('@')?.0;
    Some(user.split_once(':')?.1.to_owned()).filter(|p| !p.is_empty())
}

/// A connection for the test's own queries.
pub fn connect(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to the test database: {e:?}"))
}

/// A fresh, empty database for one test.
pub fn database() -> TestDatabase {
    match std::env::var("KOMA_TEST_POSTGRES") {
        Ok(admin) if !admin.trim().is_empty() => shared(admin.trim()),
        // Twice: the free port found may be taken before the server binds it.
        _ => match Cluster::start().or_else(|_| Cluster::start()) {
            Ok(cluster) => TestDatabase {
                url: format!("postgres://koma@127.0.0.1:{}/koma", cluster.port),
                password: None,
                owner: Owner::Private { _server: cluster },
            },
            Err(why) => panic!(
                "The PostgreSQL tests need a server. Either set KOMA_TEST_POSTGRES to the URL \
                 of one where the user may CREATE DATABASE (like \
                 postgres://koma:password@127.0.0.1:5432/postgres; .ci/run sets one up), or \
                 run the tests as a user other than root with PostgreSQL's programs installed \
                 (Debian: apt-get install postgresql), so that they can start a private \
                 server. Starting one failed: {why}"
            ),
        },
    }
}

fn shared(admin: &str) -> TestDatabase {
    let name = unique("koma_test");
    let mut client = postgres::Client::connect(admin, postgres::NoTls).unwrap_or_else(|e| {
        panic!("KOMA_TEST_POSTGRES names a server that cannot be reached: {e:?}")
    });
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap_or_else(|e| panic!("cannot CREATE DATABASE on KOMA_TEST_POSTGRES's server: {e:?}"));
    TestDatabase {
        url: with_dbname(admin, &name),
        password: password_of(admin),
        owner: Owner::Shared {
            admin: admin.to_owned(),
            name,
        },
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Owner::Shared { admin, name } = &self.owner {
            if let Ok(mut client) = postgres::Client::connect(admin, postgres::NoTls) {
                // FORCE ends the connections of servers a failed test left.
                let _ =
                    client.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        }
    }
}

/// The folder of PostgreSQL's server programs.
fn server_programs() -> Result<PathBuf, String> {
    let has_initdb = |dir: &Path| dir.join("initdb").is_file();
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && has_initdb(&dir) {
            return Ok(dir);
        }
    }
    // Debian keeps them out of PATH, one folder per major version.
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            has_initdb(&bin).then_some((version, bin))
        })
        .collect();
    found.sort();
    found
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| "PostgreSQL's initdb was not found (neither pg_config nor /usr/lib/postgresql/*/bin has it)".to_owned())
}

impl Cluster {
    fn start() -> Result<Cluster, String> {
        let bin = server_programs()?;
        let dir = std::env::temp_dir().join(unique("koma-pg"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {dir:?}: {e}"))?;
        let data = dir.join("data");
        let out = Command::new(bin.join("initdb"))
            .args(["-U", "koma", "-A", "trust", "-E", "UTF8", "--no-sync", "-D"])
            .arg(&data)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("initdb cannot run: {e}"))?;
        if !out.status.success() {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let log = std::fs::File::create(dir.join("log")).map_err(|e| e.to_string())?;
        let child = Command::new(bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-h", "127.0.0.1", "-F", "-k"])
            .arg(&dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("postgres cannot run: {e}"))?;
        let mut cluster = Cluster {
            dir,
            bin,
            child,
            port,
        };
        let admin = format!("postgres://koma@127.0.0.1:{port}/postgres");
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut client = loop {
            match postgres::Client::connect(&admin, postgres::NoTls) {
                Ok(client) => break client,
                Err(e) => {
                    let exited = cluster.child.try_wait().ok().flatten().is_some();
                    if exited || Instant::now() > deadline {
                        let log = std::fs::read_to_string(cluster.dir.join("log"));
                        return Err(format!("the server did not start ({e}): {log:?}"));
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        };
        client
            .batch_execute("CREATE DATABASE koma")
            .map_err(|e| format!("cannot create the database: {e}"))?;
        Ok(cluster)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Immediate: nothing in a test's database is worth a checkpoint.
        let stopped = Command::new(self.bin.join("pg_ctl"))
            .args(["stop", "-m", "immediate", "-w", "-D"])
            .arg(self.dir.join("data"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !stopped {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
