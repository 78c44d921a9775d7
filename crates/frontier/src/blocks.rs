//! Each holds a block the other lacks: two pages that are no articles, each with paths of
//! its own, are two kinds.
//!
//! Two page kinds of one application share its skin and differ in a small main region: a
//! wiki's history list and its diff view (a `ul.history` against a `pre.diff`), a delete
//! form against a list, a repository's file log against its changes. Where the host's frame
//! is thin (its first representatives are forms of another layout, `frame.rs`), neither
//! page is mostly frame and the confirmation reads all their paths: 0.79 alike on a
//! held-out gitit, above `min-similarity`. Joined once, the paths of both regions are
//! learned to vary (`varying.rs`) and every later page of either kind joins at 1.0.
//!
//! Two pages of one kind differ the other way: one holds a block the other lacks (a list
//! with a pager, an issue with attachments), or each holds some of what the host already
//! learned to vary. So when each of the two holds at least [`MIN_EACH`] paths the other
//! lacks, neither prose, nor the host's frame, nor learned to vary, they are never joined.
//! Where either is an article (a page with [`MIN_ARTICLE`](crate::prose::MIN_ARTICLE)
//! paths of prose or more), the blocks of their articles (`articles.rs`) are left out too:
//! what an author writes between the paragraphs (an infobox, a table, a listing) comes and
//! goes between articles of one kind, but a template's list beside the text does not. (Until
//! session 62 articles were left alone: a blog theme's footer, a sentence and an address on
//! every page without a `<main>`, made each of its pages an article, and its list of
//! categories joined its archive, a `ul` against a `dl`: ALGORITHM.md §3, "Session 62".)
//!
//! Per kind this keeps a page more only where the first pages of the kind each hold
//! something the other lacks; once joined pages teach the host those paths vary, they no
//! longer count (ALGORITHM.md §3, "Session 58").

use crate::prose::MIN_ARTICLE;

/// The paths of its own each of two pages must hold for them to be two kinds: `frame.rs`'s
/// [`MIN_NEW`](crate::frame::MIN_NEW), the paths a page mostly frame must bring.
pub(crate) const MIN_EACH: usize = crate::frame::MIN_NEW;

/// Whether two summaries (sorted, `silhouette_dom::PathSet::summary`'s paths), with
/// `prose_a` and `prose_b` paths of prose, each hold at least [`MIN_EACH`] paths the other
/// lacks that are not prose and that `skip` does not name (the host's frame, the paths
/// learned to vary), nor `is_block` (their articles' blocks) where either is an article.
/// Symmetric.
pub(crate) fn each_holds_own(
    a: &[u32],
    prose_a: usize,
    b: &[u32],
    prose_b: usize,
    skip: impl Fn(u32) -> bool,
    is_block: impl Fn(u32) -> bool,
) -> bool {
    let articles = prose_a >= MIN_ARTICLE || prose_b >= MIN_ARTICLE;
    let holds = |page: &[u32], other: &[u32]| {
        own(page, other, articles, &skip, &is_block)
            .nth(MIN_EACH - 1)
            .is_some()
    };
    holds(a, b) && holds(b, a)
}

/// The paths of `page` that `other` lacks, neither prose nor named by `skip`, nor by
/// `is_block` where `articles`.
fn own<'a>(
    page: &'a [u32],
    other: &'a [u32],
    articles: bool,
    skip: &'a impl Fn(u32) -> bool,
    is_block: &'a impl Fn(u32) -> bool,
) -> impl Iterator<Item = &'a u32> + 'a {
    page.iter().filter(move |&&id| {
        let left_out = crate::frame::is_prose(id) || skip(id) || (articles && is_block(id));
        !left_out && other.binary_search(&id).is_err()
    })
}

