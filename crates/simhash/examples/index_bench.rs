//! Throughput, memory and latency of `NearIndex` against a linear scan, on one core.
//!
//! ```text
//! cargo run --release -p silhouette-simhash --example index_bench -- --n 1000000,10000000 --k 5
//! ```
//!
//! Options: `--n N[,N...]` (default 1000000), `--k K` (5), `--queries Q` per kind (200000),
//! `--linear-queries L` (200, extrapolated), `--dist uniform|skewed|both` (both), `--seed S`,
//! `--persist DIR` (also time save and load through a file in DIR).
//!
//! Uniform fingerprints are random 64-bit values. Skewed ones imitate templated sites: 64 base
//! fingerprints, each page a base with 0 to 4 random bits flipped, and a quarter of the pages an
//! exact repeat of an earlier one. Hit queries are a stored fingerprint with 1 to k bits
//! flipped. Miss queries are random (uniform), or a base with k + 5 to k + 8 bits flipped (skewed:
//! near a dense cluster yet beyond k of all of it, the worst case for skew).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its figures"
)]

use std::hint::black_box;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use silhouette_simhash::{Fingerprint, NearIndex};

struct Opts {
    ns: Vec<usize>,
    k: u32,
    queries: usize,
    linear: usize,
    dists: Vec<&'static str>,
    seed: u64,
    persist: Option<std::path::PathBuf>,
}

