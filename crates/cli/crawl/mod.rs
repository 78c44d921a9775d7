//! `silhouette crawl`, `stats` and `replay`.

pub mod command;
pub mod engine;
pub mod export;
pub mod export_replay;
pub mod finish;
pub mod output;
pub mod page;
pub mod progress;
pub mod replay;
pub mod replay_gaps;
pub mod seeds;
pub mod sitemaps;
pub mod stats;
pub mod summary;
pub mod warc_out;
pub mod worker;
pub mod worker_judge;
pub mod worker_order;
pub mod worker_robots;
pub mod worker_warc;
