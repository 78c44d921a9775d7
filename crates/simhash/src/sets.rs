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
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - both;
    if union == 0 {
        1.0
    } else {
        both as f64 / union as f64
    }
}

#[cfg(test)]
mod tests {
    use super::jaccard;

    fn check(a: &[u32], b: &[u32], expected: f64) {
        assert!((jaccard(a, b) - expected).abs() < 1e-12, "{a:?} {b:?}");
        assert!((jaccard(b, a) - expected).abs() < 1e-12, "symmetric");
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
