//! Crawl benchmark baseline: crawls one site with the `spider` crate (default features,
//! no dedup), same-host, no delay, at a given concurrency, and prints what it fetched.
//!
//! Usage: spider-baseline URL CONCURRENCY [MAX_DEPTH]
//! Prints `pages N` (URLs visited, from `Website::get_links`) and `wall_s S` on stdout.

use std::time::Instant;

use spider::tokio;
use spider::website::Website;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = args.next().expect("usage: spider-baseline URL CONCURRENCY [MAX_DEPTH]");
    let concurrency: usize = args
        .next()
        .and_then(|c| c.parse().ok())
        .expect("CONCURRENCY must be a number");
    let depth: usize = args.next().and_then(|d| d.parse().ok()).unwrap_or(1000);

    let mut website = Website::new(&url);
    website
        .with_concurrency_limit(Some(concurrency))
        .with_delay(0)
        .with_depth(depth)
        .with_subdomains(false)
        .with_tld(false)
        .with_respect_robots_txt(true);

    let start = Instant::now();
    website.crawl().await;
    let wall = start.elapsed().as_secs_f64();
    let links = website.get_links();
    println!("pages {}", links.len());
    println!("wall_s {wall:.3}");
    if std::env::var_os("SPIDER_BASELINE_LIST").is_some() {
        let mut all: Vec<String> = links.iter().map(|l| l.inner().to_string()).collect();
        all.sort();
        for l in all {
            eprintln!("{l}");
        }
    }
}
