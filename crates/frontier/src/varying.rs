//! Paths learned to vary within a cluster: the confirmation's discount for content.
//!
//! Pages of one documentation template differ in *which* content blocks they hold (a
//! warning box here, a class description there), and every such block brings its own paths:
//! two library pages of one Sphinx site share only 30–50% of their paths, while two page
//! kinds of a web application share 45–85%. No fixed Jaccard cut serves both (ALGORITHM.md §3).
//!
//! What tells content from template is what varies between pages *already confirmed* to be
//! one kind: whenever a page joins a cluster, every path in exactly one of the two summaries
//! (the page's and the representative's) is counted once for the scope (the host, or the
//! whole crawl in global scope) and once for the cluster. A path counted `after` times or
//! more is *varying*, and the confirmation's similarity leaves it out of both sides
//! ([`Varying::overlap_flagged`]), on one condition: a path the page brings and its
//! candidate lacks must vary within the candidate's own cluster (`after` times), or have
//! varied within at least [`MIN_CLUSTERS`] clusters (once is enough in each). A block seen to
//! vary in one other cluster only is as likely the mark of a page kind that once joined that
//! cluster: counted for the whole host, a tracker's attachment page and a wiki page's old
//! version joined pages of other kinds (ALGORITHM.md §3, "Session 45"). Paths every page of a
//! kind has (the chrome, the page kind's own blocks) never differ within a cluster and keep
//! their full weight.
//!
//! Deterministic in the order pages are judged (the crawl's order, which `replay` repeats);
//! fingerprints never depend on it.

use fnv::FnvHashMap;

use crate::same::path;

/// The Jaccard similarity of two path sets from `(|A ∩ B|, |A ∪ B|)` on the paths compared
/// (`crate::same::overlap_without`, [`Varying::overlap_flagged`]): 1 when nothing is
/// left of either, as `silhouette_simhash::jaccard_without`.
pub(crate) fn share((both, union): (usize, usize)) -> f64 {
    if union == 0 {
        1.0
    } else {
        #[allow(clippy::cast_precision_loss, reason = "path counts far below 2^52")]
        let value = both as f64 / union as f64;
        value
    }
}

/// Distinct paths counted per scope: past this many, new paths are no longer learned (the
/// counts of those already met still grow), so memory stays bounded on any site.
pub(crate) const MAX_LEARNED: usize = 1 << 16;

/// Distinct (cluster, path) pairs counted per scope, bounded as [`MAX_LEARNED`] is: past
/// this many, a cluster learns no new path (its pages are then compared more strictly, never
/// less).
pub(crate) const MAX_LEARNED_WITHIN: usize = 1 << 18;

/// A path that the page brings and its candidate lacks is left out only when it varies
/// within the candidate's own cluster or has varied (once is enough) within at least this
/// many clusters of the scope: a content block that comes and goes in two kinds of page is
/// content, a block seen to vary in one other cluster only is as likely the mark of a page
/// kind that once joined it (ALGORITHM.md §3, "Session 45").
pub(crate) const MIN_CLUSTERS: u32 = 2;

/// How one path of a page bears on the confirmation (from [`Varying::flags`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flag {
    /// It varies on the scope (`after` times or more, in any cluster).
    on_host: bool,
    /// It varies on the scope and has varied within at least [`MIN_CLUSTERS`] clusters.
    in_clusters: bool,
}

/// The varying paths of one dedup scope.
#[derive(Debug, Default)]
pub(crate) struct Varying {
    /// How often each path (its id without marks: `same.rs`) was in exactly one summary of
    /// a confirmed match, whatever its marks on either. (FNV: the
    /// confirmation looks up every path of both summaries for every candidate; with SipHash
    /// that was an eighth of a python-docs crawl's CPU, in the crawl loop.)
    counts: FnvHashMap<u32, u32>,
    /// The same count per cluster (its representative's id) and path.
    within: FnvHashMap<(u64, u32), u32>,
    /// Within how many clusters each path has varied (at least once).
    clusters: FnvHashMap<u32, u32>,
}

impl Varying {
    /// Whether `id` has varied within clusters at least `after` times (never, for 0).
    pub(crate) fn is_varying(&self, id: u32, after: u32) -> bool {
        after > 0 && self.counts.get(&path(id)).is_some_and(|&n| n >= after)
    }

