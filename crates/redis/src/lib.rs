//! The Redis backend of silhouette: one crawl shared by any number of worker processes, on
//! one machine or many (ARCHITECTURE.md, "Many workers on one crawl").
//!
//! Redis holds the crawl's state; each worker fetches, fingerprints and judges pages
//! exactly as the single-process crawl does:
//!
//! - [`SharedCrawl`]: a worker's handle. [`SharedCrawl::join`] refuses a worker whose
//!   settings differ from the crawl's; [`SharedCrawl::enqueue`] queues the URLs not seen yet
//!   (a per-host set of 16-byte URL keys); [`SharedCrawl::lease`] takes URLs from hosts that
//!   may be fetched now (a shared schedule: the per-host interval, in-flight limit and
//!   Retry-After waits hold across workers) as **leases** with a deadline, which return to
//!   the queue when they expire; [`SharedCrawl::complete`] writes a URL's record once, even
//!   if two workers fetched it; [`SharedCrawl::give_back`] hands leases back (Ctrl-C).
//! - The canonical order: every URL has a sequence number, given in the order URLs are
//!   found ([`SharedCrawl::alloc`]), and workers judge pages one at a time in that order
//!   ([`SharedCrawl::head`]: whose turn it is), so that one worker and many decide the same.
//!   The turn ends with [`SharedCrawl::finish`], which queues the page's links; in drop
//!   mode a duplicate's links of a URL shape new to its host go on too ([`Shapes`]: the
//!   host's shapes live in Redis, changed only there), as the single-process crawl explores.
//! - [`RedisLog`]: the dedup log, the [`DecisionLog`](silhouette_frontier::DecisionLog) that
//!   [`SharedDedup`](silhouette_frontier::SharedDedup) judges through, so that no two kept
//!   pages of a scope are within the threshold whatever the number of workers: a decision
//!   is logged only if the worker judged against the whole log (one script compares the
//!   log's length and appends).
//! - [`SharedRobots`]: each host's robots.txt, fetched by one worker and read by all (its
//!   Crawl-delay spaces the host's fetches across workers).
//! - [`Conn`]: one server (reconnecting) or a Redis Cluster; commands are retried while
//!   Redis is briefly away.
//!
//! Every key of a host shares the hash tag `{CRAWL@HOST}`, the crawl's own keys `{CRAWL}`,
//! and every script touches one tag: the layout works on Redis Cluster unchanged.
//!
//! ```
//! use silhouette_redis::{SharedConfig, url_id};
//!
//! // A URL's id is the low half of its 128-bit key: the same in every worker.
//! assert_eq!(url_id("http://a.example/"), url_id("http://a.example/"));
//! assert_ne!(url_id("http://a.example/"), url_id("http://b.example/"));
//! let config = SharedConfig::default();
//! assert!(config.lease > config.host_interval);
//! ```
#![deny(missing_docs)]

mod codec;
mod conn;
mod crawl;
mod error;
mod finish;
mod inspect;
mod keys;
mod log;
mod order;
mod robots;
mod scripts;

pub use codec::{Lease, url_id};
pub use conn::Conn;
pub use crawl::{Head, Link, Requeued, SharedConfig, SharedCrawl};
pub use error::SharedError;
pub use finish::{Completed, Finish, Finished, Shapes};
pub use inspect::SharedStats;
pub use log::RedisLog;
pub use order::{Heads, Numbers, Place};
pub use robots::{RobotsState, SharedRobots};
