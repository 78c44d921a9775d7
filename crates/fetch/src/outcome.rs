//! What a fetch returns ([`FetchOutcome`], [`FetchedPage`]) and what the
//! caller passes in ([`FetchContext`], [`RedirectPolicy`]).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use url::Url;

use crate::FetchError;

/// The result of one [`Fetcher::fetch`](crate::Fetcher::fetch) call, success
/// or not, with the redirect chain and timing. Record it as-is.
#[derive(Debug, Clone)]
pub struct FetchOutcome {
    /// The URL passed to `fetch` (without fragment).
    pub requested_url: Url,
    /// The last URL reached or refused: equals `requested_url` without
    /// redirects, else the last entry of `redirect_chain`.
    pub final_url: Url,
    /// Every redirect target in order (the requested URL not included).
    pub redirect_chain: Vec<Url>,
    /// HTTP requests sent for this fetch, retries and hops included
    /// (robots.txt requests not counted).
    pub attempts: u32,
    /// Wall time of the whole call, politeness waits included.
    pub elapsed: Duration,
    /// The page, or why there is none.
    pub result: Result<FetchedPage, FetchError>,
}

impl FetchOutcome {
    /// `elapsed` in whole milliseconds.
    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.elapsed.as_millis()).unwrap_or(u64::MAX)
    }

    /// The page, if the fetch succeeded.
    pub fn page(&self) -> Option<&FetchedPage> {
        self.result.as_ref().ok()
    }

    /// The error, if the fetch failed.
    pub fn error(&self) -> Option<&FetchError> {
        self.result.as_ref().err()
    }
}

/// A successfully fetched (2xx) response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedPage {
    /// HTTP status (2xx).
    pub status: u16,
    /// Raw `Content-Type` header, if present.
    pub content_type: Option<String>,
    /// Lower-cased media type without parameters (`text/html`), if present.
    pub media_type: Option<String>,
    /// `charset` parameter of the `Content-Type` header, lower-cased; pass it
    /// to the DOM parser (which may still find a `<meta charset>`).
    pub charset: Option<String>,
    /// HTML or XHTML (by header, or sniffed when the header is missing):
    /// fingerprint it. Other types are recorded, not parsed.
    pub is_html: bool,
    /// Whether the body was read; non-HTML bodies are skipped unless
    /// [`FetchConfig::fetch_non_html_body`](crate::FetchConfig::fetch_non_html_body).
    pub body_fetched: bool,
    /// The body as received, decompressed, never re-encoded.
    pub body: Bytes,
    /// The reason phrase of the status (`OK`), for archiving the status line.
    pub reason: String,
    /// The response header fields in order, as received (names lower-cased), for
    /// archiving the response; `Content-Encoding` and `Content-Length` describe the wire
    /// bytes, not `body`.
    pub headers: Vec<(String, String)>,
}

/// Decides whether a redirect hop may be followed (scope checks belong to
/// the caller). Implemented for every `Fn(&Url) -> bool + Send + Sync`.
pub trait RedirectPolicy: Send + Sync {
    /// `true` to follow the redirect from `from` to `to`.
    fn allow(&self, from: &Url, to: &Url) -> bool;
}

impl<F> RedirectPolicy for F
where
    F: Fn(&Url) -> bool + Send + Sync,
{
    fn allow(&self, _from: &Url, to: &Url) -> bool {
        self(to)
    }
}

/// Per-call options for [`Fetcher::fetch`](crate::Fetcher::fetch).
#[derive(Clone, Default)]
pub struct FetchContext {
    redirect_policy: Option<Arc<dyn RedirectPolicy>>,
    any_body: bool,
}

impl FetchContext {
    /// Follow every redirect that robots.txt and the address policy allow.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also ask `policy` before following each redirect hop.
    pub fn with_redirect_policy(mut self, policy: impl RedirectPolicy + 'static) -> Self {
        self.redirect_policy = Some(Arc::new(policy));
        self
    }

    /// Read the body whatever its content type (a sitemap, a robots.txt), up to
    /// [`FetchConfig::max_body_bytes`](crate::FetchConfig::max_body_bytes).
    #[must_use]
    pub fn reading_any_body(mut self) -> Self {
        self.any_body = true;
        self
    }

    pub(crate) fn reads_any_body(&self) -> bool {
        self.any_body
    }

    pub(crate) fn allows_redirect(&self, from: &Url, to: &Url) -> bool {
        self.redirect_policy
            .as_ref()
            .is_none_or(|policy| policy.allow(from, to))
    }
}

impl fmt::Debug for FetchContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FetchContext")
            .field("redirect_policy", &self.redirect_policy.is_some())
            .field("any_body", &self.any_body)
            .finish()
    }
}