/// When two pages (their summaries, `silhouette_dom::PathSet::summary`, their articles'
/// blocks marked: [`split_summary`](crate::split_summary)) each hold 3 paths or more of the
/// template that the other lacks (the blocks of their articles left out where either has
/// 3 paths of prose or more): how many each holds. Then a crawl never joins the two pages,
/// unless what they hold is its host's frame or has been learned to vary, which this does
/// not know (see the module docs). Symmetric, the two counts swapped.
#[must_use]
pub fn blocks_differ(a: &[u32], b: &[u32]) -> Option<(usize, usize)> {
    let ((a, blocks_a), (b, blocks_b)) = (crate::split_summary(a), crate::split_summary(b));
    let (pa, pb) = (crate::prose::prose_paths(&a), crate::prose::prose_paths(&b));
    let is_block =
        |p: u32| blocks_a.binary_search(&p).is_ok() || blocks_b.binary_search(&p).is_ok();
    let none = |_: u32| false;
    if !each_holds_own(&a, pa, &b, pb, none, is_block) {
        return None;
    }
    let articles = pa.max(pb) >= MIN_ARTICLE;
    Some((
        own(&a, &b, articles, &none, &is_block).count(),
        own(&b, &a, articles, &none, &is_block).count(),
    ))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A summary: the paths `shared` (ids `16n`: no article's block is marked, bit 8), its
    /// own `own` and `prose` paths of prose (odd ids).
    fn summary(shared: u32, own: std::ops::Range<u32>, prose: u32) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..shared)
            .chain(own)
            .map(|n| n * 16)
            .chain((0..prose).map(|n| (5000 + n) * 16 + 1))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// `a` and `b` as (own paths, paths of prose) beside a skin of 40 paths, with the ids
    /// in `skipped` left out; `expected` both ways.
    fn check(
        a: (std::ops::Range<u32>, u32),
        b: (std::ops::Range<u32>, u32),
        skipped: &[u32],
        expected: bool,
    ) {
        let (sa, sb) = (summary(40, a.0.clone(), a.1), summary(40, b.0.clone(), b.1));
        let skip = |id: u32| skipped.contains(&(id / 16));
        // Paths from 700 on are blocks of an article.
        let is_block = |id: u32| id.is_multiple_of(16) && id / 16 >= 700;
        let (pa, pb) = (a.1 as usize, b.1 as usize);
        assert_eq!(
            each_holds_own(&sa, pa, &sb, pb, skip, is_block),
            expected,
            "{a:?} {b:?}"
        );
        assert_eq!(
            each_holds_own(&sb, pb, &sa, pa, skip, is_block),
            expected,
            "{b:?} {a:?}"
        );
    }

    #[test]
    fn a_list_and_a_diff_in_one_skin_are_two_kinds() {
        // A history list's 6 paths against a diff view's 5, no prose either side.
        check((500..506, 0), (600..605, 0), &[], true);
        // Three each is enough; a line or two of prose changes nothing.
        check((500..503, 2), (600..603, 1), &[], true);
    }

    #[test]
    fn a_block_on_one_side_only_decides_nothing() {
        // A list with a pager against the same list without: contained, compared as before.
        check((500..506, 0), (500..503, 0), &[], false);
        check((500..506, 0), (0..0, 0), &[], false);
        // Two paths of its own on one side are too few.
        check((500..506, 0), (600..602, 0), &[], false);
    }

    #[test]
    fn what_the_host_learned_to_vary_or_frames_is_left_out() {
        check((500..506, 0), (600..604, 0), &[600, 601], false);
        check((500..506, 0), (600..605, 0), &[600, 601], true);
    }

    #[test]
    fn articles_are_compared_without_their_articles_blocks() {
        // Template blocks of their own on each side (a list of categories against an
        // archive's list), beside prose (a footer's sentence): two kinds.
        check((500..506, 3), (600..606, 0), &[], true);
        check((500..506, 0), (600..606, 7), &[], true);
        // What each holds is blocks of an article (an author's table, a listing): left out.
        check((700..706, 3), (800..806, 0), &[], false);
        check((500..506, 3), (800..806, 3), &[], false);
        // Not an article on either side: its blocks count as before.
        check((700..706, 2), (800..806, 0), &[], true);
    }

    proptest! {
        #[test]
        fn symmetric(
            a in 0u32..10, b in 0u32..10, overlap in 0u32..10, pa in 0u32..5, pb in 0u32..5,
        ) {
            let sa = summary(20, 100..100 + a, pa);
            let sb = summary(20, 100 + a.saturating_sub(overlap)..100 + a + b, pb);
            let (pa, pb) = (pa as usize, pb as usize);
            let none = |_: u32| false;
            let ab = each_holds_own(&sa, pa, &sb, pb, none, none);
            prop_assert_eq!(ab, each_holds_own(&sb, pb, &sa, pa, none, none));
            prop_assert_eq!(
                blocks_differ(&sa, &sb).map(|(x, y)| (y, x)),
                blocks_differ(&sb, &sa)
            );
            prop_assert_eq!(blocks_differ(&sa, &sb).is_some(), ab);
            // Never when one side holds nothing of its own, nor for articles whose own
            // paths are all blocks of their articles.
            if sa.iter().all(|id| sb.contains(id)) {
                prop_assert!(!ab);
            }
            let all = |_: u32| true;
            if pa.max(pb) >= MIN_ARTICLE {
                prop_assert!(!each_holds_own(&sa, pa, &sb, pb, none, all));
            }
        }
    }
}
