//! What `config.toml` may say: every section and key, all optional (serde,
//! `deny_unknown_fields`). The first layer of the configuration: nothing here checks a value
//! or knows a default; the resolvers beside it do.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

/// The names of the keys that flags also set: written here once, for the resolver that
/// checks a key and the flag that stands for it.
pub mod key {
    /// `output.warc-dir`.
    pub const WARC_DIR: &str = "output.warc-dir";
    /// `content.threshold`.
    pub const CONTENT_THRESHOLD: &str = "content.threshold";
    /// `cluster.url`.
    pub const CLUSTER_URL: &str = "cluster.url";
    /// `cluster.crawl`.
    pub const CLUSTER_CRAWL: &str = "cluster.crawl";
    /// `dedup.threshold`.
    pub const THRESHOLD: &str = "dedup.threshold";
    /// `fingerprint.decay`.
    pub const DECAY: &str = "fingerprint.decay";
    /// `fingerprint.features`.
    pub const FEATURES: &str = "fingerprint.features";
    /// `crawl.max-pages`.
    pub const MAX_PAGES: &str = "crawl.max-pages";
    /// `crawl.max-depth`.
    pub const MAX_DEPTH: &str = "crawl.max-depth";
    /// `crawl.concurrency`.
    pub const CONCURRENCY: &str = "crawl.concurrency";
    /// `crawl.scope`.
    pub const SCOPE: &str = "crawl.scope";
    /// `crawl.include`.
    pub const INCLUDE: &str = "crawl.include";
    /// `crawl.exclude`.
    pub const EXCLUDE: &str = "crawl.exclude";
    /// `dedup.on-duplicate`.
    pub const ON_DUPLICATE: &str = "dedup.on-duplicate";
    /// `dedup.drop-when`.
    pub const DROP_WHEN: &str = "dedup.drop-when";
    /// `fetch.request-interval-ms`.
    pub const REQUEST_INTERVAL: &str = "fetch.request-interval-ms";
    /// `fetch.headers`.
    pub const HEADERS: &str = "fetch.headers";
    /// `fetch.user-agent`.
    pub const USER_AGENT: &str = "fetch.user-agent";
    /// `fetch.proxy`.
    pub const PROXY: &str = "fetch.proxy";
}

/// The defaults, documented: the repository's `config.toml`, built into the binary.
pub const DEFAULT_CONFIG: &str = include_str!("../../../config.toml");

/// What a configuration file may contain. Every field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// `[fingerprint]`: how a page's structure becomes 64 bits.
    pub fingerprint: Option<FingerprintOptions>,
    /// `[dedup]`: when two structures count as the same.
    pub dedup: Option<DedupOptions>,
    /// `[crawl]`: what to crawl.
    pub crawl: Option<CrawlOptions>,
    /// `[traps]`: crawler-trap guards.
    pub traps: Option<TrapOptions>,
    /// `[fetch]`: politeness and limits of the fetcher.
    pub fetch: Option<FetchOptions>,
    /// `[content]`: content fingerprints of the main-content text.
    pub content: Option<ContentOptions>,
    /// `[output]`: the WARC files of a crawl.
    pub output: Option<OutputOptions>,
    /// `[cluster]`: a crawl shared by workers through Redis.
    pub cluster: Option<ClusterOptions>,
}

/// `[fingerprint]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FingerprintOptions {
    /// Weight of each nesting level relative to its parent, in (0, 1].
    pub decay: Option<f64>,
    /// Feature model name.
    pub features: Option<String>,
    /// `class-paths`: paths deeper than this are left out (a visible form field's path is
    /// kept at any depth).
    pub path_depth: Option<i64>,
    /// `class-paths`: seed of the feature hash.
    pub seed: Option<i64>,
    /// Nesting depth at which parsing stops.
    pub max_depth: Option<i64>,
    /// Elements the parser may create for one page.
    pub max_nodes: Option<i64>,
    /// Units of deterministic parsing work allowed per page (fixed part).
    pub work_budget: Option<i64>,
    /// Units of deterministic parsing work allowed per input byte.
    pub work_budget_per_byte: Option<i64>,
    /// Whether the parse has a time budget at all.
    pub time_limit: Option<bool>,
    /// Fixed part of the time budget, in milliseconds.
    pub time_budget_ms: Option<i64>,
    /// Part of the time budget per input byte, in nanoseconds.
    pub time_budget_ns_per_byte: Option<i64>,
    /// Bytes of a page parsed at most.
    pub max_input_bytes: Option<i64>,
}

