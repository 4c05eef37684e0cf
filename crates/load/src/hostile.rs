//! `koma load --hostile`: replays attacks against a running `koma serve`
//! and reports, for each, what the server did and whether it held (the
//! limits of docs/API.md, "Limits").
//!
//! Three loopback addresses play three clients, since the server counts
//! clients by address and the whole of 127.0.0.0/8 is this machine: the
//! attacker (127.0.0.1), an innocent client (127.0.0.2) whose answers show
//! whether the attacks hurt anyone else, and the slow connections
//! (127.0.0.3), which wait on the server's timeouts alongside the other
//! attacks without sharing the attacker's limits.
//!
//! One file per concern: `net` (connections from an address, HTTP by
//! hand, timing a close), `frames` (a WebSocket client by hand), `slow`
//! (slowloris, silent and idle connections, a stalled body), `crowd`
//! (hoarded connections, the rate-limit bypass, the flood), `innocent`
//! (the innocent client on its own thread), `websocket` (protocol errors,
//! unanswered pings), `json` (hostile JSON) and `report`.

mod crowd;
mod frames;
mod innocent;
mod json;
mod net;
mod report;
mod slow;
mod websocket;

use crate::args::{LoadArgs, Target};
use crate::LoadError;
use net::{ATTACKER, INNOCENT, SLOW};
use report::{Check, HostileReport, Progress, Verdict};
use slow::Expected;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The attacks in the order of the report (the order).
const ORDER: [&str; 15] = [
    "slowloris",
    "silent",
    "idleKeepAlive",
    "stalledBody",
    "hoard",
    "flood",
    "rateLimitBypass",
    "wsTooLarge",
    "wsNotUtf8",
    "wsUnmasked",
    "wsReservedOpcode",
    "wsLongControl",
    "wsIgnoredPings",
    "jsonNotUtf8",
    "jsonBadPly",
];

/// Descriptors the tool keeps for itself beyond the hoarded connections.
const RESERVED_FILES: u64 = 100;

/// Runs the attacks and prints the report; an error when the server could
/// not be attacked, or when it did not hold against one.
pub fn run(args: &LoadArgs) -> Result<(), LoadError> {
    // One thread for the attacks (the server needs the other cores); the
    // innocent client runs on a thread of its own.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(LoadError::Runtime)?;
    let report = runtime.block_on(attack(args))?;
    if args.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.table());
    }
    match report.failed()[..] {
        [] => Ok(()),
        ref failed => Err(LoadError::DidNotHold(
            failed.iter().map(|name| name.to_string()).collect(),
        )),
    }
}

/// The target with an IPv4 address: the clients are told apart by their
/// addresses in 127.0.0.0/8, which IPv6's loopback (one address) cannot do.
fn ipv4_target(target: &Target) -> Result<Target, LoadError> {
    match target.address.ip().to_canonical() {
        std::net::IpAddr::V4(ip) => Ok(Target {
            address: SocketAddr::new(ip.into(), target.address.port()),
            authority: target.authority.clone(),
        }),
        std::net::IpAddr::V6(_) => Err(LoadError::Unusable(format!(
            "--hostile plays three clients from 127.0.0.1, 127.0.0.2 and 127.0.0.3, so it needs \
             the server on an IPv4 loopback address (http://127.0.0.1:PORT/), not {}",
            target.url()
        ))),
    }
}

