//! Two articles are compared without their articles' blocks.
//!
//! One generator's articles differ in which blocks their authors wrote between paragraphs:
//! a definition list here, a third level of sections there, a listing, a table, an
//! admonition. The path set counts every combination as another structure: two pages of a
//! held-out Sphinx manual (clang's) share 40–60% of their paths, 1–7 bits apart, and the
//! crawl kept 38 of its 83 pages; the paths learned to vary (`varying.rs`) never caught up,
//! as too few pages joined to teach them (ALGORITHM.md §3, "Session 59").
//!
//! The structure model marks those blocks (`silhouette_dom::PathSet::is_article_block`,
//! given a second time in the summary with bit 8 set, [`split_summary`]): the paths below
//! an element of the main content, or of a flow of prose, that holds a bare paragraph
//! itself, but for the main content's own template blocks, and what lies between the
//! first and the last paragraph of a flow of prose other than the main content (session 74:
//! a DocBook section's table). A sidebar's paragraph marks nothing (it is neither), nor does
//! a diff table or a form beside a wiki's parsed text (they are not below the element
//! holding its paragraphs). So when both pages are articles ([`MIN_ARTICLE`] paths of prose
//! each) and each holds at least [`MIN_BLOCKS`] article blocks, or one does and the other
//! holds little the first lacks ([`both`]), the confirmation leaves the blocks out, unless
//! fewer than [`MIN_COMPARED`](crate::frame::MIN_COMPARED) paths would be left: what is left
//! is the template around the text, which two kinds of page do not share.
//!
//! Two pages that hold a paragraph or two beside a list or a form (an application's short
//! pages: a line of help above a table) are no articles here, and are compared as before.

use crate::prose::MIN_ARTICLE;

/// The article blocks each of two articles must hold for the confirmation to leave them
/// out: `frame.rs`'s [`MIN_NEW`](crate::frame::MIN_NEW).
pub(crate) const MIN_BLOCKS: usize = crate::frame::MIN_NEW;

/// A summary (`silhouette_dom::PathSet::summary`, sorted) apart: its paths, and the paths
/// among them that are an article's blocks (given there a second time, with bit 8 set),
/// both increasing.
#[must_use]
pub fn split_summary(summary: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (article, ids): (Vec<u32>, Vec<u32>) = summary.iter().partition(|&&id| id & 8 == 8);
    (ids, article.into_iter().map(|id| id & !8).collect())
}

/// One of two pages a confirmation compares: its summary's paths (sorted), how many of them
/// are prose, and how many are its article's blocks.
pub(crate) type Side<'a> = (&'a [u32], usize, usize);

/// Whether two pages are both articles whose blocks the confirmation leaves out: each holds
/// [`MIN_BLOCKS`] blocks of its article, or one does and the other, without, holds fewer
/// than [`MIN_BLOCKS`] paths the first lacks (session 74): the same text with an author's
/// table or list more, as a DocBook section page with a table against one without. Where
/// the page without blocks holds paths of its own (a preface's `div.preface` against a
/// chapter's `div.chapter`), the two are compared whole, as before.
pub(crate) fn both((a, prose_a, blocks_a): Side<'_>, (b, prose_b, blocks_b): Side<'_>) -> bool {
    if prose_a < MIN_ARTICLE || prose_b < MIN_ARTICLE {
        return false;
    }
    let within = |small: &[u32], big: &[u32]| {
        small
            .iter()
            .filter(|&&id| !crate::same::holds(big, id))
            .nth(MIN_BLOCKS - 1)
            .is_none()
    };
    match (blocks_a >= MIN_BLOCKS, blocks_b >= MIN_BLOCKS) {
        (true, true) => true,
        (false, true) => within(a, b),
        (true, false) => within(b, a),
        (false, false) => false,
    }
}

