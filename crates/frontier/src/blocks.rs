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
//! Where either is an article (a page with [`MIN_ARTICLE`]
//! paths of prose or more), the blocks of their articles (`articles.rs`) are left out too:
//! what an author writes between the paragraphs (an infobox, a table, a listing) comes and
//! goes between articles of one kind, but a template's list beside the text does not. (Until
//! session 62 articles were left alone: a blog theme's footer, a sentence and an address on
//! every page without a `<main>`, made each of its pages an article, and its list of
//! categories joined its archive, a `ul` against a `dl`: ALGORITHM.md §3, "Session 62".)
//!
//! An application's pages are no articles, even where a line or two of text makes their
//! content a flow of prose: a database manager's status page (a notice above two tables)
//! and its search form (a sentence above its fields) each hold prose blocks of their own
//! and nothing else, so the rule above saw nothing and the status page took the search,
//! the data dictionary and the two-factor settings in. So where both pages hold a form or
//! a table of their own ([`holds_marks`]) and the host's frame is known, their prose paths
//! count as blocks like any other, but for their articles' blocks (ALGORITHM.md §3,
//! "Session 68, second").
//!
//! Per kind this keeps a page more only where the first pages of the kind each hold
//! something the other lacks; once joined pages teach the host those paths vary, they no
//! longer count (ALGORITHM.md §3, "Session 58").

use crate::frame::Frame;
use crate::prose::MIN_ARTICLE;

/// The paths of its own each of two pages must hold for them to be two kinds: `frame.rs`'s
/// [`MIN_NEW`](crate::frame::MIN_NEW), the paths a page mostly frame must bring.
pub(crate) const MIN_EACH: usize = crate::frame::MIN_NEW;

/// Which paths of two pages [`each_holds_own`] reads as blocks of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Own {
    /// Neither prose nor their articles' blocks (where either is an article).
    NoProse,
    /// Prose too, but never their articles' blocks: two pages of an application, each
    /// with a form or a table of its own ([`holds_marks`]).
    Prose,
}

/// Whether two summaries (sorted, `silhouette_dom::PathSet::summary`'s paths), with
/// `prose_a` and `prose_b` paths of prose, each hold at least [`MIN_EACH`] paths the other
/// lacks that `skip` does not name (the host's frame, the paths learned to vary), read as
/// `reading` says: not prose, nor `is_block` (their articles' blocks) where either is an
/// article ([`Own::NoProse`]), or any but `is_block` ([`Own::Prose`]). Symmetric.
pub(crate) fn each_holds_own(
    a: &[u32],
    prose_a: usize,
    b: &[u32],
    prose_b: usize,
    (skip, is_block): (impl Fn(u32) -> bool, impl Fn(u32) -> bool),
    reading: Own,
) -> bool {
    let articles = prose_a >= MIN_ARTICLE || prose_b >= MIN_ARTICLE;
    let holds = |page: &[u32], other: &[u32]| {
        own(page, other, (articles, reading), &skip, &is_block)
            .nth(MIN_EACH - 1)
            .is_some()
    };
    holds(a, b) && holds(b, a)
}

/// The paths of `page` that `other` lacks and `skip` does not name: neither prose nor
/// named by `is_block` where `articles` ([`Own::NoProse`]), or not named by `is_block`
/// ([`Own::Prose`]).
pub(crate) fn own<'a>(
    page: &'a [u32],
    other: &'a [u32],
    (articles, reading): (bool, Own),
    skip: &'a impl Fn(u32) -> bool,
    is_block: &'a impl Fn(u32) -> bool,
) -> impl Iterator<Item = &'a u32> + 'a {
    page.iter().filter(move |&&id| {
        let left_out = skip(id)
            || match reading {
                Own::NoProse => crate::frame::is_prose(id) || (articles && is_block(id)),
                Own::Prose => is_block(id),
            };
        !left_out && !crate::same::holds(other, id)
    })
}

