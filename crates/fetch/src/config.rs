//! [`FetchConfig`]: every limit and politeness knob, with crawler defaults.

use std::time::Duration;

use reqwest::header::HeaderValue;

/// Which non-public addresses the fetcher may connect to.
///
/// By default the fetcher refuses to connect to loopback, private
/// (RFC 1918 / unique-local), link-local, shared (CGNAT), unspecified,
/// broadcast and multicast addresses. The check runs on the address that is
/// actually dialled: host names are checked after DNS resolution, at connect
/// time (so DNS rebinding is caught), and IP-literal hosts before any request.
///
/// Hosts listed in [`allowed_hosts`](Self::allowed_hosts) (typically the
/// hosts of seeds that are themselves on such addresses, like a demo server on
/// `127.0.0.1`) are exempt. More hosts can be exempted at run time with
/// [`Fetcher::allow_host`](crate::Fetcher::allow_host).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    /// Turn the check off entirely: any address may be reached.
    pub allow_non_public: bool,
    /// Host names (case-insensitive) or IP literals (`127.0.0.1`, `::1`,
    /// with or without brackets) that may resolve to, or be, non-public
    /// addresses. Matching is on the exact host, not on subdomains.
    pub allowed_hosts: Vec<String>,
}

impl AddressPolicy {
    /// A policy that blocks non-public addresses except for `hosts`.
    pub fn allowing<I, S>(hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            allow_non_public: false,
            allowed_hosts: hosts.into_iter().map(Into::into).collect(),
        }
    }

    /// A policy that allows every address (no checks).
    pub fn allow_all() -> Self {
        Self {
            allow_non_public: true,
            allowed_hosts: Vec::new(),
        }
    }
}

/// Configuration of a [`Fetcher`](crate::Fetcher).
///
/// A plain struct: start from [`FetchConfig::default()`] and override fields
/// with struct-update syntax. [`Fetcher::new`](crate::Fetcher::new) validates
/// it and returns a [`ConfigError`] for nonsensical values.
///
/// ```
/// use std::time::Duration;
/// use silhouette_fetch::FetchConfig;
///
/// let config = FetchConfig {
///     max_redirects: 5,
///     host_request_interval: Some(Duration::from_secs(2)),
///     ..FetchConfig::default()
/// };
/// assert!(config.validate().is_ok());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FetchConfig {
    /// `User-Agent` header; should name the project and a contact.
    pub user_agent: String,
    /// Product token matched against `User-agent:` lines in robots.txt.
    pub robots_agent: String,
    /// Time allowed to establish a connection (TCP and TLS).
    pub connect_timeout: Duration,
    /// Time from starting a request until the response head has arrived
    /// (includes connecting).
    pub first_byte_timeout: Duration,
    /// Longest silence allowed between two body chunks.
    pub idle_timeout: Duration,
    /// Longest time for one request/response exchange, head and body (each
    /// redirect hop and each retry gets its own budget; waiting for
    /// politeness is not counted).
    pub total_timeout: Duration,
    /// Maximum body size in bytes, counted *after* decompression while
    /// streaming; a larger body ends in [`FetchError::TooLarge`](crate::FetchError::TooLarge).
    pub max_body_bytes: u64,
    /// Maximum total size of the response header fields (names and values).
    pub max_header_bytes: usize,
    /// Maximum number of redirects followed for one fetch.
    pub max_redirects: u32,
    /// How long a fetched robots.txt (or a 4xx "allow all") stays cached.
    pub robots_ttl: Duration,
    /// How long to wait before fetching robots.txt again after it timed out,
    /// failed with 5xx or 429; meanwhile the host's pages are not fetched.
    pub robots_retry_interval: Duration,
    /// Only this many bytes of robots.txt are read and parsed.
    pub robots_max_bytes: u64,
    /// Upper bound for a robots.txt `Crawl-delay`; larger values are capped
    /// (and the cap is logged).
    pub max_crawl_delay: Duration,
    /// Minimum spacing between requests to one host (a per-host rate limit);
    /// `None` turns rate limiting off (robots `Crawl-delay` still applies).
    /// A "host" is the host name (or IP) with its port when that is not the
    /// scheme's default, so `http://` and `https://` of one site share their
    /// politeness state while two servers on one IP do not; robots.txt is
    /// cached per origin (scheme, host, port).
    pub host_request_interval: Option<Duration>,
    /// Maximum simultaneous requests to one host.
    pub per_host_concurrency: usize,
    /// Maximum simultaneous requests overall.
    pub global_concurrency: usize,
    /// Retries after connect errors, 5xx, 429 and 503 (0 = try once).
    pub max_retries: u32,
    /// First backoff delay after a failure; doubles per consecutive failure.
    pub backoff_base: Duration,
    /// Largest exponential backoff delay.
    pub backoff_cap: Duration,
    /// Longest time one `fetch` call waits for a host's backoff or
    /// `Retry-After` to pass; a longer wait ends the fetch with
    /// [`FetchError::HostBackoff`](crate::FetchError::HostBackoff) (or the
    /// status error) so the caller can reschedule.
    pub max_host_wait: Duration,
    /// Read bodies of non-HTML responses too (they are never parsed; by
    /// default only the content type is recorded).
    pub fetch_non_html_body: bool,
    /// Which non-public addresses may be reached.
    pub address_policy: AddressPolicy,
    /// Extra request headers (name, value), sent with every request. An
    /// `Accept-Encoding` here is not sent: the fetcher asks for the codings it
    /// decodes (`gzip, deflate`).
    pub headers: Vec<(String, String)>,
    /// An HTTP(S) proxy URL for every request (`None`: connect directly). Through a proxy
    /// the proxy resolves host names, so the address policy checks only IP-literal URLs.
    pub proxy: Option<String>,
}