/// `[dedup]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DedupOptions {
    /// Near-duplicate threshold in bits, 0 to 8 (default: the feature model's, 8 for class-paths).
    pub threshold: Option<i64>,
    /// `global` or `host`.
    pub dedup_scope: Option<String>,
    /// Pages kept per structure cluster.
    pub cluster_budget: Option<i64>,
    /// Pages with fewer elements are never judged by structure.
    pub min_elements: Option<i64>,
    /// `drop`, `follow-links` or `keep`.
    pub on_duplicate: Option<String>,
    /// Structure similarity (Jaccard of path sets) a near match must also reach.
    pub min_similarity: Option<f64>,
    /// `structure`, `content`, `structure-and-content` or `structure-or-content`.
    pub drop_when: Option<String>,
    /// Confirmed matches a path must have differed in before the similarity leaves it out
    /// (a path only the page has: within its candidate's cluster, or within two clusters).
    pub varying_after: Option<i64>,
    /// When no kept page within the threshold is confirmed, the nearest ones up to this
    /// many times the threshold are compared too, 1 to 8 (1: none; default 3).
    pub far_reach: Option<i64>,
    /// What a kept page beyond the threshold needs above `min-similarity`, 0 to 1
    /// (default 0.1).
    pub far_margin: Option<f64>,
    /// In drop mode, links of near-duplicates with a URL shape new to the host followed,
    /// at most this many per host that keep no page (an explored page kept gives its fetch
    /// back); within half of it, every unseen link of a near-duplicate whose similarity
    /// only just reached `min-similarity`.
    pub explore: Option<i64>,
}

/// `[crawl]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CrawlOptions {
    /// `same-host`, `same-domain` or `any`.
    pub scope: Option<String>,
    /// Regexes; when any is given, a URL must match one.
    pub include: Option<Vec<String>>,
    /// Regexes; a URL matching one is out of scope.
    pub exclude: Option<Vec<String>>,
    /// Link depth from a seed at most (0: seeds only).
    pub max_depth: Option<i64>,
    /// URLs crawled at most in all (0: no limit).
    pub max_pages: Option<i64>,
    /// URLs crawled at most per host (0: no limit).
    pub max_pages_per_host: Option<i64>,
    /// Fetches in flight at once.
    pub concurrency: Option<i64>,
    /// Where the crawl state goes when `--state` is not given.
    pub state_dir: Option<String>,
    /// Query parameters removed from URLs (exact names, or prefixes ending in `*`).
    pub strip_params: Option<Vec<String>>,
    /// Times a URL whose host asks to wait is put back before it is recorded as an error.
    pub max_requeues: Option<i64>,
    /// Seeds from the seeds' sitemaps too (robots.txt `Sitemap:` lines, `/sitemap.xml`).
    pub sitemaps: Option<bool>,
    /// Pages are judged in the order their URLs were found: URLs fetched ahead of the
    /// oldest one not yet judged, at most.
    pub reorder_window: Option<i64>,
    /// Seconds pages wait behind a stuck fetch before it is judged out of order.
    pub reorder_timeout_secs: Option<i64>,
}

/// `[traps]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TrapOptions {
    /// URLs longer than this are traps.
    pub max_url_length: Option<i64>,
    /// Paths with more segments are traps.
    pub max_path_depth: Option<i64>,
    /// A path segment repeated more often is a trap.
    pub max_segment_occurrences: Option<i64>,
    /// A run of segments repeated more often is a trap.
    pub max_run_repeats: Option<i64>,
    /// URLs with more query parameters are traps.
    pub max_query_params: Option<i64>,
    /// A query parameter whose value holds a query with that parameter, more levels deep
    /// than this, is a trap.
    pub max_query_nesting: Option<i64>,
}

