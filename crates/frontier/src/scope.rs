//! Which URLs a crawl follows: host/domain mode, include and exclude
//! patterns, link depth ([`Scope`]), and page budgets ([`Budget`]).

use std::collections::HashMap;

use regex::{Regex, RegexSet};
use thiserror::Error;
use url::{Host, Url};

/// How far from its seed a crawl may wander.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScopeMode {
    /// The seed's host exactly (`www.example.com` ≠ `example.com`). Scheme
    /// and port are not compared, so `http` → `https` stays in scope.
    #[default]
    SameHost,
    /// The seed's registrable domain (eTLD+1 from the public suffix list):
    /// `blog.example.co.uk` is in scope for `www.example.co.uk`, but
    /// `other.github.io` is not for `mine.github.io`. IP addresses and
    /// hosts without a registrable domain (`localhost`) compare exactly.
    SameDomain,
    /// Every `http`/`https` URL.
    Any,
}

impl ScopeMode {
    /// The name used in configuration: `same-host`, `same-domain`, `any`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SameHost => "same-host",
            Self::SameDomain => "same-domain",
            Self::Any => "any",
        }
    }
}

impl std::fmt::Display for ScopeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ScopeMode {
    type Err = ScopeError;

    /// Parses the names of [`ScopeMode::as_str`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Self::SameHost, Self::SameDomain, Self::Any]
            .into_iter()
            .find(|mode| mode.as_str() == s)
            .ok_or_else(|| ScopeError::UnknownMode {
                value: s.to_owned(),
            })
    }
}

/// The scope rules as plain data. [`Scope::new`] checks them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeConfig {
    /// Host or domain rule. Default: [`ScopeMode::SameHost`].
    pub mode: ScopeMode,
    /// Regexes (`regex` crate syntax) searched in the canonical URL; when
    /// not empty, a URL must match at least one. Default: none.
    pub include: Vec<String>,
    /// Regexes searched in the canonical URL; a URL matching any is out.
    /// Default: none.
    pub exclude: Vec<String>,
    /// Maximum link depth (seeds are depth 0). Default: unlimited.
    pub max_depth: Option<u32>,
    /// Maximum pages in the whole crawl (see [`Budget`]). Default: unlimited.
    pub max_pages: Option<u64>,
    /// Maximum pages per host (see [`Budget`]). Default: unlimited.
    pub max_pages_per_host: Option<u64>,
}

/// A [`ScopeConfig`] that cannot be used.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum ScopeError {
    /// A mode name that is not `same-host`, `same-domain` or `any`.
    #[error("scope: unknown mode {value:?} (expected same-host, same-domain or any)")]
    UnknownMode {
        /// The name as given.
        value: String,
    },
    /// A pattern that does not compile.
    #[error("scope: {list} pattern {pattern:?} is not a valid regex: {source}")]
    BadPattern {
        /// `include` or `exclude`.
        list: &'static str,
        /// The pattern as given.
        pattern: String,
        /// What the regex compiler said.
        source: regex::Error,
    },
}

/// Why a URL is out of scope (or over budget).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OutOfScope {
    /// Deeper than `max_depth`.
    #[error("depth {depth} is over the maximum {max}")]
    TooDeep {
        /// The URL's link depth.
        depth: u32,
        /// The limit.
        max: u32,
    },
    /// Another host than the seed's ([`ScopeMode::SameHost`]).
    #[error("host {host:?} is not the seed's host {seed_host:?}")]
    OtherHost {
        /// The URL's host.
        host: String,
        /// The seed's host.
        seed_host: String,
    },
    /// Another registrable domain than the seed's ([`ScopeMode::SameDomain`]).
    #[error("host {host:?} is not in the seed's domain {seed_domain:?}")]
    OtherDomain {
        /// The URL's host.
        host: String,
        /// The seed's registrable domain (or host, when it has none).
        seed_domain: String,
    },
    /// The URL or the seed has no host.
    #[error("URL has no host")]
    NoHost,
    /// Matches no `include` pattern.
    #[error("matches no include pattern")]
    NotIncluded,
    /// Matches an `exclude` pattern.
    #[error("matches exclude pattern {pattern:?}")]
    Excluded {
        /// The first matching pattern.
        pattern: String,
    },
    /// The crawl's page budget is spent.
    #[error("the crawl's budget of {max} pages is spent")]
    PageBudget {
        /// The limit.
        max: u64,
    },
    /// The host's page budget is spent.
    #[error("the budget of {max} pages for host {host:?} is spent")]
    HostBudget {
        /// The host.
        host: String,
        /// The limit.
        max: u64,
    },
}

