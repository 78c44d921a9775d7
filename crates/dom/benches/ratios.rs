//! The throughput ratios of issue #2 from one run: each round times `silhouette-dom`, the
//! html5ever tokenizer alone and the rcdom walk over the whole corpus, interleaved, so that
//! a change in the machine's load hits all three alike. Prints MB/s (median over rounds) and
//! `ours / tokenizer`, `ours / rcdom` with the targets (≥ 0.70, ≥ 1.4).
//!
//! `cargo bench -p silhouette-dom --bench ratios` (rounds: `SILHOUETTE_BENCH_ROUNDS`, default 7).

#![allow(
    clippy::print_stdout,
    reason = "a bench binary: printing its figures is its job"
)]

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use silhouette_dom::{HasherConfig, StructureHasher};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing else we need.
    let quick = std::env::args().any(|a| a == "--test");
    let pages = common::load_corpus();
    let bytes = common::corpus_bytes(&pages);
    let rounds: usize = if quick {
        1
    } else {
        std::env::var("SILHOUETTE_BENCH_ROUNDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(7)
    };
    let hasher = StructureHasher::new(HasherConfig::default()).expect("default config is valid");
    let decay = hasher.decay();
    // `SILHOUETTE_BENCH_ONLY=ours` (or `tokenizer`, `rcdom`) runs one variant, for a profiler.
    if let Ok(only) = std::env::var("SILHOUETTE_BENCH_ONLY") {
        for _ in 0..rounds {
            for p in &pages {
                match only.as_str() {
                    "ours" => drop(black_box(hasher.hash(&p.bytes).expect("parses"))),
                    "tokenizer" => drop(black_box(common::tokenize(&p.bytes))),
                    "rcdom" => drop(black_box(common::rcdom_fingerprint(&p.bytes, decay))),
                    other => panic!("SILHOUETTE_BENCH_ONLY={other}: ours, tokenizer or rcdom"),
                }
            }
        }
        return;
    }
    let (mut ours, mut tok, mut rc) = (Vec::new(), Vec::new(), Vec::new());
    // One warm-up round, not counted.
    for round in 0..=rounds {
        let t_ours = time(|| {
            for p in &pages {
                black_box(hasher.hash(black_box(&p.bytes)).expect("parses"));
            }
        });
        let t_tok = time(|| {
            for p in &pages {
                black_box(common::tokenize(black_box(&p.bytes)));
            }
        });
        let t_rc = time(|| {
            for p in &pages {
                black_box(common::rcdom_fingerprint(black_box(&p.bytes), decay));
            }
        });
        if round > 0 {
            ours.push(t_ours);
            tok.push(t_tok);
            rc.push(t_rc);
        }
    }
    let mbps = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    let (ours, tok, rc) = (median(ours), median(tok), median(rc));
    println!(
        "corpus: {} pages, {:.1} MB; {rounds} rounds, medians",
        pages.len(),
        bytes as f64 / 1e6
    );
    println!("silhouette-dom       {:7.1} MB/s", mbps(ours));
    println!("html5ever-tokenizer  {:7.1} MB/s", mbps(tok));
    println!("rcdom-walk           {:7.1} MB/s", mbps(rc));
    let vs_tok = mbps(ours) / mbps(tok);
    let vs_rc = mbps(ours) / mbps(rc);
    println!(
        "ours/tokenizer = {vs_tok:.2} (target >= 0.70: {})",
        if vs_tok >= 0.70 { "met" } else { "MISSED" }
    );
    println!(
        "ours/rcdom     = {vs_rc:.2} (target >= 1.40: {})",
        if vs_rc >= 1.40 { "met" } else { "MISSED" }
    );
}
