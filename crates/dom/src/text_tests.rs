//! Main-content text: selection, block boundaries, hidden text, bounds, and that collecting
//! it leaves the structure alone.

use proptest::prelude::*;

use crate::{HasherConfig, Limits, Structure, StructureHasher};

fn hash(html: &str, max_text_bytes: usize) -> Structure {
    let limits = Limits {
        max_text_bytes,
        ..Limits::default()
    };
    let hasher = StructureHasher::new(HasherConfig {
        limits,
        ..HasherConfig::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    hasher
        .hash(html.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn text(html: &str) -> String {
    hash(html, 1 << 20).text.unwrap_or_default()
}

fn check(html: &str, expected: &str) {
    assert_eq!(text(html), expected, "text of {html:?}");
}

#[test]
fn main_content_and_blocks() {
    let chrome = "<header>Site</header><nav><a href=/>Home</a></nav>";
    let foot = "<aside>Ads</aside><footer>(c) 2026</footer>";
    let cases: &[(&str, &str)] = &[
        ("", ""),
        (
            "<p>hello <b>wor</b>ld</p><p>again</p>",
            "hello world\nagain",
        ),
        (&format!("{chrome}<p>Body text</p>{foot}"), "Body text"),
        (
            &format!("{chrome}<main><p>One</p><header>Kept</header></main>{foot}"),
            "One\nKept",
        ),
        (
            &format!("<div>Menu</div><div role=main><p>A</p></div>{foot}"),
            "A",
        ),
        ("<div>x</div><div role='MAIN other'>B</div>", "B"),
        (
            "<p>intro</p><article>One<article>nested</article></article><article>Two</article>",
            "One\nnested\nTwo",
        ),
        (
            "<p>a<script>var x = '<p>';</script><style>p{}</style><noscript>js</noscript>\
             <template>t</template>b</p><title>T</title>",
            "ab",
        ),
        (
            "<ul><li>one<li>two</ul><table><tr><td>a<td>b</table>",
            "one\ntwo\na\nb",
        ),
        (
            "<h1>Title</h1>text<br>more  \n spaced\u{a0}out",
            "Title\ntext\nmore spaced out",
        ),
        ("<pre>line 1\nline 2</pre>", "line 1 line 2"),
        (
            "<p>caf\u{e9} &amp; \u{65e5}\u{672c}</p>",
            "caf\u{e9} & \u{65e5}\u{672c}",
        ),
        ("<table>foster<tr><td>cell</table>", "foster\ncell"),
        ("<frameset><frame></frameset>", ""),
    ];
    for (html, expected) in cases {
        check(html, expected);
    }
}

#[test]
fn off_by_default_and_bounded() {
    assert_eq!(hash("<p>x</p>", 0).text, None);
    let page = format!("<p>{}</p>", "word ".repeat(100_000));
    let s = hash(&page, 1000);
    let t = s.text.unwrap_or_default();
    assert!(t.len() <= 1000 && t.len() > 990, "{}", t.len());
    assert!(s.text_truncated);
    // A multi-byte character is never cut.
    let s = hash(&format!("<p>{}</p>", "\u{65e5}".repeat(1000)), 100);
    assert_eq!(s.text.map(|t| t.len()), Some(99));
}

#[test]
fn hostile_inputs_are_bounded() {
    let cases = [
        "<div>".repeat(100_000),
        "<article>a".repeat(50_000),
        "<p role=main>".repeat(50_000),
        "\0\u{fffd}<p>\0".repeat(10_000),
        "x".repeat(2_000_000),
    ];
    for html in cases {
        let s = hash(&html, 4096);
        assert!(s.text.is_some_and(|t| t.len() <= 4096));
    }
}

proptest! {
    /// Collecting text never changes the structure.
    #[test]
    fn same_structure_with_text(html in "(<(p|div|table|td|b|main|script|nav) ?(role=main)?>|[a-z \n]{0,8}|</(p|b|td)>){0,40}") {
        let off = hash(&html, 0);
        let on = hash(&html, 1 << 20);
        prop_assert_eq!(off.fingerprint, on.fingerprint);
        prop_assert_eq!(off.elements, on.elements);
        prop_assert_eq!(off.truncated, on.truncated);
    }

    /// A paragraph's text is the same whatever precedes it (chunk independence): its line
    /// ends the page's text.
    #[test]
    fn chunk_independence(
        before in prop::collection::vec("[a-z]{1,6}( [a-z]{1,6}){0,4}", 0..5),
        para in "[a-z]{1,6}( [a-z]{1,6}){0,6}",
    ) {
        let mut html: String = before.iter().map(|p| format!("<p>{p}")).collect();
        html.push_str(&format!("<p>{para}</p>"));
        let t = text(&html);
        prop_assert_eq!(t.lines().last(), Some(para.as_str()));
        prop_assert_eq!(t.lines().count(), before.len() + 1);
    }
}

/// The main-content text of `html` with or without the white space that cannot reach it
/// (`TreeArena::space_is_moot`).
fn text_with(html: &str, drop_moot_space: bool) -> String {
    let mut arena = crate::tree::TreeArena::new(64, false);
    arena.drop_moot_space = drop_moot_space;
    let arena = crate::tokens::parse_text(arena, html);
    crate::text::main_text(&arena, 1 << 20).0
}

#[test]
fn moot_space_is_moot() {
    for html in [
        "<div><p>a</p>\n<span>b</span> <b>c</b></div>",
        "<span>a</span><nav>menu</nav>\n<span>b</span>",
        "<main><span>a</span><nav>menu</nav>\n<span>b</span></main>",
        "<table>\n<tr> <td>a</td>\n</tr> x <b>y</b> </table> z",
        "<p>a<br>\n<i>b</i></p>\n\n<ul>\n <li> c </li>\n</ul>",
        "<b><p>a</b> \n<i>b</i></p>",
    ] {
        assert_eq!(text_with(html, true), text_with(html, false), "{html:?}");
    }
}

proptest! {
    /// Leaving out white space after a line's end never changes the main-content text, in
    /// whatever tree the tree builder makes (tables, misnested formatting, chrome).
    #[test]
    fn moot_space_never_changes_the_text(pieces in prop::collection::vec(
        "<(p|div|span|b|i|a|table|tr|td|nav|main|article|br|li|ul|pre|select|option|h1|aside)>|</(p|div|span|b|i|a|table|tr|td|nav|main|li|ul|pre|select)>|[a-c]{1,3}|[ \n\t]{1,3}|<script>x</script>",
        0..40,
    )) {
        let html: String = pieces.concat();
        prop_assert_eq!(text_with(&html, true), text_with(&html, false), "{:?}", html);
    }
}
