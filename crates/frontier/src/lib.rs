//! The crawl frontier of silhouette: which URLs to fetch, and in what order.
//!
//! Its URL layer is pure, without IO (the crawl state, [`Store`], is the one place that
//! touches a file: the SQLite database the binary names). A link found on a page goes
//! through, in order:
//!
//! 1. [`resolve_link`]: the `href` made absolute; `javascript:`, `mailto:`,
//!    `data:`, fragment-only and other non-HTTP links dropped.
//! 2. [`canonicalize`] (with a [`CanonConfig`]): one spelling per page — no
//!    fragment, no tracking or session parameters, sorted query, normalised
//!    escapes, on top of what the `url` crate already does (lower-case scheme
//!    and host, punycode, no default port, no dot segments). Paths keep their
//!    case.
//! 3. [`SeenSet`]: a 128-bit [`UrlKey`] per URL queued so far (its memory per URL:
//!    `BENCHMARKS.md`).
//! 4. [`Scope::check`] (from a [`ScopeConfig`]): same host (default), same
//!    registrable domain or any; include/exclude regexes; maximum depth.
//!    [`OutOfScope`] says why not.
//! 5. [`TrapGuard::check`] (from a [`TrapConfig`]): length, path depth,
//!    repeated segments and runs, query parameters. [`Trap`] says why not.
//! 6. [`Budget::try_take`]: the page limits, in total and per host. The
//!    [`Frontier`] keeps a URL beyond a limit in its state, deferred
//!    ([`Store::add_deferred_url`]), and queues it on resume once the limit allows.
//! 7. [`HostQueues::push`]: one queue per host, breadth-first within a host;
//!    [`HostQueues::pop_ready`] takes the hosts in turn and skips the ones
//!    that must wait ([`HostQueues::set_next_allowed`], [`HostQueues::hold`]),
//!    so one slow or huge host never blocks the rest.
//!
//! Calendar-like traps (each URL plausible on its own, but no end to them)
//! are contained by the depth limit and the per-host budget.
//!
//! A fetched page is judged by [`Dedup::judge_page`], the one place where the crawl's two
//! signals decide: exact bytes, then the structure cluster it joins and the kept pages whose
//! content ([`PageContent`]: a 64- or 128-bit [`ContentBits`] fingerprint and a semantic
//! signature) is near, as [`DropWhen`] defines for each mode (which kept page a page is
//! compared with, and where the cluster budget and the dedup scope apply).
//!
//! ```
//! use silhouette_frontier::{
//!     ContentBits, Dedup, DedupConfig, DropWhen, PageContent, PageSignals, Verdict,
//! };
//! use silhouette_simhash::Fingerprint;
//!
//! let config = DedupConfig { drop_when: DropWhen::StructureOrContent, ..DedupConfig::default() };
//! let mut dedup = Dedup::new(config, "doc")?;
//! let text = |bits| PageContent {
//!     fingerprint: Some(ContentBits::B64(Fingerprint::new(bits))),
//!     signature: None,
//! };
//! let page = |id, structure, content| PageSignals {
//!     id,
//!     host: "h",
//!     body_hash: u128::from(id),
//!     fingerprint: Some(Fingerprint::new(structure)),
//!     elements: 50,
//!     summary: None,
//!     content,
//! };
//! // An article, then its print view: another structure, the same text 1 bit off.
//! let (article, print_view) = (text(0xfeed), text(0xfeec));
//! let v = dedup.judge_page(&page(1, 0x8c3a_5f7e_9ecb_3f35, &article));
//! assert_eq!(v, Verdict::Kept { cluster: 1 });
//! let v = dedup.judge_page(&page(2, 0x0123_4567, &print_view));
//! assert_eq!(v, Verdict::ContentDuplicate { of: 1, distance: 1, cluster: None });
//! # Ok::<(), silhouette_frontier::DedupError>(())
//! ```
//!
//! ```
//! use std::time::Instant;
//! use silhouette_frontier::{
//!     Budget, CanonConfig, HostQueues, QueueEntry, Scope, ScopeConfig, SeenSet, TrapGuard,
//!     canonicalize, parse_canonical, resolve_link,
//! };
//!
//! let canon = CanonConfig::default();
//! let config = ScopeConfig { max_depth: Some(5), max_pages_per_host: Some(1000), ..ScopeConfig::default() };
//! let scope = Scope::new(&config)?;
//! let mut budget = Budget::new(&config);
//! let traps = TrapGuard::default();
//! let mut seen = SeenSet::new();
//! let mut queues = HostQueues::new();
//!
//! let seed = parse_canonical("HTTP://Example.com:80/index.html#top", &canon)?;
//! assert_eq!(seed.as_str(), "http://example.com/index.html");
//!
//! let links = ["b.html?utm_source=x&z=1&a=2", "#top", "mailto:me@example.com",
//!              "http://other.example/", "./b.html?a=2&z=1"];
//! for href in links {
//!     let Some(link) = resolve_link(&seed, href) else { continue };
//!     let Ok(url) = canonicalize(&link, &canon) else { continue };
//!     if !seen.insert(&url) { continue }           // already queued
//!     if scope.check(&url, &seed, 1).is_err() { continue }
//!     if traps.check(&url).is_err() { continue }
//!     if budget.try_take(&url).is_err() { continue }
//!     queues.push(QueueEntry::new(url, 1, Some(seed.clone())));
//! }
//! let next = queues.pop_ready(Instant::now()).map(|e| e.url.to_string());
//! assert_eq!(next.as_deref(), Some("http://example.com/b.html?a=2&z=1"));
//! assert!(queues.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod articles;
mod blocks;
mod canon;
mod content;
mod decision;
mod dedup;
mod dedup_config;
mod far;
mod forms;
mod frame;
mod frontier;
mod frontier_types;
mod order;
mod prose;
mod queue;
mod record;
mod replica;
mod resolved;
mod same;
mod scope;
mod seen;
mod shape;
mod store;
mod tables;
mod traps;
mod varying;

