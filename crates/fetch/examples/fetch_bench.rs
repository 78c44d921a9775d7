//! Fetch throughput benchmark against a local server (see
//! `scripts/bench-fetch.sh`): pages/s and CPU seconds per 1,000 pages at a
//! given concurrency, rate limits off.
//!
//! ```text
//! fetch_bench --base http://127.0.0.1:PORT/ --list paths.txt --concurrency 16 [--requests 5000]
//! ```
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark reports on the terminal"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use silhouette_fetch::{AddressPolicy, FetchConfig, FetchContext, Fetcher};
use url::Url;

/// Linux reports process CPU time in /proc in USER_HZ ticks, which the
/// kernel ABI fixes at 100 per second.
const TICKS_PER_SECOND: f64 = 100.0;

/// User + system CPU seconds of this process (all threads) so far.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields overall, i.e. the 12th and 13th after it.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / TICKS_PER_SECOND
}

struct Args {
    base: Url,
    list: String,
    concurrency: usize,
    requests: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut base = None;
    let mut list = None;
    let mut concurrency = 16;
    let mut requests = 5000;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--base" => base = Some(Url::parse(&value).map_err(|e| format!("--base: {e}"))?),
            "--list" => list = Some(value),
            "--concurrency" => concurrency = value.parse().map_err(|e| format!("{e}"))?,
            "--requests" => requests = value.parse().map_err(|e| format!("{e}"))?,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(Args {
        base: base.ok_or("--base is required")?,
        list: list.ok_or("--list is required")?,
        concurrency,
        requests,
    })
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = parse_args()?;
    let text = std::fs::read_to_string(&args.list).map_err(|e| format!("{}: {e}", args.list))?;
    let urls: Vec<Url> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| args.base.join(l.trim()).ok())
        .collect();
    if urls.is_empty() {
        return Err("no URLs in the list".into());
    }
    let host = args.base.host_str().unwrap_or_default().to_owned();
    let config = FetchConfig {
        host_request_interval: None,
        per_host_concurrency: args.concurrency,
        global_concurrency: args.concurrency,
        max_retries: 0,
        address_policy: AddressPolicy::allowing([host]),
        first_byte_timeout: Duration::from_secs(30),
        ..FetchConfig::default()
    };
    let fetcher = Fetcher::new(config).map_err(|e| e.to_string())?;
    // Warm-up: robots.txt and a first connection.
    let _ = fetcher.fetch(&urls[0], &FetchContext::new()).await;

    let urls = Arc::new(urls);
    let next = Arc::new(AtomicUsize::new(0));
    let pages = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let bytes = Arc::new(AtomicU64::new(0));
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    let workers: Vec<_> = (0..args.concurrency)
        .map(|_| {
            let (fetcher, urls, next) = (fetcher.clone(), urls.clone(), next.clone());
            let (pages, errors, bytes) = (pages.clone(), errors.clone(), bytes.clone());
            let total = args.requests;
            tokio::spawn(async move {
                let ctx = FetchContext::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let url = &urls[i % urls.len()];
                    let outcome = fetcher.fetch(url, &ctx).await;
                    match outcome.page() {
                        Some(page) if page.is_html => {
                            pages.fetch_add(1, Ordering::Relaxed);
                            bytes.fetch_add(page.body.len() as u64, Ordering::Relaxed);
                        }
                        _ => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            if let Some(err) = outcome.error() {
                                eprintln!("{err}");
                            }
                        }
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.await.map_err(|e| e.to_string())?;
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    let pages = pages.load(Ordering::Relaxed);
    let per_1000 = if pages > 0 {
        cpu * 1000.0 / pages as f64
    } else {
        f64::NAN
    };
    println!(
        "concurrency={} pages={} errors={} MiB={:.1} wall_s={:.2} pages_per_s={:.0} cpu_s={:.2} cpu_s_per_1000_pages={:.3}",
        args.concurrency,
        pages,
        errors.load(Ordering::Relaxed),
        bytes.load(Ordering::Relaxed) as f64 / (1024.0 * 1024.0),
        wall,
        pages as f64 / wall,
        cpu,
        per_1000
    );
    Ok(())
}
