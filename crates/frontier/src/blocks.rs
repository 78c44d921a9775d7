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
//! Not for articles (a page with [`MIN_ARTICLE`](crate::prose::MIN_ARTICLE) paths of prose
//! or more, on either side): what an author's blocks hold outside the prose (an infobox, a
//! table of the template) comes and goes between articles of one kind.
//!
//! Per kind this keeps a page more only where the first pages of the kind each hold
//! something the other lacks; once joined pages teach the host those paths vary, they no
//! longer count (ALGORITHM.md §3, "Session 58").

use crate::prose::MIN_ARTICLE;

/// The paths of its own each of two pages must hold for them to be two kinds: `frame.rs`'s
/// [`MIN_NEW`](crate::frame::MIN_NEW), the paths a page mostly frame must bring.
pub(crate) const MIN_EACH: usize = crate::frame::MIN_NEW;

/// Whether two summaries (sorted, `silhouette_dom::PathSet::summary`), with `prose_a` and
/// `prose_b` paths of prose, each hold at least [`MIN_EACH`] paths the other lacks that are
/// not prose and that `skip` does not name (the host's frame, the paths learned to vary),
/// neither being an article. Symmetric.
pub(crate) fn each_holds_own(
    a: &[u32],
    prose_a: usize,
    b: &[u32],
    prose_b: usize,
    skip: impl Fn(u32) -> bool,
) -> bool {
    if prose_a >= MIN_ARTICLE || prose_b >= MIN_ARTICLE {
        return false;
    }
    let holds = |page: &[u32], other: &[u32]| {
        page.iter()
            .filter(|&&id| {
                !crate::frame::is_prose(id) && !skip(id) && other.binary_search(&id).is_err()
            })
            .nth(MIN_EACH - 1)
            .is_some()
    };
    holds(a, b) && holds(b, a)
}

/// When two pages (their summaries' paths, [`split_summary`](crate::split_summary)'s first
/// part) are no articles (under 3
/// paths of prose each) and each holds 3 paths or more of the template that the other
/// lacks: how many each holds. Then a crawl never joins the two pages, unless what they
/// hold is its host's frame or has been learned to vary, which this does not know (see
/// the module docs). Symmetric, the two counts swapped.
#[must_use]
pub fn blocks_differ(a: &[u32], b: &[u32]) -> Option<(usize, usize)> {
    let (pa, pb) = (crate::prose::prose_paths(a), crate::prose::prose_paths(b));
    if !each_holds_own(a, pa, b, pb, |_| false) {
        return None;
    }
    let own = |page: &[u32], other: &[u32]| {
        page.iter()
            .filter(|&&id| !crate::frame::is_prose(id) && other.binary_search(&id).is_err())
            .count()
    };
    Some((own(a, b), own(b, a)))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A summary: the paths `shared` (ids `2n`), its own `own` and `prose` paths of prose
    /// (odd ids).
    fn summary(shared: u32, own: std::ops::Range<u32>, prose: u32) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..shared)
            .chain(own)
            .map(|n| n * 2)
            .chain((0..prose).map(|n| 5001 + n * 2))
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
        let skip = |id: u32| skipped.contains(&(id / 2));
        let (pa, pb) = (a.1 as usize, b.1 as usize);
        assert_eq!(
            each_holds_own(&sa, pa, &sb, pb, skip),
            expected,
            "{a:?} {b:?}"
        );
        assert_eq!(
            each_holds_own(&sb, pb, &sa, pa, skip),
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
    fn articles_are_compared_as_before() {
        check((500..506, 3), (600..606, 0), &[], false);
        check((500..506, 0), (600..606, 7), &[], false);
    }

    proptest! {
        #[test]
        fn symmetric(
            a in 0u32..10, b in 0u32..10, overlap in 0u32..10, pa in 0u32..5, pb in 0u32..5,
        ) {
            let sa = summary(20, 100..100 + a, pa);
            let sb = summary(20, 100 + a.saturating_sub(overlap)..100 + a + b, pb);
            let (pa, pb) = (pa as usize, pb as usize);
            let ab = each_holds_own(&sa, pa, &sb, pb, |_| false);
            prop_assert_eq!(ab, each_holds_own(&sb, pb, &sa, pa, |_| false));
            prop_assert_eq!(
                blocks_differ(&sa, &sb).map(|(x, y)| (y, x)),
                blocks_differ(&sb, &sa)
            );
            prop_assert_eq!(blocks_differ(&sa, &sb).is_some(), ab);
            // Never for articles, never when one side holds nothing of its own.
            if pa.max(pb) >= MIN_ARTICLE || sa.iter().all(|id| sb.contains(id)) {
                prop_assert!(!ab);
            }
        }
    }
}