pub use articles::{articles_overlap, split_summary};
pub use blocks::blocks_differ;
pub use canon::{
    CanonConfig, CanonConfigError, CanonError, DEFAULT_STRIP_PARAMS, base_url, canonicalize,
    parse_canonical, resolve_link,
};
pub use content::{ContentBits, DropWhen, PageContent};
pub use decision::{Decision, UnknownDecision};
pub use dedup::{
    Candidate, Compared, Dedup, DedupConfig, DedupError, DedupScope, OnDuplicate, PageSignals,
    Verdict,
};
pub use forms::forms_differ;
pub use frontier::{
    Completed, Fetched, Frontier, FrontierConfig, FrontierError, HtmlPage, Job, SeedError,
    SummaryOf, body_hash,
};
pub use order::{DEFAULT_REORDER_TIMEOUT, DEFAULT_REORDER_WINDOW};
pub use prose::{block_beside_an_article, prose_differs};
pub use queue::{HostQueues, QueueEntry};
pub use record::{Judgement, MAX_REFRESH_DELAY, page_record, refresh_target};
pub use replica::{DecisionLog, JudgedPage, LocalLog, SharedDedup, SharedVerdict};
pub use scope::{
    Budget, OutOfScope, Scope, ScopeConfig, ScopeError, ScopeMode, host_port, registrable_domain,
};
pub use seen::{SeenSet, UrlKey};
pub use shape::{Explore, MARGIN, explored_links, most_held, shape_key};
pub use store::{
    Difference, HeldLink, PageRecord, QueuedUrl, StateError, Store, StoredRecord, WarcFile,
    WarcLocation,
};
pub use tables::tables_differ;
pub use traps::{Trap, TrapConfig, TrapGuard};
