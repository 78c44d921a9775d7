//! A path is one path on every page, whatever its marks.
//!
//! A summary id (`silhouette_dom::PathSet::summary`) is a path's id with its three lowest
//! bits replaced by what the path is *on that page*: prose (1), a visible form field (2), a
//! table's column (4). What a page holds as prose is read page by page: on a page whose text
//! lies right in `<body>` (a man page, a Texinfo node, a hand-written page), a path is prose
//! only where every element at it lies in the text, so `html/body/dl` is prose on a man
//! page whose only definition list is its options and not on one whose index is a `<dl>`
//! too. Compared as plain ids, such a path was two paths: two man pages with the same
//! 15 paths, 0 bits apart, shared 13 of 17 and, once the host's frame was known, were kept
//! as two kinds (ALGORITHM.md §3, "Session 74").
//!
//! So wherever two pages' paths meet (the confirmation's similarity, what one page holds that
//! the other lacks, two forms' fields, their articles' blocks, and what a host's confirmed
//! matches teach to vary) they are matched on [`path`], the id without its marks; the marks
//! still say what the path is on the page at hand (its prose, its fields, its columns).
//! Summaries are sorted by id, and a page holds a path once, so the ids without their marks
//! are sorted too and distinct: the lists merge and are searched as they are.
//!
//! The one count that keeps a path's marks is the host's frame (`frame.rs`): a path is the
//! frame where four in five representatives hold it as it is on the page, never as prose.
//! Counted whatever its marks, the elements a texi2html manual's chapters hold in their text
//! and its index pages hold outside it made the frame, the index pages were mostly frame,
//! and each was compared on its few paths left (gettext's manual 16 → 21 kept).

/// The bits of a summary id that mark what its path is on the page (prose, a field, a
/// column), not which path it is.
pub(crate) const MARKS: u32 = 7;

/// Summary id `id` without its marks: the path it is on every page.
pub(crate) const fn path(id: u32) -> u32 {
    id & !MARKS
}

/// Whether `summary` (sorted, distinct paths: `crate::split_summary`'s parts) holds the path
/// of summary id `id`, whatever its marks there.
pub(crate) fn holds(summary: &[u32], id: u32) -> bool {
    summary
        .binary_search_by_key(&path(id), |&x| path(x))
        .is_ok()
}

/// `(|A ∩ B|, |A ∪ B|)` of two summaries (sorted, distinct paths), their paths matched
/// whatever their marks, with the paths `skip` names left out of both; `skip` reads a shared
/// path as `a` marks it. The summaries' counterpart of `silhouette_simhash::overlap_without`.
pub(crate) fn overlap_without(a: &[u32], b: &[u32], skip: impl Fn(u32) -> bool) -> (usize, usize) {
    silhouette_simhash::overlap_without_by(a, b, path, skip)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_path_marked_on_one_page_only_is_one_path() {
        // Path 16 prose on a (17), not on b; path 32 a column on b (36); 48 on a only.
        let (a, b) = ([17, 32, 48], [16, 36]);
        assert_eq!(overlap_without(&a, &b, |_| false), (2, 3));
        assert_eq!(overlap_without(&b, &a, |_| false), (2, 3));
        // `skip` reads the shared path as the first page marks it.
        assert_eq!(overlap_without(&a, &b, |id| id == 17), (1, 2));
        assert_eq!(overlap_without(&b, &a, |id| id == 17), (2, 3));
        assert!(holds(&a, 16) && holds(&a, 23) && holds(&a, 36) && !holds(&a, 64));
        assert!(holds(&b, 17) && holds(&b, 32) && !holds(&b, 48));
    }

    /// A summary: distinct paths (multiples of 16) from a small alphabet, each with marks.
    fn summary() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::btree_map(0u32..24, 0u32..8, 0..12)
            .prop_map(|m| m.into_iter().map(|(p, marks)| p * 16 + marks).collect())
    }

    proptest! {
        #[test]
        fn the_overlap_is_jaccards_on_the_unmarked_paths(a in summary(), b in summary()) {
            let (pa, pb): (Vec<u32>, Vec<u32>) =
                (a.iter().map(|&x| path(x)).collect(), b.iter().map(|&x| path(x)).collect());
            prop_assert_eq!(
                overlap_without(&a, &b, |_| false),
                silhouette_simhash::overlap_without(&pa, &pb, |_| false)
            );
            prop_assert_eq!(overlap_without(&a, &b, |_| false), overlap_without(&b, &a, |_| false));
            for &x in &a {
                prop_assert_eq!(holds(&b, x), pb.contains(&path(x)));
            }
        }
    }
}
