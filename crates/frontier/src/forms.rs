//! Forms as structure: what a user fills in tells one kind of page from another.
//!
//! Two pages of a web application can share a heavy frame and one markup for their forms (a
//! preferences area with one panel per tab, a login form and an account form) and differ
//! only in the fields their form asks for. Most of both path sets is then the frame and the
//! form's container, and their Jaccard similarity stays above `min-similarity`, whether or
//! not the pages are mostly frame (`frame.rs`). The fields are marked in a page's summary
//! (the id's second bit, `PathSet::FIELD`; a field's label holds its `name`
//! and `type`); hidden fields are not marked, as they carry state (a token, the query a
//! branch switcher keeps), not what the user fills in.
//!
//! Two pages that each hold at least [`MIN_FIELDS`] visible fields of their own (not the
//! host's frame: a search box in every page's header is no page's form) and share less than
//! [`SHARED`] of them (Jaccard) hold two different forms: they are two kinds of page,
//! however alike the rest is, and the confirmation does not join them. A page whose form
//! shares most fields with the other's (one more option, one less) is not told apart, and a
//! page without a field of its own is compared as before.
//!
//! A page with [`LONE_FIELDS`] field of its own is another form than a page with two or more
//! only when the other page has none of it: a form's fields are paths, and two checkboxes of
//! one name are one path, as is a submit button where the header's search button is (one
//! label at one level), so a roadmap's two-checkbox filter has one field of its own beside
//! a milestone page's two, none of them shared (a held-out Trac lost its milestone page to
//! its roadmap on two hash seeds of three; ALGORITHM.md §3, "Session 49"). A page's one
//! field that the other page's form holds too (a search box beside an advanced search)
//! decides nothing.
//!
//! A page with [`MIN_FIELDS`] visible fields of its own or more and a page without any, mostly
//! its host's frame (`frame.rs`), are two kinds as well: a password-reset form and an empty
//! basket are the shop's frame with a form and the frame with a line of text, 0.76 alike on
//! all paths, and the empty page holds too little of its own for the blocks of each to tell
//! them apart (`blocks.rs`; a held-out Django Oscar shop lost its password-reset form so,
//! ALGORITHM.md §3, "Session 66"). A page with a form only sometimes (a product's
//! add-to-basket form, shown while it is in stock) is compared as before: a product page
//! is not mostly frame.
//!
//! So are a page and the same page with a form more (`form_beside_none`, session 69): one
//! page holds [`MIN_FIELDS`] visible fields or more that the other lacks, and the other holds
//! no field and fewer than `frame::MIN_NEW` other paths that the first lacks, the host's
//! frame and the paths learned to vary aside. An application's page of one line of text
//! (an object's empty history) and its password form share a sidebar the host's frame does
//! not hold (it is on three in four of its pages), 0.87 alike; a forum's comment form is its
//! topic form less a title and a category, 0.94 alike. Neither holds enough of its own for
//! the blocks of each to tell them apart. A product page out of stock, without its
//! add-to-basket form, is another kind than one in stock under this rule, when it holds
//! nothing else of its own.
//!
//! A form whose field names carry the page's item (`rate-<slug>`) would make every page of
//! one template another form. So the rule holds only until its host has kept [`MAX_FORMS`]
//! pages with a form of their own (counted as representatives are made, in judging order,
//! so a resume, a replay and a shared crawl's replicas count the same): at most that many
//! pages more than without it, per host.
//!
//! The comparison reads only a mark, not what it marks ([`own_marked`], [`marked_apart`]):
//! `tables.rs` applies the same rule to a table's columns.

use crate::frame::Frame;
use crate::same::path;

/// Fewer visible fields of its own than this on both pages, and their forms decide nothing:
/// one field is a search box or a button (a page with one is told only from a form of this
/// many that lacks it, [`LONE_FIELDS`]).
pub(crate) const MIN_FIELDS: usize = 2;

/// A page with this many visible fields of its own (and fewer than [`MIN_FIELDS`]) holds a
/// form other than a page with at least [`MIN_FIELDS`] only if the other page has none of
/// them (see the module docs).
pub(crate) const LONE_FIELDS: usize = 1;

/// Two pages' own fields must share at least this share of them (Jaccard) to be one form:
/// less than half, and the forms ask for different things.
pub(crate) const SHARED: f64 = 0.5;

