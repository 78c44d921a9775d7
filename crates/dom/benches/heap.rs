//! Peak heap of one `StructureHasher::hash` call per page, against the page's size.
//!
//! A counting global allocator tracks live bytes; before each call the peak is reset to the
//! live bytes of the moment (the page itself, which the caller owns, is already allocated and
//! so not counted), and after it the peak minus that baseline is the call's peak heap.
//! Prints the max and the distribution of peak / page size over pages larger than 10 KB, and
//! whether the target (≤ 4×) holds.
//!
//! `cargo bench -p silhouette-dom --bench heap`

#![allow(
    clippy::print_stdout,
    reason = "a bench binary: printing its figures is its job"
)]

mod common;

use silhouette_dom::{FeatureSet, HasherConfig, StructureHasher};

#[path = "common/counting.rs"]
mod counting;

/// The peak heap of one `hash` call, in bytes above what was live before it.
fn peak_of(hasher: &StructureHasher, bytes: &[u8]) -> usize {
    let before = counting::mark();
    let s = hasher.hash(bytes).expect("parses");
    let peak = counting::peak_since(before);
    drop(s);
    peak
}

fn main() {
    let pages = common::load_corpus();
    let hasher = StructureHasher::new(HasherConfig::for_model(FeatureSet::Classic))
        .expect("default config is valid");
    // The first call of the process also pays for lazily initialised statics (string_cache's
    // dynamic atom set, ...): reported, then excluded by measuring every page after it.
    let first = &pages[0];
    let cold = peak_of(&hasher, &first.bytes);
    let warm = peak_of(&hasher, &first.bytes);
    println!(
        "first call of the process: peak {cold} B, the same page again: {warm} B ({} B page)",
        first.bytes.len()
    );
    let mut rows: Vec<(f64, usize, usize, &std::path::Path)> = pages
        .iter()
        .filter(|p| p.bytes.len() > 10 * 1024)
        .map(|p| {
            let peak = peak_of(&hasher, &p.bytes);
            (
                peak as f64 / p.bytes.len() as f64,
                peak,
                p.bytes.len(),
                p.path.as_path(),
            )
        })
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = rows.len();
    let q = |f: f64| rows[((n - 1) as f64 * f).round() as usize].0;
    println!(
        "peak heap of one hash() / page size, {n} pages > 10 KB (of {}):",
        pages.len()
    );
    println!(
        "min {:.2}  p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        q(0.0),
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0)
    );
    println!("largest ratios:");
    for (ratio, peak, len, path) in rows.iter().rev().take(5) {
        println!(
            "  {ratio:.2}  peak {peak} B  page {len} B  {}",
            path.display()
        );
    }
    let biggest = rows.iter().max_by_key(|r| r.2).expect("some page");
    println!(
        "largest page: {} B, peak {} B ({:.2}x)",
        biggest.2, biggest.1, biggest.0
    );
    let max = q(1.0);
    println!(
        "target peak <= 4x page size: {}",
        if max <= 4.0 { "met" } else { "MISSED" }
    );
}
