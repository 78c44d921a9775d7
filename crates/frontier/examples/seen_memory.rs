//! Memory per URL of the seen-URL set on a synthetic frontier.
//!
//! Builds `--n` distinct URLs over 5,000 hosts (paths, item numbers and
//! queries of realistic shape, tracking parameters included), parses and
//! canonicalises each and inserts it into a [`SeenSet`], dropping the
//! strings as it goes. A counting global allocator measures the heap the set
//! holds afterwards, and its peak while growing; the process's resident set
//! (`VmRSS`, Linux) is read before and after as a cross-check.
//!
//! `cargo run --release -p silhouette-frontier --example seen_memory -- --n 1000000`

#![allow(
    clippy::print_stdout,
    reason = "an example binary: printing its figures is its job"
)]

use std::error::Error;
use std::time::Instant;

use silhouette_frontier::{CanonConfig, SeenSet, canonicalize};
use url::Url;

#[path = "../../dom/benches/common/counting.rs"]
mod counting;

const HOSTS: usize = 5000;

/// The `i`-th synthetic URL (distinct for distinct `i`, before and after
/// canonicalisation).
fn synthetic(i: usize) -> String {
    let host = i % HOSTS;
    let n = i / HOSTS;
    match i % 4 {
        0 => format!("HTTP://www.site{host}.example/catalog/item-{n}.html?utm_source=feed&ref={n}"),
        1 => format!(
            "https://site{host}.example/blog/2024/{:02}/post-{n}/#comments",
            n % 12 + 1
        ),
        2 => format!(
            "https://shop{host}.example:443/search?q=w{n}&page={}&sort=price",
            n % 50
        ),
        _ => format!("http://site{host}.example/a/b/../c/{n};jsessionid=ABC{n}"),
    }
}

/// Resident set size in bytes (Linux `/proc/self/status`), if available.
fn rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

struct Figures {
    live: usize,
    peak: usize,
    estimate: usize,
    rss: Option<usize>,
    secs: f64,
}

/// Makes a set with `make` and inserts `n` URLs, measuring from before
/// `make` runs.
fn build(
    n: usize,
    make: impl FnOnce() -> SeenSet,
    config: &CanonConfig,
) -> Result<(SeenSet, Figures), Box<dyn Error>> {
    let rss_before = rss();
    let before = counting::mark();
    let start = Instant::now();
    let mut set = make();
    for i in 0..n {
        let url = canonicalize(&Url::parse(&synthetic(i))?, config)?;
        if !set.insert(&url) {
            return Err(format!("synthetic URL {i} is a duplicate: {url}").into());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let live = counting::live_since(before);
    let peak = counting::peak_since(before);
    let rss = match (rss_before, rss()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let estimate = set.heap_bytes();
    Ok((
        set,
        Figures {
            live,
            peak,
            estimate,
            rss,
            secs,
        },
    ))
}

fn report(label: &str, n: usize, f: &Figures) {
    let per = |bytes: usize| bytes as f64 / n as f64;
    println!("{label}:");
    println!(
        "  heap held by the set: {} B = {:.1} B/URL (from capacity: {} B = {:.1} B/URL)",
        f.live,
        per(f.live),
        f.estimate,
        per(f.estimate)
    );
    println!(
        "  peak heap while building (growth copies, temporaries): {} B = {:.1} B/URL",
        f.peak,
        per(f.peak)
    );
    match f.rss {
        Some(rss) => println!("  resident set grew by {rss} B = {:.1} B/URL", per(rss)),
        None => println!("  resident set: not available on this platform"),
    }
    println!(
        "  parse + canonicalise + insert: {:.2} s, {:.0} URLs/s",
        f.secs,
        n as f64 / f.secs.max(1e-9)
    );
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut n = 1_000_000;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--n" => {
                let value = args.next().ok_or("--n needs a number")?;
                n = value.parse().map_err(|e| format!("--n {value:?}: {e}"))?;
            }
            other => return Err(format!("unknown argument {other:?} (use --n N)").into()),
        }
    }
    if n == 0 {
        return Err("--n must be at least 1".into());
    }
    let config = CanonConfig::default();
    println!("synthetic frontier: {n} distinct URLs over {HOSTS} hosts, e.g.");
    for i in 0..4 {
        let url = canonicalize(&Url::parse(&synthetic(i))?, &config)?;
        println!("  {} -> {url}", synthetic(i));
    }

    let (grown, figures) = build(n, SeenSet::new, &config)?;
    report("SeenSet::new(), grown by inserting", n, &figures);
    let verdict = if figures.live as f64 / n as f64 <= 100.0 {
        "met"
    } else {
        "NOT met"
    };
    drop(grown);

    let (sized, sized_figures) = build(n, || SeenSet::with_capacity(n), &config)?;
    report("SeenSet::with_capacity(n)", n, &sized_figures);
    drop(sized);
    println!("target <= 100 B/URL (heap held at {n} URLs): {verdict}");
    Ok(())
}
