//! The throughput ratios of issues #2 and #9 from one run: `silhouette-dom` (`classic`), the
//! html5ever tokenizer alone, the rcdom walk and `silhouette-dom` with the default
//! `class-paths` model, each over the whole corpus, in rounds (the order of the four rotating
//! from round to round, so a change in the machine's load hits all of them alike).
//!
//! Each pass is timed twice: wall clock, and the CPU time of this thread (Linux
//! `/proc/thread-self/schedstat`), which leaves out the time other jobs on a shared machine
//! take the core away. Prints MB/s (median over rounds) and `ours / tokenizer`,
//! `ours / rcdom` with the targets (≥ 0.70, ≥ 1.40), and `class-paths / classic` (≥ 0.8),
//! for both clocks.
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

use silhouette_dom::{FeatureSet, HasherConfig, StructureHasher};

const NAMES: [&str; 4] = [
    "silhouette-dom",
    "html5ever-tokenizer",
    "rcdom-walk",
    "class-paths",
];

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
    let mut config = HasherConfig::for_model(FeatureSet::Classic);
    if only.is_some() {
        // Under a profiler (valgrind: ~50x slower) the time budget would cut pages short.
        config.limits.time_budget = None;
    }
    let hasher = StructureHasher::new(config).expect("default config is valid");
    let paths = StructureHasher::new(HasherConfig {
        limits: config.limits,
        ..HasherConfig::default()
    })
    .expect("default config is valid");
    let decay = hasher.decay();
    let run = |variant: usize| {
        for p in &pages {
            match variant {
                0 => drop(black_box(hasher.hash(black_box(&p.bytes)))),
                1 => {
                    black_box(common::tokenize(black_box(&p.bytes)));
                }
                3 => drop(black_box(paths.hash(black_box(&p.bytes)))),
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
            "class-paths" => 3,
            other => panic!("SILHOUETTE_BENCH_ONLY={other}: ours, tokenizer, rcdom or class-paths"),
        };
        for _ in 0..rounds {
            run(variant);
        }
        return;
    }

    let mut wall: [Vec<Duration>; 4] = Default::default();
    let mut cpu: [Vec<Duration>; 4] = Default::default();
    // Round 0 warms up and is not counted.
    for round in 0..=rounds {
        for k in 0..4 {
            let variant = (round + k) % 4;
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
        let vs_classic = speed[3] / speed[0];
        println!(
            "{clock:4}  class-paths/classic = {vs_classic:.3} (target >= 0.80: {})  class-paths/tokenizer = {:.3}",
            verdict(vs_classic >= 0.80),
            speed[3] / speed[1]
        );
    }
}
