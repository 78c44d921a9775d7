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
//! whole crawl in global scope). A path counted `after` times or more is *varying*: the
//! confirmation's similarity leaves it out of both sides
//! ([`jaccard_without`](silhouette_simhash::jaccard_without)). Paths every page of a kind
//! has (the chrome, the page kind's own blocks) never differ within a cluster and keep their
//! full weight.
//!
//! Deterministic in the order pages are judged (the crawl's order, which `replay` repeats);
//! fingerprints never depend on it.

use fnv::FnvHashMap;

/// The Jaccard similarity of two path sets from `(|A ∩ B|, |A ∪ B|)` on the paths compared
/// (`silhouette_simhash::overlap_without`, [`Varying::overlap_flagged`]): 1 when nothing is
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

/// The varying paths of one dedup scope.
#[derive(Debug, Default)]
pub(crate) struct Varying {
    /// How often each path was in exactly one summary of a confirmed match. (FNV: the
    /// confirmation looks up every path of both summaries for every candidate; with SipHash
    /// that was an eighth of a python-docs crawl's CPU, in the crawl loop.)
    counts: FnvHashMap<u32, u32>,
}

impl Varying {
    /// Whether `id` has varied within clusters at least `after` times (never, for 0).
    pub(crate) fn is_varying(&self, id: u32, after: u32) -> bool {
        after > 0 && self.counts.get(&id).is_some_and(|&n| n >= after)
    }

    /// The confirmation's similarity of two summaries (sorted, distinct ids): Jaccard without
    /// the paths varying `after` times or more (the plain form; the crawl uses
    /// [`overlap_flagged`](Self::overlap_flagged) and [`share`], which tests hold to this one).
    #[cfg(test)]
    pub(crate) fn similarity(&self, a: &[u32], b: &[u32], after: u32) -> f64 {
        if after == 0 || self.counts.is_empty() {
            return silhouette_simhash::jaccard(a, b);
        }
        silhouette_simhash::jaccard_without(a, b, |id| self.is_varying(id, after))
    }

    /// Which paths of summary `a` vary `after` times or more, for
    /// [`overlap_flagged`](Self::overlap_flagged): `None` when none can (nothing
    /// learned yet, or learning off).
    pub(crate) fn flags(&self, a: &[u32], after: u32) -> Option<Vec<bool>> {
        (after > 0 && !self.counts.is_empty())
            .then(|| a.iter().map(|&id| self.is_varying(id, after)).collect())
    }

    /// `(|A ∩ B|, |A ∪ B|)` of `a` and `b` without the paths varying `after` times or more
    /// (the counts behind `similarity`, [`share`]), with `a`'s paths already looked up
    /// (`flags`, from [`flags`](Self::flags)): a page is compared with every candidate of its
    /// cluster, and only the paths of `b` that `a` lacks are looked up here.
    pub(crate) fn overlap_flagged(
        &self,
        a: &[u32],
        flags: &[bool],
        b: &[u32],
        after: u32,
    ) -> (usize, usize) {
        let (mut i, mut j, mut both, mut union) = (0, 0, 0usize, 0usize);
        while i < a.len() || j < b.len() {
            let (skip, in_both) = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if x == y => {
                    i += 1;
                    j += 1;
                    (flags[i - 1], true)
                }
                (Some(&x), Some(&y)) if x < y => {
                    i += 1;
                    (flags[i - 1], false)
                }
                (Some(_), None) => {
                    i += 1;
                    (flags[i - 1], false)
                }
                (_, Some(&y)) => {
                    j += 1;
                    (self.is_varying(y, after), false)
                }
                (None, None) => break,
            };
            if !skip {
                union += 1;
                both += usize::from(in_both);
            }
        }
        (both, union)
    }

    /// Learns from a confirmed match of summaries `a` and `b`: each path in exactly one of
    /// them is counted once.
    pub(crate) fn learn(&mut self, a: &[u32], b: &[u32]) {
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let id = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if x == y => {
                    i += 1;
                    j += 1;
                    continue;
                }
                (Some(&x), Some(&y)) if x < y => {
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
            let full = self.counts.len() >= MAX_LEARNED;
            match self.counts.get_mut(&id) {
                Some(n) => *n = n.saturating_add(1),
                None if !full => {
                    self.counts.insert(id, 1);
                }
                None => {}
            }
        }
    }

    /// Paths counted so far.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.counts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Learns every pair of `confirmed`, then checks the similarity of `a` and `b`.
    fn check(confirmed: &[(&[u32], &[u32])], after: u32, a: &[u32], b: &[u32], expected: f64) {
        let mut v = Varying::default();
        for (x, y) in confirmed {
            v.learn(x, y);
        }
        let got = v.similarity(a, b, after);
        assert!(
            (got - expected).abs() < 1e-12,
            "{confirmed:?} after {after}: {a:?} ~ {b:?} = {got}, expected {expected}"
        );
        assert!((v.similarity(b, a, after) - got).abs() < 1e-12, "symmetric");
    }

    #[test]
    fn varying_paths_leave_the_similarity() {
        let (a, b): (&[u32], &[u32]) = (&[1, 2, 3, 10, 11], &[1, 2, 3, 12, 13]);
        // Nothing learned: plain Jaccard.
        check(&[], 2, a, b, 3.0 / 7.0);
        // 10..13 varied once: not yet varying at 2, varying at 1.
        let once: &[(&[u32], &[u32])] = &[(&[1, 2, 10, 11], &[1, 2, 12, 13])];
        check(once, 2, a, b, 3.0 / 7.0);
        check(once, 1, a, b, 1.0);
        // Twice: varying at 2; 0 turns learning off.
        let twice: &[(&[u32], &[u32])] = &[(&[1, 10, 11], &[1, 12, 13]), (&[10, 12], &[11, 13])];
        check(twice, 2, a, b, 1.0);
        check(twice, 0, a, b, 3.0 / 7.0);
        // Paths shared by both sides of a match never vary: a page kind's own block (4) still
        // separates it.
        check(twice, 2, &[1, 2, 3, 4], &[1, 2, 3, 10], 3.0 / 4.0);
    }

    #[test]
    fn flagged_similarity_is_the_similarity() {
        let mut v = Varying::default();
        v.learn(&[1, 4, 7, 9], &[1, 2, 9, 12]);
        v.learn(&[2, 4, 30], &[1, 7, 12]);
        let sets: [&[u32]; 6] = [
            &[],
            &[1],
            &[1, 2, 3, 4],
            &[2, 4, 7, 12, 30],
            &[5, 6, 7, 8, 9, 30, 31],
            &[1, 2, 4, 7, 9, 12],
        ];
        for after in 0..4 {
            for a in sets {
                for b in sets {
                    let plain = v.similarity(a, b, after);
                    let flagged = match v.flags(a, after) {
                        Some(f) => share(v.overlap_flagged(a, &f, b, after)),
                        None => silhouette_simhash::jaccard(a, b),
                    };
                    assert_eq!(
                        plain.to_bits(),
                        flagged.to_bits(),
                        "{a:?} ~ {b:?} after {after}"
                    );
                }
            }
        }
    }

    #[test]
    fn learning_is_bounded() {
        let mut v = Varying::default();
        let many: Vec<u32> = (0..u32::try_from(MAX_LEARNED).expect("fits") + 100).collect();
        v.learn(&many, &[]);
        v.learn(&many, &[]);
        assert_eq!(v.len(), MAX_LEARNED);
        assert!(v.is_varying(0, 2));
        assert!(!v.is_varying(many[many.len() - 1], 1));
    }
}
