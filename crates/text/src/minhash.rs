//! One-bit minwise hashing (b-bit minhash with b = 1): a 64- or 128-bit fingerprint whose
//! Hamming distance estimates the Jaccard distance of two feature *sets* (ALGORITHM.md §7).
//!
//! One permutation hashing (Li, Owen, Zhang 2012) with optimal densification (Shrivastava 2017):
//! each feature hash `x` (already well mixed) falls in bin `x >> (64 − log2 bits)`; bin `i` keeps
//! its smallest `x`, and bit `i` is that `x`'s lowest bit. An empty bin takes the bit of the
//! first non-empty bin `j = mix(i·2^32 + t) mod bits`, t = 1, 2, … Two texts agree on a bit with
//! probability about `J + (1 − J) / 2`, so the expected distance is `bits × (1 − J) / 2`, linear
//! in the Jaccard distance (a simhash's grows with the angle, about its square root). One pass
//! over the features, where `bits` independent minhashes would need `bits` passes.

/// The SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijection that mixes every input bit
/// into every output bit.
#[must_use]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A unit's 64-bit hash: its UTF-8 bytes read as little-endian words and folded with [`mix`],
/// the length first (ALGORITHM.md §7.1). Up to 8 bytes, one `mix` of the bytes (at most three of
/// them, or two 4-byte reads that overlap, which together hold every byte) and the length: two
/// different units of up to 8 bytes never collide, since `mix` is a bijection. Longer units
/// fold each 8 bytes in turn, the last 8 read again when the length is not a multiple of 8.
/// (A unit is a word of about 7 bytes: this costs about a fifth of SipHash-1-3's low 64 bits,
/// and the shingles `mix` the unit hashes again.)
#[must_use]
#[inline]
pub(crate) fn unit_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let len = bytes.len();
    let seed = (len as u64).wrapping_mul(K);
    let le32 = |at: usize| {
        bytes
            .get(at..at + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    match len {
        0 => mix(seed),
        1..4 => {
            let (a, b, c) = (bytes[0], bytes[len / 2], bytes[len - 1]);
            mix(seed ^ u64::from_le_bytes([a, b, c, 0, 0, 0, 0, 0]))
        }
        4..=8 => mix(seed ^ u64::from(le32(0)) ^ (u64::from(le32(len - 4)) << 32)),
        _ => {
            let le64 = |at: usize| {
                let mut w = [0; 8];
                w.copy_from_slice(&bytes[at..at + 8]);
                u64::from_le_bytes(w)
            };
            let mut h = seed;
            let mut at = 0;
            while at + 8 <= len {
                h = mix(h ^ le64(at));
                at += 8;
            }
            if at < len {
                h = mix(h ^ le64(len - 8));
            }
            h
        }
    }
}

/// The hashes of the `n`-word shingles of `words` (given as word hashes), in text order,
/// repeats included (a minhash is the same over a set and over any list of its members).
///
/// A shingle hashes as `mix(… mix(mix(w₁) ^ w₂) … ^ wₙ)`: order matters. Fewer than `n` words
/// make one shingle of all of them.
pub(crate) fn shingles(word_hashes: &[u64], n: usize) -> impl Iterator<Item = u64> + '_ {
    let n = n.clamp(1, word_hashes.len().max(1));
    word_hashes.windows(n).map(|w| match w {
        // The default's shingles, without a loop per shingle.
        [a, b] => mix(mix(*a) ^ *b),
        _ => w.iter().fold(0, |h, &x| mix(h ^ x)),
    })
}