/// Where two pages (summaries, `silhouette_dom::PathSet::summary`, sorted) are both
/// articles with blocks of their own (see the module docs): the paths they share and the
/// paths of either, the blocks of either article left out, as a crawl compares them when
/// enough paths are left. `None` where a crawl compares all their paths. Symmetric.
#[must_use]
pub fn articles_overlap(a: &[u32], b: &[u32]) -> Option<(usize, usize)> {
    let ((a, blocks_a), (b, blocks_b)) = (split_summary(a), split_summary(b));
    let (pa, pb) = (crate::prose::prose_paths(&a), crate::prose::prose_paths(&b));
    if !both((&a, pa, blocks_a.len()), (&b, pb, blocks_b.len())) {
        return None;
    }
    let block = |p: u32| crate::same::holds(&blocks_a, p) || crate::same::holds(&blocks_b, p);
    let left = crate::same::overlap_without(&a, &b, block);
    (left.1 >= crate::frame::MIN_COMPARED).then_some(left)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A summary: `template` paths of the template (ids `16n`), `prose` paths of prose (odd
    /// ids) and `blocks` article blocks (ids `16n`, each with its mark, the id with bit 8)
    /// starting at `first`.
    fn summary(template: u32, prose: u32, blocks: u32, first: u32) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..template)
            .map(|n| n * 16)
            .chain((0..prose).map(|n| 100_000 + n * 16 + 1))
            .chain((first..first + blocks).flat_map(|n| [200_000 + n * 16, 200_000 + n * 16 + 8]))
            .collect();
        ids.sort_unstable();
        ids
    }

    fn check(a: &[u32], b: &[u32], expected: Option<(usize, usize)>) {
        assert_eq!(articles_overlap(a, b), expected, "a against b");
        assert_eq!(articles_overlap(b, a), expected, "b against a");
    }

    #[test]
    fn two_articles_are_compared_without_their_blocks() {
        // 20 template paths and 4 of prose shared; 12 blocks each, 2 of them shared.
        let (a, b) = (summary(20, 4, 12, 0), summary(20, 4, 12, 10));
        let (pa, pb) = (split_summary(&a).0, split_summary(&b).0);
        assert_eq!(silhouette_simhash::jaccard(&pa, &pb), 26.0 / 46.0);
        check(&a, &b, Some((24, 24)));
    }

    #[test]
    fn a_summary_splits_into_its_paths_and_its_article_blocks() {
        // Path 16 is an article's block (24 beside it); 33 is prose.
        assert_eq!(split_summary(&[0, 16, 24, 33]), (vec![0, 16, 33], vec![16]));
    }

    #[test]
    fn a_page_that_is_no_article_is_compared_whole() {
        // Two paths of prose: no article.
        check(&summary(20, 2, 12, 0), &summary(20, 4, 12, 10), None);
        // Two blocks: too few to leave out, where that page holds 3 paths or more the
        // other lacks (its two blocks and a path of the template).
        check(&summary(21, 4, 2, 0), &summary(20, 4, 12, 10), None);
    }

    #[test]
    fn an_article_and_the_same_with_blocks_more_are_compared_without_them() {
        // No block against twelve: all the first holds is the second's (the same text with
        // an author's table more).
        check(
            &summary(20, 4, 0, 0),
            &summary(20, 4, 12, 0),
            Some((24, 24)),
        );
        // Two blocks against twelve, the two the only paths it holds the other lacks.
        check(
            &summary(20, 4, 2, 0),
            &summary(20, 4, 12, 10),
            Some((24, 24)),
        );
        // A page without blocks that holds 3 paths the other lacks (a preface's own
        // division against a chapter's) is compared whole.
        check(&summary(23, 4, 0, 0), &summary(20, 4, 12, 0), None);
        check(
            &summary(22, 4, 0, 0),
            &summary(20, 4, 12, 0),
            Some((24, 26)),
        );
    }

    #[test]
    fn too_few_paths_left_keep_the_blocks() {
        // 3 template paths and 3 of prose: 6 left, fewer than MIN_COMPARED.
        check(&summary(3, 3, 12, 0), &summary(3, 3, 12, 10), None);
    }

    #[test]
    fn a_template_block_beside_the_text_still_counts() {
        // b holds 6 paths of a block of the template (a diff table) the other lacks.
        let a = summary(20, 4, 12, 0);
        let mut b = summary(20, 4, 12, 0);
        b.extend((0..6).map(|n| 300_000 + n * 16));
        b.sort_unstable();
        check(&a, &b, Some((24, 30)));
    }

    proptest! {
        #[test]
        fn symmetric_and_never_more_paths_than_the_whole(
            a in proptest::collection::btree_set(0u32..4096, 0..80),
            b in proptest::collection::btree_set(0u32..4096, 0..80),
        ) {
            let (a, b): (Vec<u32>, Vec<u32>) = (a.into_iter().collect(), b.into_iter().collect());
            let ab = articles_overlap(&a, &b);
            prop_assert_eq!(ab, articles_overlap(&b, &a));
            if let Some((shared, union)) = ab {
                let whole = crate::same::overlap_without(&a, &b, |_| false);
                prop_assert!(shared <= whole.0 && union <= whole.1);
                prop_assert!(union >= crate::frame::MIN_COMPARED);
            }
        }
    }
}
