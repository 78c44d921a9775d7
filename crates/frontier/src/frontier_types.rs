//! What goes into and out of the [`crate::Frontier`]: its settings ([`FrontierConfig`]), a
//! fetch to make ([`Job`]), what the fetch brought ([`Fetched`], [`HtmlPage`]), what was
//! decided ([`Completed`]) and what can go wrong ([`FrontierError`], [`SeedError`]).

use std::time::Duration;

use silhouette_simhash::Fingerprint;
use siphasher::sip128::{Hasher128, SipHasher13};
use url::Url;

use crate::{
    CanonConfig, CanonError, Decision, DedupConfig, DedupError, PageContent, ScopeConfig,
    ScopeError, StateError, StoredRecord, TrapConfig,
};

/// Reads a page's structure summary (sorted, distinct feature ids) from its stored profile.
pub type SummaryOf = fn(&[u8]) -> Option<Vec<u32>>;

/// Everything the frontier needs to know, as plain values.
#[derive(Clone, Debug)]
pub struct FrontierConfig {
    /// URL canonicalisation.
    pub canon: CanonConfig,
    /// Scope, depth and page budgets.
    pub scope: ScopeConfig,
    /// Crawler-trap guards.
    pub traps: TrapConfig,
    /// Dedup decisions.
    pub dedup: DedupConfig,
    /// Fetches in flight per host at most.
    pub per_host_in_flight: usize,
    /// How often a URL whose host asked to wait is put back before it is recorded as an error.
    pub max_requeues: u32,
    /// Reads a page's structure summary back from its stored profile, for a resumed crawl
    /// whose dedup confirms near matches ([`DedupConfig::min_similarity`]); the crawl sets it
    /// to what its structure model writes.
    pub summary_of: Option<SummaryOf>,
    /// URLs fetched ahead of the oldest one not yet judged (pages are judged in the order
    /// their URLs were found; see [`Frontier::complete`](crate::Frontier::complete)).
    pub reorder_window: u64,
    /// How long pages wait behind a stuck fetch before it is judged out of order.
    pub reorder_timeout: Duration,
    /// In drop mode ([`OnDuplicate::Drop`](crate::OnDuplicate::Drop)), the links of near-duplicate pages whose URL
    /// shape the host's pages never linked to are still queued, at most this many per host
    /// that keep no page (an explored page that is kept gives its fetch back, and a link
    /// held for want of one is queued: [`crate::most_held`]), and within half of it every
    /// unseen link of a near-duplicate that only just joined its cluster
    /// ([`crate::explored_links`]); 0: a duplicate's links are never followed.
    pub explore: u32,
}

impl Default for FrontierConfig {
    fn default() -> Self {
        Self {
            canon: CanonConfig::default(),
            scope: ScopeConfig::default(),
            traps: TrapConfig::default(),
            dedup: DedupConfig::default(),
            per_host_in_flight: 0,
            max_requeues: 0,
            summary_of: None,
            reorder_window: crate::DEFAULT_REORDER_WINDOW,
            reorder_timeout: crate::DEFAULT_REORDER_TIMEOUT,
            explore: 0,
        }
    }
}

/// The frontier could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrontierError {
    /// The crawl state.
    #[error(transparent)]
    State(#[from] StateError),
    /// A scope setting.
    #[error(transparent)]
    Scope(#[from] ScopeError),
    /// A dedup setting.
    #[error(transparent)]
    Dedup(#[from] DedupError),
}

/// One URL to fetch.
#[derive(Clone, Debug)]
pub struct Job {
    /// The URL's id in the state.
    pub id: u64,
    /// The canonical URL.
    pub url: Url,
    /// Link depth from a seed.
    pub depth: u32,
}

/// The HTML-specific part of a fetched page.
#[derive(Clone, Debug, Default)]
pub struct HtmlPage {
    /// Structure fingerprint.
    pub fingerprint: Option<Fingerprint>,
    /// Element count.
    pub elements: u64,
    /// Why the fingerprint covers part of the page only.
    pub truncated: Option<String>,
    /// The decay-free structure profile (opaque bytes).
    pub profile: Vec<u8>,
    /// The structure summary: sorted, distinct feature ids (see [`DedupConfig::min_similarity`]).
    pub summary: Option<Vec<u32>>,
    /// Link targets as written.
    pub links: Vec<String>,
    /// The document's `<base href>`, as written.
    pub base: Option<String>,
    /// Its first `<meta http-equiv=refresh>` with a URL: the delay in seconds and the URL as
    /// written (a page that sends the browser on at once is a redirect: [`HtmlPage::redirect`]).
    /// (Boxed: most pages have none.)
    pub refresh: Option<Box<(u64, String)>>,
    /// The content signal: content fingerprint and signature of the main-content text
    /// (boxed: a page's size on the way from its task to the frontier stays small).
    pub content: Box<PageContent>,
}

impl HtmlPage {
    /// Where the page, reached at `final_url`, redirects by its `<meta http-equiv=refresh>`
    /// ([`refresh_target`](crate::refresh_target)): such a page is not judged.
    #[must_use]
    pub fn redirect(&self, final_url: &Url) -> Option<Url> {
        let (delay, url) = self.refresh.as_deref()?;
        crate::refresh_target(*delay, url, self.base.as_deref(), final_url)
    }
}

/// What fetching a [`Job`] gave.
#[derive(Clone, Debug)]
pub enum Fetched {
    /// A 2xx response.
    Page {
        /// The URL finally reached.
        final_url: Url,
        /// HTTP status.
        status: u16,
        /// Content type header.
        content_type: Option<String>,
        /// Body length.
        bytes: u64,
        /// Fetch time.
        fetch_ms: u64,
        /// Hash of the body ([`body_hash`]).
        body_hash: u128,
        /// Set for HTML pages.
        html: Option<HtmlPage>,
    },
    /// No page: an error, robots, a refused redirect.
    Failed {
        /// The last URL reached or refused.
        final_url: Url,
        /// HTTP status, if a response came.
        status: Option<u16>,
        /// Fetch time.
        fetch_ms: u64,
        /// The decision: `error`, `robots-disallowed`, `out-of-scope`.
        decision: Decision,
        /// The error, one line.
        error: String,
    },
    /// The host asked to wait: fetch again after this long.
    Later {
        /// How long.
        after: Duration,
        /// The error, recorded if the URL is put back too often.
        error: String,
    },
}

/// What [`Frontier::complete`](crate::Frontier::complete) did.
#[derive(Clone, Debug)]
pub struct Completed {
    /// The records of the pages judged now, in order: none while the page waits for the
    /// pages found before it (or when it was put back), it and the pages that waited for it
    /// once it is its turn.
    pub records: Vec<StoredRecord>,
    /// New URLs queued from their links.
    pub queued: usize,
}

/// 128-bit hash of a page body, for exact-duplicate detection (SipHash-1-3, fixed keys).
#[must_use]
pub fn body_hash(bytes: &[u8]) -> u128 {
    let mut h = SipHasher13::new_with_keys(0x7369_6c68_6f75_6574, 0x7465_2d62_6f64_7921);
    std::hash::Hasher::write(&mut h, bytes);
    h.finish128().as_u128()
}

/// A seed that cannot be crawled.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SeedError {
    /// Not an http(s) URL.
    #[error(transparent)]
    Url(CanonError),
    /// The state cannot be written.
    #[error(transparent)]
    State(StateError),
}