/// The compiled scope rules; [`Scope::check`] is pure and cheap.
#[derive(Debug, Clone)]
pub struct Scope {
    mode: ScopeMode,
    include: Option<RegexSet>,
    exclude: Option<RegexSet>,
    exclude_patterns: Vec<String>,
    max_depth: Option<u32>,
}

fn compile(list: &'static str, patterns: &[String]) -> Result<Option<RegexSet>, ScopeError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    // One by one first, so that an error names its pattern.
    for pattern in patterns {
        Regex::new(pattern).map_err(|source| ScopeError::BadPattern {
            list,
            pattern: pattern.clone(),
            source,
        })?;
    }
    RegexSet::new(patterns)
        .map(Some)
        .map_err(|source| ScopeError::BadPattern {
            list,
            pattern: patterns.join(" | "),
            source,
        })
}

impl Scope {
    /// Compiles the patterns of `config`. The page limits are not part of
    /// a `Scope`: see [`Budget::new`].
    pub fn new(config: &ScopeConfig) -> Result<Self, ScopeError> {
        Ok(Self {
            mode: config.mode,
            include: compile("include", &config.include)?,
            exclude: compile("exclude", &config.exclude)?,
            exclude_patterns: config.exclude.clone(),
            max_depth: config.max_depth,
        })
    }

    /// The mode.
    pub fn mode(&self) -> ScopeMode {
        self.mode
    }

    /// Whether `url`, `depth` links from a seed, is in the scope of at least one of `seeds`
    /// (a seed of the same host, or in same-domain mode of the same registrable domain).
    pub fn admits(&self, url: &Url, seeds: &[Url], depth: u32) -> bool {
        seeds.iter().any(|seed| {
            let candidate = match self.mode {
                ScopeMode::SameHost => host_port(seed) == host_port(url),
                ScopeMode::SameDomain => {
                    registrable_domain(seed).is_some()
                        && registrable_domain(seed) == registrable_domain(url)
                        || host_port(seed) == host_port(url)
                }
                _ => true,
            };
            candidate && self.check(url, seed, depth).is_ok()
        })
    }

    /// Whether `url`, found `depth` links away from `seed`, is in scope.
    ///
    /// Both URLs should be canonical (see [`canonicalize`](crate::canonicalize)):
    /// the patterns are searched in `url.as_str()`. Checks, in order: depth,
    /// mode, exclude, include.
    pub fn check(&self, url: &Url, seed: &Url, depth: u32) -> Result<(), OutOfScope> {
        if let Some(max) = self.max_depth
            && depth > max
        {
            return Err(OutOfScope::TooDeep { depth, max });
        }
        match self.mode {
            ScopeMode::Any => {}
            ScopeMode::SameHost => {
                let (host, seed_host) = hosts(url, seed)?;
                if host != seed_host {
                    return Err(OutOfScope::OtherHost { host, seed_host });
                }
            }
            ScopeMode::SameDomain => {
                let (host, seed_host) = hosts(url, seed)?;
                let seed_domain = registrable_domain(seed);
                let same = host == seed_host
                    || seed_domain.is_some_and(|d| registrable_domain(url) == Some(d));
                if !same {
                    return Err(OutOfScope::OtherDomain {
                        host,
                        seed_domain: seed_domain.map_or(seed_host, str::to_owned),
                    });
                }
            }
        }
        let text = url.as_str();
        if let Some(exclude) = &self.exclude
            && let Some(index) = exclude.matches(text).iter().next()
        {
            return Err(OutOfScope::Excluded {
                pattern: self
                    .exclude_patterns
                    .get(index)
                    .cloned()
                    .unwrap_or_default(),
            });
        }
        if let Some(include) = &self.include
            && !include.is_match(text)
        {
            return Err(OutOfScope::NotIncluded);
        }
        Ok(())
    }
}