/// `[fetch]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FetchOptions {
    /// The User-Agent header.
    pub user_agent: Option<String>,
    /// The name matched against robots.txt groups.
    pub robots_agent: Option<String>,
    /// Minimum time between two requests to one host, in ms (0: no rate limit).
    pub request_interval_ms: Option<i64>,
    /// Requests in flight per host.
    pub per_host_concurrency: Option<i64>,
    /// Longest `Crawl-delay` honoured, in seconds.
    pub max_crawl_delay_secs: Option<i64>,
    /// Connect timeout, seconds.
    pub connect_timeout_secs: Option<i64>,
    /// Time to the first response byte, seconds.
    pub first_byte_timeout_secs: Option<i64>,
    /// Longest pause between body chunks, seconds.
    pub idle_timeout_secs: Option<i64>,
    /// Longest time for one request, seconds.
    pub total_timeout_secs: Option<i64>,
    /// Largest body read, after decompression.
    pub max_body_bytes: Option<i64>,
    /// Redirects followed at most.
    pub max_redirects: Option<i64>,
    /// Retries of connect errors, connections closed before an answer, 5xx and 429.
    pub max_retries: Option<i64>,
    /// Allow connections to loopback/private addresses reached from public seeds.
    pub allow_private_addresses: Option<bool>,
    /// Extra request headers, `Name: value` each.
    pub headers: Option<Vec<String>>,
    /// An http(s) proxy for every request.
    pub proxy: Option<String>,
}

/// `[content]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ContentOptions {
    /// Whether the crawl and `silhouette dedup` compute and record content fingerprints.
    /// Default: on when `dedup.drop-when` uses content, off otherwise.
    pub enabled: Option<bool>,
    /// `weighted`, `minhash` or `seed-002`.
    pub mode: Option<String>,
    /// `auto`, `unicode`, `jieba` or `mfonda`.
    pub tokenizer: Option<String>,
    /// Words per feature (1 to 16).
    pub shingles: Option<i64>,
    /// Whether English and Chinese stop words are dropped.
    pub stop_words: Option<bool>,
    /// `equal`, `tf` or `tf-idf`.
    pub weights: Option<String>,
    /// Keep only the n heaviest features; 0 keeps them all.
    pub top_n: Option<i64>,
    /// 64 or 128.
    pub bits: Option<i64>,
    /// Texts with fewer words get no fingerprint.
    pub min_words: Option<i64>,
    /// Keywords in the semantic signature; 0: no signature.
    pub signature_top_n: Option<i64>,
    /// The fingerprint and signature read the start of the main-content text up to this many
    /// bytes (1,024 to 4,194,304; default 32,768), and so does `silhouette text`.
    pub max_text_bytes: Option<i64>,
    /// An IDF table (`word idf` lines); empty: jieba's built-in one.
    pub idf: Option<PathBuf>,
    /// The crawl's content near-duplicate threshold in bits.
    pub threshold: Option<i64>,
}

/// `[output]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct OutputOptions {
    /// Write the fetched pages as WARC files into this directory.
    pub warc_dir: Option<String>,
    /// `kept` (kept pages, revisits for exact duplicates) or `all` (every fetched page).
    pub warc_records: Option<String>,
    /// A WARC file is closed and the next one started beyond this size.
    pub warc_max_bytes: Option<i64>,
    /// A CDXJ index beside each WARC file.
    pub warc_cdxj: Option<bool>,
}

/// `[cluster]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ClusterOptions {
    /// `redis://HOST:PORT/DB` or `redis+cluster://HOST:PORT,…`; empty: no shared crawl.
    pub url: Option<String>,
    /// The crawl's name in Redis.
    pub crawl: Option<String>,
    /// Seconds a leased URL stays with a worker.
    pub lease_secs: Option<i64>,
    /// Hosts claimed from the schedule in one call.
    pub claim_batch: Option<i64>,
}

impl Options {
    /// Parses TOML text; `origin` names it in errors (a path, or "built-in defaults").
    pub fn parse(text: &str, origin: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|span| 1 + text[..span.start.min(text.len())].matches('\n').count());
            let message = e.message().trim().replace('\n', " ");
            match line {
                Some(line) => anyhow::anyhow!("{origin}:{line}: {message}"),
                None => anyhow::anyhow!("{origin}: {message}"),
            }
        })
    }

    /// The options of `--config FILE`, else `$SILHOUETTE_CONFIG`, else the built-in defaults.
    pub fn find(config: Option<&Path>) -> Result<Self> {
        let env = std::env::var_os("SILHOUETTE_CONFIG").filter(|v| !v.is_empty());
        match config
            .map(Path::to_path_buf)
            .or_else(|| env.map(Into::into))
        {
            Some(path) => Self::load(&path),
            None => Self::parse(DEFAULT_CONFIG, "built-in config.toml"),
        }
    }

    /// Reads and parses a configuration file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file {}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }
}
