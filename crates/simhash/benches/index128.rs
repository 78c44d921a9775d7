//! Queries per second of [`NearIndex128`] at 1M entries, k = 3, 6 and 10.
//!
//! ```text
//! cargo bench -p silhouette-simhash --bench index128
//! ```
//!
//! Stored fingerprints are random 128-bit values (content fingerprints of distinct pages);
//! half the queries are a stored one with 1 to k bits flipped (hits), half are random
//! (misses). One iteration is 1,000 queries: criterion's `elem/s` is queries per second.
#![allow(missing_docs, clippy::expect_used, reason = "a bench binary")]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use silhouette_simhash::{Fingerprint128, NearIndex128};

const N: usize = 1_000_000;
const QUERIES: usize = 1_000;

fn bench(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(7);
    let stored: Vec<u128> = (0..N).map(|_| rng.random()).collect();
    let mut group = c.benchmark_group("near_index128_1m");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.sample_size(20);
    for k in [3u32, 6, 10] {
        let mut index = NearIndex128::new(k).expect("valid k");
        for (i, &fp) in stored.iter().enumerate() {
            index.insert(Fingerprint128::new(fp), i as u64);
        }
        let queries: Vec<Fingerprint128> = (0..QUERIES)
            .map(|i| {
                if i % 2 == 0 {
                    let mut q = stored[rng.random_range(0..N)];
                    for _ in 0..rng.random_range(1..=k) {
                        q ^= 1u128 << rng.random_range(0..128);
                    }
                    Fingerprint128::new(q)
                } else {
                    Fingerprint128::new(rng.random())
                }
            })
            .collect();
        group.bench_function(format!("k{k}_nearest"), |b| {
            b.iter(|| {
                queries
                    .iter()
                    .filter(|&&q| index.nearest(black_box(q)).is_some())
                    .count()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
