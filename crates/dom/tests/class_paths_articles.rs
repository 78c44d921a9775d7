//! The `class-paths` model's article blocks (ALGORITHM.md §3, 16.): the paths below an
//! element of the main content (or of a flow of prose) that holds a bare paragraph itself,
//! but for the main content's own template blocks, are marked; the fingerprint does not
//! read the mark, and the profile keeps it.

mod support;

use silhouette_dom::Profile;
use support::{hash, paths};

/// The names of `html`'s paths marked as an article's blocks, in order, by the last steps
/// of each path (up to `steps`).
fn blocks(html: &str, steps: usize) -> Vec<String> {
    marked(html, steps, false)
}

/// The names of `html`'s paths marked as an article's blocks (and prose, with `prose`), in
/// order, by the last steps of each path (up to `steps`).
fn marked(html: &str, steps: usize, prose: bool) -> Vec<String> {
    let (s, names) = support::hasher()
        .explain(html.as_bytes(), None)
        .expect("explains");
    let set = paths(&s);
    let mut names: Vec<String> = names
        .iter()
        .filter(|p| set.is_article_block(p.id) && (p.prose || !prose))
        .map(|p| {
            let parts: Vec<&str> = p.name.split('/').collect();
            parts[parts.len().saturating_sub(steps)..].join("/")
        })
        .collect();
    names.sort();
    names
}

fn check(html: &str, expected: &[&str]) {
    assert_eq!(blocks(html, 2), expected, "{html:?}");
}

/// A Sphinx-like article: a sidebar with a paragraph, a main content of sections.
const ARTICLE: &str = "<div class=sidebar><p>Quick search</p><ul><li>a</li></ul></div>\
    <div role=main class=body><section><h1>T</h1><p>x</p>\
    <dl class=simple><dt>a</dt><dd>b</dd></dl>\
    <section><h2>S</h2><p>y</p><ul class=simple><li>c</li></ul></section></section></div>";

#[test]
fn what_an_author_puts_beside_a_paragraph_is_an_article_block() {
    // The sections' children and all below them; not the sidebar's (no main content, no
    // flow), not the section itself (a template block of the main content).
    check(
        ARTICLE,
        &[
            "dl.simple/dd",
            "dl.simple/dt",
            "section/dl.simple",
            "section/h1",
            "section/h2",
            "section/p",
            "section/p",
            "section/section",
            "section/ul.simple",
            "ul.simple/li",
        ],
    );
}

#[test]
fn a_template_block_beside_the_text_is_no_article_block() {
    // A wiki's diff view: the diff table beside the parsed text, in the main content.
    check(
        "<main><table class=diff><tr><td>-a</td></tr></table>\
         <div class=parsed><p>x</p><ul><li>c</li></ul></div></main>",
        &["div.parsed/p", "div.parsed/ul", "ul/li"],
    );
    // A page without paragraphs marks nothing.
    check(
        "<main><table class=list><tr><td>a</td></tr></table></main>",
        &[],
    );
}

#[test]
fn the_fingerprint_does_not_read_the_mark_and_the_profile_keeps_it() {
    let s = hash(ARTICLE);
    let set = paths(&s);
    let marked = set
        .ids()
        .iter()
        .filter(|&&id| set.is_article_block(id))
        .count();
    assert!(marked > 0);
    // The same paths and levels without the marks: the same fingerprint.
    let bare = silhouette_dom::PathSet::from_paths(set.seed(), set.paths().collect());
    assert_eq!(bare.fingerprint(0.76), set.fingerprint(0.76));
    // The summary's bit 8 marks them.
    assert_eq!(
        set.summary().iter().filter(|&&id| id & 8 == 8).count(),
        marked
    );
    // The profile keeps the marks; a profile without any reads back without them.
    let back = Profile::from_bytes(&s.profile.to_bytes()).expect("reads back");
    assert_eq!(back.paths(), Some(set));
    let plain = hash("<div class=menu><a href=/>home</a></div>");
    let bytes = plain.profile.to_bytes();
    assert_eq!(bytes[0], 2, "no marks: the earlier form");
    assert_eq!(
        Profile::from_bytes(&bytes).expect("reads back"),
        plain.profile
    );
}

