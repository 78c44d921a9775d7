//! Exactness against a brute-force model, persistence round trips and corruption.

use proptest::prelude::*;

use super::{IndexError, Match, NearIndex, Tuning};
use crate::Fingerprint;

/// The reference: a list of live `(fingerprint, id)` in insertion order.
#[derive(Debug, Default, Clone)]
struct Model {
    k: u32,
    entries: Vec<(u64, u64)>,
}

impl Model {
    fn nearest(&self, q: u64) -> Option<(u64, u32)> {
        let mut best: Option<(u32, u64)> = None;
        for &(fp, id) in &self.entries {
            let d = (fp ^ q).count_ones();
            if d <= self.k && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, id));
            }
        }
        best.map(|(d, id)| (id, d))
    }

    fn remove(&mut self, id: u64) -> usize {
        let before = self.entries.len();
        self.entries.retain(|&(_, i)| i != id);
        before - self.entries.len()
    }
}

/// Tiny structures, so that a few hundred entries go through the delta, early flushes,
/// segments, merges and ring-indexed cells.
fn tiny() -> Tuning {
    Tuning {
        delta_bits: 3,
        chain_limit: 2,
        join: 4,
        fanout: 2,
        heavy_min: 3,
        heavy_factor: 0,
        dir_slack: 1,
        dir_cap: 28,
    }
}

/// splitmix64, so a proptest case is a seed and a failure prints it.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A mask of exactly `bits` distinct bits.
    fn flips(&mut self, bits: u32) -> u64 {
        let mut m = 0u64;
        while m.count_ones() < bits {
            m |= 1 << self.below(64);
        }
        m
    }
}

/// Fingerprints: uniform, or skewed (a few bases with up to 3 flipped bits, many repeats).
fn fingerprint(rng: &mut Rng, bases: &[u64], pool: &[u64]) -> u64 {
    if bases.is_empty() {
        return rng.next();
    }
    match rng.below(4) {
        0 if !pool.is_empty() => pool[rng.below(pool.len() as u64) as usize],
        _ => {
            let f = rng.below(4) as u32;
            bases[rng.below(bases.len() as u64) as usize] ^ rng.flips(f)
        }
    }
}

/// A query: near a stored fingerprint at exactly `k`, `k + 1`, or anything in between, or
/// unrelated.
fn query(rng: &mut Rng, k: u32, pool: &[u64], bases: &[u64]) -> u64 {
    if pool.is_empty() || rng.below(8) == 0 {
        return fingerprint(rng, bases, pool);
    }
    let at = pool[rng.below(pool.len() as u64) as usize];
    let d = match rng.below(4) {
        0 => k,
        1 => k + 1,
        _ => rng.below(u64::from(k) + 3) as u32,
    };
    at ^ rng.flips(d.min(64))
}

fn check_query(index: &NearIndex, model: &Model, q: u64) {
    let want = model.nearest(q);
    let fp = Fingerprint::new(q);
    assert_eq!(index.nearest(fp), want, "nearest({q:016x}), k={}", model.k);
    assert_eq!(index.any_within(fp), want.is_some(), "any_within({q:016x})");
    let exact = model.entries.iter().find(|e| e.0 == q).map(|e| e.1);
    assert_eq!(index.exact(fp), exact, "exact({q:016x})");
}

