//! The cost of a shared dedup decision: pages judged per second through `SharedDedup` with
//! the in-process log (the single-process crawl's cost) and with a Redis log, by W
//! concurrent workers on one host scope (the worst case: every decision appends to the same
//! log, and a worker behind it judges again) and on W hosts.
//!
//! `cargo run --release -p silhouette-redis --example judge_cost -- redis://127.0.0.1:PORT/0 [PAGES]`
//! (an empty Redis of your own; the example writes keys under `sil:{judge-cost…}`).
#![allow(clippy::print_stdout)]

use std::time::Instant;

use silhouette_frontier::{DedupConfig, JudgedPage, LocalLog, SharedDedup};
use silhouette_redis::{SharedConfig, SharedCrawl};

fn page(i: u64, host: &str) -> JudgedPage {
    // 64 structures, pages 0-3 bits away from theirs.
    let base = (i % 64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    JudgedPage {
        id: i,
        url: format!("http://{host}/{i}"),
        host: host.to_owned(),
        body_hash: u128::from(i),
        fingerprint: Some(base ^ ((i / 64) % 8)),
        elements: 50,
        summary: None,
        content: silhouette_frontier::PageContent::default(),
    }
}

async fn run(url: &str, name: &str, workers: u64, pages: u64, same_host: bool) -> f64 {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..workers {
        let (url, name) = (url.to_owned(), name.to_owned());
        tasks.push(tokio::spawn(async move {
            let crawl = SharedCrawl::join(&url, &name, &[], SharedConfig::default())
                .await
                .expect("Redis");
            let mut log = crawl.log();
            let mut dedup = SharedDedup::new(DedupConfig::default(), "p").expect("valid");
            let host = if same_host {
                "h".to_owned()
            } else {
                format!("h{w}")
            };
            for i in 0..pages / workers {
                let p = page(w * 1_000_000 + i, &host);
                dedup.judge(&mut log, &p).await.expect("judged");
            }
            log.counts()
        }));
    }
    let mut retries = 0;
    for t in tasks {
        retries += t.await.expect("task").1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "redis, {workers} worker(s), {}: {:.0} decisions/s, {:.1} us each, {retries} judged again",
        if same_host { "one host" } else { "a host each" },
        pages as f64 / secs,
        secs * 1e6 / pages as f64
    );
    pages as f64 / secs
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).expect("usage: judge_cost REDIS_URL [PAGES]");
    let pages: u64 = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(20_000);
    let mut local = SharedDedup::new(DedupConfig::default(), "p").expect("valid");
    let start = Instant::now();
    for i in 0..pages {
        local
            .judge(&mut LocalLog, &page(i, "h"))
            .await
            .expect("infallible");
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "in-process log: {:.0} decisions/s, {:.2} us each",
        pages as f64 / secs,
        secs * 1e6 / pages as f64
    );
    let stamp = std::process::id();
    for workers in [1, 2, 4] {
        run(
            url,
            &format!("judge-cost-{stamp}-a{workers}"),
            workers,
            pages,
            true,
        )
        .await;
        run(
            url,
            &format!("judge-cost-{stamp}-b{workers}"),
            workers,
            pages,
            false,
        )
        .await;
    }
}