/// Whether a page with `summary` (sorted, its articles' blocks apart) holds a form or a
/// table of its own, given its host's `frame`: [`MIN_FIELDS`](crate::forms::MIN_FIELDS)
/// visible fields or [`MIN_COLUMNS`](crate::tables::MIN_COLUMNS) columns, prose or not,
/// that are not the frame. `false` until the frame is known: before, a site's search box
/// and its button are a form of every page's own.
pub(crate) fn holds_marks(summary: &[u32], frame: &Frame) -> bool {
    use crate::forms::{MIN_FIELDS, holds_own_marked, is_field};
    use crate::tables::{MIN_COLUMNS, is_any_column};
    frame.learned()
        && (holds_own_marked(summary, is_field, Some(frame), MIN_FIELDS)
            || holds_own_marked(summary, is_any_column, Some(frame), MIN_COLUMNS))
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
    let is_block = |p: u32| crate::same::holds(&blocks_a, p) || crate::same::holds(&blocks_b, p);
    let none = |_: u32| false;
    if !each_holds_own(&a, pa, &b, pb, (none, is_block), Own::NoProse) {
        return None;
    }
    let articles = pa.max(pb) >= MIN_ARTICLE;
    Some((
        own(&a, &b, (articles, Own::NoProse), &none, &is_block).count(),
        own(&b, &a, (articles, Own::NoProse), &none, &is_block).count(),
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
            each_holds_own(&sa, pa, &sb, pb, (skip, is_block), Own::NoProse),
            expected,
            "{a:?} {b:?}"
        );
        assert_eq!(
            each_holds_own(&sb, pb, &sa, pa, (skip, is_block), Own::NoProse),
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

    #[test]
    fn an_applications_prose_blocks_are_blocks() {
        // A skin of 40 paths and prose of its own on each page (a status page's notice and
        // tables, a search page's sentence and fields), or other paths of its own.
        let page = |prose: std::ops::Range<u32>, other: std::ops::Range<u32>| {
            let mut ids: Vec<u32> = (0..40)
                .chain(other)
                .map(|n| n * 16)
                .chain(prose.map(|n| n * 16 + 1))
                .collect();
            ids.sort_unstable();
            ids
        };
        // Prose ids from 700 on are blocks of an article.
        let is_block = |id: u32| id / 16 >= 700;
        let check = |a: &[u32], b: &[u32], skipped: &[u32], reading: Own, expected: bool| {
            let skip = |id: u32| skipped.contains(&(id / 16));
            let (pa, pb) = (crate::prose::prose_paths(a), crate::prose::prose_paths(b));
            for (x, px, y, py) in [(a, pa, b, pb), (b, pb, a, pa)] {
                assert_eq!(
                    each_holds_own(x, px, y, py, (skip, is_block), reading),
                    expected,
                    "{reading:?} {x:?} {y:?}"
                );
            }
        };
        let (status, search) = (page(100..106, 0..0), page(200..204, 0..0));
        // Prose is no block of the page's own; read as an application's pages, it is.
        check(&status, &search, &[], Own::NoProse, false);
        check(&status, &search, &[], Own::Prose, true);
        // Prose of its own on one side and other paths on the other.
        check(&status, &page(0..0, 500..503), &[], Own::Prose, true);
        // Too few on one side, their articles' blocks, or what the host frames or learned
        // to vary: nothing.
        check(&status, &page(200..202, 0..0), &[], Own::Prose, false);
        check(&page(700..706, 0..0), &search, &[], Own::Prose, false);
        check(&status, &search, &[200, 201], Own::Prose, false);
    }

    #[test]
    fn a_form_or_a_table_of_its_own_makes_an_applications_page() {
        // A frame of 40 paths and a search box with its button (fields: second bit) on
        // every page.
        let skin: Vec<u32> = (0..40)
            .map(|n| n * 16)
            .chain([41 * 16 + 2, 42 * 16 + 2])
            .collect();
        let page = |extra: &[u32]| {
            let mut ids: Vec<u32> = skin.iter().copied().chain(extra.iter().copied()).collect();
            ids.sort_unstable();
            ids
        };
        let mut frame = Frame::default();
        // Until the frame is known, nothing is an application's page.
        assert!(!holds_marks(&page(&[500 * 16 + 2, 501 * 16 + 2]), &frame));
        for _ in 0..crate::frame::MIN_REPRESENTATIVES {
            frame.learn(&page(&[]));
        }
        for (extra, expected) in [
            // Two fields of its own, prose (lowest bit) or not; two columns (third bit).
            (&[500 * 16 + 2, 501 * 16 + 3][..], true),
            (&[500 * 16 + 4, 501 * 16 + 5][..], true),
            // The frame's search box alone, one field or one column: not.
            (&[][..], false),
            (&[500 * 16 + 2, 600 * 16 + 1][..], false),
            (&[500 * 16 + 4, 501 * 16 + 2][..], false),
        ] {
            assert_eq!(holds_marks(&page(extra), &frame), expected, "{extra:?}");
        }
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
            let ab = each_holds_own(&sa, pa, &sb, pb, (none, none), Own::NoProse);
            prop_assert_eq!(ab, each_holds_own(&sb, pb, &sa, pa, (none, none), Own::NoProse));
            let prose = each_holds_own(&sa, pa, &sb, pb, (none, none), Own::Prose);
            prop_assert_eq!(prose, each_holds_own(&sb, pb, &sa, pa, (none, none), Own::Prose));
            // Reading prose too finds at least what reading without it does.
            prop_assert!(prose || !ab);
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
                prop_assert!(!each_holds_own(&sa, pa, &sb, pb, (none, all), Own::NoProse));
            }
        }
    }
}
