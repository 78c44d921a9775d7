//! The `class-paths` model's form fields in the summary (ALGORITHM.md §3, 2. and 11.): the
//! path of a field a user sees is marked, a hidden field's is not, and the fingerprint does
//! not read the mark.

mod support;

use proptest::prelude::*;
use silhouette_dom::PathSet;
use support::hash;

/// The marked (field) ids of a page's summary, and how many paths it has.
fn fields(html: &str) -> (Vec<u32>, usize) {
    let s = hash(html);
    let paths = s.profile.paths().expect("a class-paths profile");
    let summary = paths.summary();
    let marked = summary.iter().copied().filter(|id| id & 2 == 2).collect();
    (marked, paths.len())
}

fn page(form: &str) -> String {
    format!(
        "<!doctype html><title>t</title><div class=header><a href=/>home</a></div>\
         <main><h1>Settings</h1><form class=prefs method=post>{form}</form></main>"
    )
}

#[test]
fn visible_fields_are_marked_and_hidden_ones_are_not() {
    for (form, marked) in [
        ("", 0),
        ("<input name=user><input name=pass type=password>", 2),
        (
            "<input type=hidden name=token value=1><input type=HIDDEN name=b>",
            0,
        ),
        (
            "<input type=hidden name=token><select name=tz></select><textarea name=bio>\
             </textarea><button>Save</button><input type=submit value=Go>",
            4,
        ),
        // One label, one path: two text fields of one name are one marked path.
        ("<input name=q><input name=q>", 1),
    ] {
        let (ids, _) = fields(&page(form));
        assert_eq!(ids.len(), marked, "{form}");
    }
    // A page without a form has nothing marked, its header and headings included.
    assert!(
        fields("<h1>t</h1><p>text <a href=x>link</a></p>")
            .0
            .is_empty()
    );
}

#[test]
fn a_field_inside_an_inline_element_is_a_field() {
    // Nagios's command forms put every field in a `<b>` (`<td><b><INPUT NAME='host'></b>`);
    // an inline element adds nothing below it, but for the fields it holds. Outside the
    // main content and inside it, in a table's cell and in a paragraph.
    let legacy = |names: [&str; 2]| {
        format!(
            "<body><div class=box><table><tr><td>Host:</td><td><b><INPUT TYPE='TEXT' \
             NAME='{}'></b></td></tr><tr><td><span class=w><font><input type=checkbox \
             name={}></font></span></td></tr></table></div>",
            names[0], names[1]
        )
    };
    for html in [
        legacy(["host", "persistent"]),
        page("<p><b><input name=user></b> <span><input name=pass type=password></span></p>"),
        page("<div><strong><input name=user></strong><em><input name=pass></em></div>"),
    ] {
        assert_eq!(fields(&html).0.len(), 2, "{html}");
    }
    // Forms that ask for other fields are other paths; the same fields, the same paths.
    let (a, b) = (
        fields(&legacy(["host", "persistent"])).0,
        fields(&legacy(["host", "force"])).0,
    );
    assert_eq!(a.iter().filter(|id| b.contains(id)).count(), 1);
    assert_eq!(fields(&legacy(["host", "force"])).0, b);
}

#[test]
fn a_hidden_field_changes_no_mark_and_the_fingerprint_reads_none() {
    let visible = page("<input name=user><input name=pass type=password>");
    let with_hidden =
        page("<input name=user><input type=hidden name=t><input name=pass type=password>");
    assert_eq!(fields(&visible).0, fields(&with_hidden).0);
    // The mark lives in the stored level: the fingerprint and the path ids do not see it.
    let s = hash(&visible);
    let paths = s.profile.paths().expect("a class-paths profile");
    let unmarked = PathSet::from_paths(paths.seed(), paths.paths().collect());
    assert_eq!(unmarked.fingerprint(0.76), s.fingerprint);
    assert_ne!(unmarked.summary(), paths.summary());
}

#[test]
fn fields_below_the_depth_limit_are_marked_and_nothing_else_there_is_a_path() {
    // A widget toolkit's form (OOUI, a component library) nests each field in a dozen
    // wrappers: the fields still tell the page's form, the wrappers below the limit add no
    // path, as anywhere else.
    let deep = |fields: &str| {
        let wrap = "<div class=w>".repeat(14);
        page(&format!("{wrap}<span class=x><b>label</b></span>{fields}"))
    };
    let (shallow_ids, _) = fields(&page("<input name=user><input name=pass type=password>"));
    let (ids, paths) = fields(&deep("<input name=user><input name=pass type=password>"));
    assert_eq!((shallow_ids.len(), ids.len()), (2, 2));
    let (no_fields, paths_without) = fields(&deep(""));
    assert!(no_fields.is_empty());
    // The two fields are the only paths the deep form adds.
    assert_eq!(paths, paths_without + 2);
    // Other fields, other marks; a hidden field deep down is no path at all.
    let (other, _) = fields(&deep("<input name=query><select name=scope></select>"));
    assert_eq!(other.len(), 2);
    assert!(other.iter().all(|id| !ids.contains(id)));
    let (_, with_hidden) = fields(&deep("<input type=hidden name=token>"));
    assert_eq!(with_hidden, paths_without);
}

/// A field name's letter (digits in a name are normalised away, as in class tokens).
fn letter(i: u8) -> char {
    char::from(b'a' + i)
}

proptest! {
    /// However many fields of which kinds a form holds, the marked paths are its distinct
    /// visible fields; hidden ones add paths but never marks.
    #[test]
    fn marks_are_the_distinct_visible_fields(
        visible in prop::collection::vec((0u8..5, 0u8..3), 0..8),
        hidden in prop::collection::vec(0u8..5, 0..4),
    ) {
        let kinds = ["text", "password", "checkbox"];
        let mut form = String::new();
        for &(name, kind) in &visible {
            form.push_str(&format!("<input name=f{} type={}>", letter(name), kinds[usize::from(kind)]));
        }
        for &name in &hidden {
            form.push_str(&format!("<input type=hidden name=h{}>", letter(name)));
        }
        let distinct: std::collections::BTreeSet<(u8, u8)> = visible.iter().copied().collect();
        let (ids, _) = fields(&page(&form));
        prop_assert_eq!(ids.len(), distinct.len());
        let without_hidden = {
            let mut f = String::new();
            for &(name, kind) in &visible {
                f.push_str(&format!("<input name=f{} type={}>", letter(name), kinds[usize::from(kind)]));
            }
            f
        };
        prop_assert_eq!(fields(&page(&without_hidden)).0, ids);
    }
}