/// Runs `ops` random operations on an index and the model, checking every answer.
fn run(k: u32, seed: u64, skewed: bool, ops: usize, tuning: Tuning) -> (NearIndex, Model) {
    let mut rng = Rng(seed);
    let bases: Vec<u64> = if skewed {
        (0..1 + rng.below(3)).map(|_| rng.next()).collect()
    } else {
        Vec::new()
    };
    let mut index = NearIndex::with_tuning(k, b"test".to_vec(), tuning).expect("k <= 8");
    let mut model = Model {
        k,
        ..Model::default()
    };
    let mut pool: Vec<u64> = Vec::new();
    for step in 0..ops {
        let id = rng.below(ops as u64 / 2 + 1);
        match rng.below(10) {
            0..=3 => {
                let fp = fingerprint(&mut rng, &bases, &pool);
                index.insert(Fingerprint::new(fp), id);
                model.entries.push((fp, id));
                pool.push(fp);
            }
            4..=5 => {
                let fp = query(&mut rng, k, &pool, &bases);
                let want = model.nearest(fp);
                let got = index.insert_if_new(Fingerprint::new(fp), id);
                match want {
                    Some((id, distance)) => assert_eq!(got, Err(Match { id, distance })),
                    None => {
                        assert_eq!(got, Ok(()), "step {step}");
                        model.entries.push((fp, id));
                        pool.push(fp);
                    }
                }
            }
            6 if rng.below(10) == 0 => {
                index.compact();
                assert!(index.stats().segments <= 1 && index.stats().delta == 0);
            }
            6 => {
                let id = if rng.below(2) == 0 {
                    model
                        .entries
                        .get(rng.below(model.entries.len() as u64 + 1) as usize)
                        .map_or(id, |e| e.1)
                } else {
                    id
                };
                assert_eq!(index.remove(id), model.remove(id), "remove({id})");
            }
            _ => check_query(&index, &model, query(&mut rng, k, &pool, &bases)),
        }
        assert_eq!(index.len(), model.entries.len());
    }
    for &fp in pool.iter().take(64) {
        check_query(&index, &model, fp);
    }
    (index, model)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn matches_brute_force_uniform(k in 0u32..=8, seed in any::<u64>()) {
        run(k, seed, false, 300, tiny());
    }

    #[test]
    fn matches_brute_force_skewed(k in 0u32..=8, seed in any::<u64>()) {
        run(k, seed, true, 300, tiny());
    }

    #[test]
    fn save_load_round_trips(k in 0u32..=8, seed in any::<u64>(), skewed in any::<bool>()) {
        let (index, model) = run(k, seed, skewed, 120, tiny());
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("index.slh");
        index.save(&path).expect("save");
        let loaded = NearIndex::load_expecting(&path, k, b"test").expect("load");
        prop_assert_eq!(loaded.len(), index.len());
        let mut rng = Rng(seed ^ 1);
        let pool: Vec<u64> = model.entries.iter().map(|e| e.0).collect();
        for _ in 0..100 {
            let q = query(&mut rng, k, &pool, &[]);
            prop_assert_eq!(loaded.nearest(Fingerprint::new(q)), model.nearest(q));
        }
    }
}

#[test]
fn every_k_with_default_tuning_and_thousands_of_entries() {
    for k in 0..=8 {
        run(k, 42 + u64::from(k), k % 2 == 0, 3000, Tuning::default());
    }
}

#[test]
fn exactly_k_counts_and_k_plus_one_does_not() {
    for k in 0..=8u32 {
        let mut index = NearIndex::new(k).expect("k <= 8");
        let base = 0x0123_4567_89ab_cdefu64;
        index.insert(Fingerprint::new(base), 7);
        let mut rng = Rng(u64::from(k));
        for _ in 0..200 {
            let at_k = base ^ rng.flips(k);
            assert_eq!(index.nearest(Fingerprint::new(at_k)), Some((7, k)));
            let beyond = base ^ rng.flips(k + 1);
            assert!(!index.any_within(Fingerprint::new(beyond)), "k={k}");
        }
    }
}

#[test]
fn ties_go_to_the_earliest_insertion_even_after_removals() {
    let mut index = NearIndex::new(3).expect("k = 3");
    let a = Fingerprint::new(0b0011);
    let b = Fingerprint::new(0b1100);
    let q = Fingerprint::new(0b0000); // 2 bits from each
    index.insert(a, 1);
    index.insert(b, 2);
    index.insert(a, 3);
    assert_eq!(index.nearest(q), Some((1, 2)));
    assert_eq!(index.remove(1), 1);
    // a's earliest live id (3) came after b's (2).
    assert_eq!(index.nearest(q), Some((2, 2)));
    assert_eq!(index.exact(a), Some(3));
    assert_eq!(index.remove(2), 1);
    assert_eq!(index.nearest(q), Some((3, 2)));
    assert_eq!(index.remove(3), 1);
    assert_eq!((index.nearest(q), index.len()), (None, 0));
    // A removed fingerprint comes back as a new insertion.
    index.insert(b, 4);
    index.insert(a, 5);
    assert_eq!(index.nearest(q), Some((4, 2)));
}

#[test]
fn unsupported_k_is_an_error() {
    let err = NearIndex::new(9).expect_err("k = 9");
    assert!(
        matches!(err, IndexError::UnsupportedK { k: 9, max: 8 }),
        "{err}"
    );
}

/// A small saved index with extra ids, promoted and dead slots.
fn small_file(dir: &std::path::Path) -> (std::path::PathBuf, Vec<u8>) {
    let (mut index, _) = run(5, 7, true, 60, tiny());
    index.insert(Fingerprint::new(1), 1000);
    index.insert(Fingerprint::new(1), 1001);
    index.remove(1000);
    let path = dir.join("small.slh");
    index.save(&path).expect("save");
    let bytes = std::fs::read(&path).expect("read back");
    (path, bytes)
}

