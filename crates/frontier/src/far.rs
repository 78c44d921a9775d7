//! Representatives beyond the threshold: what the path sets confirm where the fingerprint
//! does not propose ([`crate::DedupConfig::far_reach`]).
//!
//! The 64-bit fingerprint is a weighted estimate of a page's path set: a few paths near the
//! root weigh most, so two pages of one template whose path sets are 0.83–0.90 alike can lie
//! 9–18 bits apart (mkdocs's pages on hash seed 2), and with no representative within the
//! threshold the path sets are never read: the page starts a cluster of its own. So when no
//! representative within the threshold is confirmed, the [`MOST_FAR`] nearest ones up to
//! `far-reach` × the threshold are compared too, and one of them is a near match only at a
//! higher similarity: `min-similarity` + `far-margin` (ALGORITHM.md §3, "Session 46").
//!
//! Deterministic: representatives are listed in the order they were kept, and ties in
//! distance go to the earlier one. At most [`MAX_LISTED`] per scope are listed (a host with
//! more structures than that has no template to fold); the scan is linear in them.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use silhouette_simhash::{Fingerprint, Match};

/// Representatives listed per scope: the first 4,096 kept.
pub(crate) const MAX_LISTED: usize = 4096;

/// Representatives beyond the threshold compared at most: the nearest eight.
pub(crate) const MOST_FAR: usize = 8;

/// The representatives of each scope in the order they were kept, for the far comparison.
#[derive(Debug, Default)]
pub(crate) struct Far {
    lists: HashMap<String, Vec<(Fingerprint, u64)>>,
}

impl Far {
    /// Lists representative `id` of `scope` (up to [`MAX_LISTED`] per scope).
    pub(crate) fn insert(&mut self, scope: &str, fp: Fingerprint, id: u64) {
        let list = self.lists.entry(scope.to_owned()).or_default();
        if list.len() < MAX_LISTED {
            list.push((fp, id));
        }
    }

    /// The [`MOST_FAR`] representatives of `scope` more than `near` and at most `reach` bits
    /// from `fp`, nearest first (the earlier kept among equals).
    pub(crate) fn beyond(&self, scope: &str, fp: Fingerprint, near: u32, reach: u32) -> Vec<Match> {
        self.lists.get(scope).map_or_else(Vec::new, |list| {
            nearest(list, fp, near.saturating_add(1)..=reach, MOST_FAR)
        })
    }
}

/// The entries of `list` whose fingerprints lie within `bits` of `fp`, nearest first (the
/// earlier listed among equals), at most `most`: a linear scan, for short lists (a host's
/// first representatives, `dedup.rs`, and the comparison beyond the threshold).
pub(crate) fn nearest(
    list: &[(Fingerprint, u64)],
    fp: Fingerprint,
    bits: RangeInclusive<u32>,
    most: usize,
) -> Vec<Match> {
    let mut found: Vec<(u32, usize, u64)> = list
        .iter()
        .enumerate()
        .map(|(at, &(f, id))| (f.distance(fp), at, id))
        .filter(|(d, _, _)| bits.contains(d))
        .collect();
    found.sort_unstable();
    found.truncate(most);
    found
        .into_iter()
        .map(|(distance, _, id)| Match { id, distance })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids `beyond` returns for `fp` among representatives `reps` (listed in order).
    fn check(reps: &[u64], fp: u64, near: u32, reach: u32, want: &[u64]) {
        let mut far = Far::default();
        for (id, &r) in (1u64..).zip(reps) {
            far.insert("h", Fingerprint::new(r), id);
        }
        let got: Vec<u64> = far
            .beyond("h", Fingerprint::new(fp), near, reach)
            .iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(got, want, "fp {fp:#x} in ({near}, {reach}]");
    }

    #[test]
    fn only_representatives_beyond_the_threshold_and_within_reach_nearest_first() {
        // Distances from 0: 0, 3, 9, 12, 20, 30 bits.
        let reps = [0, 0b111, 0x1ff, 0xfff, 0xf_ffff, 0x3fff_ffff];
        check(&reps, 0, 8, 24, &[3, 4, 5]);
        check(&reps, 0, 2, 9, &[2, 3]);
        // Off: the reach no farther than the threshold.
        check(&reps, 0, 8, 8, &[]);
        // Another scope has none.
        let far = Far::default();
        assert!(far.beyond("g", Fingerprint::new(0), 0, 64).is_empty());
    }

    #[test]
    fn the_nearest_eight_the_earlier_kept_among_equals() {
        // Twelve representatives at 10 bits, then one at 9: it comes first, then the
        // first seven of the twelve.
        let mut reps = vec![0x3ffu64; 12];
        reps.push(0x1ff);
        check(&reps, 0, 8, 24, &[13, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn a_scope_lists_at_most_max_listed() {
        let mut far = Far::default();
        for id in 0..(MAX_LISTED as u64 + 10) {
            far.insert("h", Fingerprint::new(0x3ff), id);
        }
        assert_eq!(far.lists["h"].len(), MAX_LISTED);
    }
}
