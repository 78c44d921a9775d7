//! Prose as structure: an article and a page that holds no prose at all are two kinds.
//!
//! A wiki's page view and its history list share the whole skin; on a host whose first
//! representatives are its forms (login, edit, upload), the frame learned from them leaves
//! out the page tools, so neither page is mostly frame (`frame.rs`) and the two are compared
//! on all their paths: 0.72 alike on a held-out gitit, above `min-similarity`. Joined that
//! early, the history list's paths are then learned to vary (`varying.rs`), and every later
//! history, diff and delete view joins the page view (ALGORITHM.md §3, "Session 57").
//!
//! What the two pages do not share is prose: the paths below a flow of prose and the bare
//! paragraphs of a main content are marked (the id's lowest bit,
//! `silhouette_dom::PathSet::summary`), and a page view holds some, a list or a form none.
//! So a page with at least [`MIN_ARTICLE`] paths of prose (an article) and a page with none
//! are never joined, however alike the rest. A page with a paragraph or two is compared as
//! before (a stub against an article, a form with a line of help against a bare form), and
//! so are two pages that both hold prose or both hold none.
//!
//! Per template this keeps at most one page more than without it: the first page of a kind
//! without prose (an empty article, a ticket with no description) starts its own cluster,
//! and the next joins it. No host knowledge is needed: `compare` applies it to two pages.
//!
//! **Nor is an article joined with a page of a line or two that holds a block of its own**
//! (session 71): a page with fewer than [`MIN_ARTICLE`] paths of prose that holds at least
//! [`MIN_EACH`] paths the article lacks, none of them prose, the host's frame or learned to
//! vary. A wiki's generated pages (ikiwiki's `map`, a nested list under a line of text; its
//! `recentchanges`, a list of changes) share the skin of its articles and joined its front
//! page at 0.78–0.82, the frame most of both; one line of text kept the first rule from
//! telling them apart. Where two pages of one kind differ one way (a stub with a list more),
//! this keeps one page more per such kind, as the first rule does; two articles, or two
//! pages that are none, are compared as before (`blocks.rs`). An article's blocks are no
//! such block (session 72): a blog's first page of excerpts is an article, a later one with
//! shorter excerpts is not, and what its authors wrote below their paragraphs (a listing, a
//! nested list) is theirs, not the template's.

/// A page with at least this many paths of prose is an article here: `frame.rs`'s
/// [`MIN_PROSE`](crate::frame::MIN_PROSE), the paths of prose that make a page never
/// mostly frame.
pub(crate) const MIN_ARTICLE: usize = crate::frame::MIN_PROSE;

/// How many paths of prose summary `ids` holds (sorted or not).
pub(crate) fn prose_paths(ids: &[u32]) -> usize {
    ids.iter().filter(|&&id| crate::frame::is_prose(id)).count()
}

/// The paths each of two pages must hold of its own: `blocks.rs`'s `MIN_EACH`.
const MIN_EACH: usize = crate::blocks::MIN_EACH;

/// Where one of two pages (summaries, sorted) is an article and the other is not (`prose_a`
/// and `prose_b` paths of prose): how many paths the other holds that the article lacks,
/// none of them prose, nor named by `skip` (the host's frame, the paths it learned to vary),
/// nor by `is_block` (an article's blocks: what an author wrote below a paragraph), when
/// they are [`MIN_EACH`] or more. Then the two are two kinds (see the module docs).
/// Symmetric.
pub(crate) fn block_beside_article(
    (a, prose_a): (&[u32], usize),
    (b, prose_b): (&[u32], usize),
    (skip, is_block): (impl Fn(u32) -> bool, impl Fn(u32) -> bool),
) -> Option<usize> {
    let (article, other) = match (prose_a >= MIN_ARTICLE, prose_b >= MIN_ARTICLE) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ => return None,
    };
    // What 15. counts as a block of its own, read the same way, an article's blocks aside
    // (the article's own paths are not counted).
    let own = crate::blocks::own(
        other,
        article,
        (true, crate::blocks::Own::NoProse),
        &skip,
        &is_block,
    )
    .count();
    (own >= MIN_EACH).then_some(own)
}

/// When one of two pages (summaries, `silhouette_dom::PathSet::summary`, their articles'
/// blocks marked: [`split_summary`](crate::split_summary)) is an article and the other a
/// page of fewer than 3 paths of prose that holds 3 paths or more the article lacks, none of
/// them prose nor an article's block: how many. Then a crawl never joins the two pages,
/// unless those paths are its host's frame or learned to vary, which this does not know (see
/// the module docs). Symmetric.
#[must_use]
pub fn block_beside_an_article(a: &[u32], b: &[u32]) -> Option<usize> {
    let ((a, blocks_a), (b, blocks_b)) = (crate::split_summary(a), crate::split_summary(b));
    let is_block = |p: u32| crate::same::holds(&blocks_a, p) || crate::same::holds(&blocks_b, p);
    block_beside_article(
        (&a, prose_paths(&a)),
        (&b, prose_paths(&b)),
        (|_| false, is_block),
    )
}