#[test]
fn truncation_at_every_offset_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (path, bytes) = small_file(dir.path());
    assert!(NearIndex::load(&path).is_ok());
    for len in 0..bytes.len() {
        std::fs::write(&path, &bytes[..len]).expect("write");
        match NearIndex::load(&path) {
            Err(IndexError::Truncated { .. } | IndexError::NotAnIndex { .. }) => {}
            other => panic!("truncated at {len}: {other:?}"),
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&path, &longer).expect("write");
    assert!(matches!(
        NearIndex::load(&path),
        Err(IndexError::Corrupt { .. })
    ));
}

#[test]
fn every_flipped_byte_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (path, bytes) = small_file(dir.path());
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            std::fs::write(&path, &bad).expect("write");
            let got = NearIndex::load(&path);
            assert!(got.is_err(), "byte {i} ^ {flip:#x} loaded");
        }
    }
}

#[test]
fn load_checks_k_and_parameters_and_names_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("p.slh");
    let mut index = NearIndex::with_params(4, "classic/fnv1/decay=0.45").expect("k = 4");
    index.insert(Fingerprint::new(99), 1);
    index.save(&path).expect("save");
    let loaded = NearIndex::load(&path).expect("load");
    assert_eq!(
        (loaded.k(), loaded.params()),
        (4, &b"classic/fnv1/decay=0.45"[..])
    );
    let err = NearIndex::load_expecting(&path, 4, "classic/fnv1/decay=0.5").expect_err("params");
    assert!(
        err.to_string().contains("decay=0.45") && err.to_string().contains("p.slh"),
        "{err}"
    );
    let err = NearIndex::load_expecting(&path, 5, "classic/fnv1/decay=0.45").expect_err("k");
    assert!(
        matches!(
            err,
            IndexError::KMismatch {
                expected: 5,
                found: 4,
                ..
            }
        ),
        "{err}"
    );
    std::fs::write(&path, b"hello, world, not an index").expect("write");
    assert!(matches!(
        NearIndex::load(&path),
        Err(IndexError::NotAnIndex { .. })
    ));
    let missing = dir.path().join("missing.slh");
    let err = NearIndex::load(&missing).expect_err("missing");
    assert!(matches!(err, IndexError::Io { .. }) && err.to_string().contains("missing.slh"));
}

