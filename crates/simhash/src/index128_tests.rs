//! Tests of [`NearIndex128`]: brute-force agreement (clustered and uniform), edges of `k`, layouts.

use super::*;

/// Brute force over the same inserts: every query's matches must agree.
fn check(k: u32, stored: &[u128], queries: &[u128]) {
    let mut index = NearIndex128::new(k).expect("valid k");
    for (i, &fp) in stored.iter().enumerate() {
        index.insert(Fingerprint128::new(fp), i as u64 + 100);
    }
    for &q in queries {
        let mut expected: Vec<(u32, u64)> = stored
            .iter()
            .enumerate()
            .map(|(i, &fp)| ((fp ^ q).count_ones(), i as u64 + 100))
            .filter(|&(d, _)| d <= k)
            .collect();
        expected.sort_unstable();
        let got: Vec<(u32, u64)> = index
            .within(Fingerprint128::new(q))
            .into_iter()
            .map(|m| (m.distance, m.id))
            .collect();
        assert_eq!(got, expected, "k = {k}, query {q:032x}");
        assert_eq!(
            index
                .nearest(Fingerprint128::new(q))
                .map(|m| (m.distance, m.id)),
            expected.first().copied()
        );
    }
}

#[test]
fn edges_of_k() {
    let a: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
    let flip = |n: u32| (0..n).fold(a, |x, i| x ^ (1u128 << (i * 11 % 128)));
    for k in [0, 1, 3, 10, 16] {
        let stored = [a, flip(k), flip(k + 1), a];
        check(k, &stored, &[a, flip(1), flip(k), !a]);
    }
    assert!(matches!(
        NearIndex128::new(17),
        Err(IndexError::UnsupportedK { k: 17, max: 16 })
    ));
    let mut index = NearIndex128::new(3).expect("valid");
    assert!(index.is_empty());
    assert_eq!(index.insert_if_new(Fingerprint128::new(a), 7), Ok(()));
    assert_eq!(
        index.insert_if_new(Fingerprint128::new(a ^ 0b101), 8),
        Err(Match { id: 7, distance: 2 })
    );
    assert_eq!((index.len(), index.k()), (1, 3));
    assert!(index.memory_bytes() > 0);
    assert_eq!(
        Fingerprint128::from(Fingerprint::new(5)),
        Fingerprint128::new(5)
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// Clustered fingerprints (a few bases, bit flips) across bucket growth: the index
    /// and brute force agree for every k.
    #[test]
    fn agrees_with_brute_force(
        bases in proptest::collection::vec(proptest::prelude::any::<u128>(), 1..5),
        flips in proptest::collection::vec((0usize..5, proptest::collection::vec(0u32..128, 0..14)), 1..400),
        k in 0u32..=16,
    ) {
        let fps: Vec<u128> = flips
            .iter()
            .map(|(b, bits)| bits.iter().fold(bases[b % bases.len()], |x, &i| x ^ (1u128 << i)))
            .collect();
        let (stored, queries) = fps.split_at(fps.len() / 2);
        check(k, stored, queries);
    }
}

/// The cost model's layouts at the bench's k and at the ends of the range.
#[test]
fn layouts() {
    const K6: [(u32, u32); 7] = [
        (19, 0),
        (19, 0),
        (18, 0),
        (18, 0),
        (18, 0),
        (18, 0),
        (18, 0),
    ];
    const K8: [(u32, u32); 7] = [
        (19, 1),
        (19, 1),
        (18, 0),
        (18, 0),
        (18, 0),
        (18, 0),
        (18, 0),
    ];
    let cases: [(u32, &[(u32, u32)]); 6] = [
        (0, &[(128, 0)]),
        (3, &[(32, 0); 4]),
        (6, &K6),
        (8, &K8),
        (10, &[(64, 5), (64, 5)]),
        (16, &[(64, 8), (64, 8)]),
    ];
    for (k, expected) in cases {
        let index = NearIndex128::new(k).expect("valid k");
        assert_eq!(index.layout(), expected, "k = {k}");
        let (widths, slack): (u32, u32) = expected
            .iter()
            .fold((0, 0), |(w, s), &(wi, r)| (w + wi, s + r + 1));
        assert_eq!(widths, 128, "k = {k}");
        assert!(slack > k, "k = {k}: pigeonhole");
    }
}

/// Memory grows with entries: a 64-byte bucket per 2 to 4 entries, per table.
#[test]
fn memory_per_entry() {
    let mut index = NearIndex128::new(6).expect("valid k");
    let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
    for i in 0..5000u64 {
        x = x
            .wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645)
            .wrapping_add(1);
        index.insert(Fingerprint128::new(x), i);
    }
    let per_entry = index.memory_bytes() as f64 / 5000.0;
    // 24 bytes of fingerprint and id, 7 tables of 64-byte buckets holding 2 to 4 entries
    // each (and a few overflow entries of 12 bytes), plus Vec slack.
    let (low, high) = (
        24.0 + 7.0 * 64.0 / 4.0,
        2.0 * 24.0 + 7.0 * (64.0 / 2.0 + 12.0),
    );
    assert!((low..=high).contains(&per_entry), "{per_entry}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    /// Uniform random fingerprints and queries near them (the bench's distribution, smaller).
    #[test]
    fn agrees_with_brute_force_uniform(
        stored in proptest::collection::vec(proptest::prelude::any::<u128>(), 1..600),
        flips in proptest::collection::vec((0usize..600, proptest::collection::vec(0u32..128, 0..18)), 1..60),
        k in 0u32..=16,
    ) {
        let queries: Vec<u128> = flips
            .iter()
            .map(|(i, bits)| bits.iter().fold(stored[i % stored.len()], |x, &b| x ^ (1u128 << b)))
            .collect();
        check(k, &stored, &queries);
    }
}
