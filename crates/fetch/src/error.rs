//! [`FetchError`]: every way a fetch can end without a usable page.

use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

use url::Url;

/// Which time limit ran out.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeoutKind {
    /// Establishing the TCP/TLS connection.
    Connect,
    /// Waiting for the response head.
    FirstByte,
    /// Silence between two body chunks.
    Idle,
    /// The whole exchange took too long (e.g. a body dripping slowly).
    Total,
}

impl fmt::Display for TimeoutKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Connect => "connect",
            Self::FirstByte => "first-byte",
            Self::Idle => "idle",
            Self::Total => "total",
        })
    }
}

/// Why a fetch produced no page. Every variant names the URL it concerns
/// (for redirects: the hop that failed).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// Only `http` and `https` are ever fetched.
    #[error("unsupported URL scheme `{scheme}` in {url}")]
    UnsupportedScheme {
        /// The URL.
        url: Url,
        /// Its scheme.
        scheme: String,
    },
    /// The URL has no host to connect to.
    #[error("URL has no host: {url}")]
    NoHost {
        /// The URL.
        url: Url,
    },
    /// A time limit ran out.
    #[error("{kind} timeout after {after:?} fetching {url}")]
    Timeout {
        /// The URL.
        url: Url,
        /// Which limit.
        kind: TimeoutKind,
        /// The configured limit.
        after: Duration,
    },
    /// The (decompressed) body exceeded the configured maximum.
    #[error("body of {url} exceeds {limit} bytes")]
    TooLarge {
        /// The URL.
        url: Url,
        /// The configured limit in bytes.
        limit: u64,
    },
    /// The response head exceeded the configured maximum.
    #[error("response headers of {url} exceed {limit} bytes")]
    HeadersTooLarge {
        /// The URL.
        url: Url,
        /// The configured limit in bytes.
        limit: usize,
    },
    /// More redirects than allowed; `url` is the first hop not followed.
    #[error("more than {limit} redirects, stopped at {url}")]
    TooManyRedirects {
        /// The hop that was not followed.
        url: Url,
        /// The configured limit.
        limit: u32,
    },
    /// A redirect pointed back to a URL already visited in this fetch.
    #[error("redirect loop back to {url}")]
    RedirectLoop {
        /// The repeated URL.
        url: Url,
    },
    /// The caller's [`RedirectPolicy`](crate::RedirectPolicy) rejected a hop
    /// (e.g. out of scope).
    #[error("redirect to {url} rejected by the redirect policy")]
    RedirectRejected {
        /// The rejected hop.
        url: Url,
    },
    /// A redirect status without a usable `Location`.
    #[error("redirect from {url} has an invalid Location {location:?}")]
    InvalidRedirect {
        /// The URL that answered with the redirect.
        url: Url,
        /// The raw `Location` value (empty if missing).
        location: String,
    },
    /// robots.txt disallows the URL for our agent.
    #[error("robots.txt disallows {url}")]
    RobotsDisallowed {
        /// The URL.
        url: Url,
    },
    /// robots.txt could not be fetched (timeout, 5xx, 429): crawl nothing on
    /// that host for now and try again after `retry_after`.
    #[error("robots.txt for {url} unavailable, retry after {retry_after:?}")]
    RobotsUnavailable {
        /// The page URL whose robots.txt is unavailable.
        url: Url,
        /// When to try again.
        retry_after: Duration,
    },
    /// The address policy refused the host's address.
    #[error("refusing to connect to non-public address {addr:?} for {url}")]
    BlockedAddress {
        /// The URL.
        url: Url,
        /// The refused address, when known.
        addr: Option<IpAddr>,
    },
    /// The host is backing off (after 429/503/errors) for longer than
    /// `max_host_wait`; nothing was sent.
    #[error("host of {url} is backing off, retry after {retry_after:?}")]
    HostBackoff {
        /// The URL.
        url: Url,
        /// When the host accepts requests again.
        retry_after: Duration,
    },
    /// Name resolution failed.
    #[error("DNS error for {url}: {message}")]
    Dns {
        /// The URL.
        url: Url,
        /// The underlying error.
        message: String,
    },
    /// The connection could not be established (refused, reset, …).
    #[error("connect error for {url}: {message}")]
    Connect {
        /// The URL.
        url: Url,
        /// The underlying error.
        message: String,
    },
    /// The TLS handshake failed (bad certificate, not TLS, …).
    #[error("TLS error for {url}: {message}")]
    Tls {
        /// The URL.
        url: Url,
        /// The underlying error.
        message: String,
    },
    /// A final non-success status (4xx, or 5xx/429 after the retries).
    #[error("HTTP status {status} for {url}")]
    HttpStatus {
        /// The URL.
        url: Url,
        /// The status code.
        status: u16,
        /// `Retry-After` of a 429/503, if any.
        retry_after: Option<Duration>,
    },
    /// The body broke off (connection reset, truncated, bad encoding).
    #[error("body of {url} interrupted: {message}")]
    BodyInterrupted {
        /// The URL.
        url: Url,
        /// The underlying error.
        message: String,
    },
    /// The body's content coding could not be undone: a corrupt or truncated `gzip` /
    /// `deflate` stream, or a coding the fetcher does not accept (`br`, `zstd`).
    #[error("cannot decode the body of {url}: {message}")]
    Decode {
        /// The URL.
        url: Url,
        /// The coding and what is wrong with it.
        message: String,
    },
    /// The connection closed before the response began: the server reset it, or dropped a
    /// kept-alive connection without saying so (`Connection: close`) and the request went
    /// out on it. Retried at once on a new connection; closed again there, after the host's
    /// backoff.
    #[error("connection closed before a response for {url}: {message}")]
    ConnectionClosed {
        /// The URL.
        url: Url,
        /// The underlying error.
        message: String,
    },
    /// A malformed response or another HTTP-level failure.
    #[error("protocol error for {url}: {message}")]
    Protocol {
        /// The URL.
        url: Url,
        /// The underlying error.
        message: String,
    },
}

