//! Crawls a site, keeping about one page per template, and counts the decisions as the
//! crawl commits them: `cargo run -p silhouette-crawl --example count -- URL STATE_DIR`.
#![allow(clippy::print_stdout, clippy::print_stderr)]
use std::collections::BTreeMap;

use silhouette_crawl::StoredRecord;
use silhouette_crawl::{CrawlConfig, CrawlJob, Events, HasherConfig, Notice, Seed};

/// Decisions by kind, and the notices on stderr.
#[derive(Default)]
struct Count(BTreeMap<&'static str, u64>);

impl Events for Count {
    fn decision(&mut self, record: &StoredRecord) {
        *self.0.entry(record.page.decision.as_str()).or_default() += 1;
    }

    fn notice(&mut self, notice: &Notice) {
        eprintln!("{notice}");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(url), Some(state)) = (args.next(), args.next()) else {
        return Err("usage: count URL STATE_DIR".into());
    };
    let mut config = CrawlConfig::default();
    config.fetch.host_request_interval = None; // your own site: as fast as it answers
    let hasher = silhouette_crawl::crawl_hasher(HasherConfig::default(), None)?;
    let job = CrawlJob::new(config, hasher, state, vec![Seed::new(url)]);
    let mut count = Count::default();
    let report = silhouette_crawl::run(job, &mut count)?;
    println!("fetched {} pages in {:.1?}", report.fetched, report.elapsed);
    for (decision, n) in &count.0 {
        println!("{decision:>18} {n}");
    }
    Ok(())
}