/// Once a host has kept this many pages (representatives) with a form of their own, its
/// forms tell no more kinds apart (see the module docs). Held-out applications keep 6
/// (cgit), 12 (MediaWiki), 16 (Trac) and 38 (Redmine, whose list pages each have a filter
/// form: at 32 it lost the two kinds the rule had found).
pub(crate) const MAX_FORMS: u32 = 64;

/// Whether summary id `id` is the path of a visible form field (its second bit,
/// `silhouette_dom::PathSet::summary`).
pub(crate) const fn is_field(id: u32) -> bool {
    id & 2 == 2
}

/// Whether `id` is a marked path of the page's own (`marked`: a field, a table's column), and
/// not the host's frame.
fn own(id: u32, marked: fn(u32) -> bool, frame: Option<&Frame>) -> bool {
    marked(id) && !frame.is_some_and(|f| f.is_frame(id))
}

/// The paths marked by `marked` of a page with `summary` (sorted, distinct ids) that are its
/// own, given its host's `frame`: increasing.
pub(crate) fn own_marked(
    summary: &[u32],
    marked: fn(u32) -> bool,
    frame: Option<&Frame>,
) -> Vec<u32> {
    summary
        .iter()
        .copied()
        .filter(|&id| own(id, marked, frame))
        .collect()
}

/// Whether a page with `summary` holds at least `min` paths marked by `marked` of its own,
/// given its host's `frame` ([`own_marked`]'s, counted without collecting them).
pub(crate) fn holds_own_marked(
    summary: &[u32],
    marked: fn(u32) -> bool,
    frame: Option<&Frame>,
    min: usize,
) -> bool {
    min == 0
        || summary
            .iter()
            .filter(|&&id| own(id, marked, frame))
            .nth(min - 1)
            .is_some()
}

/// The visible fields of its own of a page with `summary` (sorted, distinct ids), given its
/// host's `frame`: increasing.
pub(crate) fn own_fields(summary: &[u32], frame: Option<&Frame>) -> Vec<u32> {
    own_marked(summary, is_field, frame)
}

/// Whether, of a page whose own fields are `mine` ([`own_fields`]), mostly its host's
/// `frame` or not (`mine_mostly`), and a page with summary `theirs`, one holds a form of its
/// own ([`MIN_FIELDS`] fields or more) and the other, mostly frame, no field of its own (see
/// the module docs). Symmetric.
pub(crate) fn form_against_none(
    mine: &[u32],
    mine_mostly: bool,
    theirs: &[u32],
    frame: &Frame,
) -> bool {
    let their_fields = theirs
        .iter()
        .filter(|&&id| own(id, is_field, Some(frame)))
        .take(MIN_FIELDS)
        .count();
    if mine.len() >= MIN_FIELDS {
        their_fields == 0 && frame.mostly_frame(theirs)
    } else {
        mine.is_empty() && mine_mostly && their_fields >= MIN_FIELDS
    }
}

/// Whether one of two pages with summaries `a` and `b` (sorted, distinct ids) is the other
/// with a form more: the other holds [`MIN_FIELDS`] visible fields or more that it lacks,
/// and it holds no field and fewer than [`MIN_NEW`](crate::frame::MIN_NEW) other paths that
/// the other lacks, the paths `skip` names (the host's frame, the paths learned to vary)
/// left out (see the module docs). Symmetric.
pub(crate) fn form_beside_none(a: &[u32], b: &[u32], skip: impl Fn(u32) -> bool) -> bool {
    // Of the paths only one page holds, not skipped: (fields, other paths) of each.
    let (mut only_a, mut only_b) = ((0usize, 0usize), (0usize, 0usize));
    let count = |side: &mut (usize, usize), id: u32| {
        if !skip(id) {
            if is_field(id) {
                side.0 += 1;
            } else {
                side.1 += 1;
            }
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if path(x) == path(y) => {
                i += 1;
                j += 1;
            }
            (Some(&x), Some(&y)) if path(x) < path(y) => {
                count(&mut only_a, x);
                i += 1;
            }
            (Some(&x), None) => {
                count(&mut only_a, x);
                i += 1;
            }
            (_, Some(&y)) => {
                count(&mut only_b, y);
                j += 1;
            }
            (None, None) => break,
        }
    }
    let inside = |small: (usize, usize), big: (usize, usize)| {
        big.0 >= MIN_FIELDS && small.0 == 0 && small.1 < crate::frame::MIN_NEW
    };
    inside(only_a, only_b) || inside(only_b, only_a)
}