/// The `url` field of any [`FetchError`] (every variant has one), by reference or by mutable
/// reference: the one list of variants behind `url` and `with_url`.
macro_rules! url_of {
    ($error:expr) => {
        match $error {
            Self::UnsupportedScheme { url, .. }
            | Self::NoHost { url }
            | Self::Timeout { url, .. }
            | Self::TooLarge { url, .. }
            | Self::HeadersTooLarge { url, .. }
            | Self::TooManyRedirects { url, .. }
            | Self::RedirectLoop { url }
            | Self::RedirectRejected { url }
            | Self::InvalidRedirect { url, .. }
            | Self::RobotsDisallowed { url }
            | Self::RobotsUnavailable { url, .. }
            | Self::BlockedAddress { url, .. }
            | Self::HostBackoff { url, .. }
            | Self::Dns { url, .. }
            | Self::Connect { url, .. }
            | Self::Tls { url, .. }
            | Self::HttpStatus { url, .. }
            | Self::BodyInterrupted { url, .. }
            | Self::Decode { url, .. }
            | Self::ConnectionClosed { url, .. }
            | Self::Protocol { url, .. } => url,
        }
    };
}

impl FetchError {
    /// The URL the error concerns.
    pub fn url(&self) -> &Url {
        url_of!(self)
    }

    /// The same error about another URL (a robots.txt failure reported for
    /// the page that needed it).
    pub(crate) fn with_url(mut self, new: Url) -> Self {
        let url = url_of!(&mut self);
        *url = new;
        self
    }

    /// A short stable name for storage and statistics, e.g.
    /// `"timeout_idle"`, `"too_large"`, `"http_status"`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnsupportedScheme { .. } => "unsupported_scheme",
            Self::NoHost { .. } => "no_host",
            Self::Timeout { kind, .. } => match kind {
                TimeoutKind::Connect => "timeout_connect",
                TimeoutKind::FirstByte => "timeout_first_byte",
                TimeoutKind::Idle => "timeout_idle",
                TimeoutKind::Total => "timeout_total",
            },
            Self::TooLarge { .. } => "too_large",
            Self::HeadersTooLarge { .. } => "headers_too_large",
            Self::TooManyRedirects { .. } => "too_many_redirects",
            Self::RedirectLoop { .. } => "redirect_loop",
            Self::RedirectRejected { .. } => "redirect_rejected",
            Self::InvalidRedirect { .. } => "invalid_redirect",
            Self::RobotsDisallowed { .. } => "robots_disallowed",
            Self::RobotsUnavailable { .. } => "robots_unavailable",
            Self::BlockedAddress { .. } => "blocked_address",
            Self::HostBackoff { .. } => "host_backoff",
            Self::Dns { .. } => "dns",
            Self::Connect { .. } => "connect",
            Self::Tls { .. } => "tls",
            Self::HttpStatus { .. } => "http_status",
            Self::BodyInterrupted { .. } => "body_interrupted",
            Self::Decode { .. } => "decode",
            Self::ConnectionClosed { .. } => "connection_closed",
            Self::Protocol { .. } => "protocol",
        }
    }

    /// When the caller may usefully try this URL again: `Some` for errors
    /// that say "later" (robots unavailable, host backoff, 429/503 with
    /// `Retry-After`), `None` otherwise.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RobotsUnavailable { retry_after, .. } | Self::HostBackoff { retry_after, .. } => {
                Some(*retry_after)
            }
            Self::HttpStatus { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// Whether an HTTP status speaks for its whole host, which then backs off: 429 (too many
/// requests), 503 (unavailable) and a gateway's 502 and 504. Any other server error (500
/// above all) is the page's own: that URL is tried again after a backoff of its own, and the
/// host's other pages go on (a wiki whose every link of one kind answered 500 had backed its
/// whole host off to minutes per page, session 54).
#[must_use]
pub const fn status_backs_off_host(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

#[cfg(test)]
mod tests {
    use super::status_backs_off_host;

    #[test]
    fn only_a_busy_or_unreachable_server_backs_its_host_off() {
        let check = |status: u16, host: bool| {
            assert_eq!(status_backs_off_host(status), host, "{status}");
        };
        for status in [429, 502, 503, 504] {
            check(status, true);
        }
        for status in [200, 301, 404, 410, 500, 501, 505, 599] {
            check(status, false);
        }
    }
}