/// [`prose_differs`] on the two pages' counts of paths of prose.
pub(crate) const fn differs(pa: usize, pb: usize) -> Option<usize> {
    match (pa, pb) {
        (n, 0) | (0, n) if n >= MIN_ARTICLE => Some(n),
        _ => None,
    }
}

/// When one of two pages (their summaries' paths, [`split_summary`](crate::split_summary)'s
/// first part) is an article
/// (3 paths of prose or more) and the other holds no prose: the article's
/// paths of prose. Then a crawl never joins the two pages (see the module docs). Symmetric.
#[must_use]
pub fn prose_differs(a: &[u32], b: &[u32]) -> Option<usize> {
    differs(prose_paths(a), prose_paths(b))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A summary of `prose` paths of prose (odd ids) and `other` paths of the template.
    fn summary(prose: u32, other: u32) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..prose)
            .map(|n| (n << 4) | 1)
            .chain((0..other).map(|n| (1000 + n) << 4))
            .collect();
        ids.sort_unstable();
        ids
    }

    fn check(a: (u32, u32), b: (u32, u32), expected: Option<usize>) {
        let (sa, sb) = (summary(a.0, a.1), summary(b.0, b.1));
        assert_eq!(prose_differs(&sa, &sb), expected, "{a:?} against {b:?}");
        assert_eq!(prose_differs(&sb, &sa), expected, "{b:?} against {a:?}");
    }

    #[test]
    fn an_article_and_a_page_without_prose_differ() {
        // (paths of prose, other paths)
        check((7, 44), (0, 47), Some(7));
        check((3, 40), (0, 40), Some(3));
    }

    #[test]
    fn a_paragraph_or_two_decides_nothing() {
        check((2, 40), (0, 40), None);
        check((1, 40), (0, 40), None);
    }

    #[test]
    fn two_articles_or_two_pages_without_prose_are_compared_as_before() {
        check((7, 44), (3, 44), None);
        check((7, 44), (1, 44), None);
        check((0, 44), (0, 12), None);
        check((0, 0), (0, 0), None);
    }

    #[test]
    fn a_page_of_a_line_with_a_block_of_its_own_is_not_an_articles_kind() {
        // (paths of prose, other paths): the other paths of both start at one id, so the
        // page with more holds the difference as its own.
        let check = |a: (u32, u32), b: (u32, u32), expected: Option<usize>| {
            let (sa, sb) = (summary(a.0, a.1), summary(b.0, b.1));
            assert_eq!(
                block_beside_an_article(&sa, &sb),
                expected,
                "{a:?} against {b:?}"
            );
            assert_eq!(
                block_beside_an_article(&sb, &sa),
                expected,
                "{b:?} against {a:?}"
            );
        };
        // A map under a line of text against the front page, an article.
        check((7, 40), (1, 47), Some(7));
        check((7, 40), (2, 43), Some(3));
        // Two paths of its own are not a block; the article's own paths are its text's.
        check((7, 40), (1, 42), None);
        check((7, 47), (1, 40), None);
        // Two articles, or two pages that are none, are compared as before.
        check((7, 40), (3, 47), None);
        check((2, 40), (1, 47), None);
        // Paths the host learned to vary or its frame are no block.
        let (sa, sb) = (summary(7, 40), summary(1, 47));
        let skip = |id: u32| id >= (1000 + 40) << 4;
        let none = |_: u32| false;
        assert_eq!(block_beside_article((&sa, 7), (&sb, 1), (skip, none)), None);
        // Nor are an article's blocks (bit 8 marks them a second time): a blog's second
        // page of excerpts, whose authors wrote a list and a listing below a paragraph.
        let mut excerpts = summary(1, 47);
        excerpts.extend((40..47).map(|n| ((1000 + n) << 4) | 8));
        excerpts.sort_unstable();
        assert_eq!(block_beside_an_article(&sa, &excerpts), None);
        assert_eq!(block_beside_an_article(&excerpts, &sa), None);
    }

    proptest! {
        #[test]
        fn symmetric(pa in 0u32..8, oa in 0u32..20, pb in 0u32..8, ob in 0u32..20) {
            let (a, b) = (summary(pa, oa), summary(pb, ob));
            prop_assert_eq!(prose_differs(&a, &b), prose_differs(&b, &a));
            prop_assert_eq!(
                prose_differs(&a, &b).is_some(),
                (pa.min(pb) == 0) && (pa.max(pb) as usize >= MIN_ARTICLE)
            );
        }
    }
}
