//! Address policy: which IPs count as non-public, the allow list, and the DNS
//! resolver that filters addresses at connect time.

use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, RwLock};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use crate::{AddressPolicy, FetchError};

/// `true` for addresses a crawler reached from the public web must not dial:
/// loopback, private, link-local, shared (CGNAT), unspecified, broadcast,
/// multicast, and their IPv4-mapped / NAT64 IPv6 forms.
pub fn is_non_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_non_public_v4(v4),
        IpAddr::V6(v6) => is_non_public_v6(v6),
    }
}

fn is_non_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (b & 0xc0) == 64)
}

fn is_non_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_non_public_v4(v4);
    }
    let seg = ip.segments();
    // NAT64 well-known prefix 64:ff9b::/96 embeds an IPv4 address.
    if seg[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [a, b] = seg[6].to_be_bytes();
        let [c, d] = seg[7].to_be_bytes();
        return is_non_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (seg[0] & 0xfe00) == 0xfc00 // unique local
        || (seg[0] & 0xffc0) == 0xfe80 // link-local
        || (seg[0] & 0xffc0) == 0xfec0 // deprecated site-local
}

/// Normalizes a host for allow-list matching: lower case, no trailing dot,
/// no IPv6 brackets, IP literals in canonical form.
fn normalize_host(host: &str) -> String {
    let trimmed = host.trim().trim_end_matches('.');
    let unbracketed = trimmed
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(trimmed);
    match unbracketed.parse::<IpAddr>() {
        Ok(ip) => ip.to_string(),
        Err(_) => unbracketed.to_ascii_lowercase(),
    }
}

/// Hosts exempt from the non-public check; shared with the resolver.
#[derive(Debug, Default)]
pub(crate) struct AllowList {
    allow_all: bool,
    hosts: RwLock<HashSet<String>>,
}

impl AllowList {
    pub(crate) fn new(policy: &AddressPolicy) -> Self {
        Self {
            allow_all: policy.allow_non_public,
            hosts: RwLock::new(
                policy
                    .allowed_hosts
                    .iter()
                    .map(|h| normalize_host(h))
                    .collect(),
            ),
        }
    }

    pub(crate) fn add(&self, host: &str) {
        let host = normalize_host(host);
        match self.hosts.write() {
            Ok(mut set) => {
                set.insert(host);
            }
            Err(poisoned) => {
                poisoned.into_inner().insert(host);
            }
        }
    }

    pub(crate) fn permits(&self, host: &str) -> bool {
        if self.allow_all {
            return true;
        }
        let host = normalize_host(host);
        match self.hosts.read() {
            Ok(set) => set.contains(&host),
            Err(poisoned) => poisoned.into_inner().contains(&host),
        }
    }

    /// Checks an IP-literal host before any request (the resolver is not
    /// consulted for those). Domain hosts pass here and are checked by
    /// [`PolicyResolver`] at connect time.
    pub(crate) fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        let ip = match url.host() {
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            Some(Host::Domain(domain)) => match normalize_host(domain).parse::<IpAddr>() {
                Ok(ip) => ip,
                Err(_) => return Ok(()),
            },
            None => return Err(FetchError::NoHost { url: url.clone() }),
        };
        if is_non_public(ip) && !self.permits(&ip.to_string()) {
            return Err(FetchError::BlockedAddress {
                url: url.clone(),
                addr: Some(ip),
            });
        }
        Ok(())
    }
}

/// The resolver refused every address of a host.
#[derive(Debug, thiserror::Error)]
#[error("all addresses of {host} are non-public (first: {addr})")]
pub(crate) struct BlockedByPolicy {
    pub(crate) host: String,
    pub(crate) addr: IpAddr,
}

/// Name resolution itself failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot resolve {host}: {message}")]
pub(crate) struct LookupFailed {
    pub(crate) host: String,
    pub(crate) message: String,
}

/// A [`Resolve`] that resolves with the system resolver and drops
/// non-public addresses unless the host is allowed.
#[derive(Debug, Clone)]
pub(crate) struct PolicyResolver {
    allow: Arc<AllowList>,
}

impl PolicyResolver {
    pub(crate) fn new(allow: Arc<AllowList>) -> Self {
        Self { allow }
    }
}

impl Resolve for PolicyResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow = Arc::clone(&self.allow);
        let host = name.as_str().to_owned();
        Box::pin(async move {
            type BoxError = Box<dyn std::error::Error + Send + Sync>;
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| -> BoxError {
                    Box::new(LookupFailed {
                        host: host.clone(),
                        message: e.to_string(),
                    })
                })?
                .collect();
            if allow.permits(&host) {
                let addrs: Addrs = Box::new(resolved.into_iter());
                return Ok(addrs);
            }
            let first_blocked = resolved
                .iter()
                .map(SocketAddr::ip)
                .find(|ip| is_non_public(*ip));
            let public: Vec<SocketAddr> = resolved
                .into_iter()
                .filter(|a| !is_non_public(a.ip()))
                .collect();
            if public.is_empty() {
                let err: BoxError = match first_blocked {
                    Some(addr) => {
                        tracing::warn!(%host, %addr, "refusing non-public address");
                        Box::new(BlockedByPolicy { host, addr })
                    }
                    None => Box::new(LookupFailed {
                        host,
                        message: "no addresses".to_owned(),
                    }),
                };
                return Err(err);
            }
            let addrs: Addrs = Box::new(public.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    #[test]
    fn classifies_addresses() {
        for s in [
            "127.0.0.1",
            "127.0.0.2",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(is_non_public(ip(s)), "{s} should be non-public");
        }
        for s in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(!is_non_public(ip(s)), "{s} should be public");
        }
    }

    #[test]
    fn allow_list_normalizes() {
        let list = AllowList::new(&AddressPolicy::allowing(["LocalHost.", "[::1]"]));
        assert!(list.permits("localhost"));
        assert!(list.permits("::1"));
        assert!(!list.permits("127.0.0.1"));
        list.add("127.0.0.1");
        assert!(list.permits("127.0.0.1"));
    }

    #[test]
    fn checks_ip_literals() {
        let list = AllowList::new(&AddressPolicy::allowing(["127.0.0.1"]));
        let ok = Url::parse("http://127.0.0.1:8080/").ok();
        let bad = Url::parse("http://127.0.0.2:8080/").ok();
        let bad6 = Url::parse("http://[::1]:8080/").ok();
        let domain = Url::parse("http://example.com/").ok();
        // WHATWG URL parsing turns odd IPv4 spellings into addresses.
        let hex = Url::parse("http://0x7f.2:8080/").ok();
        assert!(hex.is_some_and(|u| u.host_str() == Some("127.0.0.2")
            && matches!(list.check_url(&u), Err(FetchError::BlockedAddress { .. }))));
        assert!(ok.is_some_and(|u| list.check_url(&u).is_ok()));
        assert!(domain.is_some_and(|u| list.check_url(&u).is_ok()));
        assert!(
            bad.is_some_and(|u| matches!(
                list.check_url(&u),
                Err(FetchError::BlockedAddress { .. })
            ))
        );
        assert!(
            bad6.is_some_and(|u| matches!(
                list.check_url(&u),
                Err(FetchError::BlockedAddress { .. })
            ))
        );
    }
}