/// The one-bit minhash of a feature set (well-mixed hashes, any order, repeats allowed) over
/// `bits` bits (64 or 128; anything else is taken as 128); `None` for an empty set.
#[must_use]
pub(crate) fn minhash_bits(set: impl IntoIterator<Item = u64>, bits: u32) -> Option<u128> {
    let (k, shift) = if bits == 64 { (64, 58) } else { (128, 57) };
    let mut mins = [u64::MAX; 128];
    let mut hit = [false; 128];
    for x in set {
        let bin = (x >> shift) as usize;
        if let (Some(m), Some(h)) = (mins.get_mut(bin), hit.get_mut(bin)) {
            *m = (*m).min(x);
            *h = true;
        }
    }
    let filled = hit
        .iter()
        .enumerate()
        .fold(0u128, |f, (i, &h)| f | (u128::from(h) << i));
    if filled == 0 {
        return None;
    }
    let mut out = 0u128;
    for i in 0..k {
        let mut from = i;
        let mut t = 0u64;
        while filled >> from & 1 == 0 {
            t += 1;
            // At least one bin is filled: every try hits one with probability ≥ 1/k.
            from = (mix(((i as u64) << 32) | t) % k as u64) as usize;
        }
        out |= u128::from(mins.get(from).map_or(0, |m| m & 1)) << i;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // SplitMix64's published first output from state 0.
        assert_eq!(mix(0x9e37_79b9_7f4a_7c15), 0xe220_a839_7b1d_cdaf);
        // One feature fills one bin; every other bin copies its bit.
        let one = minhash_bits([mix(1)], 64).unwrap_or(2);
        assert!(one == 0 || one == u128::from(u64::MAX), "{one:x}");
        let list = |w: &[u64], n| shingles(w, n).collect::<Vec<_>>();
        assert_eq!(list(&[], 2), Vec::<u64>::new());
        assert_eq!(list(&[7], 3), [mix(7)]);
        assert_eq!(list(&[1, 2, 1, 2], 2).len(), 3);
        assert_ne!(list(&[1, 2], 2), list(&[2, 1], 2));
        // Every width is the fold of its window (2, the default, has a case of its own).
        let words = [3, 1, 4, 1, 5, 9, 2, 6];
        for n in 1..=4 {
            let folded: Vec<u64> = words
                .windows(n)
                .map(|w| w.iter().fold(0, |h, &x| mix(h ^ x)))
                .collect();
            assert_eq!(list(&words, n), folded, "n = {n}");
        }
        assert_eq!(minhash_bits([], 64), None);
        // Repeats and order do not matter.
        assert_eq!(
            minhash_bits(list(&[1, 2, 1, 2, 3], 2), 64),
            minhash_bits([mix(mix(2) ^ 3), mix(mix(1) ^ 2), mix(mix(2) ^ 1)], 64)
        );
    }

    #[test]
    fn unit_hashes() {
        // Reference values (ALGORITHM.md §7.1), one per length class.
        let k = 0x9e37_79b9_7f4a_7c15_u64;
        assert_eq!(unit_hash(b""), mix(0));
        assert_eq!(unit_hash(b"ab"), mix(2u64.wrapping_mul(k) ^ 0x62_62_61));
        assert_eq!(
            unit_hash(b"simhash"),
            mix(7u64.wrapping_mul(k) ^ 0x686d_6973 ^ (0x6873_6168 << 32))
        );
        let nine = mix(mix(9u64.wrapping_mul(k) ^ u64::from_le_bytes(*b"crawlers"))
            ^ u64::from_le_bytes(*b"rawlers!"));
        assert_eq!(unit_hash(b"crawlers!"), nine);
        // No two units of up to 8 bytes collide: every one- and two-byte unit, and a sample
        // of longer ones that differ in one byte anywhere.
        let mut seen = std::collections::HashSet::new();
        for a in 0..=255u8 {
            assert!(seen.insert(unit_hash(&[a])));
            for b in 0..=255u8 {
                assert!(seen.insert(unit_hash(&[a, b])));
            }
        }
        for len in 3..=8 {
            for at in 0..len {
                for v in 0..=255u8 {
                    let mut w = vec![b'x'; len];
                    w[at] = v;
                    let fresh = seen.insert(unit_hash(&w));
                    assert!(fresh || v == b'x', "{w:?}");
                }
            }
        }
    }

    #[test]
    fn distance_tracks_jaccard() {
        // Sets of 1,000 with 950 in common (J = 0.905) and 500 in common (J = 0.333).
        let a: Vec<u64> = (0..1000).map(mix).collect();
        let near: Vec<u64> = (50..1050).map(mix).collect();
        let far: Vec<u64> = (500..1500).map(mix).collect();
        let d = |x: &[u64], y: &[u64]| {
            (minhash_bits(x.iter().copied(), 128).unwrap_or(0)
                ^ minhash_bits(y.iter().copied(), 128).unwrap_or(0))
            .count_ones()
        };
        assert_eq!(d(&a, &a), 0);
        // Expected 128 × (1 − J) / 2: about 6 and 43.
        assert!(d(&a, &near) <= 14, "{}", d(&a, &near));
        assert!(d(&a, &far) >= 28, "{}", d(&a, &far));
        let reordered: Vec<u64> = a.iter().rev().copied().collect();
        assert_eq!(d(&a, &reordered), 0);
    }
}