    /// Whether `id` has varied at least `after` times within `cluster` (never, for 0).
    fn varies_within(&self, cluster: u64, id: u32, after: u32) -> bool {
        after > 0
            && self
                .within
                .get(&(cluster, path(id)))
                .is_some_and(|&n| n >= after)
    }

    /// Whether `id`, on a page and not on its candidate of `cluster`, is left out: it varies
    /// within that cluster or has varied within [`MIN_CLUSTERS`] clusters.
    fn brought_varies(&self, flag: Flag, cluster: u64, id: u32, after: u32) -> bool {
        flag.in_clusters || self.varies_within(cluster, id, after)
    }

    /// The confirmation's similarity of summary `a` (the page) with `b` (the representative
    /// of `cluster`), in the plain form: the crawl uses [`flags`](Self::flags) and
    /// [`overlap_flagged`](Self::overlap_flagged), which tests hold to this one.
    #[cfg(test)]
    pub(crate) fn similarity(&self, a: &[u32], b: &[u32], cluster: u64, after: u32) -> f64 {
        let flags = self
            .flags(a, after)
            .unwrap_or_else(|| vec![Flag::default(); a.len()]);
        share(self.overlap_flagged(a, &flags, b, cluster, after, |_| false))
    }

    /// How each path of summary `a` bears on the confirmation, for
    /// [`overlap_flagged`](Self::overlap_flagged): `None` when no path can vary (nothing
    /// learned yet, or learning off).
    pub(crate) fn flags(&self, a: &[u32], after: u32) -> Option<Vec<Flag>> {
        (after > 0 && !self.counts.is_empty()).then(|| {
            a.iter()
                .map(|&id| {
                    let on_host = self.is_varying(id, after);
                    Flag {
                        on_host,
                        in_clusters: on_host
                            && self
                                .clusters
                                .get(&path(id))
                                .is_some_and(|&n| n >= MIN_CLUSTERS),
                    }
                })
                .collect()
        })
    }

    /// `(|A ∩ B|, |A ∪ B|)` of page `a` (its paths looked up in `flags`, from
    /// [`flags`](Self::flags)) and representative `b` of `cluster`, without the paths
    /// `skip` names and without the paths that vary:
    /// - a path of both, or of `b` only, when it varies on the scope (`after` times or more);
    /// - a path of `a` only when it varies within `cluster`, or varies on the scope and has
    ///   varied within [`MIN_CLUSTERS`] clusters: a block the page brings counts against the
    ///   match unless the representative's kind, or content in general, is seen to hold it
    ///   or not. (Never a path the old rule, on the scope, kept in.)
    pub(crate) fn overlap_flagged(
        &self,
        a: &[u32],
        flags: &[Flag],
        b: &[u32],
        cluster: u64,
        after: u32,
        skip: impl Fn(u32) -> bool,
    ) -> (usize, usize) {
        let (mut i, mut j, mut both, mut union) = (0, 0, 0usize, 0usize);
        while i < a.len() || j < b.len() {
            let (id, left_out, in_both) = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if path(x) == path(y) => {
                    i += 1;
                    j += 1;
                    (x, flags[i - 1].on_host, true)
                }
                (Some(&x), Some(&y)) if path(x) < path(y) => {
                    i += 1;
                    (
                        x,
                        self.brought_varies(flags[i - 1], cluster, x, after),
                        false,
                    )
                }
                (Some(&x), None) => {
                    i += 1;
                    (
                        x,
                        self.brought_varies(flags[i - 1], cluster, x, after),
                        false,
                    )
                }
                (_, Some(&y)) => {
                    j += 1;
                    (y, self.is_varying(y, after), false)
                }
                (None, None) => break,
            };
            if !left_out && !skip(id) {
                union += 1;
                both += usize::from(in_both);
            }
        }
        (both, union)
    }

    /// Learns from a confirmed match of summaries `a` and `b` within `cluster`: each path in
    /// exactly one of them is counted once, for the scope and for the cluster (and, the first
    /// time within this cluster, as varying within one cluster more).
    pub(crate) fn learn(&mut self, cluster: u64, a: &[u32], b: &[u32]) {
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let id = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if path(x) == path(y) => {
                    i += 1;
                    j += 1;
                    continue;
                }
                (Some(&x), Some(&y)) if path(x) < path(y) => {
                    i += 1;
                    x
                }
                (Some(&x), None) => {
                    i += 1;
                    x
                }
                (_, Some(&y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            let id = path(id);
            count(&mut self.counts, id, MAX_LEARNED);
            if count(&mut self.within, (cluster, id), MAX_LEARNED_WITHIN) == Some(1) {
                // The path has now varied within one more cluster.
                count(&mut self.clusters, id, MAX_LEARNED);
            }
        }
    }

    /// Paths counted so far.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.counts.len()
    }
}

