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
    let (s, names) = support::hasher()
        .explain(html.as_bytes(), None)
        .expect("explains");
    let set = paths(&s);
    let mut names: Vec<String> = names
        .iter()
        .filter(|p| set.is_article_block(p.id))
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
