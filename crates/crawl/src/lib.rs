//! The silhouette crawl as a library.
//!
//! A polite crawl (robots.txt, per-host limits) whose dedup stage keeps about one page per
//! DOM template: each page's structure is fingerprinted ([`silhouette_dom`]) and a page
//! within `threshold` bits of one already kept is recorded as a duplicate. Everything the
//! crawl decides is committed to a state directory (SQLite) that can be resumed, summarised
//! ([`summarize`]), replayed with other settings ([`replay()`]) and drawn in a report
//! ([`Report`]). The same judge runs over WARC files written by any crawler ([`dedup()`]).
//!
//! A crawl with a sink of its own (`examples/count.rs`):
//!
//! ```no_run
#![doc = include_str!("../examples/count.rs")]
//! ```
//!
//! Key types:
//! - [`CrawlJob`] (settings in: [`CrawlConfig`], a [`StructureHasher`], seeds) and [`run`]
//!   or [`crawl`]: one crawl to its end, returning a [`RunReport`];
//! - [`Events`]: what the crawl tells its caller as it runs — each [`StoredRecord`] once
//!   committed, [`Progress`], [`Notice`]s. The library never prints;
//! - [`WorkerJob`] and [`run_worker`]: one worker of a crawl shared through Redis;
//! - [`Error`]: what can stop a run.

#![deny(missing_docs)]
// The example above is a whole program, `main` included.
#![allow(clippy::needless_doctest_main)]

mod config;
mod dedup;
mod engine;
mod error;
mod events;
mod export;
mod export_replay;
mod output;
mod page;
mod replay;
mod replay_cascade;
mod replay_gaps;
mod replay_why;
mod report_data;
mod seeds;
mod sitemaps;
mod summary;
mod warc_out;
mod worker;
mod worker_judge;
mod worker_order;
mod worker_robots;
mod worker_warc;

pub use config::{
    ClusterConfig, CrawlConfig, DEFAULT_EXPLORE, DEFAULT_FAR_MARGIN, DEFAULT_FAR_REACH,
    DEFAULT_MIN_SIMILARITY, DEFAULT_WARC_MAX_BYTES, WarcConfig, WarcRecords,
};
pub use dedup::{
    Archived, Candidate as WarcResponse, DedupJob, Item as WarcItem, Position as WarcPosition,
    Positioned as PositionedItem, Report as DedupReport, archived_html, is_warc, read_warc,
    run as dedup,
};
pub use engine::{
    CrawlJob, RunReport, crawl, default_output, private_seed_host, run, state_params,
};
pub use error::{Error, Result};
pub use events::{Events, Level, Notice, Progress, RunCounts};
pub use export::run as export_shared;
pub use export_replay::Opened as OpenedState;
pub use output::{PagesOutput, decisions_path};
pub use page::{MAX_LINKS, crawl_hasher, summary_of, text_bytes};
pub use replay::{Counts as ReplayCounts, Judged as JudgedPages, Recorded, replay};
pub use replay_cascade::Setting as ReplaySetting;
pub use replay_gaps::Gaps;
pub use replay_why::why as replay_why;
pub use report_data::{Grid, Histogram, Rate, Report};
pub use seeds::{Seed, from_args as seeds_from_args};
pub use silhouette_dom::{HasherConfig, StructureHasher};
pub use silhouette_frontier::StoredRecord;
pub use silhouette_redis::SharedStats;
pub use summary::{
    Cluster, FailedSeed, HostRow, Member, Summary, print as write_summary, shell_word, summarize,
};
pub use warc_out::{WARC_DIR_KEY, WarcWritten};
pub use worker::{WorkerJob, WorkerReport, run_worker};