/// Counts `key` once in `counts`, which learns no new key past `max`: its new count, `None`
/// when it was not counted.
fn count<K: std::hash::Hash + Eq>(
    counts: &mut FnvHashMap<K, u32>,
    key: K,
    max: usize,
) -> Option<u32> {
    let full = counts.len() >= max;
    match counts.get_mut(&key) {
        Some(n) => {
            *n = n.saturating_add(1);
            Some(*n)
        }
        None if !full => {
            counts.insert(key, 1);
            Some(1)
        }
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A confirmed match: within cluster `.0`, summaries `.1` and `.2`.
    type Match<'a> = (u64, &'a [u32], &'a [u32]);

    /// Learns every match of `confirmed`, then checks the similarity at `after` of page `a`
    /// with representative `b` of cluster 1.
    /// Path numbers are summary ids `16n` (`same.rs`: the low bits are marks).
    fn check(confirmed: &[Match<'_>], after: u32, a: &[u32], b: &[u32], expected: f64) {
        let ids = |paths: &[u32]| paths.iter().map(|&n| n * 16).collect::<Vec<u32>>();
        let mut v = Varying::default();
        for &(cluster, x, y) in confirmed {
            v.learn(cluster, &ids(x), &ids(y));
        }
        let got = v.similarity(&ids(a), &ids(b), 1, after);
        assert!(
            (got - expected).abs() < 1e-12,
            "{confirmed:?} after {after}: {a:?} ~ {b:?} = {got}, expected {expected}"
        );
    }

    #[test]
    fn varying_paths_leave_the_similarity() {
        let (a, b): (&[u32], &[u32]) = (&[1, 2, 3, 10, 11], &[1, 2, 3, 12, 13]);
        // Nothing learned: plain Jaccard.
        check(&[], 2, a, b, 3.0 / 7.0);
        // 10..13 varied once in the representative's cluster: not yet varying at 2, varying
        // at 1.
        let once: &[Match<'_>] = &[(1, &[1, 2, 10, 11], &[1, 2, 12, 13])];
        check(once, 2, a, b, 3.0 / 7.0);
        check(once, 1, a, b, 1.0);
        // Twice: varying at 2; 0 turns learning off.
        let twice: &[Match<'_>] = &[(1, &[1, 10, 11], &[1, 12, 13]), (1, &[10, 12], &[11, 13])];
        check(twice, 2, a, b, 1.0);
        check(twice, 0, a, b, 3.0 / 7.0);
        // Paths shared by both sides of a match never vary: a page kind's own block (4) still
        // separates it.
        check(twice, 2, &[1, 2, 3, 4], &[1, 2, 3, 10], 3.0 / 4.0);
    }

    #[test]
    fn a_block_the_page_brings_counts_unless_the_representatives_kind_varies_in_it() {
        // Page 1, 2, 3 and its block 20, 21; the representative 1, 2, 3 and its block 12.
        let (a, b): (&[u32], &[u32]) = (&[1, 2, 3, 20, 21], &[1, 2, 3, 12]);
        // 12 varies on the host (in another cluster, 7): the representative's optional
        // block is left out. 20 and 21 varied in cluster 7 only: they count.
        let elsewhere: &[Match<'_>] = &[(7, &[1, 12, 20, 21], &[1]), (7, &[1], &[1, 12, 20, 21])];
        check(elsewhere, 2, a, b, 3.0 / 5.0);
        // Varying within the representative's cluster, they are left out.
        let within: &[Match<'_>] = &[(1, &[1, 20, 21], &[1]), (1, &[1], &[1, 20, 21])];
        check(&[elsewhere, within].concat(), 2, a, b, 1.0);
        // So they are when they have varied within two clusters, neither of them its own:
        // once in the second is enough.
        let two: &[Match<'_>] = &[(8, &[1, 20, 21], &[1])];
        check(&[elsewhere, two].concat(), 2, a, b, 1.0);
        // But never before they vary on the host (`after` times): once in each of two
        // clusters is twice, content at 2 (12, once, counts: 3 of 4), not at 3 (3 of 6).
        let once_each: &[Match<'_>] = &[(7, &[1, 12, 20, 21], &[1]), (8, &[1, 20, 21], &[1])];
        check(once_each, 2, a, b, 3.0 / 4.0);
        check(once_each, 3, a, b, 3.0 / 6.0);
        // Turned round, the representative's 20 and 21 leave (they vary on the host) and the
        // page's 12, varying in cluster 7 only, counts: 3 of 4.
        check(elsewhere, 2, b, a, 3.0 / 4.0);
    }

    /// The similarity as the docs of `overlap_flagged` define it, on plain sets of paths
    /// (summary ids without their marks).
    fn reference(v: &Varying, a: &[u32], b: &[u32], cluster: u64, after: u32) -> f64 {
        use std::collections::BTreeSet;
        let (sa, sb): (BTreeSet<u32>, BTreeSet<u32>) = (
            a.iter().map(|&id| path(id)).collect(),
            b.iter().map(|&id| path(id)).collect(),
        );
        let host = |id: u32| after > 0 && v.counts.get(&id).is_some_and(|&n| n >= after);
        let within =
            |id: u32| after > 0 && v.within.get(&(cluster, id)).is_some_and(|&n| n >= after);
        let clusters = |id: u32| {
            host(id)
                && v.within.iter().filter(|&(&(_, p), _)| p == id).count() >= MIN_CLUSTERS as usize
        };
        let compared: BTreeSet<u32> = sa
            .union(&sb)
            .copied()
            .filter(|&id| match (sa.contains(&id), sb.contains(&id)) {
                (true, false) => !(within(id) || clusters(id)),
                _ => !host(id),
            })
            .collect();
        let both = compared
            .iter()
            .filter(|id| sa.contains(id) && sb.contains(id))
            .count();
        share((both, compared.len()))
    }

    /// Sorted, distinct summary ids of paths from a small alphabet (so that sets meet), each
    /// path unmarked or marked prose.
    fn summary() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::btree_map(0u32..24, 0u32..2, 0..12)
            .prop_map(|s| s.into_iter().map(|(n, prose)| n * 16 + prose).collect())
    }

    proptest! {
        #[test]
        fn flagged_overlap_is_the_defined_similarity(
            matches in proptest::collection::vec((0u64..4, summary(), summary()), 0..8),
            a in summary(),
            b in summary(),
            cluster in 0u64..4,
            after in 0u32..4,
        ) {
            let mut v = Varying::default();
            for (c, x, y) in &matches {
                v.learn(*c, x, y);
            }
            let got = v.similarity(&a, &b, cluster, after);
            prop_assert_eq!(got.to_bits(), reference(&v, &a, &b, cluster, after).to_bits());
        }
    }

    #[test]
    fn learning_is_bounded() {
        let mut v = Varying::default();
        let many: Vec<u32> = (0..u32::try_from(MAX_LEARNED_WITHIN).expect("fits") + 100)
            .map(|n| n * 16)
            .collect();
        v.learn(1, &many, &[]);
        v.learn(1, &many, &[]);
        v.learn(2, &many, &[]);
        assert_eq!(v.len(), MAX_LEARNED);
        assert_eq!(v.within.len(), MAX_LEARNED_WITHIN);
        assert!(v.clusters.len() <= MAX_LEARNED);
        assert!(v.is_varying(0, 2));
        assert!(!v.is_varying(many[many.len() - 1], 1));
        assert!(v.varies_within(1, 0, 2));
        assert!(
            !v.varies_within(2, 0, 1),
            "the second cluster came after the bound"
        );
    }
}