#[test]
fn another_version_is_refused_by_number() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (path, mut bytes) = small_file(dir.path());
    bytes[8] = 2;
    std::fs::write(&path, &bytes).expect("write");
    let err = NearIndex::load(&path).expect_err("version 2");
    assert!(
        matches!(
            err,
            IndexError::UnsupportedVersion {
                found: 2,
                supported: 1,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn heavy_duplicates_share_one_slot() {
    let mut index = NearIndex::new(5).expect("k = 5");
    for id in 0..10_000 {
        index.insert(Fingerprint::new(0xdead_beef), id);
    }
    let stats = index.stats();
    assert_eq!((stats.ids, stats.distinct, stats.slots), (10_000, 1, 1));
    assert_eq!(
        index.nearest(Fingerprint::new(0xdead_beef ^ 1)),
        Some((0, 1))
    );
}

#[test]
fn merges_go_cell_by_cell_and_stay_exact() {
    let absorbed = || super::segment::ABSORBED.with(std::cell::Cell::get);
    let before = absorbed();
    for k in [0, 3, 5, 8] {
        for seed in 0..4 {
            run(k, seed, seed % 2 == 1, 400, tiny());
        }
    }
    assert!(absorbed() > before, "the tiny tuning merges cell by cell");
    let before = absorbed();
    // Default tuning: the segment absorbs the delta without growing its directories.
    let mut index = NearIndex::new(5).expect("k = 5");
    let mut rng = Rng(9);
    let mut fps = Vec::new();
    for id in 0..(5 << 17) {
        let fp = rng.next();
        index.insert(Fingerprint::new(fp), id);
        fps.push(fp);
    }
    assert_eq!(index.stats().segments, 1);
    assert!(
        absorbed() > before,
        "the default tuning merges cell by cell"
    );
    for (id, &fp) in fps.iter().enumerate().step_by(97) {
        assert_eq!(
            index.nearest(Fingerprint::new(fp ^ 0b1_0101)),
            Some((id as u64, 3))
        );
    }
}

#[test]
fn an_empty_index_is_small_and_its_delta_grows() {
    let mut index = NearIndex::new(5).expect("k = 5");
    assert!(index.memory_bytes() < 8 * 1024, "{}", index.memory_bytes());
    let mut rng = Rng(3);
    for id in 0..20_000 {
        index.insert(Fingerprint::new(rng.next()), id);
    }
    assert_eq!(index.stats().delta, 20_000);
    let mut rng = Rng(3);
    for id in 0..20_000 {
        let fp = rng.next();
        assert_eq!(index.nearest(Fingerprint::new(fp ^ 1 << 40)), Some((id, 1)));
    }
}

#[test]
fn absorbing_equals_rebuilding() {
    use super::layout::Layout;
    use super::segment::Segment;
    for k in [1, 5, 8] {
        let layout = Layout::for_k(k).expect("k <= 8");
        let tuning = Tuning {
            heavy_min: 4,
            heavy_factor: 0,
            ..Tuning::default()
        };
        let mut rng = Rng(u64::from(k));
        let bases: Vec<u64> = (0..3).map(|_| rng.next()).collect();
        let fps: Vec<u64> = (0..9000)
            .map(|i| {
                if i % 3 == 0 {
                    rng.next()
                } else {
                    let f = rng.below(4) as u32;
                    bases[i % 3] ^ rng.flips(f)
                }
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let all: Vec<(u64, usize)> = fps.iter().copied().zip(0..).collect();
        // 2048 and 2048 + 600 entries share their directory widths.
        let (old, new) = all.split_at(2048);
        let new = &new[..600];
        let mut seg = Segment::build(old, 0, 2048, &layout, &tuning);
        let extended = super::segment::EXTENDED.with(std::cell::Cell::get);
        assert!(seg.absorb(new, 2648, false, &layout, &tuning));
        assert!(
            super::segment::EXTENDED.with(std::cell::Cell::get) > extended,
            "k={k}"
        );
        let want = Segment::build(&all[..2648], 0, 2648, &layout, &tuning);
        assert_eq!((seg.len(), seg.hi()), (want.len(), want.hi()));
        assert_eq!(seg.heavy_cells(), want.heavy_cells());
        assert!(seg.heavy_cells() > 0, "k={k}: rings are rebuilt and moved");
        for &(fp, s) in &all[..2648] {
            assert_eq!(seg.find_in(fp, seg.exact_range(fp).0), Some(s), "k={k}");
        }
        let mut got: Vec<_> = seg.entries().collect();
        got.sort_unstable();
        let mut want: Vec<_> = all[..2648].to_vec();
        want.sort_unstable();
        assert_eq!(got, want);
        // Directories that must grow refuse, and so do dead slots.
        assert!(all.len() > 4096);
        assert!(!seg.absorb(&all[2648..], all.len(), false, &layout, &tuning));
        assert!(!seg.absorb(&[], 2648, true, &layout, &tuning));
    }
}

/// Longer runs with a small delta and larger segments: many cell-by-cell merges into segments
/// that already hold rings, removals (dead slots force rebuilds) and compactions in between.
#[test]
fn long_runs_with_small_deltas_stay_exact() {
    let tuning = Tuning {
        delta_bits: 5,
        chain_limit: 8,
        join: 16,
        fanout: 4,
        heavy_min: 6,
        heavy_factor: 2,
        dir_slack: 2,
        dir_cap: 28,
    };
    let absorbed = || super::segment::ABSORBED.with(std::cell::Cell::get);
    let before = absorbed();
    for k in 0..=8 {
        for seed in 0..4 {
            let seed = 1000 + 10 * u64::from(k) + seed;
            run(k, seed, seed % 2 == 1, 3000, tuning.clone());
        }
    }
    assert!(absorbed() > before);
}

/// A query whose every probed cell of the delta is occupied: more chains than one batch of a
/// delta search holds, so the batch is walked and refilled mid-search.
#[test]
fn a_delta_search_with_more_occupied_chains_than_a_batch() {
    let tuning = Tuning {
        delta_bits: 12,
        chain_limit: u32::MAX,
        ..Tuning::default()
    };
    for k in [5, 8] {
        let mut index =
            NearIndex::with_tuning(k, b"test".to_vec(), tuning.clone()).expect("k <= 8");
        let mut model = Model {
            k,
            ..Model::default()
        };
        let q = 0x0123_4567_89ab_cdefu64;
        let mut id = 0;
        // Every fingerprint two bits from `q`: every cell within radius 2 of the query's.
        for i in 0..64 {
            for j in 0..i {
                let fp = q ^ (1 << i) ^ (1 << j);
                index.insert(Fingerprint::new(fp), id);
                model.entries.push((fp, id));
                id += 1;
            }
        }
        assert_eq!(index.stats().segments, 0, "all in the delta");
        let mut rng = Rng(u64::from(k));
        for _ in 0..200 {
            let flips = rng.below(u64::from(k) + 4) as u32;
            let mut m = 0u64;
            while m.count_ones() < flips {
                m |= 1 << rng.below(64);
            }
            check_query(&index, &model, q ^ m);
        }
    }
}