impl Default for FetchConfig {
    fn default() -> Self {
        Self {
            user_agent: concat!(
                "silhouette/",
                env!("CARGO_PKG_VERSION"),
                " (+https://example.invalid/silhouette; crawler@example.invalid)"
            )
            .to_owned(),
            robots_agent: "silhouette".to_owned(),
            connect_timeout: Duration::from_secs(10),
            first_byte_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(30),
            total_timeout: Duration::from_secs(120),
            max_body_bytes: 10 * 1024 * 1024,
            max_header_bytes: 64 * 1024,
            max_redirects: 10,
            robots_ttl: Duration::from_secs(24 * 60 * 60),
            robots_retry_interval: Duration::from_secs(5 * 60),
            robots_max_bytes: 500 * 1024,
            max_crawl_delay: Duration::from_secs(30),
            host_request_interval: Some(Duration::from_secs(1)),
            per_host_concurrency: 2,
            global_concurrency: 64,
            max_retries: 2,
            backoff_base: Duration::from_secs(1),
            backoff_cap: Duration::from_secs(5 * 60),
            max_host_wait: Duration::from_secs(60),
            fetch_non_html_body: false,
            address_policy: AddressPolicy::default(),
            headers: Vec::new(),
            proxy: None,
        }
    }
}

/// A [`FetchConfig`] value that cannot work.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A timeout or interval that must be positive is zero.
    #[error("`{field}` must be greater than zero")]
    ZeroDuration {
        /// The offending field.
        field: &'static str,
    },
    /// A size or count that must be positive is zero.
    #[error("`{field}` must be greater than zero")]
    ZeroLimit {
        /// The offending field.
        field: &'static str,
    },
    /// The user agent is empty or not a valid header value.
    #[error("user agent {user_agent:?} is empty or not a valid HTTP header value")]
    InvalidUserAgent {
        /// The rejected value.
        user_agent: String,
    },
    /// The robots.txt product token is empty or contains whitespace.
    #[error("robots agent {agent:?} must be a non-empty token without whitespace")]
    InvalidRobotsAgent {
        /// The rejected value.
        agent: String,
    },
    /// `backoff_cap` is smaller than `backoff_base`.
    #[error("`backoff_cap` ({cap:?}) is smaller than `backoff_base` ({base:?})")]
    BackoffCapBelowBase {
        /// Configured base.
        base: Duration,
        /// Configured cap.
        cap: Duration,
    },
    /// An extra header is not a valid HTTP header name and value.
    #[error(
        "header {name:?}: {value:?} is not a valid HTTP header (a token, then a value without line breaks)"
    )]
    InvalidHeader {
        /// The name.
        name: String,
        /// The value.
        value: String,
    },
    /// The proxy is not an http(s) URL.
    #[error("proxy {proxy:?} is not a valid proxy URL (http://HOST:PORT or https://HOST:PORT)")]
    InvalidProxy {
        /// The rejected value.
        proxy: String,
    },
    /// The HTTP client could not be built (e.g. no TLS roots).
    #[error("cannot build the HTTP client: {message}")]
    Client {
        /// The underlying error, as text.
        message: String,
    },
}

