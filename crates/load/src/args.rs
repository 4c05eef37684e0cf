//! `koma load`'s arguments, and the check that matters most: the address is
//! this machine's, so that the tool can never load anyone else's server.

use clap::Args;
use koma_rules::Variant;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The longest run `--duration` allows, in seconds.
pub const MAX_DURATION: u64 = 600;

/// `koma load`: shared games of random moves played against a running
/// `koma serve`, each by two players on their own WebSockets.
#[derive(Args)]
pub struct LoadArgs {
    /// The server, as `koma serve` prints it: http://127.0.0.1:PORT/
    /// (loopback addresses only).
    #[arg(long, value_parser = parse_target)]
    pub url: Target,
    /// Games played at the same time (two WebSockets each).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub games: u32,
    /// Seconds to run, at most 600.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=MAX_DURATION))]
    pub duration: u64,
    /// Moves to play in all, after which the run stops.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_moves: u64,
    /// The game to play.
    #[arg(long, default_value = "spear")]
    pub variant: Variant,
    /// Milliseconds a player waits at least between two of its moves
    /// (0: as fast as the answers come, within the server's limits).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub pace: u64,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Replay attacks rather than play games (`--hostile` and its options).
    #[command(flatten)]
    pub hostile: HostileArgs,
}

/// Where the server is: the address connected to, and the `host:port` the
/// requests name (the server answers only to its own names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The address connected to: always a loopback one.
    pub address: SocketAddr,
    /// `host:port` as the URL gave it, for the Host header.
    pub authority: String,
}

impl Target {
    /// The URL for people: `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.authority)
    }
}

/// Reads `http://HOST[:PORT][/]`, accepting only loopback hosts: an IP
/// address in 127.0.0.0/8 or ::1, or `localhost`, which is taken to mean
/// 127.0.0.1 without asking any resolver (a name could point elsewhere).
pub fn parse_target(text: &str) -> Result<Target, String> {
    let rest = text
        .get(..7)
        .filter(|scheme| scheme.eq_ignore_ascii_case("http://"))
        .map(|_| &text[7..])
        .ok_or("give the address as `koma serve` prints it: http://127.0.0.1:PORT/")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if !path.is_empty() && path != "/" {
        return Err("give the server's address without a path: http://127.0.0.1:PORT/".into());
    }
    if authority.contains('@') {
        return Err("the address takes no user name or password".into());
    }
    let (host, port) = split_host_port(authority)?;
    let ip = if host.eq_ignore_ascii_case("localhost") {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        host.parse::<IpAddr>().map_err(|_| not_loopback(host))?
    };
    if !ip.to_canonical().is_loopback() {
        return Err(not_loopback(host));
    }
    Ok(Target {
        address: SocketAddr::new(ip, port),
        authority: authority.to_owned(),
    })
}

fn not_loopback(host: &str) -> String {
    format!(
        "koma load loads only this machine, and {host} is not a loopback address \
         (127.0.0.1, ::1 or localhost)"
    )
}

/// `host:port`, `[v6]:port` or a host alone (port 80).
fn split_host_port(authority: &str) -> Result<(&str, u16), String> {
    let (host, port) = if let Some(bracketed) = authority.strip_prefix('[') {
        let (host, after) = bracketed
            .split_once(']')
            .ok_or("an IPv6 address is written in brackets: http://[::1]:PORT/")?;
        match after {
            "" => (host, None),
            _ => (
                host,
                Some(after.strip_prefix(':').ok_or("a port follows a colon")?),
            ),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("the address has no host: http://127.0.0.1:PORT/".into());
    }
    let port = match port {
        None => 80,
        Some(port) => port
            .parse::<u16>()
            .ok()
            .filter(|&port| port != 0)
            .ok_or_else(|| format!("{port:?} is not a port number (1 to 65535)"))?,
    };
    Ok((host, port))
}

/// `koma load --hostile` and its options.
#[derive(Args, Debug)]
pub struct HostileArgs {
    /// Replay attacks rather than play games: slow and silent connections,
    /// hoarded connections, a flood, WebSocket protocol errors, hostile
    /// JSON; report for each what the server did and whether it held
    /// (exit status 1 if any did not).
    #[arg(long)]
    pub hostile: bool,
    /// With --hostile: the longest the run waits for the server's
    /// timeouts, in seconds; the flood lasts a ninth of it (1 to 10 s).
    #[arg(long, value_name = "SECONDS", default_value_t = 90, requires = "hostile",
          value_parser = clap::value_parser!(u64).range(5..=600))]
    pub hostile_seconds: u64,
    /// With --hostile: idle connections hoarded from one address (at most
    /// what this process may open); more than the server's
    /// --max-client-connections.
    #[arg(long, value_name = "N", default_value_t = 1100, requires = "hostile",
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub hostile_connections: u64,
    /// With --hostile: the server's --header-timeout, in seconds, against
    /// which slow and silent connections are judged.
    #[arg(long, value_name = "SECONDS", default_value_t = 20, requires = "hostile",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub expect_header_timeout: u64,
    /// With --hostile: the server's --body-timeout, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, requires = "hostile",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub expect_body_timeout: u64,
    /// With --hostile: the server's --ping-interval, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 20, requires = "hostile",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub expect_ping_interval: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_addresses_are_taken() {
        let target = parse_target("http://127.0.0.1:8080/").unwrap();
        assert_eq!(target.address, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(target.authority, "127.0.0.1:8080");
        assert_eq!(target.url(), "http://127.0.0.1:8080/");
        let target = parse_target("HTTP://localhost:9").unwrap();
        assert_eq!(target.address, "127.0.0.1:9".parse().unwrap());
        assert_eq!(target.authority, "localhost:9");
        let target = parse_target("http://[::1]:7/").unwrap();
        assert_eq!(target.address, "[::1]:7".parse().unwrap());
        assert_eq!(parse_target("http://127.9.8.7").unwrap().address.port(), 80);
        assert!(parse_target("http://[::ffff:127.0.0.1]:1/").is_ok());
    }

    #[test]
    fn other_machines_are_refused() {
        for url in [
            "http://192.0.2.1:80/",
            "http://10.0.0.1:8080",
            "http://[2001:db8::1]:80/",
            "http://[::ffff:192.0.2.1]:80/",
            "http://example.com:80/",
            "http://localhost.example.com:80/",
            "http://0.0.0.0:80/",
        ] {
            let error = parse_target(url).unwrap_err();
            assert!(error.contains("loopback"), "{url}: {error}");
        }
    }

    #[test]
    fn malformed_addresses_are_refused() {
        for url in [
            "https://127.0.0.1:80/",
            "127.0.0.1:80",
            "ws://127.0.0.1:80/",
            "http://127.0.0.1:80/api",
            "http://user@127.0.0.1:80/",
            "http://127.0.0.1:0/",
            "http://127.0.0.1:99999/",
            "http://127.0.0.1:x/",
            "http://[::1/",
            "http://:80/",
            "http:/",
            "",
        ] {
            assert!(parse_target(url).is_err(), "{url}");
        }
    }
}
