//! Weighted simhash: the fold of (feature hash, weight) pairs into 64 bits.

use crate::{Fingerprint, Fingerprint128};

/// Folds weighted features into a [`Fingerprint`], in the order they are added.
///
/// For every feature and every bit `i`, the total `V[i]` gains `+w` if bit `i` of the
/// feature's hash is 1 and `-w` otherwise; bit `i` of the result is 1 iff `V[i] >= 0`
/// (mfonda/simhash's tie rule, so no features at all give `ffffffffffffffff`).
///
/// f64 addition is not associative: add the features in a fixed order (silhouette sorts them by
/// feature key) so that the same input gives the same bits on every run and machine.
///
/// ```
/// use silhouette_simhash::{fnv1_64, Simhash};
/// let mut s = Simhash::new();
/// s.add(fnv1_64(b"html"), 0.45);
/// assert_eq!(s.finish().to_string(), "f120317ed83fa3d6");
/// ```
#[derive(Clone, Debug)]
pub struct Simhash {
    totals: [f64; 64],
}

impl Default for Simhash {
    fn default() -> Self {
        Self::new()
    }
}

impl Simhash {
    /// An empty accumulator.
    #[must_use]
    pub const fn new() -> Self {
        Self { totals: [0.0; 64] }
    }

    /// Adds one feature with hash `hash` and weight `weight`.
    pub fn add(&mut self, hash: u64, weight: f64) {
        fold(&mut self.totals, |i| (hash >> i) & 1 == 1, weight);
    }

    /// The 64 running totals `V[0..64]`, for diagnostics.
    #[must_use]
    pub const fn totals(&self) -> &[f64; 64] {
        &self.totals
    }

    /// The fingerprint: bit `i` is 1 iff `V[i] >= 0`.
    #[must_use]
    pub fn finish(&self) -> Fingerprint {
        Fingerprint::new(set_bits(&self.totals).fold(0u64, |acc, i| acc | (1 << i)))
    }
}

/// [`Simhash`] over 128 bits: the same fold (ALGORITHM.md §1 and §7), with 128-bit feature
/// hashes and `>= 0` ties, so no features at all give 32 `f`s.
///
/// ```
/// use silhouette_simhash::Simhash128;
/// let mut s = Simhash128::new();
/// s.add(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef, 2.0);
/// s.add(u128::MAX, 1.0);
/// assert_eq!(s.finish().bits(), 0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
/// ```
#[derive(Clone, Debug)]
pub struct Simhash128 {
    totals: [f64; 128],
}

impl Default for Simhash128 {
    fn default() -> Self {
        Self::new()
    }
}

impl Simhash128 {
    /// An empty accumulator.
    #[must_use]
    pub const fn new() -> Self {
        Self { totals: [0.0; 128] }
    }

    /// Adds one feature with hash `hash` and weight `weight`.
    pub fn add(&mut self, hash: u128, weight: f64) {
        fold(&mut self.totals, |i| (hash >> i) & 1 == 1, weight);
    }

    /// The 128 running totals `V[0..128]`, for diagnostics.
    #[must_use]
    pub const fn totals(&self) -> &[f64; 128] {
        &self.totals
    }

    /// The fingerprint: bit `i` is 1 iff `V[i] >= 0`.
    #[must_use]
    pub fn finish(&self) -> Fingerprint128 {
        Fingerprint128::new(set_bits(&self.totals).fold(0u128, |acc, i| acc | (1 << i)))
    }
}

/// `V[i] += w` where `bit(i)`, else `V[i] -= w`: one feature into the totals.
fn fold(totals: &mut [f64], bit: impl Fn(usize) -> bool, weight: f64) {
    for (i, total) in totals.iter_mut().enumerate() {
        if bit(i) {
            *total += weight;
        } else {
            *total -= weight;
        }
    }
}

/// The indexes `i` with `V[i] >= 0`: the fingerprint's 1 bits.
fn set_bits(totals: &[f64]) -> impl Iterator<Item = usize> + '_ {
    totals
        .iter()
        .enumerate()
        .filter(|(_, total)| **total >= 0.0)
        .map(|(i, _)| i)
}

/// The simhash of `features` folded in the order given.
///
/// ```
/// use silhouette_simhash::{fnv1_64, simhash};
/// let fp = simhash([(fnv1_64(b"a"), 1.0), (fnv1_64(b"b"), 2.0)]);
/// assert_eq!(fp.distance(simhash([(fnv1_64(b"b"), 2.0)])), 0);
/// ```
#[must_use]
pub fn simhash(features: impl IntoIterator<Item = (u64, f64)>) -> Fingerprint {
    let mut acc = Simhash::new();
    for (hash, weight) in features {
        acc.add(hash, weight);
    }
    acc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_features_is_all_ones() {
        assert_eq!(simhash([]).bits(), u64::MAX);
    }

    #[test]
    fn exact_tie_sets_the_bit() {
        // Two features with complementary hashes and equal weights tie on every bit.
        let fp = simhash([(0x0f0f_0f0f_0f0f_0f0f, 1.5), (0xf0f0_f0f0_f0f0_f0f0, 1.5)]);
        assert_eq!(fp.bits(), u64::MAX);
        let fp = simhash([(0x0f0f_0f0f_0f0f_0f0f, 1.5), (0xf0f0_f0f0_f0f0_f0f0, 1.25)]);
        assert_eq!(fp.bits(), 0x0f0f_0f0f_0f0f_0f0f);
    }

    #[test]
    fn wide_fold_matches_the_narrow_one_on_the_low_half() {
        let features = [
            (0xdead_beef_u64, 1.0),
            (0x1234_5678_9abc_def0, 3.0),
            (7, 2.5),
        ];
        let mut wide = Simhash128::new();
        for (h, w) in features {
            wide.add(u128::from(h), w);
        }
        assert_eq!(wide.finish().bits() as u64, simhash(features).bits());
        assert_eq!(
            wide.finish().bits() >> 64,
            0,
            "high bits all 0 in every feature"
        );
        assert_eq!(Simhash128::new().finish().bits(), u128::MAX);
    }

    #[test]
    fn heavier_feature_wins() {
        let fp = simhash([(0xdead_beef, 1.0), (0x1234_5678_9abc_def0, 3.0)]);
        assert_eq!(fp.bits(), 0x1234_5678_9abc_def0);
    }
}
