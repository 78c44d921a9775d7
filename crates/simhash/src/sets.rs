//! Exact similarity of two sets of feature ids: what confirms a near match that a 64-bit
//! fingerprint only proposes.

/// Jaccard similarity `|A ∩ B| / |A ∪ B|` of two **sorted, duplicate-free** id lists
/// (1 for two empty lists).
///
/// ```
/// use silhouette_simhash::jaccard;
/// assert_eq!(jaccard(&[1, 2, 3], &[2, 3, 4]), 0.5);
/// assert_eq!(jaccard(&[], &[]), 1.0);
/// ```
#[must_use]
pub fn jaccard(a: &[u32], b: &[u32]) -> f64 {
    jaccard_without(a, b, |_| false)
}

/// Jaccard similarity of two sorted, distinct id lists with the ids for which `skip` is true
/// left out of both (1 when nothing is left of either). With a `skip` that is always false,
/// exactly [`jaccard`].
///
/// ```
/// use silhouette_simhash::jaccard_without;
/// assert_eq!(jaccard_without(&[1, 2, 3], &[2, 3, 4], |id| id == 4), 2.0 / 3.0);
/// assert_eq!(jaccard_without(&[1], &[2], |_| true), 1.0);
/// ```
#[must_use]
pub fn jaccard_without(a: &[u32], b: &[u32], skip: impl Fn(u32) -> bool) -> f64 {
    let (both, union) = overlap_without(a, b, skip);
    if union == 0 {
        1.0
    } else {
        both as f64 / union as f64
    }
}

/// `(|A ∩ B|, |A ∪ B|)` of two sorted, distinct id lists with the ids for which `skip` is
/// true left out of both: the two counts behind [`jaccard_without`], for a caller that must
/// know how many ids its similarity rests on.
///
/// ```
/// use silhouette_simhash::overlap_without;
/// assert_eq!(overlap_without(&[1, 2, 3], &[2, 3, 4], |id| id == 4), (2, 3));
/// assert_eq!(overlap_without(&[1], &[2], |_| true), (0, 0));
/// ```
#[must_use]
pub fn overlap_without(a: &[u32], b: &[u32], skip: impl Fn(u32) -> bool) -> (usize, usize) {
    overlap_without_by(a, b, |id| id, skip)
}

/// [`overlap_without`] with the ids compared by `key`: two ids are one where their keys are
/// equal. Each list is sorted and its keys, in that order, increasing and distinct (a key
/// that drops an id's low bits, where each list holds one id per key). `skip` reads an id
/// of both lists as `a` holds it.
///
/// ```
/// use silhouette_simhash::overlap_without_by;
/// // Ids 16 and 17 are one where the lowest bit is no part of the key.
/// assert_eq!(overlap_without_by(&[17, 32], &[16, 48], |id| id & !1, |_| false), (1, 3));
/// ```
#[must_use]
pub fn overlap_without_by(
    a: &[u32],
    b: &[u32],
    key: impl Fn(u32) -> u32,
    skip: impl Fn(u32) -> bool,
) -> (usize, usize) {
    let (mut i, mut j, mut both, mut union) = (0, 0, 0usize, 0usize);
    loop {
        let (id, in_both) = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if key(x) == key(y) => {
                i += 1;
                j += 1;
                (x, true)
            }
            (Some(&x), Some(&y)) if key(x) < key(y) => {
                i += 1;
                (x, false)
            }
            (Some(&x), None) => {
                i += 1;
                (x, false)
            }
            (_, Some(&y)) => {
                j += 1;
                (y, false)
            }
            (None, None) => break,
        };
        if !skip(id) {
            union += 1;
            both += usize::from(in_both);
        }
    }
    (both, union)
}

#[cfg(test)]
mod tests {
    use super::{jaccard, jaccard_without};

    fn check(a: &[u32], b: &[u32], expected: f64) {
        assert!((jaccard(a, b) - expected).abs() < 1e-12, "{a:?} {b:?}");
        assert!((jaccard(b, a) - expected).abs() < 1e-12, "symmetric");
    }

    fn check_without(a: &[u32], b: &[u32], skip: &[u32], expected: f64) {
        let got = jaccard_without(a, b, |id| skip.contains(&id));
        assert!(
            (got - expected).abs() < 1e-12,
            "{a:?} {b:?} without {skip:?}: {got}"
        );
        let back = jaccard_without(b, a, |id| skip.contains(&id));
        assert!((back - expected).abs() < 1e-12, "symmetric");
    }

    #[test]
    fn values_without() {
        check_without(&[1, 2, 3, 4], &[3, 4, 5, 6], &[], 2.0 / 6.0);
        check_without(&[1, 2, 3, 4], &[3, 4, 5, 6], &[1, 2, 5], 2.0 / 3.0);
        check_without(&[1, 2, 3, 4], &[3, 4, 5, 6], &[3, 4], 0.0);
        check_without(&[1, 2], &[3], &[1, 2, 3], 1.0);
        check_without(&[0, u32::MAX], &[u32::MAX], &[0], 1.0);
        check_without(&[], &[], &[], 1.0);
    }

    proptest::proptest! {
        #[test]
        fn without_nothing_is_jaccard(
            a in proptest::collection::btree_set(0u32..64, 0..20),
            b in proptest::collection::btree_set(0u32..64, 0..20),
            skip in proptest::collection::btree_set(0u32..64, 0..20),
        ) {
            let (a, b): (Vec<u32>, Vec<u32>) = (a.into_iter().collect(), b.into_iter().collect());
            proptest::prop_assert_eq!(jaccard_without(&a, &b, |_| false), jaccard(&a, &b));
            // Leaving ids out is the Jaccard of the filtered lists.
            let keep = |v: &[u32]| -> Vec<u32> { v.iter().copied().filter(|x| !skip.contains(x)).collect() };
            proptest::prop_assert_eq!(
                jaccard_without(&a, &b, |id| skip.contains(&id)),
                jaccard(&keep(&a), &keep(&b))
            );
        }
    }

    #[test]
    fn values() {
        check(&[], &[], 1.0);
        check(&[1], &[], 0.0);
        check(&[1, 2], &[1, 2], 1.0);
        check(&[1, 2, 3, 4], &[3, 4, 5, 6], 2.0 / 6.0);
        check(&[0, u32::MAX], &[u32::MAX], 0.5);
    }
}