fn hosts(url: &Url, seed: &Url) -> Result<(String, String), OutOfScope> {
    match (host_port(url), host_port(seed)) {
        (Some(host), Some(seed_host)) => Ok((host, seed_host)),
        _ => Err(OutOfScope::NoHost),
    }
}

/// The site of `url` as scope, budgets, queues and politeness see it: its host, with its port
/// when that is not the scheme's default (`127.0.0.1:8080`, `example.com`). Two servers on
/// one host but different ports are different sites; `http://a/` and `https://a/` are one
/// (a site's own links often switch scheme).
///
/// ```
/// use silhouette_frontier::host_port;
/// let url = |s| url::Url::parse(s).unwrap();
/// assert_eq!(host_port(&url("http://127.0.0.1:8080/x")).as_deref(), Some("127.0.0.1:8080"));
/// assert_eq!(host_port(&url("https://Example.com:443/")).as_deref(), Some("example.com"));
/// ```
pub fn host_port(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    })
}

/// The registrable domain (eTLD+1) of `url`'s host: `None` for IP
/// addresses and for hosts that have none (`localhost`, a bare suffix such
/// as `co.uk`).
pub fn registrable_domain(url: &Url) -> Option<&str> {
    match url.host()? {
        Host::Domain(domain) => {
            // A trailing dot is the same domain.
            psl::domain_str(domain.strip_suffix('.').unwrap_or(domain))
        }
        Host::Ipv4(_) | Host::Ipv6(_) => None,
    }
}

/// Page counters for `max_pages` and `max_pages_per_host`.
///
/// The frontier decides what a "page" is by when it calls
/// [`Budget::try_take`]: calling it when a URL is admitted to the queue
/// (after the seen set, scope and trap checks) bounds the queue as well as
/// the fetches, and is what the crawler does. Hosts are keyed by
/// [`host_port`], as the fetcher's per-host politeness is.
#[derive(Debug, Clone, Default)]
pub struct Budget {
    max_pages: Option<u64>,
    max_per_host: Option<u64>,
    pages: u64,
    per_host: HashMap<String, u64>,
}

impl Budget {
    /// A budget with the limits of `config`.
    pub fn new(config: &ScopeConfig) -> Self {
        Self {
            max_pages: config.max_pages,
            max_per_host: config.max_pages_per_host,
            ..Self::default()
        }
    }

    /// Counts one page for `url`'s host, or says which limit it would pass
    /// (and then counts nothing).
    pub fn try_take(&mut self, url: &Url) -> Result<(), OutOfScope> {
        let host = host_port(url).ok_or(OutOfScope::NoHost)?;
        let host = host.as_str();
        if let Some(max) = self.max_pages
            && self.pages >= max
        {
            return Err(OutOfScope::PageBudget { max });
        }
        if let Some(max) = self.max_per_host {
            let taken = self.per_host.get(host).copied().unwrap_or(0);
            if taken >= max {
                return Err(OutOfScope::HostBudget {
                    host: host.to_owned(),
                    max,
                });
            }
        }
        self.pages += 1;
        if self.max_per_host.is_some() {
            *self.per_host.entry(host.to_owned()).or_insert(0) += 1;
        }
        Ok(())
    }

    /// Gives back one page taken for `url`'s host (e.g. a URL that turned
    /// out not to be fetched); does nothing if none was taken.
    pub fn give_back(&mut self, url: &Url) {
        self.pages = self.pages.saturating_sub(1);
        if let Some(host) = host_port(url)
            && let Some(taken) = self.per_host.get_mut(&host)
        {
            *taken = taken.saturating_sub(1);
        }
    }

    /// Pages taken so far.
    pub fn pages(&self) -> u64 {
        self.pages
    }

    /// Pages taken so far for `host` (counted only when a per-host limit is
    /// set; 0 otherwise).
    pub fn pages_for(&self, host: &str) -> u64 {
        self.per_host.get(host).copied().unwrap_or(0)
    }

    /// Whether the crawl's page budget is spent.
    pub fn is_spent(&self) -> bool {
        self.max_pages.is_some_and(|max| self.pages >= max)
    }
}

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;