/// Whether a page whose own fields are `mine` ([`own_fields`]) and a page with summary
/// `theirs` hold two different forms (see the module docs). Symmetric.
pub(crate) fn different_forms(mine: &[u32], theirs: &[u32], frame: Option<&Frame>) -> bool {
    marked_apart(mine, theirs, FIELDS, frame).is_some()
}

/// Which paths [`marked_apart`] compares and how many of them a page needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Marks {
    /// Whether a summary id is one of them.
    pub(crate) marked: fn(u32) -> bool,
    /// Each page holds at least this many of its own, or the rule says nothing...
    pub(crate) min: usize,
    /// ... but for a page with at least this many (1 to `min`) whose marked paths the
    /// other page, with at least `min`, has none of.
    pub(crate) lone: usize,
    /// Whether a page whose marked paths all lie among the other's is never apart from it
    /// (a table with some columns or keys hidden is the same table).
    pub(crate) contained: bool,
}

/// A form's visible fields ([`different_forms`]).
const FIELDS: Marks = Marks {
    marked: is_field,
    min: MIN_FIELDS,
    lone: LONE_FIELDS,
    contained: false,
};

/// Whether a page whose own marked paths are `mine` ([`own_marked`]) and a page with
/// summary `theirs` hold two different sets of them: each has at least `marks.min` of its
/// own (or one has at least `marks.lone`, the other at least `marks.min`, and they share
/// none) and they share less than [`SHARED`] of them (Jaccard); then the marked paths the
/// two share and their union.
pub(crate) fn marked_apart(
    mine: &[u32],
    theirs: &[u32],
    Marks {
        marked,
        min,
        lone,
        contained,
    }: Marks,
    frame: Option<&Frame>,
) -> Option<(usize, usize)> {
    if mine.len() < lone {
        return None;
    }
    let (mut count, mut both, mut i) = (0usize, 0usize, 0usize);
    for &id in theirs.iter().filter(|&&id| own(id, marked, frame)) {
        count += 1;
        while mine.get(i).is_some_and(|&m| path(m) < path(id)) {
            i += 1;
        }
        if mine.get(i).is_some_and(|&m| path(m) == path(id)) {
            both += 1;
            i += 1;
        }
    }
    let (fewer, more) = (mine.len().min(count), mine.len().max(count));
    if fewer < lone || more < min || (fewer < min && both > 0) || (contained && both == fewer) {
        return None;
    }
    let union = mine.len() + count - both;
    #[allow(clippy::cast_precision_loss, reason = "field counts far below 2^52")]
    let alike = both as f64 / union as f64;
    (alike < SHARED).then_some((both, union))
}

