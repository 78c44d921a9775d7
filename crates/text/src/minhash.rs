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
#[cfg(test)]
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
#[cfg(test)]
#[must_use]
pub(crate) fn minhash_bits(set: impl IntoIterator<Item = u64>, bits: u32) -> Option<u128> {
    let mut bins = Bins::new(bits);
    for x in set {
        bins.add(x);
    }
    bins.finish()
}

/// The bins of a one-bit minhash: each keeps the smallest feature hash that fell in it.
#[derive(Clone)]
struct Bins {
    k: usize,
    shift: u32,
    mins: [u64; 128],
    hit: [bool; 128],
}

impl Bins {
    fn new(bits: u32) -> Self {
        let (k, shift) = if bits == 64 { (64, 58) } else { (128, 57) };
        Self {
            k,
            shift,
            mins: [u64::MAX; 128],
            hit: [false; 128],
        }
    }

    #[inline(always)]
    fn add(&mut self, x: u64) {
        let bin = (x >> self.shift) as usize;
        if let (Some(m), Some(h)) = (self.mins.get_mut(bin), self.hit.get_mut(bin)) {
            *m = (*m).min(x);
            *h = true;
        }
    }

    /// The bits, empty bins densified; `None` when no feature came.
    fn finish(&self) -> Option<u128> {
        let k = self.k;
        let filled = self
            .hit
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
            out |= u128::from(self.mins.get(from).map_or(0, |m| m & 1)) << i;
        }
        Some(out)
    }
}

/// The one-bit minhash of the `n`-word shingles of units handed over one at a time (their
/// `unit_hash`es, in text order): `minhash_bits(shingles(units, n), bits)`, with no list of
/// the units kept. The last `n` units are kept in a ring (`n` is at most 16); fewer than `n`
/// units in all make one shingle of all of them, as `shingles` does.
#[derive(Clone)]
pub(crate) struct ShingleMinhash {
    n: usize,
    ring: [u64; 16],
    seen: usize,
    bins: Bins,
}

impl ShingleMinhash {
    /// Shingles of `n` units (clamped to 1..=16), over `bits` bits (64 or 128).
    pub(crate) fn new(n: usize, bits: u32) -> Self {
        Self {
            n: n.clamp(1, 16),
            ring: [0; 16],
            seen: 0,
            bins: Bins::new(bits),
        }
    }

    /// The next unit.
    #[inline(always)]
    pub(crate) fn push(&mut self, unit: u64) {
        let n = self.n;
        if n == 2 {
            // The default: the previous unit and this one, with no loop.
            if self.seen > 0 {
                self.bins.add(mix(mix(self.ring[0]) ^ unit));
            }
            self.ring[0] = unit;
        } else {
            self.ring[self.seen % n] = unit;
            if self.seen + 1 >= n {
                // The window ends at this unit and starts `n - 1` before it.
                let first = (self.seen + 1) % n;
                let x = (0..n).fold(0, |h, j| mix(h ^ self.ring[(first + j) % n]));
                self.bins.add(x);
            }
        }
        self.seen += 1;
    }

    /// The bits; `None` when no unit came.
    pub(crate) fn finish(mut self) -> Option<u128> {
        if self.seen > 0 && self.seen < self.n {
            // One shingle of every unit (for n = 2, the one unit is `ring[0]` too).
            let x = self.ring[..self.seen].iter().fold(0, |h, &u| mix(h ^ u));
            self.bins.add(x);
        }
        self.bins.finish()
    }
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

    proptest::proptest! {
        /// Units handed over one at a time give the minhash of their shingles, for every
        /// width, at 64 and 128 bits (few units included: one shingle of all of them).
        #[test]
        fn streamed_shingles_are_the_listed(
            units in proptest::collection::vec(0u64..40, 0..60),
            n in 1usize..6,
        ) {
            let units: Vec<u64> = units.into_iter().map(mix).collect();
            for bits in [64, 128] {
                let mut stream = ShingleMinhash::new(n, bits);
                for &u in &units {
                    stream.push(u);
                }
                proptest::prop_assert_eq!(
                    stream.finish(),
                    minhash_bits(shingles(&units, n), bits),
                    "n = {}, {} bits", n, bits
                );
            }
        }
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