async fn attack(args: &LoadArgs) -> Result<HostileReport, LoadError> {
    let hostile = &args.hostile;
    let target = ipv4_target(&args.url)?;
    for from in [ATTACKER, INNOCENT, SLOW] {
        match net::exchange(from, &target, "GET", "/api/variants", b"").await {
            Ok(answer) if answer.status == 200 => {}
            Ok(answer) => {
                return Err(LoadError::Unusable(format!(
                    "{} answered {} to GET /api/variants from {from}: is it `koma serve`? ({})",
                    target.url(),
                    answer.status,
                    answer.sentence()
                )))
            }
            Err(e) => {
                return Err(LoadError::Unusable(format!(
                    "connection to {} from {from} failed: {e}",
                    target.url()
                )))
            }
        }
    }
    let room = raise_file_limit().saturating_sub(RESERVED_FILES).max(1);
    let hoarded = usize::try_from(hostile.hostile_connections.min(room)).unwrap_or(usize::MAX);
    let expected = Expected {
        header: Duration::from_secs(hostile.expect_header_timeout),
        body: Duration::from_secs(hostile.expect_body_timeout),
        ping: Duration::from_secs(hostile.expect_ping_interval),
    };
    let flood_seconds = Duration::from_secs((hostile.hostile_seconds / 9).clamp(1, 10));
    let progress = Progress::new();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(hostile.hostile_seconds);

    // The slow connections wait on the server's timeouts while the rest
    // goes on.
    let slow = [
        tokio::spawn(slow::slowloris(target.clone(), expected, deadline)),
        tokio::spawn(slow::silent(target.clone(), expected, deadline)),
        tokio::spawn(slow::idle_keep_alive(target.clone(), expected, deadline)),
        tokio::spawn(slow::stalled_body(target.clone(), expected, deadline)),
        tokio::spawn(websocket::ignored_pings(target.clone(), expected, deadline)),
    ];
    let mut checks = Vec::new();
    progress.show("WebSocket protocol errors, hostile JSON");
    let id = websocket::create_game(ATTACKER, &target)
        .await
        .map_err(LoadError::Unusable)?;
    checks.extend(websocket::protocol_errors(&target, &id).await);
    checks.push(json::negative_ply(&target, &id).await);
    checks.push(json::not_utf8(&target).await);
    progress.show(&format!("hoarding {hoarded} connections"));
    checks.push(crowd::hoard(&target, hoarded).await);
    progress.show(&format!(
        "{} requests, a new connection each",
        crowd::BYPASS_REQUESTS
    ));
    checks.push(crowd::bypass(&target).await);
    progress.show(&format!("flood for {} s", flood_seconds.as_secs()));
    checks.push(crowd::flood(&target, flood_seconds).await);
    progress.show("waiting for the server to close the slow connections");
    for handle in slow {
        checks.push(handle.await.unwrap_or_else(|e| {
            Check::new(
                "slow",
                "slow connection",
                Verdict::NotHeld,
                format!("the attack failed inside the tool: {e}"),
            )
        }));
    }
    progress.finish();
    checks.sort_by_key(|check| {
        ORDER
            .iter()
            .position(|&a| a == check.attack)
            .unwrap_or(ORDER.len())
    });
    Ok(HostileReport {
        url: target.url(),
        elapsed: start.elapsed(),
        checks,
    })
}

/// Raises this process's limit of open files to what the system allows,
/// as `koma serve` does (the soft limit is often 1,024 where the hard one
/// is far higher); the limit in force.
fn raise_file_limit() -> u64 {
    rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clients_need_an_ipv4_server() {
        let target = crate::args::parse_target("http://localhost:9/").unwrap();
        assert_eq!(
            ipv4_target(&target).unwrap().address,
            "127.0.0.1:9".parse().unwrap()
        );
        let mapped = crate::args::parse_target("http://[::ffff:127.0.0.5]:9/").unwrap();
        assert_eq!(
            ipv4_target(&mapped).unwrap().address,
            "127.0.0.5:9".parse().unwrap()
        );
        let v6 = crate::args::parse_target("http://[::1]:9/").unwrap();
        match ipv4_target(&v6) {
            Err(LoadError::Unusable(sentence)) => assert!(sentence.contains("IPv4 loopback")),
            other => panic!("an IPv6 target is unusable, not {other:?}"),
        }
    }

    #[test]
    fn every_attack_has_its_place_in_the_report() {
        let mut sorted = ORDER.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ORDER.len());
        assert!(raise_file_limit() >= 16);
    }
}
