//! One-bit minwise hashing (b-bit minhash with b = 1): a 64- or 128-bit fingerprint whose
//! Hamming distance estimates the Jaccard distance of two feature *sets* (ALGORITHM.md §7).
//!
//! Bit `i` is the lowest bit of `min over features f of mix(h(f) ^ seed(i))`: two texts agree
//! on it with probability `J + (1 − J) / 2`, so the expected distance is `bits × (1 − J) / 2`,
//! linear in the Jaccard distance (a simhash's grows with the angle, about its square root).

/// The SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijection that mixes every input bit
/// into every output bit.
#[must_use]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of bit `i`: the `i + 1`-th output of SplitMix64 started at 0.
const fn seed(i: u32) -> u64 {
    mix((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The hashes of the distinct `n`-word shingles of `words` (given as word hashes), sorted.
///
/// A shingle hashes as `mix(… mix(mix(w₁) ^ w₂) … ^ wₙ)`: order matters. Fewer than `n` words
/// make one shingle of all of them.
#[must_use]
pub(crate) fn shingle_set(word_hashes: &[u64], n: usize) -> Vec<u64> {
    let n = n.clamp(1, word_hashes.len().max(1));
    let mut set: Vec<u64> = word_hashes
        .windows(n)
        .map(|w| w.iter().fold(0, |h, &x| mix(h ^ x)))
        .collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// The one-bit minhash of a feature set (hashes, any order) over `bits` bits (at most 128);
/// `None` for an empty set.
#[must_use]
pub(crate) fn minhash_bits(set: &[u64], bits: u32) -> Option<u128> {
    if set.is_empty() {
        return None;
    }
    let mut out = 0u128;
    for i in 0..bits.min(128) {
        let s = seed(i);
        let min = set.iter().fold(u64::MAX, |m, &h| m.min(mix(h ^ s)));
        out |= u128::from(min & 1) << i;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // SplitMix64's published first outputs from state 0.
        assert_eq!(seed(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(seed(1), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(shingle_set(&[], 2), Vec::<u64>::new());
        assert_eq!(shingle_set(&[7], 3), [mix(7)]);
        assert_eq!(shingle_set(&[1, 2, 1, 2], 2).len(), 2);
        assert_ne!(shingle_set(&[1, 2], 2), shingle_set(&[2, 1], 2));
        assert_eq!(minhash_bits(&[], 64), None);
    }

    #[test]
    fn distance_tracks_jaccard() {
        // Sets of 1,000 with 950 in common (J = 0.905) and 500 in common (J = 0.333).
        let a: Vec<u64> = (0..1000).collect();
        let near: Vec<u64> = (50..1050).collect();
        let far: Vec<u64> = (500..1500).collect();
        let d = |x: &[u64], y: &[u64]| {
            (minhash_bits(x, 128).unwrap_or(0) ^ minhash_bits(y, 128).unwrap_or(0)).count_ones()
        };
        assert_eq!(d(&a, &a), 0);
        // Expected 128 × (1 − J) / 2: about 6 and 43.
        assert!(d(&a, &near) <= 14, "{}", d(&a, &near));
        assert!(d(&a, &far) >= 28, "{}", d(&a, &far));
        let reordered: Vec<u64> = a.iter().rev().copied().collect();
        assert_eq!(d(&a, &reordered), 0);
    }
}
