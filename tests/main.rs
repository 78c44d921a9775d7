//! End-to-end tests: they run the real `silhouette` binary.

mod cli_compare;
mod cli_config;
mod cli_content;
mod cli_exits;
mod cli_fingerprint;
mod cli_idf;
mod cli_overlap;
mod common;
mod crawl_dedup;
mod crawl_flags;
mod crawl_input;
mod crawl_interrupt;
mod crawl_limits;
mod crawl_origin;
mod crawl_redis;
mod crawl_resume;
mod crawl_sitemaps;
mod crawl_state;
mod crawl_support;
mod crawl_tools;
mod dedup_warc;
mod report;
mod report_browser;
mod sites;
