//! Tables as structure: what a list's columns hold tells one kind of page from another.
//!
//! Two pages of a web application can share a heavy frame and differ only in the table their
//! content shows: a list of forums and a list of one forum's topics, a list of reports and
//! one report's tickets. Their rows' paths differ (a table's column headers name what lies
//! below it, `silhouette-dom`), but most of both path sets is the frame, and their Jaccard
//! similarity can stay above `min-similarity`. The columns of a table outside the main
//! content whose header row names them are marked in a page's summary (the id's third bit,
//! `PathSet::TABLE`): each header cell is a column of its name at the
//! table's place (a cell without letters, one column without a name), whatever the table's
//! classes (a sort class) and other columns.
//!
//! Two pages that each show at least [`MIN_COLUMNS`] columns of their own (not the
//! host's frame, not below a flow of prose: an article's tables are its content) and share
//! less than half of them (Jaccard, `forms.rs`'s [`SHARED`](crate::forms::SHARED)) show two
//! different tables: they are two kinds of page, however alike the rest is, and the
//! confirmation does not join them. A list with one column more or less (a query that shows
//! another field) is one table, and so is a table whose columns all lie among the other's
//! (a record that hides its empty keys: a held-out shop's parent product shows 2 of a
//! product's 6); a page without a table of its own is compared as before.
//!
//! A table whose column names carry the page's item would make every page of one template
//! another table. So the rule holds only until its host has kept [`MAX_TABLES`] pages with
//! a table of their own (counted as representatives are made, in judging order, as
//! `forms.rs` counts forms): at most that many pages more than without it, per host.

use crate::forms::{Marks, marked_apart, own_marked};
use crate::frame::Frame;

/// Once a host has kept this many pages (representatives) with a table of their own, its
/// tables tell no more kinds apart (see the module docs); `forms.rs`'s bound.
pub(crate) const MAX_TABLES: u32 = crate::forms::MAX_FORMS;

/// Fewer columns of its own than this, and a page's table decides nothing: one header cell
/// names a table (a file's name above its lines), not its columns. Measured at 1 on a
/// held-out Redmine, where every diff of a file was another table (7 kept, not 2).
pub(crate) const MIN_COLUMNS: usize = 2;

/// A table's columns ([`different_tables`]): a page with one column of its own decides
/// nothing, whatever the other page's columns.
const COLUMNS: Marks = Marks {
    marked: is_column,
    min: MIN_COLUMNS,
    lone: MIN_COLUMNS,
    contained: true,
};

/// Whether summary id `id` is a column of a table outside the main content and not
/// below a flow of prose (its third bit and not its first, `silhouette_dom::PathSet::summary`).
pub(crate) const fn is_column(id: u32) -> bool {
    id & 5 == 4
}

/// Whether summary id `id` is a column of a table, below a flow of prose or not (its third
/// bit).
pub(crate) const fn is_any_column(id: u32) -> bool {
    id & 4 == 4
}

/// The columns of its own of a page with `summary` (sorted, distinct ids), given its host's
/// `frame`: increasing.
pub(crate) fn own_columns(summary: &[u32], frame: Option<&Frame>) -> Vec<u32> {
    own_marked(summary, is_column, frame)
}

/// Whether a page whose own columns are `mine` ([`own_columns`]) and a page with summary
/// `theirs` show two different tables (see the module docs). Symmetric.
pub(crate) fn different_tables(mine: &[u32], theirs: &[u32], frame: Option<&Frame>) -> bool {
    marked_apart(mine, theirs, COLUMNS, frame).is_some()
}

