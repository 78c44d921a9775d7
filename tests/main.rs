//! End-to-end tests: they run the real `silhouette` binary.

mod cli_compare;
mod cli_config;
mod cli_fingerprint;
mod common;
mod crawl_dedup;
mod crawl_input;
mod crawl_interrupt;
mod crawl_resume;
mod crawl_support;
mod crawl_tools;
mod dedup_warc;
mod sites;
