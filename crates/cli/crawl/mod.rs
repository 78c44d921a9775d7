//! `silhouette crawl`, `stats` and what they print; the crawl itself is `silhouette-crawl`.

pub mod command;
pub mod export;
pub mod finish;
pub mod progress;
pub mod stats;
pub mod worker;
