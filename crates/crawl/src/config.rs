//! The plain settings a crawl runs with. The binary builds them from `config.toml` and its
//! flags (checking every value); a program that embeds the crawl fills them in itself.

use std::path::PathBuf;
use std::time::Duration;

use silhouette_dom::FeatureSet;
use silhouette_fetch::FetchConfig;
use silhouette_frontier::{DedupConfig, FrontierConfig, ScopeConfig};
use silhouette_redis::SharedConfig;

/// How a crawl fetches and decides.
#[derive(Clone, Debug)]
pub struct CrawlConfig {
    /// The frontier's configuration: scope, canonicalisation, traps, limits and dedup.
    pub frontier: FrontierConfig,
    /// The fetcher's configuration: politeness, timeouts, size limits, addresses.
    pub fetch: FetchConfig,
    /// Fetches in flight at once.
    pub concurrency: usize,
    /// Seeds from the sites' sitemaps too (those robots.txt lists, else `/sitemap.xml`).
    pub sitemaps: bool,
}

/// The default `dedup.min-similarity`: a near match is confirmed when the two pages share at
/// least this share of their structure (ALGORITHM.md §3).
pub const DEFAULT_MIN_SIMILARITY: f64 = 0.7;

/// The default `dedup.far-reach`: when no kept page within the threshold is confirmed, those
/// up to three times as far are compared too (ALGORITHM.md §3, "Session 46").
pub const DEFAULT_FAR_REACH: u32 = 3;

/// The default `dedup.far-margin`: what a kept page beyond the threshold needs above
/// `min-similarity` (0.8 at the default 0.7; ALGORITHM.md §3, "Session 46").
pub const DEFAULT_FAR_MARGIN: f64 = 0.1;

/// The default `dedup.explore`: in drop mode, up to this many links per host of
/// near-duplicate pages whose URL shape the host's pages never linked to are followed that
/// keep no page (ALGORITHM.md §3, "Session 29" and "Session 37").
pub const DEFAULT_EXPLORE: u32 = 64;

impl Default for CrawlConfig {
    /// The crawl's defaults, those of an empty `config.toml`: the default structure model's
    /// threshold, confirmation of near matches and paths that vary after 2 pages of a
    /// cluster, depth 30, 32 fetches in flight, 3 requeues of a URL whose host asks to wait,
    /// exploration of up to 64 links per host in drop mode (new URL shapes, and within 32
    /// those the near-duplicates that only just joined link to), no sitemaps; the
    /// fetcher's politeness defaults.
    fn default() -> Self {
        let fetch = FetchConfig {
            global_concurrency: 32,
            ..FetchConfig::default()
        };
        Self {
            frontier: FrontierConfig {
                scope: ScopeConfig {
                    max_depth: Some(30),
                    ..ScopeConfig::default()
                },
                dedup: DedupConfig {
                    threshold: FeatureSet::default().default_threshold(),
                    min_similarity: Some(DEFAULT_MIN_SIMILARITY),
                    // ALGORITHM.md §3, "Paths that vary within a cluster".
                    varying_after: 2,
                    // ALGORITHM.md §3, "Session 46".
                    far_reach: DEFAULT_FAR_REACH,
                    far_margin: DEFAULT_FAR_MARGIN,
                    ..DedupConfig::default()
                },
                per_host_in_flight: fetch.per_host_concurrency,
                max_requeues: 3,
                summary_of: Some(crate::page::summary_of),
                explore: DEFAULT_EXPLORE,
                ..FrontierConfig::default()
            },
            concurrency: fetch.global_concurrency,
            fetch,
            sitemaps: false,
        }
    }
}

/// Which fetched pages go to the WARC files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarcRecords {
    /// Kept pages (request + response) and exact duplicates of them (request + revisit).
    Kept,
    /// Every page fetched with its body: near-duplicates as plain responses too.
    All,
}

impl std::fmt::Display for WarcRecords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Kept => "kept",
            Self::All => "all",
        })
    }
}

/// Where and how a crawl archives the pages it fetches (WARC 1.1 files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcConfig {
    /// Where the files go.
    pub dir: PathBuf,
    /// Which pages.
    pub records: WarcRecords,
    /// A file is closed and the next one started beyond this size (bytes).
    pub max_bytes: u64,
    /// A CDXJ index beside each file.
    pub cdxj: bool,
}

/// The default rotation size of WARC files: 1 GB.
pub const DEFAULT_WARC_MAX_BYTES: u64 = 1_000_000_000;

/// Where a shared crawl is (Redis) and how a worker takes part in it.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// `redis://HOST:PORT/DB` or `redis+cluster://HOST:PORT,…`.
    pub url: String,
    /// The shared crawl's name.
    pub crawl: String,
    /// Leases, claim batches, the shared politeness and budgets.
    pub shared: SharedConfig,
}

impl ClusterConfig {
    /// The shared politeness and budgets from the crawl's own settings: the per-host
    /// interval, in-flight limit, robots.txt (and its Crawl-delay), backoff and page budgets
    /// hold across every worker.
    #[must_use]
    pub fn with_crawl(mut self, crawl: &CrawlConfig) -> Self {
        self.shared.host_interval = crawl.fetch.host_request_interval.unwrap_or(Duration::ZERO);
        self.shared.per_host_in_flight = crawl.frontier.per_host_in_flight.max(1);
        self.shared.shared_robots = true;
        self.shared.backoff_cap = crawl.fetch.backoff_cap;
        self.shared.max_pages = crawl.frontier.scope.max_pages;
        self.shared.max_pages_per_host = crawl.frontier.scope.max_pages_per_host;
        self
    }
}
