//! Parse cost of the crawl's parse path (links collected), one thread, for profiling:
//! `cargo run --release -p silhouette-dom --example parse_cost -- LIST [ROUNDS]` where LIST
//! holds one HTML file path per line. Prints pages, bytes, elements, links and CPU time
//! per page (this thread's CPU time). Run it under `valgrind --tool=callgrind` for
//! instruction counts that do not depend on the machine's load.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its figures"
)]

use std::time::Instant;

use silhouette_dom::{FeatureSet, HasherConfig, StructureHasher};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(list) = args.next() else {
        eprintln!("usage: parse_cost LIST [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let paths = match std::fs::read_to_string(&list) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {list}: {e}");
            std::process::exit(1);
        }
    };
    let pages: Vec<Vec<u8>> = paths
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|p| std::fs::read(p.trim()).ok())
        .collect();
    let mut config = HasherConfig::for_model(FeatureSet::Classic);
    // As `silhouette crawl` does.
    config.limits.max_links = 10_000;
    let hasher = match StructureHasher::new(config) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (mut elements, mut links, mut bytes) = (0u64, 0usize, 0usize);
    let cpu = cpu_time::ThreadTime::now();
    let wall = Instant::now();
    for _ in 0..rounds {
        for page in &pages {
            match hasher.hash_with_content_type(page, Some("text/html; charset=utf-8")) {
                Ok(s) => {
                    elements += s.elements;
                    links += s.links.len();
                }
                Err(e) => eprintln!("{e}"),
            }
            bytes += page.len();
        }
    }
    let cpu = cpu.elapsed().as_secs_f64();
    let n = pages.len() * rounds;
    println!(
        "pages {n} bytes {bytes} elements {elements} links {links} cpu_s {cpu:.3} wall_s {:.3} cpu_ms_per_page {:.4}",
        wall.elapsed().as_secs_f64(),
        cpu * 1000.0 / n.max(1) as f64
    );
}