/// Whether two pages with structure summaries `a` and `b` (their paths:
/// [`split_summary`](crate::split_summary)'s first part) hold two different forms, as a crawl judges them
/// before it knows their host's frame: `Some((shared, fields))`, the visible fields the two
/// forms share and how many they have together, when each page has at least two visible
/// fields and they share less than half of them, or one has a single field and the other at
/// least two, none of them shared; then a crawl never joins the two pages.
#[must_use]
pub fn forms_differ(a: &[u32], b: &[u32]) -> Option<(usize, usize)> {
    marked_apart(&own_fields(a, None), b, FIELDS, None)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Field ids: path number `n` as a field's summary id (second bit set).
    fn fields(ns: &[u32]) -> Vec<u32> {
        ns.iter().map(|&n| n << 4 | 2).collect()
    }

    /// A summary: fields `f` and other paths `o` (path numbers), sorted.
    fn summary(f: &[u32], o: &[u32]) -> Vec<u32> {
        let mut ids: Vec<u32> = fields(f)
            .into_iter()
            .chain(o.iter().map(|&n| n << 4))
            .collect();
        ids.sort_unstable();
        ids
    }

    fn check(a: (&[u32], &[u32]), b: (&[u32], &[u32]), different: bool) {
        let (a, b) = (summary(a.0, a.1), summary(b.0, b.1));
        let got = different_forms(&own_fields(&a, None), &b, None);
        assert_eq!(got, different, "{a:?} {b:?}");
    }

    #[test]
    fn forms_that_ask_for_other_things_are_other_pages() {
        let frame: &[u32] = &[100, 101, 102, 103, 104];
        // A login form (user, password) and an account form (user, email, password,
        // repeated password): 2 of 4 shared, one half: the same form grown.
        check((&[1, 2], frame), (&[1, 2, 3, 4], frame), false);
        // Two preference panels: nothing shared.
        check((&[1, 2, 3], frame), (&[4, 5, 6, 7], frame), true);
        // One field of each in common of five: a fifth.
        check((&[1, 2, 3], frame), (&[3, 4, 5], frame), true);
        // One option more: the same form.
        check((&[1, 2, 3, 4], frame), (&[1, 2, 3, 4, 5], frame), false);
        // A page without a field of its own decides nothing.
        check((&[], frame), (&[4, 5, 6], frame), false);
        check((&[4, 5, 6], frame), (&[], frame), false);
        // A page with one field of its own: another form than two or more it is not among
        // (a filter's checkboxes of one name beside a milestone's selector and button)...
        check((&[1], frame), (&[4, 5], frame), true);
        check((&[4, 5, 6], frame), (&[1], frame), true);
        // ... but not one they hold too (a search box beside an advanced search), and two
        // pages of one field each decide nothing.
        check((&[4], frame), (&[4, 5, 6], frame), false);
        check((&[4, 5, 6], frame), (&[6], frame), false);
        check((&[1], frame), (&[2], frame), false);
    }

    /// A host's frame (paths 100..140 on five representatives, each with a path of its
    /// own), and whether a page with fields `a.0` and other paths `a.1` and one with `b`
    /// are a form against none: `expected` both ways.
    fn check_none(a: (&[u32], &[u32]), b: (&[u32], &[u32]), expected: bool) {
        let mut frame = Frame::default();
        for k in 0..5 {
            frame.learn(&summary(
                &[],
                &(100..140).chain([900 + k]).collect::<Vec<u32>>(),
            ));
        }
        let (a, b) = (summary(a.0, a.1), summary(b.0, b.1));
        for (x, y) in [(&a, &b), (&b, &a)] {
            let mine = own_fields(x, Some(&frame));
            let got = form_against_none(&mine, frame.mostly_frame(x), y, &frame);
            assert_eq!(got, expected, "{x:?} {y:?}");
        }
    }

    #[test]
    fn a_form_of_its_own_against_a_frame_alone_is_another_page() {
        let frame: Vec<u32> = (100..140).collect();
        let with = |own: &[u32]| -> Vec<u32> { frame.iter().chain(own).copied().collect() };
        // A password-reset form (an email field and a button, a line of help) against an
        // empty basket (a line of text): the frame with a form, the frame alone.
        check_none((&[1, 2], &with(&[3])), (&[], &with(&[4])), true);
        // A form of one field is a search box: nothing decided.
        check_none((&[1], &with(&[3])), (&[], &with(&[4])), false);
        // The page without a form holds much of its own (an out-of-stock product's page
        // beside an in-stock one's, with its add-to-basket form): compared as before.
        let product: Vec<u32> = (500..530).collect();
        check_none((&[1, 2], &with(&product)), (&[], &with(&product)), false);
        // Both with forms: `different_forms` decides, not this.
        check_none((&[1, 2], &with(&[3])), (&[5, 6], &with(&[4])), false);
        // Fields of the frame (a header's search box) are no page's form.
        let mut frame_with_box = Frame::default();
        for k in 0..5 {
            frame_with_box.learn(&summary(&[1, 2], &[&frame[..], &[900 + k]].concat()));
        }
        let (a, b) = (summary(&[1, 2], &with(&[3])), summary(&[], &with(&[4])));
        let mine = own_fields(&a, Some(&frame_with_box));
        assert!(!form_against_none(
            &mine,
            frame_with_box.mostly_frame(&a),
            &b,
            &frame_with_box
        ));
    }

    #[test]
    fn one_column_of_its_own_still_decides_nothing_for_tables() {
        // The forms' lone field does not reach tables: a page with one column of its own
        // (a file's name above its lines) is compared as before.
        let columns = |ns: &[u32]| -> Vec<u32> {
            let mut ids: Vec<u32> = ns.iter().map(|&n| n << 3 | 4).collect();
            ids.sort_unstable();
            ids
        };
        let (one, three) = (columns(&[1]), columns(&[4, 5, 6]));
        assert!(!crate::tables::different_tables(&one, &three, None));
        assert!(!crate::tables::different_tables(&three, &one, None));
        assert!(crate::tables::different_tables(
            &columns(&[1, 2]),
            &three,
            None
        ));
    }

    #[test]
    fn the_frames_fields_are_no_pages_form() {
        // Five representatives all with a search form (fields 90, 91): the frame's.
        let mut frame = Frame::default();
        for other in 0..5u32 {
            frame.learn(&summary(&[90, 91], &[100, 101, 200 + other]));
        }
        let a = summary(&[90, 91, 1, 2], &[100, 101]);
        let b = summary(&[90, 91, 3, 4], &[100, 101]);
        // Without the frame the search form is half of each page's fields: 2 of 6.
        assert!(different_forms(&own_fields(&a, None), &b, None));
        assert_eq!(own_fields(&a, Some(&frame)), fields(&[1, 2]));
        assert!(different_forms(
            &own_fields(&a, Some(&frame)),
            &b,
            Some(&frame)
        ));
        // A page whose only form is the frame's search box has no form of its own.
        let c = summary(&[90, 91], &[100, 101, 5]);
        assert!(!different_forms(
            &own_fields(&c, Some(&frame)),
            &a,
            Some(&frame)
        ));
        assert!(!different_forms(
            &own_fields(&a, Some(&frame)),
            &c,
            Some(&frame)
        ));
    }

    /// Whether `a` and `b` (fields, other paths) are a page and the same page with a form
    /// more, paths from 100 on the frame.
    fn check_beside(a: (&[u32], &[u32]), b: (&[u32], &[u32]), expected: bool) {
        let (a, b) = (summary(a.0, a.1), summary(b.0, b.1));
        let frame = |id: u32| id >> 4 >= 100;
        assert_eq!(form_beside_none(&a, &b, frame), expected, "{a:?} {b:?}");
        assert_eq!(form_beside_none(&b, &a, frame), expected, "{b:?} {a:?}");
    }

    #[test]
    fn a_page_and_the_same_page_with_a_form_more_are_two() {
        // A sidebar the frame lacks (1..=9, its filter box field 9), a line of text (20)
        // against the sidebar and a password form (fields 30..=32, its rows 33, 34).
        let sidebar: Vec<u32> = (1..=8).chain([100, 101]).collect();
        let text: Vec<u32> = sidebar.iter().copied().chain([20]).collect();
        let form: Vec<u32> = sidebar.iter().copied().chain([33, 34]).collect();
        check_beside((&[9], &text), (&[9, 30, 31, 32], &form), true);
        // Two lines of text of its own: still inside the other (fewer than `MIN_NEW`).
        let two: Vec<u32> = text.iter().copied().chain([21]).collect();
        check_beside((&[9], &two), (&[9, 30, 31, 32], &form), true);
        // Three paths of its own: a page of its own, judged as before.
        let three: Vec<u32> = two.iter().copied().chain([22]).collect();
        check_beside((&[9], &three), (&[9, 30, 31, 32], &form), false);
        // A field of its own too: two forms, judged as forms are.
        check_beside((&[9, 40], &text), (&[9, 30, 31, 32], &form), false);
        // One field more is no form (a search box, a button).
        check_beside((&[9], &text), (&[9, 30], &form), false);
        // The frame's fields and paths decide nothing.
        check_beside((&[9, 100], &text), (&[9, 30, 31, 32], &form), true);
        let framed: Vec<u32> = text.iter().copied().chain([102, 103, 104]).collect();
        check_beside((&[9], &framed), (&[9, 30, 31, 32], &form), true);
        // The same page: nothing more on either side.
        check_beside((&[9, 30, 31], &form), (&[9, 30, 31], &form), false);
    }

    proptest! {
        /// Symmetric; never when either page has no field of its own, when neither has two,
        /// for one form, or when a page's one field is the other's too; always for two
        /// forms with no field in common of which one has two fields or more.
        #[test]
        fn different_forms_is_symmetric_and_bounded(
            fa in prop::collection::btree_set(0u32..12, 0..6),
            fb in prop::collection::btree_set(0u32..12, 0..6),
            other in prop::collection::btree_set(100u32..110, 0..6),
        ) {
            let (fa, fb, other): (Vec<u32>, Vec<u32>, Vec<u32>) = (
                fa.into_iter().collect(),
                fb.into_iter().collect(),
                other.into_iter().collect(),
            );
            let (a, b) = (summary(&fa, &other), summary(&fb, &other));
            let ab = different_forms(&own_fields(&a, None), &b, None);
            let ba = different_forms(&own_fields(&b, None), &a, None);
            prop_assert_eq!(ab, ba);
            let disjoint = fa.iter().all(|f| !fb.contains(f));
            let lone = fa.len().min(fb.len()) < MIN_FIELDS;
            if fa.is_empty()
                || fb.is_empty()
                || fa.len().max(fb.len()) < MIN_FIELDS
                || fa == fb
                || (lone && !disjoint)
            {
                prop_assert!(!ab);
            } else if disjoint {
                prop_assert!(ab);
            }
        }
    }
}