#[test]
fn a_corrupt_list_of_marks_is_an_error() {
    let bytes = hash(ARTICLE).profile.to_bytes();
    assert_eq!(bytes[0], 3);
    for cut in 1..bytes.len() {
        assert!(Profile::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Profile::from_bytes(&longer).is_err());
}

fn check_body(html: &str, expected: &[&str]) {
    assert_eq!(marked(html, 2, true), expected, "{html:?}");
}

/// A hand-written manual page: the site's header, then the text right in `<body>`.
const HEADER: &str = "<div class=menu><ul><li><a href=/>home</a></li></ul></div>";

#[test]
fn the_text_a_body_holds_itself_is_prose_and_an_article() {
    // The paragraphs and what lies between the first and the last, and all below it; not
    // the header above them, nor its list (the `ul` path is the header's as well).
    check_body(
        &format!(
            "{HEADER}<p>x</p><h2>S</h2><blockquote><pre>code</pre></blockquote>\
             <p>z</p><ul><li>a</li></ul><p>y</p>"
        ),
        &["body/blockquote", "body/h2", "body/p", "body/pre"],
    );
    // A table or a form between the paragraphs is the template's: prose, no article's block
    // (a path is prose only where it always is, and a man page's table of options holds
    // paragraphs at the text's own path).
    let table = format!(
        "{HEADER}<p>x</p><table><tr><td><p>a</p></td></tr></table><h2>S</h2><p>z</p><p>y</p>"
    );
    // (The paragraph in its cell is at the text's paragraphs' path: no block either.)
    check_body(&table, &["body/h2"]);
    let (s, names) = support::hasher()
        .explain(table.as_bytes(), None)
        .expect("explains");
    let prose_only: Vec<&str> = names
        .iter()
        .filter(|p| p.prose && !paths(&s).is_article_block(p.id))
        .map(|p| p.name.rsplit('/').next().unwrap_or(""))
        .collect();
    assert_eq!(prose_only, ["p", "table", "tbody", "tr", "td"], "{names:?}");
}

#[test]
fn a_footer_line_is_no_text_of_the_body() {
    // One bare paragraph of its own (a footer's line): nothing marked.
    check_body(
        &format!("{HEADER}<h2>S</h2><ul><li>a</li></ul><p>y</p>"),
        &[],
    );
    // Paragraphs with a class are an application's lines, not text.
    check_body(
        &format!("{HEADER}<p class=msg>x</p><h2>S</h2><p class=msg>z</p><p class=msg>y</p>"),
        &[],
    );
    // A page with a main content: its own rules (`main-p=prose`, `amid=prose`).
    check_body(
        "<p>x</p><main><div class=list><a href=/>a</a></div></main><p>y</p>",
        &[],
    );
}

#[test]
fn the_body_text_marks_leave_the_fingerprint_alone() {
    // The same paths and levels without the marks: the same fingerprint.
    let page = format!("{HEADER}<p>x</p><h2>S</h2><p>z</p><p>y</p>");
    let s = hash(&page);
    let set = paths(&s);
    assert!(set.ids().iter().any(|&id| set.is_article_block(id)));
    let bare = silhouette_dom::PathSet::from_paths(set.seed(), set.paths().collect());
    assert_eq!(bare.fingerprint(0.76), set.fingerprint(0.76));
}

#[test]
fn what_lies_between_two_paragraphs_of_a_flow_is_an_article_block() {
    // A DocBook section page (no main content): the section is a flow of prose; the table
    // an author wrote between two of its paragraphs is the article's, and what lies below
    // it; the paragraphs and the heading around them are not (the flow's first element
    // marks none of its own), nor is a form between two paragraphs.
    let page = "<div class=navheader><a href=a>Prev</a></div>\
        <div class=section><h2>T</h2><p>One sentence of text here.</p>\
        <table><thead><tr><th>Name</th></tr></thead><tr><td>c</td></tr></table>\
        <form><input name=q></form>\
        <p>Another sentence of text.</p></div>";
    check(
        page,
        &[
            "div.section/table[columns]",
            "div.section/tbody",
            "div.section/td",
            "div.section/th",
            "div.section/thead",
            "div.section/tr",
        ],
    );
    // A table after the last paragraph lies between none: nothing is marked.
    let one = "<div class=navheader><a href=a>Prev</a></div>\
        <div class=section><h2>T</h2><p>One sentence of text here.</p><p>x</p>\
        <table><tr><td>c</td></tr></table></div>";
    check(one, &[]);
}
