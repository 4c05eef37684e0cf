//! Who a client is, for the limits that count per client: the address a
//! connection comes from, or, behind a proxy the operator trusts
//! (`--trust-proxy`), the address that proxy says it serves.
//!
//! IPv6 addresses count by their /64 network: one machine (one home) is
//! given a whole /64 and may pick any address in it, so counting by the
//! full address would give one client 2^64 buckets. This is how nginx's
//! `limit_req` setups and lila-ws key IPv6 clients.

use axum::http::HeaderMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// A client, for counting: an IPv4 address, or an IPv6 /64 network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The client at `ip`. An IPv4 address written as IPv6
    /// (`::ffff:192.0.2.1`) is that IPv4 address.
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip.to_canonical() {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                ClientKey(IpAddr::V6(Ipv6Addr::from(network)))
            }
        }
    }

    /// The client of a connection from `peer`, or, when the proxy in front
    /// is trusted, the client the proxy names in `X-Forwarded-For`.
    ///
    /// Each proxy appends the address it received the request from, so the
    /// last entry is the one the trusted proxy wrote; entries before it
    /// came from the client and prove nothing. A missing or malformed
    /// header counts as the proxy itself.
    pub fn of_request(peer: SocketAddr, headers: &HeaderMap, trust_proxy: bool) -> ClientKey {
        if trust_proxy {
            let forwarded = headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(|value| value.split(','))
                .last()
                .and_then(|last| parse_forwarded(last.trim()));
            if let Some(ip) = forwarded {
                return ClientKey::of(ip);
            }
        }
        ClientKey::of(peer.ip())
    }
}

/// One `X-Forwarded-For` entry: an address, possibly with a port
/// (`192.0.2.1:4711`, `[2001:db8::1]:4711`).
fn parse_forwarded(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(address) = entry.parse::<SocketAddr>() {
        return Some(address.ip());
    }
    entry
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|inner| inner.parse::<Ipv6Addr>().ok())
        .map(IpAddr::V6)
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

impl Default for ClientKey {
    fn default() -> ClientKey {
        ClientKey(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn key(text: &str) -> ClientKey {
        ClientKey::of(text.parse().unwrap())
    }

    #[test]
    fn ipv6_counts_by_its_network_and_mapped_ipv4_as_ipv4() {
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
        assert_ne!(key("192.0.2.1"), key("192.0.2.2"));
        assert_eq!(key("2001:db8:1:2::1").to_string(), "2001:db8:1:2::/64");
    }

    #[test]
    fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
        let proxy: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("203.0.113.9, 198.51.100.7"),
        );
        assert_eq!(
            ClientKey::of_request(proxy, &headers, false),
            key("10.0.0.1")
        );
        // The last entry is the proxy's own: a client cannot choose it.
        assert_eq!(
            ClientKey::of_request(proxy, &headers, true),
            key("198.51.100.7")
        );
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("[2001:db8::1]:80"),
        );
        assert_eq!(
            ClientKey::of_request(proxy, &headers, true),
            key("2001:db8::1")
        );
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("not an address"),
        );
        assert_eq!(
            ClientKey::of_request(proxy, &headers, true),
            key("10.0.0.1")
        );
    }
}
