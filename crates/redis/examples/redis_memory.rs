//! Redis memory per seen URL: queues N URLs (100 hosts, ~70-byte URLs), then leases and
//! completes them all with a ~350-byte record, and prints `used_memory` (INFO memory) per
//! URL at each step, and `MEMORY USAGE` of the seen sets per URL.
//!
//! `cargo run --release -p silhouette-redis --example redis_memory -- redis://127.0.0.1:PORT/0 [N]`
//! (an empty Redis of your own, e.g. `redis-server --port PORT --save ''`).
#![allow(clippy::print_stdout)]

use silhouette_redis::{SharedConfig, SharedCrawl};
use url::Url;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let redis = args.get(1).expect("usage: redis_memory REDIS_URL [N]");
    let n: u64 = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(200_000);
    let config = SharedConfig {
        host_interval: std::time::Duration::ZERO,
        per_host_in_flight: 1000,
        ..SharedConfig::default()
    };
    let mut crawl = SharedCrawl::join(redis, "seen-memory", &[], config)
        .await
        .expect("Redis");
    let before = crawl.used_memory().await.expect("INFO");
    let hosts = 100;
    let mut batch = Vec::new();
    for i in 0..n {
        let url = format!(
            "http://www.host{}.example/section/{}/page-{i}.html?lang=en",
            i % hosts,
            i % 37
        );
        batch.push((Url::parse(&url).expect("URL"), 3, i));
        if batch.len() == 1000 {
            crawl
                .enqueue(&batch, Some("http://www.example/"), false)
                .await
                .expect("queued");
            batch.clear();
        }
    }
    crawl.enqueue(&batch, None, false).await.expect("queued");
    let queued = crawl.used_memory().await.expect("INFO");
    let stats = crawl.stats().await.expect("stats");
    println!(
        "{} URLs queued on {} hosts: used_memory {:.1} bytes/URL (seen set, queue entry, order entry)",
        stats.seen,
        stats.hosts,
        (queued - before) as f64 / stats.seen as f64
    );
    let record = "x".repeat(350);
    while !crawl.finished().await.expect("schedule") {
        let leases = crawl.lease(1000).await.expect("leased");
        for l in &leases {
            crawl.complete(l, &record, "kept").await.expect("recorded");
        }
    }
    let done = crawl.used_memory().await.expect("INFO");
    let stats = crawl.stats().await.expect("stats");
    println!(
        "{} records of 350 bytes, queues empty: used_memory {:.1} bytes/URL (seen set + record)",
        stats.decisions.values().sum::<u64>(),
        (done - before) as f64 / stats.seen as f64
    );
    println!(
        "seen sets alone (MEMORY USAGE): {:.1} bytes/URL",
        crawl.seen_bytes().await.expect("MEMORY USAGE") as f64 / stats.seen as f64
    );
}