impl FetchConfig {
    /// [`headers`](Self::headers) as sent: without `Accept-Encoding`.
    pub(crate) fn extra_headers(&self) -> impl Iterator<Item = &(String, String)> {
        self.headers
            .iter()
            .filter(|(name, _)| !name.eq_ignore_ascii_case("accept-encoding"))
    }

    /// Checks every field; [`Fetcher::new`](crate::Fetcher::new) calls this.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let durations = [
            ("connect_timeout", self.connect_timeout),
            ("first_byte_timeout", self.first_byte_timeout),
            ("idle_timeout", self.idle_timeout),
            ("total_timeout", self.total_timeout),
            ("robots_ttl", self.robots_ttl),
            ("robots_retry_interval", self.robots_retry_interval),
            ("backoff_base", self.backoff_base),
        ];
        for (field, value) in durations {
            if value.is_zero() {
                return Err(ConfigError::ZeroDuration { field });
            }
        }
        if self.host_request_interval.is_some_and(|d| d.is_zero()) {
            return Err(ConfigError::ZeroDuration {
                field: "host_request_interval",
            });
        }
        let limits = [
            ("max_body_bytes", self.max_body_bytes),
            ("max_header_bytes", self.max_header_bytes as u64),
            ("robots_max_bytes", self.robots_max_bytes),
            ("per_host_concurrency", self.per_host_concurrency as u64),
            ("global_concurrency", self.global_concurrency as u64),
        ];
        for (field, value) in limits {
            if value == 0 {
                return Err(ConfigError::ZeroLimit { field });
            }
        }
        if self.user_agent.trim().is_empty() || HeaderValue::from_str(&self.user_agent).is_err() {
            return Err(ConfigError::InvalidUserAgent {
                user_agent: self.user_agent.clone(),
            });
        }
        if self.robots_agent.is_empty() || self.robots_agent.chars().any(char::is_whitespace) {
            return Err(ConfigError::InvalidRobotsAgent {
                agent: self.robots_agent.clone(),
            });
        }
        for (name, value) in &self.headers {
            if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err()
                || HeaderValue::from_str(value).is_err()
            {
                return Err(ConfigError::InvalidHeader {
                    name: name.clone(),
                    value: value.clone(),
                });
            }
        }
        if let Some(proxy) = &self.proxy
            && !url::Url::parse(proxy)
                .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
        {
            return Err(ConfigError::InvalidProxy {
                proxy: proxy.clone(),
            });
        }
        if self.backoff_cap < self.backoff_base {
            return Err(ConfigError::BackoffCapBelowBase {
                base: self.backoff_base,
                cap: self.backoff_cap,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid() {
        assert_eq!(FetchConfig::default().validate(), Ok(()));
    }

    #[test]
    fn rejects_bad_values() {
        let zero = FetchConfig {
            idle_timeout: Duration::ZERO,
            ..FetchConfig::default()
        };
        assert_eq!(
            zero.validate(),
            Err(ConfigError::ZeroDuration {
                field: "idle_timeout"
            })
        );
        let ua = FetchConfig {
            user_agent: "bad\nagent".into(),
            ..FetchConfig::default()
        };
        assert!(matches!(
            ua.validate(),
            Err(ConfigError::InvalidUserAgent { .. })
        ));
        let backoff = FetchConfig {
            backoff_cap: Duration::from_millis(1),
            ..FetchConfig::default()
        };
        assert!(matches!(
            backoff.validate(),
            Err(ConfigError::BackoffCapBelowBase { .. })
        ));
        let conc = FetchConfig {
            global_concurrency: 0,
            ..FetchConfig::default()
        };
        assert_eq!(
            conc.validate(),
            Err(ConfigError::ZeroLimit {
                field: "global_concurrency"
            })
        );
    }
}