/// Whether two pages with structure summaries `a` and `b` (their paths:
/// [`split_summary`](crate::split_summary)'s first part) show two different tables, as a crawl judges them
/// before it knows their host's frame: `Some((shared, columns))`, the columns the two share
/// and how many they have together, when each page has at least two and they share
/// less than half of them; then a crawl never joins the two pages.
#[must_use]
pub fn tables_differ(a: &[u32], b: &[u32]) -> Option<(usize, usize)> {
    marked_apart(&own_columns(a, None), b, COLUMNS, None)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A summary: columns `c`, columns below a flow of prose `p` and other paths `o` (path
    /// numbers), sorted.
    fn summary(c: &[u32], p: &[u32], o: &[u32]) -> Vec<u32> {
        let mut ids: Vec<u32> = c
            .iter()
            .map(|&n| n << 3 | 4)
            .chain(p.iter().map(|&n| n << 3 | 5))
            .chain(o.iter().map(|&n| n << 3))
            .collect();
        ids.sort_unstable();
        ids
    }

    fn check(a: (&[u32], &[u32]), b: (&[u32], &[u32]), different: bool) {
        let frame: &[u32] = &[100, 101, 102];
        let (a, b) = (summary(a.0, a.1, frame), summary(b.0, b.1, frame));
        assert_eq!(tables_differ(&a, &b).is_some(), different, "{a:?} {b:?}");
        assert_eq!(tables_differ(&b, &a).is_some(), different, "{b:?} {a:?}");
    }

    #[test]
    fn pages_with_other_tables_are_other_pages() {
        // A list of forums (forum, topics, messages, last message) and a list of topics
        // (subject, author, replies, last message): 1 of 7 shared.
        check((&[1, 2, 3, 4], &[]), (&[5, 6, 7, 4], &[]), true);
        assert_eq!(
            tables_differ(
                &summary(&[1, 2, 3, 4], &[], &[]),
                &summary(&[5, 6, 7, 4], &[], &[])
            ),
            Some((1, 7))
        );
        // A list that shows one field more or less: one table.
        check((&[1, 2, 3, 4], &[]), (&[1, 2, 3], &[]), false);
        check((&[1, 2], &[]), (&[1, 2, 3, 4], &[]), false);
        // A record that hides its empty keys: its keys all among the other's, one table
        // (2 of 6 shared); one key of its own and it is another table (1 of 7).
        check((&[1, 2], &[]), (&[1, 2, 3, 4, 5, 6], &[]), false);
        check((&[1, 7], &[]), (&[1, 2, 3, 4, 5, 6], &[]), true);
        // One column (a file's name above its lines) or none decides nothing.
        check((&[1], &[]), (&[5, 6, 7], &[]), false);
        check((&[], &[]), (&[5, 6, 7], &[]), false);
        // An article's tables (below a flow of prose) are its content, not a list.
        check((&[], &[1, 2]), (&[], &[5, 6]), false);
        check((&[1, 2], &[3]), (&[], &[5, 6]), false);
    }

    #[test]
    fn the_frames_tables_are_no_pages_own() {
        // Five representatives with a table of the frame's (columns 90 to 93).
        let frame_columns: &[u32] = &[90, 91, 92, 93];
        let mut frame = Frame::default();
        for other in 0..5u32 {
            frame.learn(&summary(frame_columns, &[], &[100, 101, 200 + other]));
        }
        let a = summary(&[90, 91, 92, 93, 1, 2], &[], &[100, 101]);
        let b = summary(&[90, 91, 92, 93, 3, 4], &[], &[100, 101]);
        // Without the frame the two share half their columns: one table.
        assert!(tables_differ(&a, &b).is_none());
        let mine = own_columns(&a, Some(&frame));
        assert_eq!(mine, vec![1 << 3 | 4, 2 << 3 | 4]);
        assert!(different_tables(&mine, &b, Some(&frame)));
        // A page whose only table is the frame's has none of its own.
        let c = summary(frame_columns, &[], &[100, 101, 5]);
        assert!(own_columns(&c, Some(&frame)).is_empty());
        assert!(!different_tables(&mine, &c, Some(&frame)));
    }

    proptest! {
        /// Symmetric; never when either page has fewer than two columns of its own or one's
        /// columns all lie among the other's; always for two tables with no column in common.
        #[test]
        fn different_tables_is_symmetric_and_bounded(
            ca in prop::collection::btree_set(0u32..12, 0..6),
            cb in prop::collection::btree_set(0u32..12, 0..6),
            other in prop::collection::btree_set(100u32..110, 0..6),
        ) {
            let (ca, cb): (Vec<u32>, Vec<u32>) = (ca.into_iter().collect(), cb.into_iter().collect());
            let other: Vec<u32> = other.into_iter().collect();
            let (a, b) = (summary(&ca, &[], &other), summary(&cb, &[], &other));
            let ab = tables_differ(&a, &b);
            prop_assert_eq!(ab, tables_differ(&b, &a));
            let contained = ca.iter().all(|c| cb.contains(c)) || cb.iter().all(|c| ca.contains(c));
            if ca.len() < MIN_COLUMNS || cb.len() < MIN_COLUMNS || contained {
                prop_assert!(ab.is_none());
            } else if ca.iter().all(|c| !cb.contains(c)) {
                prop_assert_eq!(ab, Some((0, ca.len() + cb.len())));
            }
        }
    }
}
