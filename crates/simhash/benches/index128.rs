//! Queries per second of [`NearIndex128`] at 1M entries, k = 3, 6, 8, 9 and 10 (8: the table
//! layout with the most probes; 9: the first with two halves), against the session-4 index
//! (`baseline128.rs`) in the same run.
//!
//! ```text
//! cargo bench -p silhouette-simhash --bench index128
//! ```
//!
//! Two sets of 1M stored fingerprints: `uniform` (random 128-bit values: content fingerprints
//! of distinct pages) and `clustered` (50,000 random bases, each entry a base with 0 to 12 of
//! its bits flipped: families of near-duplicate pages). Half the queries are a stored one with
//! 1 to k bits flipped (hits), half are random (misses). One iteration is 1,000 `nearest`
//! queries: criterion's `elem/s` is queries per second. Before timing, both indexes answer
//! every query and must agree (a check, not a measurement); each index's heap bytes per entry
//! are printed, and an interleaved run (new, old, new, old, … over the same queries, 15
//! rounds each) prints both medians and their ratio: on a loaded machine the criterion
//! figures of two benchmarks run seconds apart see different loads, the interleaved ratio
//! sees the same.
#![allow(
    missing_docs,
    clippy::expect_used,
    clippy::print_stderr,
    reason = "a bench binary: it prints its figures"
)]

mod baseline128;

use std::hint::black_box;
use std::time::Instant;

use baseline128::OldIndex128;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use silhouette_simhash::{Fingerprint128, NearIndex128};

const N: usize = 1_000_000;
const QUERIES: usize = 1_000;
const BASES: usize = 50_000;
const ROUNDS: usize = 15;

/// Queries per second at the median of `secs` (seconds per round of [`QUERIES`]).
fn qps(secs: &mut [f64]) -> f64 {
    secs.sort_by(f64::total_cmp);
    QUERIES as f64 / secs[secs.len() / 2]
}

fn flip(rng: &mut SmallRng, mut fp: u128, n: u32) -> u128 {
    for _ in 0..n {
        fp ^= 1u128 << rng.random_range(0..128);
    }
    fp
}

fn stored(rng: &mut SmallRng, clustered: bool) -> Vec<u128> {
    if clustered {
        let bases: Vec<u128> = (0..BASES).map(|_| rng.random()).collect();
        (0..N)
            .map(|_| {
                let base = bases[rng.random_range(0..BASES)];
                let n = rng.random_range(0..=12);
                flip(rng, base, n)
            })
            .collect()
    } else {
        (0..N).map(|_| rng.random()).collect()
    }
}

fn bench(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(7);
    for (name, clustered) in [("uniform", false), ("clustered", true)] {
        let stored = stored(&mut rng, clustered);
        let mut group = c.benchmark_group(format!("near_index128_1m_{name}"));
        group.throughput(Throughput::Elements(QUERIES as u64));
        group.sample_size(10);
        for k in [3u32, 6, 8, 9, 10] {
            let mut new = NearIndex128::new(k).expect("valid k");
            let mut old = OldIndex128::new(k).expect("valid k");
            for (i, &fp) in stored.iter().enumerate() {
                new.insert(Fingerprint128::new(fp), i as u64);
                old.insert(Fingerprint128::new(fp), i as u64);
            }
            let queries: Vec<Fingerprint128> = (0..QUERIES)
                .map(|i| {
                    if i % 2 == 0 {
                        let q = stored[rng.random_range(0..N)];
                        let n = rng.random_range(1..=k.max(1));
                        Fingerprint128::new(flip(&mut rng, q, n))
                    } else {
                        Fingerprint128::new(rng.random())
                    }
                })
                .collect();
            for &q in &queries {
                assert_eq!(new.nearest(q), old.nearest(q), "{name} k = {k}: {q}");
            }
            let (mut new_secs, mut old_secs) = (Vec::new(), Vec::new());
            for _ in 0..ROUNDS {
                let start = Instant::now();
                let hits = queries
                    .iter()
                    .filter(|&&q| new.nearest(black_box(q)).is_some())
                    .count();
                new_secs.push(start.elapsed().as_secs_f64());
                let start = Instant::now();
                let again = queries
                    .iter()
                    .filter(|&&q| old.nearest(black_box(q)).is_some())
                    .count();
                old_secs.push(start.elapsed().as_secs_f64());
                assert_eq!(hits, again);
            }
            let (new_qps, old_qps) = (qps(&mut new_secs), qps(&mut old_secs));
            eprintln!(
                "{name} k={k}: layout {:?}; bytes/entry new {:.1}, old {:.1}; interleaved \
                 median q/s new {new_qps:.0}, old {old_qps:.0}, new/old {:.2}",
                new.layout(),
                new.memory_bytes() as f64 / N as f64,
                old.memory_bytes() as f64 / N as f64,
                new_qps / old_qps
            );
            for (label, index) in [("new", Some(&new)), ("old", None)] {
                group.bench_function(format!("k{k}_{label}"), |b| {
                    b.iter(|| {
                        queries
                            .iter()
                            .filter(|&&q| match index {
                                Some(new) => new.nearest(black_box(q)).is_some(),
                                None => old.nearest(black_box(q)).is_some(),
                            })
                            .count()
                    });
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