fn parse() -> Result<Opts, String> {
    let mut o = Opts {
        ns: vec![1_000_000],
        k: 5,
        queries: 200_000,
        linear: 200,
        dists: vec!["uniform", "skewed"],
        seed: 1,
        persist: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let num = |v: &str| {
            v.replace('_', "")
                .parse::<u64>()
                .map_err(|e| format!("{flag}: {e}"))
        };
        match flag.as_str() {
            "--n" => {
                o.ns = value
                    .split(',')
                    .map(|v| num(v).map(|n| n as usize))
                    .collect::<Result<_, _>>()?
            }
            "--k" => o.k = num(&value)? as u32,
            "--queries" => o.queries = num(&value)? as usize,
            "--linear-queries" => o.linear = num(&value)? as usize,
            "--seed" => o.seed = num(&value)?,
            "--persist" => o.persist = Some(value.into()),
            "--dist" => {
                o.dists = match value.as_str() {
                    "uniform" => vec!["uniform"],
                    "skewed" => vec!["skewed"],
                    "both" => vec!["uniform", "skewed"],
                    _ => return Err(format!("--dist {value}: uniform, skewed or both")),
                }
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(o)
}

fn flips(rng: &mut SmallRng, bits: u32) -> u64 {
    let mut m = 0u64;
    while m.count_ones() < bits {
        m |= 1 << rng.random_range(0..64);
    }
    m
}

struct Data {
    stored: Vec<u64>,
    hits: Vec<u64>,
    misses: Vec<u64>,
}

fn generate(dist: &str, n: usize, k: u32, q: usize, seed: u64) -> Data {
    let mut rng = SmallRng::seed_from_u64(seed);
    let bases: Vec<u64> = (0..64).map(|_| rng.random()).collect();
    let mut stored = Vec::with_capacity(n);
    for i in 0..n {
        let fp = if dist == "uniform" {
            rng.random()
        } else if i > 0 && rng.random_range(0..4) == 0 {
            stored[rng.random_range(0..i)]
        } else {
            let f = rng.random_range(0..=4);
            bases[rng.random_range(0..bases.len())] ^ flips(&mut rng, f)
        };
        stored.push(fp);
    }
    let hits = (0..q)
        .map(|_| {
            let f = rng.random_range(1..=k.max(1)).min(k);
            stored[rng.random_range(0..n)] ^ flips(&mut rng, f)
        })
        .collect();
    let misses = (0..q)
        .map(|_| {
            if dist == "uniform" {
                rng.random()
            } else {
                let f = rng.random_range(k + 5..=k + 8);
                bases[rng.random_range(0..bases.len())] ^ flips(&mut rng, f)
            }
        })
        .collect();
    Data {
        stored,
        hits,
        misses,
    }
}

/// CPU time this thread has run, in seconds (from `/proc/thread-self/schedstat`), so that
/// rates are not diluted by other processes sharing the cores; falls back to wall time.
struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

fn cpu_now() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

impl Clock {
    fn start() -> Self {
        Self {
            wall: Instant::now(),
            cpu: cpu_now(),
        }
    }

    /// Seconds of CPU time since `start` (wall time if unavailable).
    fn secs(&self) -> f64 {
        match (self.cpu, cpu_now()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Queries per second and p99 latency in microseconds of `f` over `qs`, plus how many hit.
fn measure(qs: &[u64], mut f: impl FnMut(u64) -> bool) -> (f64, f64, usize) {
    let mut lat = Vec::with_capacity(qs.len());
    let mut found = 0;
    let start = Clock::start();
    for &q in qs {
        let t = Instant::now();
        found += usize::from(black_box(f(q)));
        lat.push(t.elapsed().as_nanos() as u64);
    }
    let secs = start.secs();
    lat.sort_unstable();
    let p99 = lat.get(lat.len() * 99 / 100).copied().unwrap_or(0) as f64 / 1000.0;
    (qs.len() as f64 / secs, p99, found)
}

fn linear(stored: &[u64], qs: &[u64], k: u32) -> (f64, usize) {
    let start = Clock::start();
    let found = qs
        .iter()
        .filter(|&&q| stored.iter().any(|&s| (s ^ q).count_ones() <= k))
        .count();
    (qs.len() as f64 / start.secs(), found)
}

fn run(o: &Opts, dist: &str, n: usize) {
    let k = o.k;
    let t = Instant::now();
    let data = generate(dist, n, k, o.queries, o.seed);
    eprintln!(
        "[{dist} n={n}] generated in {:.1}s",
        t.elapsed().as_secs_f64()
    );

    let Ok(mut index) = NearIndex::with_params(k, "bench") else {
        eprintln!("k = {k} is not supported");
        return;
    };
    let start = Clock::start();
    for (id, &fp) in data.stored.iter().enumerate() {
        index.insert(Fingerprint::new(fp), id as u64);
    }
    let insert_rate = n as f64 / start.secs();
    let stats = index.stats();
    let bytes = stats.memory_bytes as f64 / n as f64;
    eprintln!("[{dist} n={n}] built: {stats:?}");

    let (hit_qps, hit_p99, hit_found) =
        measure(&data.hits, |q| index.any_within(Fingerprint::new(q)));
    let (miss_qps, miss_p99, miss_found) =
        measure(&data.misses, |q| index.any_within(Fingerprint::new(q)));
    let mixed: Vec<u64> = data
        .hits
        .iter()
        .zip(&data.misses)
        .flat_map(|(a, b)| [*a, *b])
        .collect();
    let (near_qps, near_p99, _) = measure(&mixed, |q| index.nearest(Fingerprint::new(q)).is_some());

    let lq = o.linear.min(o.queries);
    let (lin_hit, lin_hit_found) = linear(&data.stored, &data.hits[..lq], k);
    let (lin_miss, lin_miss_found) = linear(&data.stored, &data.misses[..lq], k);
    let count = |qs: &[u64]| {
        qs.iter()
            .filter(|&&q| index.any_within(Fingerprint::new(q)))
            .count()
    };
    if (count(&data.hits[..lq]), count(&data.misses[..lq])) != (lin_hit_found, lin_miss_found) {
        eprintln!("[{dist} n={n}] MISMATCH between the index and the linear scan");
    }

    // insert_if_new on fresh pages (half near-duplicates, half new), after the build.
    let mut rng = SmallRng::seed_from_u64(o.seed ^ 0x5eed);
    let fresh: Vec<u64> = (0..o.queries.min(n))
        .map(|i| {
            if i % 2 == 0 {
                data.hits[i % data.hits.len()]
            } else {
                data.misses[i % data.misses.len()] ^ flips(&mut rng, 1)
            }
        })
        .collect();
    let start = Clock::start();
    let mut admitted = 0usize;
    for (i, &fp) in fresh.iter().enumerate() {
        admitted += usize::from(
            index
                .insert_if_new(Fingerprint::new(fp), (n + i) as u64)
                .is_ok(),
        );
    }
    let iin_rate = fresh.len() as f64 / start.secs();

    println!(
        "| {dist} | {n} | {k} | {:.0} | {:.0} ({:.1} µs) | {:.0} ({:.1} µs) | {:.0} ({:.1} µs) | {:.0} | {:.1} | {:.0} | {:.0} | {:.0}× / {:.0}× |",
        insert_rate,
        hit_qps,
        hit_p99,
        miss_qps,
        miss_p99,
        near_qps,
        near_p99,
        iin_rate,
        bytes,
        lin_hit,
        lin_miss,
        hit_qps / lin_hit,
        miss_qps / lin_miss,
    );
    eprintln!(
        "[{dist} n={n}] hits found {hit_found}/{}, misses found {miss_found}/{}, insert_if_new admitted {admitted}/{}, distinct {}",
        data.hits.len(),
        data.misses.len(),
        fresh.len(),
        stats.distinct
    );

    if let Some(dir) = &o.persist {
        let path = dir.join(format!("index_bench_{dist}_{n}.slh"));
        let start = Instant::now();
        if let Err(e) = index.save(&path) {
            eprintln!("save: {e}");
            return;
        }
        let save = start.elapsed().as_secs_f64();
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        drop(index);
        let start = Instant::now();
        match NearIndex::load_expecting(&path, k, "bench") {
            Ok(loaded) => {
                eprintln!(
                    "[{dist} n={n}] save {save:.2}s, load+rebuild {:.2}s, file {:.1} B/fp, reloaded {} entries",
                    start.elapsed().as_secs_f64(),
                    size as f64 / n as f64,
                    loaded.len()
                );
                // A reloaded index is one segment and an empty delta: what queries cost
                // without the smaller segments and the delta of a live index.
                let (hit, _, _) = measure(&data.hits, |q| loaded.any_within(Fingerprint::new(q)));
                let (miss, _, _) =
                    measure(&data.misses, |q| loaded.any_within(Fingerprint::new(q)));
                eprintln!(
                    "[{dist} n={n}] reloaded ({:?}): any_within hit {hit:.0} q/s, miss {miss:.0} q/s",
                    loaded.stats()
                );
            }
            Err(e) => eprintln!("load: {e}"),
        }
        let _ = std::fs::remove_file(&path);
    }
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("index_bench: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "| fingerprints | N | k | insert/s | any_within hit q/s (p99) | any_within miss q/s (p99) | nearest q/s (p99) | insert_if_new/s | bytes/fp | linear hit q/s | linear miss q/s | index vs linear (hit / miss) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &n in &o.ns {
        for dist in &o.dists {
            run(&o, dist, n);
        }
    }
}
