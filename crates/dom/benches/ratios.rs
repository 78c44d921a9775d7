//! The throughput ratios of issue #2 from one run: `silhouette-dom`, the html5ever tokenizer
//! alone and the rcdom walk, each over the whole corpus, in rounds (the order of the three
//! rotating from round to round, so a change in the machine's load hits all three alike).
//!
//! Each pass is timed twice: wall clock, and the CPU time of this thread (Linux
//! `/proc/thread-self/schedstat`), which leaves out the time other jobs on a shared machine
//! take the core away. Prints MB/s (median over rounds) and `ours / tokenizer`,
//! `ours / rcdom` with the targets (≥ 0.70, ≥ 1.40), for both clocks.
//!
//! `cargo bench -p silhouette-dom --bench ratios` (rounds: `SILHOUETTE_BENCH_ROUNDS`, default 7;
//! `SILHOUETTE_BENCH_ONLY=ours|tokenizer|rcdom` runs one variant only, for a profiler, with no
//! time budget).

#![allow(
    clippy::print_stdout,
    reason = "a bench binary: printing its figures is its job"
)]

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use silhouette_dom::{HasherConfig, StructureHasher};

const NAMES: [&str; 3] = ["silhouette-dom", "html5ever-tokenizer", "rcdom-walk"];

/// CPU time this thread has run, if the kernel tells (first field of `schedstat`, in ns).
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Wall and CPU time of `f`.
fn time(f: impl FnOnce()) -> (Duration, Option<Duration>) {
    let cpu = thread_cpu();
    let start = Instant::now();
    f();
    let wall = start.elapsed();
    let cpu = cpu.zip(thread_cpu()).map(|(a, b)| b.saturating_sub(a));
    (wall, cpu)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() {
    // `cargo test --benches` runs bench binaries with `--test`: one quick round then.
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
    let only = std::env::var("SILHOUETTE_BENCH_ONLY").ok();
    let mut config = HasherConfig::default();
    if only.is_some() {
        // Under a profiler (valgrind: ~50x slower) the time budget would cut pages short.
        config.limits.time_budget = None;
    }
    let hasher = StructureHasher::new(config).expect("default config is valid");
    let decay = hasher.decay();
    let run = |variant: usize| {
        for p in &pages {
            match variant {
                0 => drop(black_box(hasher.hash(black_box(&p.bytes)))),
                1 => {
                    black_box(common::tokenize(black_box(&p.bytes)));
                }
                _ => {
                    black_box(common::rcdom_fingerprint(black_box(&p.bytes), decay));
                }
            }
        }
    };
    if let Some(only) = only {
        let variant = match only.as_str() {
            "ours" => 0,
            "tokenizer" => 1,
            "rcdom" => 2,
            other => panic!("SILHOUETTE_BENCH_ONLY={other}: ours, tokenizer or rcdom"),
        };
        for _ in 0..rounds {
            run(variant);
        }
        return;
    }

    let mut wall: [Vec<Duration>; 3] = Default::default();
    let mut cpu: [Vec<Duration>; 3] = Default::default();
    // Round 0 warms up and is not counted.
    for round in 0..=rounds {
        for k in 0..3 {
            let variant = (round + k) % 3;
            let (w, c) = time(|| run(variant));
            if round > 0 {
                wall[variant].push(w);
                if let Some(c) = c {
                    cpu[variant].push(c);
                }
            }
        }
    }

    println!(
        "corpus: {} pages, {:.1} MB; {rounds} rounds, medians",
        pages.len(),
        bytes as f64 / 1e6
    );
    let mbps = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    for (clock, times) in [("wall", wall), ("cpu", cpu)] {
        if times[0].is_empty() {
            continue;
        }
        let speed = times.map(|t| mbps(median(t)));
        for (name, s) in NAMES.iter().zip(speed) {
            println!("{clock:4}  {name:20} {s:7.1} MB/s");
        }
        let vs_tok = speed[0] / speed[1];
        let vs_rc = speed[0] / speed[2];
        let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
        println!(
            "{clock:4}  ours/tokenizer = {vs_tok:.3} (target >= 0.70: {})  ours/rcdom = {vs_rc:.3} (target >= 1.40: {})",
            verdict(vs_tok >= 0.70),
            verdict(vs_rc >= 1.40)
        );
    }
}
